package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

func openRegistry(t *testing.T, layout ...string) (*tool.Registry, *session.Session, string) {
	t.Helper()
	_, root := makeLayout(t, layout)
	s, err := session.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
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

// Every spec is complete and every example in it is valid input: the model learns the tools from these.
func TestSpecsAndExamples(t *testing.T) {
	reg := Registry(Deps{Session: session.New()})
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
	l, e = call[listDirectoryOut](t, reg, "list_directory", `{"limit": 2}`)
	if e != nil || len(l.Entries) != 2 || !l.Truncated || l.Total != 6 {
		t.Errorf("limit 2: %+v, %v", l, e)
	}
	_, e = call[listDirectoryOut](t, reg, "list_directory", `{"path": "m.go"}`)
	if e == nil || e.Code != tool.CodeNotADirectory || e.Path != "m.go" {
		t.Errorf("list a file: %+v", e)
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
	if e == nil || e.Code != tool.CodeBinaryFile || !strings.Contains(e.Message, "PNG image") || !strings.Contains(e.Message, "img.png") {
		t.Errorf("binary: %+v", e)
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
	reg, _, _ := openRegistry(t, "a/", "a/b/", "a/f", "a/b/g")
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			switch i % 4 {
			case 0:
				_, _ = reg.Call(context.Background(), "change_working_directory", []byte(`{"path": "/"}`))
			case 1:
				_, _ = reg.Call(context.Background(), "change_working_directory", []byte(`{"path": "-"}`))
			case 2:
				if _, e := reg.Call(context.Background(), "list_directory", []byte(`{}`)); e != nil && e.Code == tool.CodeInternal {
					t.Error(e)
				}
			case 3:
				if _, e := reg.Call(context.Background(), "read_file", []byte(`{"path": "a/f"}`)); e != nil && e.Code == tool.CodeInternal {
					t.Error(e)
				}
			}
		})
	}
	wg.Wait()
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
