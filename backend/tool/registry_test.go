package tool

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

type echoIn struct {
	Path   string   `json:"path" jsonschema:"the file" tool:"nonempty"`
	Count  int      `json:"count,omitempty" jsonschema:"how many" tool:"min=1,max=10"`
	Tags   []string `json:"tags,omitempty"`
	Nested *struct {
		Name string `json:"name" tool:"nonempty"`
	} `json:"nested,omitempty"`
}

type echoOut struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

var errSentinel = errors.New("sentinel")

func testRegistry() *Registry {
	echo := New(Def{Name: "echo", Description: "Echo.\n\nExample: `{\"path\": \"a\"}`", ReadOnly: true, Examples: []string{`{"path": "a"}`}},
		func(ctx context.Context, in echoIn) (echoOut, error) {
			switch in.Path {
			case "panic":
				panic("boom")
			case "fail":
				return echoOut{}, Errorf(CodeNotFound, "not found: fail").WithPath("fail")
			case "sentinel":
				return echoOut{}, errSentinel
			case "raw":
				return echoOut{}, errors.New("disk on fire")
			}
			return echoOut{Path: in.Path, Count: in.Count}, nil
		})
	classify := func(err error) *Error {
		if errors.Is(err, errSentinel) {
			return Errorf(CodeStaleFile, "classified")
		}
		return nil
	}
	return NewRegistry(classify, echo)
}

func TestSchemaGeneration(t *testing.T) {
	t.Parallel()
	spec := testRegistry().Specs()[0]
	s := spec.InputSchema
	if s.Type != "object" {
		t.Fatalf("type = %q", s.Type)
	}
	if !slices.Equal(s.Required, []string{"path"}) {
		t.Errorf("required = %v, want [path]: omitempty fields are optional", s.Required)
	}
	if d := s.Properties["path"].Description; d != "the file" {
		t.Errorf("path description = %q", d)
	}
	if m := s.Properties["path"].MinLength; m == nil || *m != 1 {
		t.Errorf("nonempty did not set minLength: %v", m)
	}
	if c := s.Properties["count"]; c.Minimum == nil || *c.Minimum != 1 || c.Maximum == nil || *c.Maximum != 10 {
		t.Errorf("count bounds = %v..%v", c.Minimum, c.Maximum)
	}
	if !spec.Idempotent {
		t.Error("a read-only tool is idempotent")
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"input_schema"`, `"additionalProperties":false`, `"read_only":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("spec JSON lacks %s: %s", want, b)
		}
	}
}

func TestCallValidation(t *testing.T) {
	t.Parallel()
	r := testRegistry()
	tests := []struct {
		args, field, msg string
	}{
		{`{}`, "path", `missing required field "path" (a string)`},
		{``, "path", `missing required field "path"`},
		{`null`, "path", `missing required field "path"`},
		{`{"path": 5}`, "path", `field "path" must be a string, got number 5`},
		{`{"path": ""}`, "path", `field "path" must not be empty`},
		{`{"path": "a\u0000b"}`, "path", `NUL byte`},
		{`{"path": "a", "pathh": 1}`, "pathh", `unknown field "pathh"; known fields: path, count, tags, nested`},
		{`{"path": "a", "count": 0}`, "count", `must be at least 1`},
		{`{"path": "a", "count": 11}`, "count", `must be at most 10`},
		{`{"path": "a", "count": 1.5}`, "count", `must be an integer`},
		{`{"path": "a", "tags": "x"}`, "tags", `must be an array, got string "x"`},
		{`{"path": "a", "nested": {"name": ""}}`, "nested.name", `field "nested.name" must not be empty`},
		{`{"path": "a", "nested": {"nme": "x"}}`, "nested.nme", `unknown field "nested.nme"`},
		{`[1]`, "", `must be a JSON object, got array`},
		{`{"path":`, "", `not valid JSON`},
	}
	for _, tt := range tests {
		out, e := r.Call(context.Background(), "echo", []byte(tt.args))
		if e == nil {
			t.Errorf("Call(%s) = %s, want invalid_argument", tt.args, out)
			continue
		}
		if e.Code != CodeInvalidArgument || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("Call(%s) = %+v, want field %q and message containing %q", tt.args, e, tt.field, tt.msg)
		}
	}
}

