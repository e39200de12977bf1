package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

func openRegistry(t *testing.T, layout ...string) (*tool.Registry, *session.Session, string) {
	t.Helper()
	s, root := openLayout(t, layout...)
	return Registry(Deps{Session: s}), s, root
}

func call[T any](t *testing.T, reg *tool.Registry, name, args string) (T, *tool.Error) {
	t.Helper()
	var out T
	raw, e := reg.Call(context.Background(), name, []byte(args))
	if e != nil {
		return out, e
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s result %s: %v", name, raw, err)
	}
	return out, nil
}

// Every spec is complete and every example in it is valid input: the model learns the tools from these. The
// optional tools are turned on (web_search's endpoint set), so they are checked too.
func TestSpecsAndExamples(t *testing.T) {
	store := settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := store.UpdateUser(func(u *settings.User) error { u.SearchEndpoint = "http://localhost:8888"; return nil }); err != nil {
		t.Fatal(err)
	}
	reg := Registry(Deps{Session: session.New(), Settings: store})
	if !slices.Contains(reg.Names(), "web_search") {
		t.Fatal("web_search is not listed with an endpoint set")
	}
	for _, spec := range reg.Specs() {
		if spec.Title == "" || !strings.Contains(spec.Description, "Example") || len(spec.Examples) == 0 {
			t.Errorf("%s: title, description with an example, and examples are required", spec.Name)
		}
		tl, _ := reg.Lookup(spec.Name)
		for _, ex := range spec.Examples {
			if _, e := tl.Validate(ex); e != nil {
				t.Errorf("%s: example %s is invalid: %v", spec.Name, ex, e)
			}
		}
		// The schema must survive a JSON round trip, which is how the LLM and MCP faces receive it.
		b, err := json.Marshal(spec.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var back jsonschema.Schema
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: schema does not round-trip: %v", spec.Name, err)
		}
	}
}

func TestNoProjectCode(t *testing.T) {
	reg := Registry(Deps{Session: session.New()})
	_, e := reg.Call(context.Background(), "read_file", []byte(`{"path": "x"}`))
	if e == nil || e.Code != tool.CodeNoProject {
		t.Fatalf("read without a project: %+v", e)
	}
}

func TestListDirectory(t *testing.T) {
	reg, _, _ := openRegistry(t, "b/", "a/", "z.txt", "m.go", "link => a", "dangling => nope")
	l, e := call[listDirectoryOut](t, reg, "list_directory", `{}`)
	if e != nil {
		t.Fatal(e)
	}
	var got []string
	for _, en := range l.Entries {
		got = append(got, en.Name+":"+en.Kind)
	}
	// Directories (including a link to one) first, then the rest, each by name.
	want := "a:dir b:dir link:symlink dangling:symlink m.go:file z.txt:file"
	if strings.Join(got, " ") != want {
		t.Errorf("entries = %v, want %s", got, want)
	}
	if l.Entries[5].Size != int64(len("inside:z.txt")) {
		t.Errorf("size of z.txt = %d", l.Entries[5].Size)
	}
	for _, en := range l.Entries {
		if en.Ignored {
			t.Errorf("%s flagged ignored without any ignore file", en.Name)
		}
	}
	l, e = call[listDirectoryOut](t, reg, "list_directory", `{"limit": 2}`)
	if e != nil || len(l.Entries) != 2 || !l.Truncated || l.Total != 6 {
		t.Errorf("limit 2: %+v, %v", l, e)
	}
	_, e = call[listDirectoryOut](t, reg, "list_directory", `{"path": "m.go"}`)
	if e == nil || e.Code != tool.CodeNotADirectory || e.Path != "m.go" {
		t.Errorf("list a file: %+v", e)
	}
}

