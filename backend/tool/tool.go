// Package tool is the registry every face of Rooted serves from: a tool is declared once (name, description,
// input struct, effects) and the registry derives its JSON schema, validates input against it, runs it and turns
// any failure into an *Error with a stable code.
//
// Guarantees: a handler only ever sees input that passed schema validation (required fields present, types right,
// no unknown fields, declared bounds met). The registry never panics out to a caller: a panicking handler becomes
// an "internal" error.
//
// Not guaranteed: semantic checks (does a path exist?) are the handler's job.
package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Spec is what callers learn about a tool. It is the same for the Wails UI, the LLM, the CLI and MCP.
type Spec struct {
	Name        string             `json:"name"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	InputSchema *jsonschema.Schema `json:"input_schema"`
	// OutputSchema describes the result's JSON (MCP's outputSchema); a field the text form carries whole (TextCarries)
	// is optional in it, since MCP's structuredContent leaves it to the text block.
	OutputSchema *jsonschema.Schema `json:"output_schema"`
	// ReadOnly tools never change the project; the agent runs them without asking.
	ReadOnly bool `json:"read_only"`
	// Destructive tools may overwrite or delete what the user had (MCP's destructiveHint).
	Destructive bool `json:"destructive"`
	// Idempotent tools have no extra effect when repeated with the same input.
	Idempotent bool `json:"idempotent"`
	// Examples are valid inputs; a test validates each against the schema.
	Examples []json.RawMessage `json:"examples,omitempty"`
	// TextCarries are the result fields its text form carries whole (Def.TextCarries).
	TextCarries []string `json:"text_carries,omitempty"`
	// Narrow says how to ask for less when a client's cap cuts the text form (Def.Narrow).
	Narrow string `json:"-"`
}

// Def is what a tool author writes; New fills in the schema.
type Def struct {
	Name, Title, Description string
	ReadOnly, Destructive    bool
	Idempotent               bool
	Examples                 []string
	// TextCarries names the result's top-level fields that its text form carries whole (read_file's content): where
	// a client receives both forms (MCP), the structured one leaves them out rather than send them twice.
	TextCarries []string
	// Narrow is what the closing line of a text form cut to a client's cap advises ("pass path to diff one
	// file"), for a result that does not cut itself (Fitter).
	Narrow string
	// Offered, when set, says whether the tool is listed now (Registry.Specs, Names): a tool that cannot work
	// without a setting (web_search's endpoint) is left out of every list until the user makes it, so no model
	// is offered it. Lookup still finds it: a direct call gets the tool's own error saying what to set.
	Offered func() bool
}

// Tool is a declared tool, ready to run.
type Tool struct {
	spec Spec // without InputSchema, which schema derives when first asked for
	// schema derives the input schema from In by reflection, and resolved prepares it for validation, each once and
	// only when asked: a CLI call needs one tool's, rooted tools needs every schema but no validation, and the
	// reflection over every tool at start-up was most of what rooted spent before its command ran.
	schema   func() *jsonschema.Schema
	resolved func() *jsonschema.Resolved
	output   func() *jsonschema.Schema
	// lists are the top-level fields of type StringList, which take a single string too.
	lists []string
	run   func(ctx context.Context, raw []byte) (any, error)
	// decode reads a result back from its JSON, for the text form of a result the window holds.
	decode func(raw []byte) (any, error)
	// foreign tools have a schema from elsewhere (Foreign): only the schema library checks their arguments.
	foreign bool
	// offered is Def.Offered (nil: always listed).
	offered func() bool
}

// listed says whether the registry lists the tool now (Def.Offered).
func (t *Tool) listed() bool { return t.offered == nil || t.offered() }

// Spec returns the tool's public description.
func (t *Tool) Spec() Spec {
	s := t.spec
	s.InputSchema = t.schema()
	s.OutputSchema = t.output()
	return s
}

// New declares a tool whose input is In and whose result is Out. The schema comes from In's json and jsonschema
// tags, plus an optional `tool:"..."` tag with comma-separated constraints: nonempty (strings, arrays), min=N, max=N,
// enum=a|b|c.
// It panics, when the schema is first needed, on a declaration the schema library rejects: that is a programming
// error caught by any test that lists the tools.
func New[In, Out any](d Def, fn func(ctx context.Context, in In) (Out, error)) *Tool {
	schema := sync.OnceValue(func() *jsonschema.Schema {
		schema, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
		if err != nil {
			panic(fmt.Sprintf("tool %s: schema: %v", d.Name, err))
		}
		applyConstraints(reflect.TypeFor[In](), schema)
		dropNullTypes(schema)
		return schema
	})
	resolved := sync.OnceValue(func() *jsonschema.Resolved {
		resolved, err := schema().Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s: resolve schema: %v", d.Name, err))
		}
		return resolved
	})
	output := sync.OnceValue(func() *jsonschema.Schema {
		schema, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
		if err != nil {
			panic(fmt.Sprintf("tool %s: output schema: %v", d.Name, err))
		}
		schema.Required = slices.DeleteFunc(schema.Required, func(name string) bool { return slices.Contains(d.TextCarries, name) })
		return schema
	})
	examples := make([]json.RawMessage, len(d.Examples))
	for i, e := range d.Examples {
		examples[i] = json.RawMessage(e)
	}
	return &Tool{
		spec: Spec{
			Name: d.Name, Title: d.Title, Description: strings.TrimSpace(d.Description),
			ReadOnly: d.ReadOnly, Destructive: d.Destructive, Idempotent: d.Idempotent || d.ReadOnly,
			Examples: examples, TextCarries: d.TextCarries, Narrow: d.Narrow,
		},
		output:   output,
		offered:  d.Offered,
		lists:    stringListFields(reflect.TypeFor[In]()),
		schema:   schema,
		resolved: resolved,
		run: func(ctx context.Context, raw []byte) (any, error) {
			var in In
			if err := json.Unmarshal(raw, &in); err != nil {
				return nil, Errorf(CodeInvalidArgument, "arguments: %v", err)
			}
			return fn(ctx, in)
		},
		decode: func(raw []byte) (any, error) {
			var out Out
			err := json.Unmarshal(raw, &out)
			return out, err
		},
	}
}

// Validate checks raw JSON arguments against the tool's schema and returns them normalised ({} for empty or null).
func (t *Tool) Validate(raw []byte) ([]byte, *Error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var v any
	if err := json.Unmarshal(elideLongStrings(raw), &v); err != nil {
		return nil, Errorf(CodeInvalidArgument, "arguments are not valid JSON: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, Errorf(CodeInvalidArgument, "arguments must be a JSON object, got %s", describe(v))
	}
	for _, name := range t.lists {
		if one, ok := obj[name].(string); ok {
			obj[name] = []any{one} // as StringList decodes it
		}
	}
	dropNulls(obj)
	if t.foreign {
		if e := t.validateForeign(v); e != nil {
			return nil, e
		}
		return raw, nil
	}
	if e := checkFields(t.schema(), obj); e != nil {
		return nil, e
	}
	if err := t.resolved().Validate(v); err != nil {
		return nil, Errorf(CodeInvalidArgument, "arguments do not match the schema of %s: %v", t.spec.Name, err)
	}
	return raw, nil
}

// dropNullTypes makes each ["null", T] that inference gives an optional pointer or slice field plain T: a type
// array makes Ajv's strict mode (Gemini CLI, Qwen Code) warn at every start, and an absent field already says what
// null would. Validate drops null fields, so a null from a model is still taken as absent.
func dropNullTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
	for _, p := range s.Properties {
		dropNullTypes(p)
	}
	dropNullTypes(s.Items)
}

// dropNulls removes the null fields of obj and of the objects in it, as absent ones.
func dropNulls(obj map[string]any) {
	for k, v := range obj {
		switch v := v.(type) {
		case nil:
			delete(obj, k)
		case map[string]any:
			dropNulls(v)
		case []any:
			for _, item := range v {
				if m, ok := item.(map[string]any); ok {
					dropNulls(m)
				}
			}
		}
	}
}

// stringListFields names t's top-level fields of type StringList.
func stringListFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type == reflect.TypeFor[StringList]() && name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// applyConstraints copies `tool:"..."` constraints into the schema so the model sees them and validation enforces them.
func applyConstraints(t reflect.Type, s *jsonschema.Schema) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		prop := s.Properties[name]
		if name == "" || name == "-" || prop == nil {
			continue
		}
		for c := range strings.SplitSeq(f.Tag.Get("tool"), ",") {
			key, val, _ := strings.Cut(strings.TrimSpace(c), "=")
			switch key {
			case "nonempty":
				one := 1
				if prop.Type == "array" {
					prop.MinItems = &one
				} else {
					prop.MinLength = &one
				}
			case "min", "max":
				n, err := strconv.ParseFloat(val, 64)
				if err != nil {
					panic(fmt.Sprintf("field %s: bad %s=%q", f.Name, key, val))
				}
				if key == "min" {
					prop.Minimum = &n
				} else {
					prop.Maximum = &n
				}
			case "enum":
				for v := range strings.SplitSeq(val, "|") {
					prop.Enum = append(prop.Enum, v)
				}
			case "":
			default:
				panic(fmt.Sprintf("field %s: unknown tool constraint %q", f.Name, key))
			}
		}
		elem := f.Type
		if elem.Kind() == reflect.Slice {
			elem = elem.Elem()
			if prop.Items != nil {
				applyConstraints(elem, prop.Items)
			}
			continue
		}
		applyConstraints(elem, prop)
	}
}
