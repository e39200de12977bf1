package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestCallExitCodes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // substring of stdout
	}{
		{"list", "", []string{"call", "list_directory", "--root", root, `{"path":"."}`}, ExitOK, `"name": "src"`},
		{"flags after json", "", []string{"call", "read_file", `{"path":"a.txt"}`, "--root", root, "--cwd", "src"}, ExitOK, `"content": "hello\n"`},
		{"stdin", `{"path":"src/a.txt"}`, []string{"call", "--root", root, "read_file"}, ExitOK, `"total_lines": 1`},
		{"tool error", "", []string{"call", "read_file", "--root", root, `{"path":"../x"}`}, ExitToolError, `"code": "outside_root"`},
		{"invalid args", "", []string{"call", "read_file", "--root", root, `{"path":1}`}, ExitToolError, `"code": "invalid_argument"`},
		{"bad root", "", []string{"call", "read_file", "--root", filepath.Join(root, "nope"), `{"path":"a"}`}, ExitToolError, `cannot open project root`},
		{"bad cwd", "", []string{"call", "read_file", "--root", root, "--cwd", "..", `{"path":"a"}`}, ExitToolError, `"code": "outside_root"`},
		{"unknown tool", "", []string{"call", "nope", "--root", root, `{}`}, ExitUsage, `"code": "unknown_tool"`},
		{"no tool", "", []string{"call"}, ExitUsage, ""},
		{"too many args", "", []string{"call", "read_file", "{}", "{}"}, ExitUsage, ""},
		{"bad flag", "", []string{"call", "--nope", "read_file"}, ExitUsage, ""},
		{"unknown command", "", []string{"frobnicate"}, ExitUsage, ""},
		{"help", "", []string{"help"}, ExitOK, "Commands:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and stdout containing %q", code, out, errOut, tt.code, tt.want)
			}
			if code == ExitToolError {
				var env struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal([]byte(out), &env); err != nil || env.Error.Code == "" || env.Error.Message == "" {
					t.Errorf("a tool error must print its JSON: %q", out)
				}
			}
		})
	}
}

func TestToolsJSON(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "", "tools", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var specs []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(out), &specs); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range specs {
		names[s.Name] = true
		if s.InputSchema["type"] != "object" {
			t.Errorf("%s: schema %v", s.Name, s.InputSchema)
		}
	}
	for _, want := range []string{"read_file", "list_directory", "change_working_directory", "get_working_directory"} {
		if !names[want] {
			t.Errorf("tools --json lacks %s", want)
		}
	}
	if code, out, _ := run(t, "", "tools"); code != ExitOK || !strings.Contains(out, "read_file (read-only)") {
		t.Errorf("human tools listing: %d %q", code, out)
	}
}

func TestReadEditLs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	r := func(args ...string) (int, string, string) {
		t.Helper()
		return run(t, "", append(args, "--root", root)...)
	}
	if code, out, errOut := r("edit", "--file", "src/a.txt", "--content", "one\ntwo\n"); code != ExitOK || !strings.HasPrefix(out, "created src/a.txt (8 B); undo with: rooted restore ") {
		t.Fatalf("edit --content: %d %q %q", code, out, errOut)
	}
	if code, out, _ := r("edit", "--file", "src/a.txt", "--search", "two", "--replace", "2"); code != ExitOK || !strings.HasPrefix(out, "patched src/a.txt: 1 replacement; undo with") {
		t.Fatalf("edit --search: %d %q", code, out)
	}
	if code, out, _ := r("read", "--file", "src/a.txt"); code != ExitOK || out != "one\n2\n" {
		t.Fatalf("read: %d %q", code, out)
	}
	if code, out, errOut := r("read", "--file", "a.txt", "--cwd", "src", "--limit", "1"); code != ExitOK || out != "one\n" || !strings.Contains(errOut, "--offset 2") {
		t.Fatalf("read a range: %d %q %q", code, out, errOut)
	}
	if code, out, _ := r("ls"); code != ExitOK || !strings.Contains(out, "src/") {
		t.Fatalf("ls: %d %q", code, out)
	}
	if code, out, _ := r("ls", "src", "--json"); code != ExitOK || !strings.Contains(out, `"name": "a.txt"`) {
		t.Fatalf("ls --json: %d %q", code, out)
	}
	// Tool errors: a human line on stderr, or the JSON with --json; exit 1 either way.
	if code, _, errOut := r("edit", "--file", "src/a.txt", "--search", "zzz", "--replace", "y"); code != ExitToolError || !strings.HasPrefix(errOut, "rooted edit: no_match: ") {
		t.Errorf("no match: %d %q", code, errOut)
	}
	if code, out, _ := r("read", "--file", "../x", "--json"); code != ExitToolError || !strings.Contains(out, `"code": "outside_root"`) {
		t.Errorf("read outside --json: %d %q", code, out)
	}
	// Usage errors: exit 2.
	for _, args := range [][]string{
		{"edit", "--file", "x"},
		{"edit", "--file", "x", "--content", "a", "--search", "b", "--replace", "c"},
		{"edit", "--file", "x", "--search", "b"},
		{"read"},
		{"ls", "a", "b"},
	} {
		if code, _, _ := r(args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src", "a.txt")); string(b) != "one\n2\n" {
		t.Errorf("failed commands changed the file: %q", b)
	}
}