func TestListDirectoryFlagsIgnored(t *testing.T) {
	reg, _, root := openRegistry(t, "node_modules/", "src/", "src/gen/", "src/main.go", "src/x.log", "keep.log", ".git/")
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n*.log\n!keep.log\nout/\n"), 0o644)
	os.WriteFile(filepath.Join(root, "src", ".gitignore"), []byte("gen/\n"), 0o644)
	// A link to a folder is not a folder to git: "out/" does not ignore it (git ls-files lists it).
	if err := os.Symlink("src", filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	flags := func(path string) map[string]bool {
		l, e := call[listDirectoryOut](t, reg, "list_directory", fmt.Sprintf(`{"path": %q}`, path))
		if e != nil {
			t.Fatal(e)
		}
		m := map[string]bool{}
		for _, en := range l.Entries {
			m[en.Name] = en.Ignored
		}
		return m
	}
	top := flags(".")
	if !top["node_modules"] || !top[".git"] || top["src"] || top["keep.log"] || top[".gitignore"] || top["out"] {
		t.Errorf("root flags: %v", top)
	}
	src := flags("src")
	if !src["gen"] || !src["x.log"] || src["main.go"] {
		t.Errorf("src flags: %v", src)
	}
}

func TestReadFile(t *testing.T) {
	reg, _, root := openRegistry(t, "d/")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "crlf.txt"), []byte("one\r\ntwo\r\nthree"), 0o644))
	must(os.WriteFile(filepath.Join(root, "img.png"), append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...), 0o644))
	must(os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("0123456789abcdef\n", 70000)), 0o644))

	r, e := call[readFileOut](t, reg, "read_file", `{"path": "crlf.txt"}`)
	if e != nil || r.Text != "one\r\ntwo\r\nthree" || r.TotalLines != 3 || r.LineEnding != "crlf" || !r.Exists || r.Size != 15 {
		t.Errorf("crlf read: %+v, %v", r, e)
	}
	r, e = call[readFileOut](t, reg, "read_file", `{"path": "crlf.txt", "offset": 2, "limit": 1}`)
	if e != nil || r.Text != "two\r\n" || r.StartLine != 2 || r.EndLine != 2 || !r.Truncated {
		t.Errorf("range read: %+v, %v", r, e)
	}
	_, e = call[readFileOut](t, reg, "read_file", `{"path": "img.png"}`)
	// A PNG is read as an image (read_image_test.go); one whose header says it has no pixels cannot be.
	if e == nil || e.Code != tool.CodeUnsupportedMedia || !strings.Contains(e.Message, "image/png") || !strings.Contains(e.Message, "img.png") {
		t.Errorf("undecodable image: %+v", e)
	}
	_, e = call[readFileOut](t, reg, "read_file", `{"path": "big.txt"}`)
	if e == nil || e.Code != tool.CodeTooLarge || !strings.Contains(e.Message, "offset") || e.Details["size"] == nil {
		t.Errorf("too large: %+v", e)
	}
	r, e = call[readFileOut](t, reg, "read_file", `{"path": "big.txt", "offset": 69999, "limit": 5}`)
	if e != nil || r.TotalLines != 70000 || r.EndLine != 70000 || r.Truncated || strings.Count(r.Text, "\n") != 2 {
		t.Errorf("tail range of a large file: start %d end %d total %d truncated %v, %v", r.StartLine, r.EndLine, r.TotalLines, r.Truncated, e)
	}
	_, e = call[readFileOut](t, reg, "read_file", `{"path": "d"}`)
	if e == nil || e.Code != tool.CodeIsADirectory {
		t.Errorf("read a directory: %+v", e)
	}
	_, e = call[readFileOut](t, reg, "read_file", `{"path": "d/nope.txt"}`)
	if e == nil || e.Code != tool.CodeNotFound || e.Message != "not found: d/nope.txt" {
		t.Errorf("missing: %+v", e)
	}
}

func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode; covered when tests run as a user")
	}
	reg, _, root := openRegistry(t, "secrets/", "secrets/key")
	if err := os.Chmod(filepath.Join(root, "secrets"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "secrets"), 0o755) })
	_, e := call[readFileOut](t, reg, "read_file", `{"path": "secrets/key"}`)
	if e == nil || e.Code != tool.CodePermissionDenied || !strings.Contains(e.Message, "secrets/key") {
		t.Errorf("unreadable: %+v", e)
	}
}

