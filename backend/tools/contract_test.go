package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The window types tool results by hand in frontend/src/bridge/types.ts. This test (which make lint runs) fails
// when they drift from the Go result types: every tool the frontend names must exist, and every field it declares
// must be a field of the tool's output schema, inferred from the Go struct, with a type of the same kind, nested
// objects and arrays included. The frontend may leave fields out; it may not invent or keep a stale one.
func TestFrontendResultTypes(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "frontend", "src", "bridge", "types.ts"))
	if err != nil {
		t.Fatal(err)
	}
	ts := parseTS(string(src))
	results, ok := ts.interfaces["ToolResults"]
	if !ok {
		t.Fatal("types.ts has no ToolResults interface")
	}
	reg := Registry(Deps{})
	for _, f := range results {
		tl, ok := reg.Lookup(f.name)
		if !ok {
			t.Errorf("ToolResults names %s, which is not a tool", f.name)
			continue
		}
		ts.compare(t, f.name, f.typ, tl.Spec().OutputSchema)
	}
}

type tsField struct {
	name, typ string
}

type tsTypes struct {
	interfaces map[string][]tsField
	aliases    map[string]string
}

var (
	tsInterface = regexp.MustCompile(`(?ms)^export interface (\w+)(?: extends (\w+))? \{\n(.*?)^\}`)
	tsAlias     = regexp.MustCompile(`(?m)^export type (\w+) = (.+)$`)
	tsBlock     = regexp.MustCompile(`(?s)/\*.*?\*/`)
)

// parseTS reads the interfaces and type aliases of a file written as types.ts is: one field a line.
func parseTS(src string) tsTypes {
	ts := tsTypes{interfaces: map[string][]tsField{}, aliases: map[string]string{}}
	src = tsBlock.ReplaceAllString(src, "")
	for _, m := range tsAlias.FindAllStringSubmatch(src, -1) {
		ts.aliases[m[1]] = strings.TrimSpace(m[2])
	}
	for _, m := range tsInterface.FindAllStringSubmatch(src, -1) {
		var fields []tsField
		if m[2] != "" {
			fields = append(fields, ts.interfaces[m[2]]...)
		}
		for line := range strings.SplitSeq(m[3], "\n") {
			if i := strings.Index(line, "//"); i >= 0 {
				line = line[:i]
			}
			fields = append(fields, splitFields(line)...)
		}
		ts.interfaces[m[1]] = fields
	}
	return ts
}

// splitFields reads "a: T; b?: U" (or one field) at the top level of its braces.
func splitFields(s string) []tsField {
	var out []tsField
	depth, start := 0, 0
	flush := func(end int) {
		part := strings.TrimSpace(s[start:end])
		name, typ, ok := strings.Cut(part, ":")
		if ok {
			out = append(out, tsField{strings.TrimSuffix(strings.TrimSpace(name), "?"), strings.TrimSpace(typ)})
		}
	}
	for i, c := range s {
		switch c {
		case '{', '[', '(', '<':
			depth++
		case '}', ']', ')', '>':
			depth--
		case ';', ',':
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(s))
	return out
}

// compare checks a TypeScript type against a schema, reporting where they differ.
func (ts tsTypes) compare(t *testing.T, at, typ string, s *jsonschema.Schema) {
	t.Helper()
	typ = strings.TrimSpace(typ)
	// A union with null or undefined is its other member; a union of string literals is a string.
	var parts []string
	for p := range strings.SplitSeq(typ, "|") {
		if p = strings.TrimSpace(p); p != "null" && p != "undefined" && p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 1 {
		typ = parts[0]
	}
	if alias, ok := ts.aliases[typ]; ok {
		typ = alias
	}
	kinds := s.Types
	if s.Type != "" {
		kinds = []string{s.Type}
	}
	want := func(kind string) {
		if len(kinds) > 0 && !slices.Contains(kinds, kind) && !(kind == "number" && slices.Contains(kinds, "integer")) {
			t.Errorf("%s: the frontend says %s (%s), Go's output schema says %v", at, typ, kind, kinds)
		}
	}
	switch {
	case typ == "string" || strings.HasPrefix(typ, "'"):
		want("string")
	case typ == "number":
		want("number")
	case typ == "boolean":
		want("boolean")
	case typ == "unknown" || strings.HasPrefix(typ, "Record<"):
	case strings.HasSuffix(typ, "[]"):
		want("array")
		if s.Items != nil {
			ts.compare(t, at+"[]", strings.TrimSuffix(typ, "[]"), s.Items)
		}
	case strings.HasPrefix(typ, "{"):
		want("object")
		ts.compareFields(t, at, splitFields(strings.TrimSuffix(strings.TrimPrefix(typ, "{"), "}")), s)
	default:
		fields, ok := ts.interfaces[typ]
		if !ok {
			t.Errorf("%s: the frontend's type %s is not one this test can read", at, typ)
			return
		}
		want("object")
		ts.compareFields(t, at, fields, s)
	}
}

func (ts tsTypes) compareFields(t *testing.T, at string, fields []tsField, s *jsonschema.Schema) {
	t.Helper()
	for _, f := range fields {
		prop, ok := s.Properties[f.name]
		if !ok {
			t.Errorf("%s.%s: the frontend declares a field the Go result does not have", at, f.name)
			continue
		}
		ts.compare(t, at+"."+f.name, f.typ, prop)
	}
}
