package tool

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Cutting the fields the text carries out of a result's JSON leaves every other field as it decoded before, whatever
// the values hold (brackets and quotes inside strings, nested objects, numbers, escapes) and wherever the cut field
// stands.
func TestOmitFields(t *testing.T) {
	t.Parallel()
	for _, obj := range []map[string]any{
		{"stdout": "a\n}{\"x\":[1,2]", "exit": 3.0, "stderr": "", "ok": true},
		{"path": "a b", "content": strings.Repeat("line \"q\" \\ {[\n", 500), "size": 12.0, "nested": map[string]any{"content": "kept", "n": []any{1.0, "]", nil}}},
		{"content": "first", "n": -1.5e9},
		{"n": nil, "content": "last"},
		{"content": "only"},
		{},
		{"diff": "<&>\u2028", "list": []any{map[string]any{"diff": "kept"}}, "t": false},
	} {
		raw, _ := json.Marshal(obj)
		indented, _ := json.MarshalIndent(obj, "", "  ")
		for _, enc := range [][]byte{raw, indented} {
			got := omitFields(enc, []string{"content", "stdout", "stderr", "diff"})
			var back map[string]any
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("%s -> %s: %v", enc, got, err)
			}
			want := map[string]any{}
			for k, v := range obj {
				if k != "content" && k != "stdout" && k != "stderr" && k != "diff" {
					want[k] = v
				}
			}
			if !reflect.DeepEqual(back, want) {
				t.Errorf("%s -> %s, want %v", enc, got, want)
			}
		}
	}
}

func FuzzOmitFields(f *testing.F) {
	for _, s := range []string{"plain", `"}{][,:`, "\\", "\u2028<\x00"} {
		f.Add(s, 7.5)
	}
	f.Fuzz(func(t *testing.T, s string, n float64) {
		obj := map[string]any{"a": s, "content": s, "b": map[string]any{"content": s, "x": []any{s, n}}, "n": n}
		enc, err := json.Marshal(obj)
		if err != nil {
			t.Skip()
		}
		var back map[string]any
		if err := json.Unmarshal(omitFields(enc, []string{"content"}), &back); err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		var want map[string]any
		json.Unmarshal(enc, &want)
		delete(want, "content")
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("%s: got %v, want %v", enc, back, want)
		}
	})
}

type carried struct {
	Name string `json:"name"`
	Body string `json:"body"`
	N    int    `json:"n"`
}

// A result's structured form leaves out what its text carries, and its JSON is the whole result, asked for in either
// order.
func TestResultForms(t *testing.T) {
	t.Parallel()
	tl := New(Def{Name: "carry", TextCarries: []string{"body"}}, func(ctx context.Context, in struct{}) (carried, error) {
		return carried{Name: "x", Body: "big {\"text\"}", N: 2}, nil
	})
	r := NewRegistry(nil, tl)
	res, e := r.CallForms(context.Background(), "carry", nil)
	if e != nil {
		t.Fatal(e)
	}
	if got := string(res.Structured()); got != `{"name":"x","n":2}` {
		t.Errorf("structured: %s", got)
	}
	if got := string(res.JSON()); got != `{"name":"x","body":"big {\"text\"}","n":2}` {
		t.Errorf("JSON: %s", got)
	}
	if got := res.Text(); got != "name: x\nbody: big {\"text\"}\nn: 2" {
		t.Errorf("text: %q", got)
	}
}
