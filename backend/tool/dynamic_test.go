package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// source is a Dynamic whose tools the test changes as it goes, as a server's come and go.
type source struct{ tools []*Tool }

func (s *source) DynamicTools() []*Tool { return s.tools }
func (s *source) DynamicTool(name string) (*Tool, bool) {
	for _, t := range s.tools {
		if t.spec.Name == name {
			return t, true
		}
	}
	return nil, false
}

func foreignAdd(t *testing.T, name string, readOnly bool) *Tool {
	t.Helper()
	var schema jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":true}`), &schema); err != nil {
		t.Fatal(err)
	}
	ft, err := Foreign(Spec{Name: name, Description: " adds ", InputSchema: &schema, ReadOnly: readOnly}, func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct{ A, B float64 }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		return map[string]any{"sum": in.A + in.B, "args": string(args)}, nil
	}, func(raw []byte) (any, error) { var v map[string]any; return v, json.Unmarshal(raw, &v) })
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// TestDynamicTools: tools a source adds while the program runs are listed after the declared ones and called
// like them (validated against their own schema, gated, never read-only); one named like a declared tool never
// replaces it; a tool the source drops is unknown again.
func TestDynamicTools(t *testing.T) {
	src := &source{}
	denied := ""
	reg := testRegistry().WithDynamic(src).WithGate(func(name string) *Error {
		if name == denied {
			return Errorf(CodePermissionDenied, "denied")
		}
		return nil
	})
	declared := len(reg.Names())
	src.tools = []*Tool{foreignAdd(t, "mcp__x__add", true), foreignAdd(t, "echo", false)}
	names := reg.Names()
	if len(names) != declared+1 || names[len(names)-1] != "mcp__x__add" || countOf(names, "echo") != 1 {
		t.Fatalf("names: %v", names)
	}
	if tl, ok := reg.Lookup("echo"); !ok || !tl.Spec().ReadOnly {
		t.Error("a dynamic tool replaced a declared one")
	}
	spec, _ := reg.Lookup("mcp__x__add")
	if spec.Spec().ReadOnly || spec.Spec().Description != "adds" {
		t.Errorf("foreign spec: %+v", spec.Spec())
	}
	out, e := reg.Call(context.Background(), "mcp__x__add", []byte(`{"a": 1, "b": 2, "extra": "kept"}`))
	if e != nil || !strings.Contains(string(out), `"sum":3`) || !strings.Contains(string(out), "extra") {
		t.Fatalf("call: %s %v", out, e)
	}
	if _, e := reg.Call(context.Background(), "mcp__x__add", []byte(`{"a": "one"}`)); e == nil || e.Code != CodeInvalidArgument {
		t.Errorf("invalid arguments: %v", e)
	}
	denied = "mcp__x__add"
	if _, e := reg.Call(context.Background(), "mcp__x__add", []byte(`{"a": 1, "b": 2}`)); e == nil || e.Code != CodePermissionDenied {
		t.Errorf("the gate let a dynamic tool run: %v", e)
	}
	src.tools = nil
	if _, e := reg.Call(context.Background(), "mcp__x__add", []byte(`{}`)); e == nil || e.Code != CodeUnknownTool {
		t.Errorf("a dropped tool: %v", e)
	}
}

func TestForeignRefusesANonObjectSchema(t *testing.T) {
	if _, err := Foreign(Spec{Name: "x", InputSchema: &jsonschema.Schema{Type: "string"}}, nil, nil); err == nil {
		t.Error("a string schema was taken")
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
