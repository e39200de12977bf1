package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Classifier turns a handler's error into an *Error. Handlers return plain Go errors (fs errors, package
// sentinels); the package that wires tools to their dependencies knows how each maps to a code.
type Classifier func(err error) *Error

// Gate refuses a call before it runs (the user's deny rules for a whole tool), or returns nil.
type Gate func(name string) *Error

// Registry holds tools by name, in declaration order.
type Registry struct {
	tools    []*Tool
	byName   map[string]*Tool
	classify Classifier
	gate     Gate
	dynamic  []Dynamic
}

// WithGate returns the registry with every call checked by gate after its arguments are validated and before it
// runs: whichever face calls (the window, the model's loop, the CLI, MCP), a call gate refuses does not run.
func (r *Registry) WithGate(gate Gate) *Registry {
	r.gate = gate
	return r
}

// NewRegistry returns a registry of tools. It panics on a duplicate name, a programming error.
func NewRegistry(classify Classifier, tools ...*Tool) *Registry {
	r := &Registry{byName: make(map[string]*Tool, len(tools)), classify: classify}
	for _, t := range tools {
		if _, dup := r.byName[t.spec.Name]; dup {
			panic("tool: duplicate name " + t.spec.Name)
		}
		r.byName[t.spec.Name] = t
		r.tools = append(r.tools, t)
	}
	return r
}

// Specs lists every tool's spec in declaration order.
func (r *Registry) Specs() []Spec {
	specs := make([]Spec, 0, len(r.tools))
	for _, t := range r.all() {
		specs = append(specs, t.Spec())
	}
	return specs
}

// Lookup returns the named tool.
func (r *Registry) Lookup(name string) (*Tool, bool) {
	if t, ok := r.byName[name]; ok {
		return t, true
	}
	for _, d := range r.dynamic {
		if t, ok := d.DynamicTool(name); ok {
			return t, true
		}
	}
	return nil, false
}

// Names lists tool names in declaration order.
func (r *Registry) Names() []string {
	all := r.all()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.spec.Name
	}
	return names
}

// Call validates args against the named tool's schema, runs it, and returns its result as JSON. Every failure is
// an *Error; the result is nil exactly when the error is not.
func (r *Registry) Call(ctx context.Context, name string, args []byte) (result json.RawMessage, failure *Error) {
	res, failure := r.CallForms(ctx, name, args)
	if failure != nil {
		return nil, failure
	}
	return res.JSON(), nil
}

// Result is a call's result in its forms. Each form is encoded when first asked for, and once: a client that takes
// the text and the structured form (MCP) never pays for the whole JSON of a result that encodes itself.
type Result struct {
	value any
	tool  *Tool
	enc   *encoded
}

type encoded struct {
	once sync.Once
	json json.RawMessage
}

// JSON is what every face's JSON result is.
func (r Result) JSON() json.RawMessage {
	r.enc.once.Do(func() {
		if r.enc.json == nil {
			r.enc.json = r.value.(JSONAppender).AppendJSON(nil) // CallForms encoded every other result
		}
	})
	return r.enc.json
}

// Text is the result's text form, what a model reads.
func (r Result) Text() string {
	if t, ok := r.value.(Texter); ok {
		return t.ModelText()
	}
	return Generic(r.JSON())
}

// Structured is the JSON without the fields the text form carries whole (Def.TextCarries), for a client that
// receives both forms. It matches the tool's OutputSchema. A result that implements StructuredAppender encodes it
// itself; any other has the fields cut from its JSON, the rest of which is kept byte for byte.
func (r Result) Structured() json.RawMessage {
	if len(r.tool.spec.TextCarries) == 0 {
		return r.JSON()
	}
	if a, ok := r.value.(StructuredAppender); ok {
		return a.AppendStructured(nil)
	}
	return omitFields(r.JSON(), r.tool.spec.TextCarries)
}

// CallForms is Call returning the result in all its forms.
func (r *Registry) CallForms(ctx context.Context, name string, args []byte) (result Result, failure *Error) {
	t, ok := r.Lookup(name)
	if !ok {
		names := r.Names()
		slices.Sort(names)
		return Result{}, Errorf(CodeUnknownTool, "unknown tool %q; tools: %s", name, strings.Join(names, ", "))
	}
	args, failure = t.Validate(args)
	if failure != nil {
		return Result{}, failure
	}
	if r.gate != nil {
		if e := r.gate(name); e != nil {
			return Result{}, e
		}
	}
	defer func() {
		if p := recover(); p != nil {
			result, failure = Result{}, Errorf(CodeInternal, "tool %s panicked: %v\n%s", name, p, debug.Stack())
		}
	}()
	out, err := t.run(ctx, args)
	if err != nil {
		return Result{}, r.toError(err)
	}
	res := Result{value: out, tool: t, enc: &encoded{}}
	if _, ok := out.(JSONAppender); ok {
		return res, nil // encoded when asked for; it cannot fail
	}
	b, err := json.Marshal(out)
	if err != nil {
		return Result{}, Errorf(CodeInternal, "tool %s: encoding result: %v", name, err)
	}
	res.enc.json = b
	return res, nil
}

// TextOf is the text form of a result (or a wire-shaped error) the named tool returned as JSON. Fields the caller
// added that the tool's result does not have (the window adds a few) follow its text, one a line.
func (r *Registry) TextOf(name string, result []byte) string {
	if e, ok := ParseError(result); ok {
		return e.ModelText()
	}
	t, ok := r.Lookup(name)
	if !ok {
		return Generic(result)
	}
	v, err := t.decode(result)
	if err != nil {
		return Generic(result)
	}
	texter, ok := v.(Texter)
	if !ok {
		return Generic(result)
	}
	text := texter.ModelText()
	var extra, known map[string]json.RawMessage
	if json.Unmarshal(result, &extra) != nil {
		return text
	}
	if b, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(b, &known)
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, ok := known[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(text)
	for _, k := range keys {
		writeField(&b, k, extra[k])
	}
	return b.String()
}

func (r *Registry) toError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if r.classify != nil {
		if e := r.classify(err); e != nil {
			return e
		}
	}
	return &Error{Code: CodeInternal, Message: fmt.Sprint(err)}
}
