package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every tool declares its output: a real call of each has structuredContent that its outputSchema accepts, a text
// block that is the tool's text form (not JSON), and no field the text carries whole.
func TestEveryToolsResultMatchesItsOutputSchema(t *testing.T) {
	s, cs, tools := serveProject(t)
	schemas := map[string]*jsonschema.Resolved{}
	for _, tl := range tools {
		b, _ := json.Marshal(tl.OutputSchema)
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
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &v)
		if r, ok := resolvedFor(t, tools, c.name); ok {
			if err := r.Validate(v); err != nil {
				t.Errorf("%s: structuredContent %s does not match its outputSchema: %v", c.name, b, err)
			}
		}
		for _, f := range tl.Spec().TextCarries {
			if _, ok := got[f]; ok {
				t.Errorf("%s: structuredContent repeats %s, which the text carries", c.name, f)
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
	for name := range schemas {
		t.Errorf("%s: no call of it checked its output", name)
	}
}

func resolvedFor(t *testing.T, tools []*mcp.Tool, name string) (*jsonschema.Resolved, bool) {
	t.Helper()
	for _, tl := range tools {
		if tl.Name == name {
			b, _ := json.Marshal(tl.OutputSchema)
			var schema jsonschema.Schema
			json.Unmarshal(b, &schema)
			r, err := schema.Resolve(nil)
			return r, err == nil
		}
	}
	return nil, false
}