func TestChangeWorkingDirectory(t *testing.T) {
	reg, _, root := openRegistry(t, "src/", "src/app/", "src/app/main.go")
	out, e := call[changeWorkingDirectoryOut](t, reg, "change_working_directory", `{"path": "src/app"}`)
	if e != nil || !out.Success || out.Relative != "src/app" || out.CurrentDirectory != filepath.Join(root, "src", "app") || out.PreviousDirectory != root {
		t.Fatalf("cd: %+v, %v", out, e)
	}
	if r, e := call[readFileOut](t, reg, "read_file", `{"path": "main.go"}`); e != nil || r.Path != "src/app/main.go" {
		t.Errorf("relative read after cd: %+v, %v", r, e)
	}
	_, e = call[changeWorkingDirectoryOut](t, reg, "change_working_directory", `{"path": "../../.."}`)
	if e == nil || e.Code != tool.CodeOutsideRoot {
		t.Errorf("cd out: %+v", e)
	}
	wd, _ := call[map[string]string](t, reg, "get_working_directory", `{}`)
	if wd["cwd_relative"] != "src/app" {
		t.Errorf("a failed cd moved the cwd: %v", wd)
	}
}

// Many concurrent calls on one session: run with -race.
func TestConcurrentCalls(t *testing.T) {
	reg, _, root := openRegistry(t, "a/", "a/b/", "a/f", "a/b/g")
	abs := func(rel string) string { return filepath.Join(root, rel) }
	var wg sync.WaitGroup
	var patched sync.Map
	if _, e := reg.Call(context.Background(), "read_file", fmt.Appendf(nil, `{"path": %q}`, abs("a/b/g"))); e != nil {
		t.Fatal(e)
	}
	for i := range 96 {
		wg.Go(func() {
			var name, args string
			switch i % 6 {
			case 0:
				name, args = "change_working_directory", fmt.Sprintf(`{"path": %q}`, abs("a/b"))
			case 1:
				name, args = "change_working_directory", `{"path": "-"}`
			case 2:
				name, args = "list_directory", fmt.Sprintf(`{"path": %q}`, abs("a"))
			case 3:
				name, args = "read_file", fmt.Sprintf(`{"path": %q}`, abs("a/f"))
			case 4:
				name, args = "write_file", fmt.Sprintf(`{"path": %q, "content": "n%d"}`, abs(fmt.Sprintf("a/w%d.txt", i)), i)
			case 5:
				name, args = "patch_file", fmt.Sprintf(`{"path": %q, "search": "inside:g", "replace": "inside:g\nline %d"}`, abs("a/b/g"), i)
			}
			_, e := reg.Call(context.Background(), name, []byte(args))
			switch {
			case e == nil && name == "patch_file":
				patched.Store(i, true)
			case e == nil:
			case name == "change_working_directory" && e.Code == tool.CodeInvalidArgument: // "-" before any cd
			case name == "patch_file" && (e.Code == tool.CodeNoMatch || e.Code == tool.CodeStaleFile):
			default:
				t.Errorf("%s %s: %v", name, args, e)
			}
		})
	}
	wg.Wait()
	// Patches raced on one file: every patch that reported success is in it; none was lost to another.
	b, err := os.ReadFile(abs("a/b/g"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	patched.Range(func(k, _ any) bool {
		n++
		if !strings.Contains(string(b)+"\n", fmt.Sprintf("line %d\n", k)) {
			t.Errorf("patch %d reported success but is not in the file: %q", k, b)
		}
		return true
	})
	if n != 16 {
		t.Errorf("%d of 16 concurrent patches applied; with per-file locking all must", n)
	}
	for i := 4; i < 96; i += 6 {
		if b, err := os.ReadFile(abs(fmt.Sprintf("a/w%d.txt", i))); err != nil || string(b) != fmt.Sprintf("n%d", i) {
			t.Errorf("concurrent write %d: %q, %v", i, b, err)
		}
	}
}

func TestClassifyRootEscape(t *testing.T) {
	// os.Root's escape error is unexported; if its text changes, Classify must be updated.
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Open("../x")
	if e := Classify(err); e.Code != tool.CodeOutsideRoot {
		t.Errorf("os.Root escape classified as %s: %v", e.Code, err)
	}
	if e := Classify(errors.New("boom")); e.Code != tool.CodeInternal {
		t.Errorf("plain error classified as %s", e.Code)
	}
}

func TestStaleFileProtection(t *testing.T) {
	reg, _, root := openRegistry(t, "f.txt")
	path := filepath.Join(root, "f.txt")
	external := func(content string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour)

	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "f.txt"}`); e != nil {
		t.Fatal(e)
	}
	if _, e := call[writeFileOut](t, reg, "write_file", `{"path": "f.txt", "content": "v1"}`); e != nil {
		t.Fatal(e)
	}
	// The session's own writes and patches never trip it.
	if _, e := call[patchFileOut](t, reg, "patch_file", `{"path": "f.txt", "search": "v1", "replace": "v2"}`); e != nil {
		t.Fatal(e)
	}
	if _, e := call[writeFileOut](t, reg, "write_file", `{"path": "f.txt", "content": "v3"}`); e != nil {
		t.Fatal(e)
	}
	// Someone else edits the file: both write and patch are refused, and the file keeps their edit.
	external("theirs", later)
	for _, c := range []struct{ name, args string }{
		{"write_file", `{"path": "f.txt", "content": "mine"}`},
		{"patch_file", `{"path": "f.txt", "search": "theirs", "replace": "mine"}`},
	} {
		_, e := call[map[string]any](t, reg, c.name, c.args)
		if e == nil || e.Code != tool.CodeStaleFile || !strings.Contains(e.Message, "f.txt") || !strings.Contains(e.Message, "read it again") {
			t.Errorf("%s after an external edit: %+v", c.name, e)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Fatalf("a stale write changed the file to %q", b)
	}
	// Reading again makes it writable.
	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "f.txt"}`); e != nil {
		t.Fatal(e)
	}
	if _, e := call[patchFileOut](t, reg, "patch_file", `{"path": "f.txt", "search": "theirs", "replace": "mine"}`); e != nil {
		t.Fatalf("patch after re-read: %v", e)
	}
	// A touch without a change (same bytes, new mtime) is not staleness.
	external("mine", later.Add(time.Hour))
	if _, e := call[writeFileOut](t, reg, "write_file", `{"path": "f.txt", "content": "ours"}`); e != nil {
		t.Errorf("write after a touch: %v", e)
	}
	// A partial read records only size and mtime: an external same-size change is still caught.
	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "f.txt", "limit": 1}`); e != nil {
		t.Fatal(e)
	}
	external("OURS", later.Add(2*time.Hour))
	if _, e := call[writeFileOut](t, reg, "write_file", `{"path": "f.txt", "content": "x"}`); e == nil || e.Code != tool.CodeStaleFile {
		t.Errorf("same-size external change after a partial read: %+v", e)
	}
}

func TestPatchFileErrors(t *testing.T) {
	reg, _, root := openRegistry(t)
	if err := os.WriteFile(filepath.Join(root, "m.go"), []byte("a := 1\nb := 1\nc := 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "m.go"}`); e != nil {
		t.Fatal(e)
	}
	tests := []struct{ args, code, field, msg string }{
		{`{"path": "m.go", "search": ":= 1", "replace": ":= 2"}`, tool.CodeMultipleMatches, "", "occurs 3 times in m.go (lines 1, 2, 3)"},
		{`{"path": "m.go", "search": "d := 1", "replace": "x"}`, tool.CodeNoMatch, "", `most similar line is 1: "a := 1"`},
		{`{"path": "m.go", "edits": [{"search": "a := 1", "replace": "a := 9"}, {"search": "zzz", "replace": "y"}]}`, tool.CodeNoMatch, "edits", "edit 2 of 2: no match"},
		{`{"path": "m.go", "search": "a"}`, tool.CodeInvalidArgument, "replace", `missing field "replace"`},
		{`{"path": "m.go"}`, tool.CodeInvalidArgument, "search", `missing field "search"`},
		{`{"path": "m.go", "search": "a", "replace": "b", "edits": [{"search": "x", "replace": "y"}]}`, tool.CodeInvalidArgument, "edits", "not both"},
		{`{"path": "m.go", "edits": [{"search": "", "replace": "y"}]}`, tool.CodeInvalidArgument, "edits[0].search", `field "edits[0].search" must not be empty`},
		{`{"path": "m.go", "edits": [{"search": "a"}]}`, tool.CodeInvalidArgument, "edits[0].replace", `missing required field "edits[0].replace"`},
		{`{"path": "m.go", "edits": ["a"]}`, tool.CodeInvalidArgument, "edits[0]", "must be an object"},
		{`{"path": "nope.go", "search": "a", "replace": "b"}`, tool.CodeNotFound, "", "not found: nope.go"},
	}
	for _, tt := range tests {
		_, e := call[patchFileOut](t, reg, "patch_file", tt.args)
		if e == nil || e.Code != tt.code || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("patch_file %s = %+v; want %s field %q with %q", tt.args, e, tt.code, tt.field, tt.msg)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "m.go")); string(b) != "a := 1\nb := 1\nc := 1\n" {
		t.Errorf("failed patches changed the file: %q", b)
	}
	out, e := call[patchFileOut](t, reg, "patch_file", `{"path": "m.go", "search": ":= 1", "replace": ":= 2", "replace_all": true}`)
	if e != nil || out.Matched != 3 || out.Replaced != 3 {
		t.Errorf("replace_all: %+v, %v", out, e)
	}
	out, e = call[patchFileOut](t, reg, "patch_file", `{"path": "m.go", "search": "b := 2\n", "replace": ""}`)
	if e != nil || out.Replaced != 1 {
		t.Errorf("delete with an empty replace: %+v, %v", out, e)
	}
}

