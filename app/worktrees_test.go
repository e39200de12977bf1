package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

// A conversation started in a worktree, as the window starts one: the worktree is opened as the project, the
// agent's edit and command happen there and leave the main checkout as it was; Apply brings them home; Discard
// of the open worktree closes it as a project, shows the main checkout and leaves no branch.
func TestConversationInAWorktreeAsTheWindowDoes(t *testing.T) {
	svc, home := openProject(t, map[string]string{"README.md": "# Demo\n", "notes.txt": "one\n"})
	main := home.Root
	started, err := svc.Worktrees.Start(home.ID, "Rewrite the readme", "")
	if err != nil {
		t.Fatal(err)
	}
	if started.Project.Root != started.Worktree.Path || strings.HasPrefix(started.Project.Root, main) {
		t.Fatalf("Start opened %+v", started)
	}
	call := func(name string, args any) error {
		b, _ := json.Marshal(args)
		_, err := svc.Tools.CallIn(started.Project.ID, "conv-1", name, string(b))
		return err
	}
	for _, c := range []struct {
		name string
		args any
	}{
		{"read_file", map[string]any{"path": "README.md"}},
		{"write_file", map[string]any{"path": "README.md", "content": "# Rewritten\n"}},
		{"exec_shell", map[string]any{"command": "cp", "args": []string{"notes.txt", "copy.txt"}}},
	} {
		if err := call(c.name, c.args); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	// Another conversation has read nothing: it cannot overwrite what the first one wrote.
	b, _ := json.Marshal(map[string]any{"path": "README.md", "content": "# Other\n"})
	if _, err := svc.Tools.CallIn(started.Project.ID, "conv-2", "write_file", string(b)); err == nil || !strings.Contains(err.Error(), tool.CodeNotRead) {
		t.Fatalf("a second conversation's unread write: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(main, "README.md")); string(got) != "# Demo\n" {
		t.Fatalf("the main checkout changed before Apply: %q", got)
	}
	if _, err := os.Stat(filepath.Join(main, "copy.txt")); err == nil {
		t.Fatal("the worktree's command wrote into the main checkout")
	}
	list, err := svc.Worktrees.List(home.ID)
	if err != nil || len(list) != 1 || list[0].Changed != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}

	if _, err := svc.Worktrees.Apply(home.ID, started.Worktree.Name); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"README.md": "# Rewritten\n", "copy.txt": "one\n"} {
		if got, _ := os.ReadFile(filepath.Join(main, name)); string(got) != want {
			t.Fatalf("after Apply %s = %q, want %q", name, got, want)
		}
	}
	back, err := svc.Worktrees.Discard(started.Project.ID, started.Worktree.Name)
	if err != nil {
		t.Fatal(err)
	}
	if back == nil || back.Root != main {
		t.Fatalf("Discard of the open worktree opened %+v, want the main checkout", back)
	}
	for _, p := range svc.Projects.List() {
		if p.Root == started.Worktree.Path {
			t.Fatalf("the discarded worktree is still open as a project: %+v", svc.Projects.List())
		}
	}
	if _, err := os.Stat(started.Worktree.Path); err == nil {
		t.Fatal("Discard left the worktree's folder")
	}
	if out := testtree.Git(t, main, "branch", "--list", started.Worktree.Branch); out != "" {
		t.Fatalf("Discard left the branch: %q", out)
	}
	recent, err := svc.Projects.Recent()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recent {
		if r.Path == started.Worktree.Path {
			t.Fatalf("the discarded worktree is still among the recent projects: %+v", recent)
		}
	}
}

// Starting a worktree from the window says what it does as it does it (the step, then the setup command and its
// output, on the call's live output), and the worktree opened is marked as one of its main checkout wherever the
// window lists projects; Of counts the files it changed, for the worktree's bar.
func TestWorktreeStartShowsProgressAndIsMarked(t *testing.T) {
	svc, home := openProject(t, map[string]string{"notes.txt": "set up from the notes\n"})
	if err := svc.settings.SetProject(home.Root, settings.Project{Allowlist: []string{"cat", "cp"}, WorktreeSetup: []string{"cat", "notes.txt"}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var out []ToolOutput
	svc.events.start(func(name string, data any) {
		if o, ok := data.(ToolOutput); ok && name == EventToolOutput && o.ID == "start-1" {
			mu.Lock()
			out = append(out, o)
			mu.Unlock()
		}
	})
	started, err := svc.Worktrees.Start(home.ID, "Fix the notes", "start-1")
	if err != nil {
		t.Fatal(err)
	}
	if started.Worktree.Setup == nil || started.Worktree.Setup.Error != "" {
		t.Fatalf("setup = %+v", started.Worktree.Setup)
	}
	mu.Lock()
	streams := map[string]string{}
	for _, o := range out {
		streams[o.Stream] += o.Data
	}
	mu.Unlock()
	for _, want := range []string{"git worktree add", "running the setup command: cat notes.txt", "opening rooted/fix-the-notes as a project"} {
		if !strings.Contains(streams["status"], want) {
			t.Errorf("status stream %q lacks %q", streams["status"], want)
		}
	}
	if !strings.Contains(streams["stdout"], "set up from the notes") {
		t.Errorf("the setup command's output did not stream: %q", streams)
	}

	// Listed, the worktree names its main checkout and branch; the main checkout is no worktree.
	marks := map[string]*ProjectWorktree{}
	for _, p := range svc.Projects.List() {
		marks[p.Root] = p.Worktree
	}
	want := ProjectWorktree{Name: started.Worktree.Name, Branch: "rooted/fix-the-notes", Main: home.Root, MainName: home.Name}
	if len(marks) != 2 || marks[home.Root] != nil || marks[started.Worktree.Path] == nil || *marks[started.Worktree.Path] != want {
		t.Fatalf("projects listed as %+v, want the worktree marked %+v", marks, want)
	}
	if started.Project.Worktree == nil || *started.Project.Worktree != want {
		t.Fatalf("Start returned the project %+v", started.Project)
	}

	// Of counts what the worktree changed; for the main checkout it is nil.
	if wt, err := svc.Worktrees.Of(home.ID); err != nil || wt != nil {
		t.Fatalf("Of(main) = %+v, %v", wt, err)
	}
	if err := os.WriteFile(filepath.Join(started.Worktree.Path, "new.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wt, err := svc.Worktrees.Of(started.Project.ID)
	if err != nil || wt == nil || wt.Changed != 1 || wt.Branch != want.Branch {
		t.Fatalf("Of(worktree) = %+v, %v; want 1 file changed", wt, err)
	}
}