func TestCallResults(t *testing.T) {
	t.Parallel()
	r := testRegistry()
	out, e := r.Call(context.Background(), "echo", []byte(`{"path": "x", "count": 3}`))
	if e != nil || string(out) != `{"path":"x","count":3}` {
		t.Fatalf("Call = %s, %v", out, e)
	}
	tests := []struct{ path, code, msg string }{
		{"fail", CodeNotFound, "not found: fail"},
		{"sentinel", CodeStaleFile, "classified"},
		{"raw", CodeInternal, "disk on fire"},
		{"panic", CodeInternal, "panicked: boom"},
	}
	for _, tt := range tests {
		out, e := r.Call(context.Background(), "echo", []byte(`{"path": "`+tt.path+`"}`))
		if e == nil || e.Code != tt.code || !strings.Contains(e.Message, tt.msg) || out != nil {
			t.Errorf("%s: got %s, %+v; want %s containing %q", tt.path, out, e, tt.code, tt.msg)
		}
	}
	if _, e := r.Call(context.Background(), "ech", nil); e == nil || e.Code != CodeUnknownTool || !strings.Contains(e.Message, "echo") {
		t.Errorf("unknown tool: %+v", e)
	}
}

func TestErrorWireShape(t *testing.T) {
	t.Parallel()
	e := Errorf(CodeOutsideRoot, "outside the project root: ../x").WithPath("../x")
	b := e.JSON()
	if string(b) != `{"error":{"code":"outside_root","message":"outside the project root: ../x","path":"../x"}}` {
		t.Errorf("wire shape = %s", b)
	}
	back, ok := ParseError(b)
	if !ok || back.Code != e.Code || back.Message != e.Message || back.Path != e.Path {
		t.Errorf("ParseError round trip = %+v, %v", back, ok)
	}
	if _, ok := ParseError([]byte(`{"path":"x"}`)); ok {
		t.Error("a result parsed as an error")
	}
}

func TestDuplicateNamePanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("duplicate tool names were accepted")
		}
	}()
	tl := New(Def{Name: "x"}, func(context.Context, struct{}) (struct{}, error) { return struct{}{}, nil })
	NewRegistry(nil, tl, tl)
}

func TestElideLongStrings(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a\\n\\\"b", 2000) // escapes inside, quotes escaped
	tests := []struct{ in, want string }{
		{`{"path": "x"}`, `{"path": "x"}`},
		{`{"path": "x", "content": "` + long + `"}`, `{"path": "x", "content": "…"}`},
		{`{"content": "` + long + `", "path": "y"}`, `{"content": "…", "path": "y"}`},
		{`{"content": "` + long + `\u0000"}`, `{"content": "` + long + `\u0000"}`}, // NUL kept for the check
		{`{"edits": [{"search": "` + long + `", "replace": "` + long + `"}]}`, `{"edits": [{"search": "…", "replace": "…"}]}`},
		{`{"content": "` + long, `{"content": "` + long}, // unterminated: left for the decoder to report
	}
	for _, tt := range tests {
		if got := string(elideLongStrings([]byte(tt.in))); got != tt.want {
			t.Errorf("elide(%.60s...) = %.80s...", tt.in, got)
		}
	}
	// Validation of a large input still catches what it must.
	r := testRegistry()
	big := strings.Repeat("x", 100_000)
	if _, e := r.Call(context.Background(), "echo", []byte(`{"path": "`+big+`", "count": 0}`)); e == nil || e.Field != "count" {
		t.Errorf("large input with a bad count: %+v", e)
	}
	if _, e := r.Call(context.Background(), "echo", []byte(`{"path": "`+big+`\u0000"}`)); e == nil || !strings.Contains(e.Message, "NUL") {
		t.Errorf("large input with a NUL: %+v", e)
	}
	if out, e := r.Call(context.Background(), "echo", []byte(`{"path": "`+big+`"}`)); e != nil || !strings.Contains(string(out), big) {
		t.Errorf("large valid input: %v", e)
	}
}

// A tool offered only under a setting is missing from every list while the setting is not made, and listed once
// it is; a call by name reaches it either way, so it can say what to set.
func TestOfferedToolIsListedOnlyWhenOffered(t *testing.T) {
	on := false
	opt := New(Def{Name: "optional", Description: "Optional.", Offered: func() bool { return on }},
		func(ctx context.Context, in struct{}) (echoOut, error) {
			if !on {
				return echoOut{}, Errorf(CodeNotConfigured, "set it first")
			}
			return echoOut{Path: "on"}, nil
		})
	r := NewRegistry(nil, testRegistry().tools[0], opt)
	names := func() []string {
		var out []string
		for _, s := range r.Specs() {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"echo"}) || !slices.Equal(r.Names(), got) {
		t.Errorf("not offered: specs %v, names %v", got, r.Names())
	}
	if _, e := r.Call(context.Background(), "optional", nil); e == nil || e.Code != CodeNotConfigured {
		t.Errorf("a direct call while not offered: %v, want not_configured", e)
	}
	on = true
	if got := names(); !slices.Equal(got, []string{"echo", "optional"}) || !slices.Equal(r.Names(), got) {
		t.Errorf("offered: specs %v, names %v", got, r.Names())
	}
	if out, e := r.Call(context.Background(), "optional", nil); e != nil || !strings.Contains(string(out), `"on"`) {
		t.Errorf("a call once offered: %s, %v", out, e)
	}
}
