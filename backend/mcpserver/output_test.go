package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rooted-dev/rooted/backend/tool"
)

// Every tool's result is its text form in the text block (not JSON), with no outputSchema or structuredContent on
// the wire, and its fields in _meta as the registry's output schema declares them, without a field the text carries
// whole.
func TestEveryToolsResultMatchesItsOutputSchema(t *testing.T) {
	s, cs, tools := serveProject(t)
	schemas := map[string]*jsonschema.Resolved{}
	for _, tl := range tools {
		if tl.OutputSchema != nil {
			t.Errorf("%s: an outputSchema on the wire makes Claude Code refuse results without structuredContent", tl.Name)
		}
		spec, _ := s.registry.Lookup(tl.Name)
		b, _ := json.Marshal(spec.Spec().OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(b, &schema); err != nil || schema.Type != "object" {
			t.Fatalf("%s: outputSchema %s", tl.Name, b)
		}
		r, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: outputSchema does not resolve: %v", tl.Name, err)
		}
		schemas[tl.Name] = r
	}
	var backup, job string
	for _, c := range []struct {
		name string
		args func() map[string]any
		text string // the text block holds this
	}{
		{"get_working_directory", func() map[string]any { return map[string]any{} }, "root"},
		{"change_working_directory", func() map[string]any { return map[string]any{"path": "src"} }, "src"},
		{"change_working_directory", func() map[string]any { return map[string]any{"path": ".."} }, ""},
		{"list_directory", func() map[string]any { return map[string]any{} }, "src/\n"},
		{"read_file", func() map[string]any { return map[string]any{"path": "src/main.go"} }, "1\tpackage main\n"},
		{"write_file", func() map[string]any { return map[string]any{"path": "notes.txt", "content": "one\ntwo\n"} }, ""},
		{"patch_file", func() map[string]any { return map[string]any{"path": "notes.txt", "search": "two", "replace": "three"} }, "notes.txt"},
		{"search_files", func() map[string]any { return map[string]any{"query": "three"} }, "notes.txt:2:three\n"},
		{"find_files", func() map[string]any { return map[string]any{"glob": "*.go"} }, "src/main.go\n"},
		{"exec_shell", func() map[string]any { return map[string]any{"command": "ls src"} }, "main.go\n"},
		{"exec_shell", func() map[string]any {
			return map[string]any{"command": "node", "args": []string{"-e", "setTimeout(() => {}, 30000)"}, "background": true}
		}, "job "},
		{"job_output", func() map[string]any { return map[string]any{"id": job} }, ""},
		{"job_kill", func() map[string]any { return map[string]any{"id": job} }, ""},
		{"list_snapshots", func() map[string]any { return map[string]any{} }, ""},
		{"diff_snapshot", func() map[string]any { return map[string]any{"id": backup} }, "+three"},
		{"restore_snapshot", func() map[string]any { return map[string]any{"id": backup} }, ""},
		{"use_skill", func() map[string]any { return map[string]any{} }, "skill"},
	} {
		res, got := call(t, cs, c.name, c.args())
		text := got["text"].(string)
		delete(got, "text")
		if res.IsError {
			t.Errorf("%s: %s", c.name, text)
			continue
		}
		delete(schemas, c.name) // covered
		tl, _ := s.registry.Lookup(c.name)
		var v any
		b, _ := json.Marshal(res.Meta[ResultMeta])
		json.Unmarshal(b, &v)
		if r, ok := resolvedFor(t, tl.Spec()); ok {
			if err := r.Validate(v); err != nil {
				t.Errorf("%s: _meta's result %s does not match its output schema: %v", c.name, b, err)
			}
		}
		for _, f := range tl.Spec().TextCarries {
			if _, ok := got[f]; ok {
				t.Errorf("%s: _meta's result repeats %s, which the text carries", c.name, f)
			}
		}
		if json.Valid([]byte(text)) || !strings.Contains(text, c.text) {
			t.Errorf("%s: text block %q, want it to hold %q", c.name, text, c.text)
		}
		switch c.name {
		case "write_file":
			backup, _ = got["backup"].(string)
		case "exec_shell":
			if j, ok := got["job"].(map[string]any); ok {
				job, _ = j["id"].(string)
			}
		}
	}
	// ask_user has no one to ask from a client without elicitation: it answers no_user (ask_test.go: with it).
	if res, got := call(t, cs, "ask_user", map[string]any{"question": "Which database?"}); !res.IsError || !strings.Contains(got["text"].(string), "no_user") {
		t.Errorf("ask_user over MCP: %v", got)
	}
	delete(schemas, "ask_user")
	// web_fetch reads from a local site its own server's rules allow (webfetch_test.go).
	if _, fcs, url := allowedFetch(t); true {
		res, got := call(t, fcs, "web_fetch", map[string]any{"url": url})
		text := got["text"].(string)
		delete(got, "text")
		b, _ := json.Marshal(res.Meta[ResultMeta])
		var v any
		json.Unmarshal(b, &v)
		if err := schemas["web_fetch"].Validate(v); res.IsError || err != nil || got["content"] != nil || !strings.Contains(text, "\n\nSome text.") {
			t.Errorf("web_fetch: %v; _meta %s; text %q", err, b, text)
		}
		delete(schemas, "web_fetch")
	}
	for name := range schemas {
		t.Errorf("%s: no call of it checked its output", name)
	}
}

func resolvedFor(t *testing.T, spec tool.Spec) (*jsonschema.Resolved, bool) {
	t.Helper()
	b, _ := json.Marshal(spec.OutputSchema)
	var schema jsonschema.Schema
	json.Unmarshal(b, &schema)
	r, err := schema.Resolve(nil)
	return r, err == nil
}