func TestExec(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("x"), 0o644)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // default settings
	code, out, _ := run(t, "", "exec", "--root", root, "--", "ls", "-1")
	if code != 0 || out != "a.txt\n" {
		t.Errorf("exec ls: %d %q", code, out)
	}
	if code, _, errOut := run(t, "", "exec", "--root", root, "--", "ls", "nope"); code == 0 || !strings.Contains(errOut, "nope") {
		t.Errorf("the program's exit code and stderr pass through: %d %q", code, errOut)
	}
	if code, _, errOut := run(t, "", "exec", "--root", root, "--", "curl", "x"); code != ExitRefused || !strings.Contains(errOut, "command_not_allowed") {
		t.Errorf("refused: %d %q", code, errOut)
	}
	if code, _, _ := run(t, "", "exec", "--root", root, "--timeout", "200ms", "--", "node", "-e", "setTimeout(() => {}, 10000)"); code != ExitTimedOut {
		t.Errorf("timeout: %d", code)
	}
	if code, out, _ := run(t, "", "exec", "--root", root, "--json", "--", "ls"); code != 0 || !strings.Contains(out, `"exit_code": 0`) {
		t.Errorf("--json: %d %q", code, out)
	}
	if code, _, _ := run(t, "", "exec", "--root", root); code != ExitUsage {
		t.Errorf("no program: %d", code)
	}
}

func TestSnapshotCommands(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644)
	code, out, _ := run(t, "", "edit", "--root", root, "--file", "a.txt", "--search", "one", "--replace", "two")
	if code != 0 || !strings.Contains(out, "undo with: rooted restore ") {
		t.Fatalf("edit: %d %q", code, out)
	}
	id := strings.TrimSpace(out[strings.LastIndex(out, " ")+1:])
	if code, out, _ := run(t, "", "snapshots", "--root", root); code != 0 || !strings.Contains(out, "Backup before file patch: a.txt") {
		t.Errorf("snapshots: %d %q", code, out)
	}
	if code, out, _ := run(t, "", "diff", id, "--root", root); code != 0 || !strings.Contains(out, "-one") || !strings.Contains(out, "+two") {
		t.Errorf("diff: %d %q", code, out)
	}
	if code, out, _ := run(t, "", "restore", id, "--root", root, "--path", "a.txt"); code != 0 || !strings.Contains(out, "1 written") {
		t.Errorf("restore: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\n" {
		t.Errorf("after restore: %q", b)
	}
	if code, out, _ := run(t, "", "snapshots", "--log", "--root", root); code != 0 || !strings.Contains(out, "restore") {
		t.Errorf("log: %d %q", code, out)
	}
	if code, _, errOut := run(t, "", "restore", "ffffffff", "--root", root); code != ExitToolError || !strings.Contains(errOut, "not_found") {
		t.Errorf("unknown id: %d %q", code, errOut)
	}
	if code, out, _ := run(t, "", "edit", "--root", root, "--file", "b.txt", "--content", "x", "--no-backup"); code != 0 || strings.Contains(out, "undo") {
		t.Errorf("--no-backup: %d %q", code, out)
	}
}
