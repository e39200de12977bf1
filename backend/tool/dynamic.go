package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Dynamic is a source of tools known only while the program runs (another MCP server's, which come and go with
// it). The registry asks it after its declared tools, so a dynamic tool never shadows a declared one, and every
// call of one passes the registry's validation and gate as a declared tool's does.
type Dynamic interface {
	// DynamicTools lists the tools available now.
	DynamicTools() []*Tool
	// DynamicTool returns the named tool, starting what provides it first when it must (a lazily started server).
	DynamicTool(name string) (*Tool, bool)
}

// WithDynamic returns the registry with the tools of d added after its own.
func (r *Registry) WithDynamic(d Dynamic) *Registry {
	r.dynamic = append(r.dynamic, d)
	return r
}

// all is every tool listed now, declared ones first (those offered now: Def.Offered); a dynamic tool named like a
// declared one is left out.
func (r *Registry) all() []*Tool {
	all := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		if t.listed() {
			all = append(all, t)
		}
	}
	for _, d := range r.dynamic {
		for _, t := range d.DynamicTools() {
			if _, dup := r.byName[t.spec.Name]; !dup {
				all = append(all, t)
			}
		}
	}
	return all
}

// Foreign declares a tool whose input schema comes from elsewhere (another MCP server's tools/list) rather than
// from a Go type. Its arguments are checked against that schema as far as the schema library can resolve it (a
// schema it cannot resolve is checked for being an object only, and the tool's owner validates the rest); run
// receives them as sent, and decode reads a result back from its JSON for TextOf.
//
// A foreign tool is never ReadOnly, whatever its owner says: a hint from code Rooted does not control must not let
// a call run without the user's approval.
func Foreign(spec Spec, run func(ctx context.Context, args json.RawMessage) (any, error), decode func(raw []byte) (any, error)) (*Tool, error) {
	schema := spec.InputSchema
	if schema == nil {
		schema = &jsonschema.Schema{Type: "object"}
	}
	if schema.Type != "" && schema.Type != "object" {
		return nil, fmt.Errorf("tool %s: input schema of type %q, not an object", spec.Name, schema.Type)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		resolved = nil // validated by the tool's owner
	}
	spec.ReadOnly = false
	spec.Description = strings.TrimSpace(spec.Description)
	output := spec.OutputSchema
	if output == nil {
		output = &jsonschema.Schema{Type: "object"}
	}
	return &Tool{
		spec:     spec,
		schema:   func() *jsonschema.Schema { return schema },
		resolved: func() *jsonschema.Resolved { return resolved },
		output:   func() *jsonschema.Schema { return output },
		foreign:  true,
		run: func(ctx context.Context, raw []byte) (any, error) {
			return run(ctx, json.RawMessage(raw))
		},
		decode: decode,
	}, nil
}

// validateForeign checks a foreign tool's arguments against its schema, when the schema could be resolved.
func (t *Tool) validateForeign(v any) *Error {
	r := t.resolved()
	if r == nil {
		return nil
	}
	if err := r.Validate(v); err != nil {
		return Errorf(CodeInvalidArgument, "arguments do not match the schema of %s: %v", t.spec.Name, err)
	}
	return nil
}
