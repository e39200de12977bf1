package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

// rooted worktree, scripted as a user would: make one, work in it, see it listed, bring it home, commit and
// discard it; and the refusals come back as the error JSON with their code.
func TestWorktreeCommand(t *testing.T) {
	main := testtree.Repo(t, map[string]string{"a.txt": "alpha\n", "b.txt": "bravo\n"})
	call := func(want int, args ...string) []byte {
		t.Helper()
		code, out, errOut := run(t, "", append([]string{"worktree"}, append(args, "--root", main, "--json")...)...)
		if code != want {
			t.Fatalf("rooted worktree %v = %d, want %d: %s %s", args, code, want, out, errOut)
		}
		return []byte(out)
	}
	var w struct{ Name, Branch, Path, Base string }
	if err := json.Unmarshal(call(ExitOK, "new", "Rename things"), &w); err != nil {
		t.Fatal(err)
	}
	if w.Name != "rename-things" || w.Branch != "rooted/rename-things" || strings.HasPrefix(w.Path, main) {
		t.Fatalf("new = %+v", w)
	}
	testtree.Write(t, w.Path, map[string]string{"a.txt": "alpha renamed\n", "c.txt": "new\n"})

	var list struct {
		Worktrees []struct {
			Name    string
			Changed int `json:"changed_files"`
		}
	}
	if err := json.Unmarshal(call(ExitOK, "list"), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Worktrees) != 1 || list.Worktrees[0].Name != w.Name || list.Worktrees[0].Changed != 2 {
		t.Fatalf("list = %+v", list)
	}
	if b, _ := os.ReadFile(filepath.Join(main, "a.txt")); string(b) != "alpha\n" {
		t.Fatalf("the main checkout changed before apply: %q", b)
	}

	var applied struct {
		Changed  []string
		Snapshot string
	}
	if err := json.Unmarshal(call(ExitOK, "apply", w.Name), &applied); err != nil {
		t.Fatal(err)
	}
	if len(applied.Changed) != 2 || applied.Snapshot == "" {
		t.Fatalf("apply = %+v", applied)
	}
	for name, want := range map[string]string{"a.txt": "alpha renamed\n", "c.txt": "new\n", "b.txt": "bravo\n"} {
		if b, _ := os.ReadFile(filepath.Join(main, name)); string(b) != want {
			t.Fatalf("after apply %s = %q, want %q", name, b, want)
		}
	}

	var committed struct {
		Commit    string
		Committed bool
	}
	if err := json.Unmarshal(call(ExitOK, "commit", w.Name, "-m", "renamed"), &committed); err != nil || !committed.Committed {
		t.Fatalf("commit = %+v, %v", committed, err)
	}
	if got := testtree.Git(t, main, "log", "-1", "--format=%s", w.Branch); got != "renamed\n" {
		t.Fatalf("the branch's last commit is %q", got)
	}

	// A change the user made in the main checkout meanwhile is a conflict, named, and nothing is written.
	testtree.Write(t, w.Path, map[string]string{"b.txt": "bravo from the worktree\n"})
	testtree.Write(t, main, map[string]string{"b.txt": "bravo from the user\n"})
	var failed tool.Envelope
	if err := json.Unmarshal(call(ExitToolError, "apply", w.Name), &failed); err != nil || failed.Error.Code != tool.CodeConflict || failed.Error.Path != "b.txt" {
		t.Fatalf("a conflicting apply = %+v, %v", failed.Error, err)
	}
	if b, _ := os.ReadFile(filepath.Join(main, "b.txt")); string(b) != "bravo from the user\n" {
		t.Fatalf("a refused apply wrote b.txt: %q", b)
	}

	call(ExitOK, "discard", w.Name)
	if _, err := os.Lstat(w.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("discard left the folder: %v", err)
	}
	if got := testtree.Git(t, main, "branch", "--list", w.Branch); got != "" {
		t.Fatalf("discard left the branch: %q", got)
	}
	if err := json.Unmarshal(call(ExitOK, "list"), &list); err != nil || len(list.Worktrees) != 0 {
		t.Fatalf("list after discard = %+v, %v", list, err)
	}
	if err := json.Unmarshal(call(ExitToolError, "apply", w.Name), &failed); err != nil || failed.Error.Code != tool.CodeNotFound {
		t.Fatalf("apply of a discarded worktree = %+v, %v", failed.Error, err)
	}

	plain := t.TempDir()
	code, out, _ := run(t, "", "worktree", "new", "x", "--root", plain, "--json")
	if err := json.Unmarshal([]byte(out), &failed); code != ExitToolError || err != nil || failed.Error.Code != tool.CodeNotARepository {
		t.Fatalf("new outside a repository = %d %s", code, out)
	}
	if code, _, _ := run(t, "", "worktree", "frobnicate", "--root", main); code != ExitUsage {
		t.Fatalf("an unknown verb = %d, want %d", code, ExitUsage)
	}
}
