package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
)

// Classifier turns a handler's error into an *Error. Handlers return plain Go errors (fs errors, package
// sentinels); the package that wires tools to their dependencies knows how each maps to a code.
type Classifier func(err error) *Error

// Registry holds tools by name, in declaration order.
type Registry struct {
	tools    []*Tool
	byName   map[string]*Tool
	classify Classifier
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
	specs := make([]Spec, len(r.tools))
	for i, t := range r.tools {
		specs[i] = t.Spec()
	}
	return specs
}

// Lookup returns the named tool.
func (r *Registry) Lookup(name string) (*Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names lists tool names in declaration order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.tools))
	for i, t := range r.tools {
		names[i] = t.spec.Name
	}
	return names
}

// Call validates args against the named tool's schema, runs it, and returns its result as JSON. Every failure is
// an *Error; the result is nil exactly when the error is not.
func (r *Registry) Call(ctx context.Context, name string, args []byte) (result json.RawMessage, failure *Error) {
	t, ok := r.byName[name]
	if !ok {
		names := r.Names()
		slices.Sort(names)
		return nil, Errorf(CodeUnknownTool, "unknown tool %q; tools: %s", name, strings.Join(names, ", "))
	}
	args, failure = t.Validate(args)
	if failure != nil {
		return nil, failure
	}
	defer func() {
		if p := recover(); p != nil {
			result, failure = nil, Errorf(CodeInternal, "tool %s panicked: %v\n%s", name, p, debug.Stack())
		}
	}()
	out, err := t.run(ctx, args)
	if err != nil {
		return nil, r.toError(err)
	}
	if a, ok := out.(JSONAppender); ok {
		return a.AppendJSON(nil), nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, Errorf(CodeInternal, "tool %s: encoding result: %v", name, err)
	}
	return b, nil
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