func TestWriteFileResult(t *testing.T) {
	reg, _, root := openRegistry(t)
	out, e := call[writeFileOut](t, reg, "write_file", `{"path": "deep/er/new.txt", "content": "héllo\r\n"}`)
	if e != nil || !out.Created || out.Size != 8 || out.Path != "deep/er/new.txt" {
		t.Fatalf("create: %+v, %v", out, e)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "deep", "er", "new.txt")); string(b) != "héllo\r\n" {
		t.Errorf("bytes on disk: %q", b)
	}
	out, e = call[writeFileOut](t, reg, "write_file", `{"path": "deep/er/new.txt", "content": ""}`)
	if e != nil || out.Created || out.Size != 0 {
		t.Errorf("overwrite with empty content: %+v, %v", out, e)
	}
	if _, e := call[writeFileOut](t, reg, "write_file", `{"path": "deep", "content": "x"}`); e == nil || e.Code != tool.CodeIsADirectory {
		t.Errorf("write over a directory: %+v", e)
	}
}

// readFileOut encodes itself; it must decode exactly as encoding/json's encoding of the same value does, for any
// content, including invalid UTF-8, control bytes and the characters JSON treats specially.
func TestReadFileJSON(t *testing.T) {
	contents := []string{
		"", "plain\n", "tab\tquote\" back\\slash\r\n", "\x00\x01\x1f\x7f", "<html>&amp;</html>", "héllo wörld ✓ 😀",
		"bad \xff\xfe utf8 \xc3", "line\u2028sep\u2029", strings.Repeat("x", 70000) + "\xe2\x82",
	}
	for _, c := range contents {
		out := readFileOut{Path: "dir/ä \"q\".txt", Exists: true, Content: files.Content{
			Text: c, Size: int64(len(c)), TotalLines: 3, StartLine: 1, EndLine: 3, Truncated: true,
			LineEnding: "crlf", ModTime: time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.FixedZone("x", 3600)),
		}}
		var fast, slow map[string]any
		if err := json.Unmarshal(out.AppendJSON(nil), &fast); err != nil {
			t.Fatalf("AppendJSON(%q) is not JSON: %v", c, err)
		}
		std, _ := json.Marshal(out)
		if err := json.Unmarshal(std, &slow); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("content %q:\nAppendJSON: %v\njson:       %v", c, fast, slow)
		}
	}
}

func TestSearchAndFindTools(t *testing.T) {
	reg, _, root := openRegistry(t, "src/", "src/a.go", "src/b_test.go", "README.md")
	os.WriteFile(filepath.Join(root, "src", "a.go"), []byte("package src\n\nfunc Needle() {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "src", "b_test.go"), []byte("package src\n// Needle test\n"), 0o644)

	type out struct {
		Path    string
		Matches []struct {
			Path   string
			Line   int
			Before []string
		}
		Files []struct {
			Path  string
			Count int
		}
		Total     int
		Truncated bool
	}
	res, e := call[out](t, reg, "search_files", `{"query": "Needle", "glob": "*.go"}`)
	if e != nil || len(res.Matches) != 2 || res.Matches[0].Path != "src/a.go" || res.Matches[0].Line != 3 {
		t.Fatalf("search: %+v, %v", res, e)
	}
	res, e = call[out](t, reg, "search_files", `{"query": "needle", "case_insensitive": true, "glob": ["*.go", "!*_test.go"], "context": 1, "path": "src"}`)
	if e != nil || len(res.Matches) != 1 || res.Path != "src" || !slices.Equal(res.Matches[0].Before, []string{""}) {
		t.Fatalf("glob list, context, path: %+v, %v", res, e)
	}
	res, e = call[out](t, reg, "search_files", `{"query": "package", "output": "files"}`)
	if e != nil || len(res.Files) != 2 || res.Files[0].Count != 1 {
		t.Fatalf("files output: %+v, %v", res, e)
	}
	if _, e := call[out](t, reg, "search_files", `{"query": "(x", "regex": true, "case_insensitive": true}`); e == nil || !strings.HasSuffix(e.Message, "`(x`") {
		t.Errorf("a regex error must quote the pattern as given: %+v", e)
	}
	// A path naming a file searches only that file (src has the same needle in b_test.go).
	res, e = call[out](t, reg, "search_files", `{"query": "needle", "case_insensitive": true, "path": "src/a.go"}`)
	if e != nil || len(res.Matches) != 1 || res.Matches[0].Path != "src/a.go" {
		t.Errorf("search in one file: %+v, %v", res, e)
	}
	for _, tt := range []struct{ args, code, field string }{
		{`{"query": "("  , "regex": true}`, tool.CodeInvalidArgument, "query"},
		{`{"query": "x", "output": "lines"}`, tool.CodeInvalidArgument, "output"},
		{`{"query": "x", "glob": "a[b"}`, tool.CodeInvalidArgument, "glob"},
		{`{"query": "x", "glob": [1]}`, tool.CodeInvalidArgument, "glob"},
		{`{"query": "x", "path": "../"}`, tool.CodeOutsideRoot, ""},
		{`{"query": "x", "path": "nope"}`, tool.CodeNotFound, ""},
	} {
		_, e := call[out](t, reg, "search_files", tt.args)
		if e == nil || e.Code != tt.code || e.Field != tt.field {
			t.Errorf("search_files %s = %+v, want %s field %q", tt.args, e, tt.code, tt.field)
		}
	}

	type found struct {
		Files []struct{ Path string }
		Total int
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "src", "a.go"), old, old)
	f, e := call[found](t, reg, "find_files", `{"glob": "*.go"}`)
	if e != nil || f.Total != 2 || f.Files[0].Path != "src/b_test.go" {
		t.Fatalf("find newest first: %+v, %v", f, e)
	}
	if _, e := call[found](t, reg, "find_files", `{"glob": []}`); e == nil || e.Code != tool.CodeInvalidArgument {
		t.Errorf("find with no glob: %+v", e)
	}
}

// With an index (as in the window), a write through the tools is seen by the very next search.
func TestSearchSeesOwnWritesThroughIndex(t *testing.T) {
	s, _ := openLayout(t, "a.txt")
	idx := &index.Indexes{}
	defer idx.Close()
	reg := Registry(Deps{Session: s, Indexes: idx})
	type out struct{ Total int }
	for i := range 10 {
		word := fmt.Sprintf("word%d", i)
		if _, e := call[out](t, reg, "search_files", fmt.Sprintf(`{"query": %q}`, word)); e != nil {
			t.Fatal(e)
		}
		if _, e := call[writeFileOut](t, reg, "write_file", fmt.Sprintf(`{"path": "f%d.txt", "content": %q}`, i%3, word)); e != nil {
			t.Fatal(e)
		}
		if res, e := call[out](t, reg, "search_files", fmt.Sprintf(`{"query": %q}`, word)); e != nil || res.Total != 1 {
			t.Fatalf("round %d: the search after the write found %d, %v", i, res.Total, e)
		}
	}
	if st, ok := idx.Status(); !ok || st.Watched == 0 {
		t.Errorf("no live index: %+v %v", st, ok)
	}
}
