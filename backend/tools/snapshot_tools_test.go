package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
)

func snapshotRegistry(t *testing.T, cacheDir string, layout ...string) (*tool.Registry, string) {
	t.Helper()
	s, root := openLayout(t, layout...)
	return Registry(Deps{Session: s, Snapshots: &snapshot.Projects{CacheDir: cacheDir}}), root
}

func TestEditsAreBackedUpAndUndoable(t *testing.T) {
	reg, root := snapshotRegistry(t, t.TempDir(), "src/", "src/main.go")
	read := func(rel string) string { b, _ := os.ReadFile(filepath.Join(root, rel)); return string(b) }

	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "src/main.go"}`); e != nil {
		t.Fatal(e)
	}
	w, e := call[writeFileOut](t, reg, "write_file", `{"path": "src/main.go", "content": "v2"}`)
	if e != nil || len(w.Backup) != 40 {
		t.Fatalf("write: %+v, %v", w, e)
	}
	p, e := call[patchFileOut](t, reg, "patch_file", `{"path": "src/main.go", "search": "v2", "replace": "v3"}`)
	if e != nil || p.Backup == "" || p.Backup == w.Backup {
		t.Fatalf("patch: %+v, %v", p, e)
	}
	x, e := call[execOut](t, reg, "exec_shell", `{"command": "touch src/made-by-command.txt"}`)
	if e != nil || x.ExitCode != 0 {
		t.Fatalf("exec: %+v, %v", x, e)
	}
	list, e := call[listSnapshotsOut](t, reg, "list_snapshots", `{}`)
	if e != nil || len(list.Snapshots) != 3 || !strings.HasPrefix(list.Snapshots[0].Reason, "Backup before command: touch") ||
		list.Snapshots[2].Reason != "Backup before file mod: src/main.go" {
		t.Fatalf("list: %+v, %v", list, e)
	}
	d, e := call[diffSnapshotOut](t, reg, "diff_snapshot", `{"id": "`+w.Backup[:8]+`"}`)
	if e != nil || !strings.Contains(d.Diff, "-inside:main.go") || !strings.Contains(d.Diff, "+v3") || !strings.Contains(d.Diff, "made-by-command.txt") {
		t.Fatalf("diff: %+v, %v", d, e)
	}
	// Undo everything since the first write: the file is back, the command's file is gone.
	r, e := call[snapshot.RestoreResult](t, reg, "restore_snapshot", `{"id": "`+w.Backup+`"}`)
	if e != nil || read("src/main.go") != "inside:main.go" || r.Backup == "" {
		t.Fatalf("restore: %+v, %v, %q", r, e, read("src/main.go"))
	}
	if _, err := os.Stat(filepath.Join(root, "src", "made-by-command.txt")); err == nil {
		t.Error("the command's file survived the restore")
	}
	log, _ := call[listSnapshotsOut](t, reg, "list_snapshots", `{"log": true}`)
	if len(log.Log) < 5 || log.Log[0].Action != "restore" {
		t.Errorf("log: %+v", log.Log)
	}
	// backup: false skips the snapshot.
	if w, _ := call[writeFileOut](t, reg, "write_file", `{"path": "x.txt", "content": "x", "backup": false}`); w.Backup != "" {
		t.Errorf("backup false still backed up: %+v", w)
	}
	if _, e := call[diffSnapshotOut](t, reg, "diff_snapshot", `{"id": "0123456789"}`); e == nil || e.Code != tool.CodeNotFound || !strings.Contains(e.Message, "list_snapshots") {
		t.Errorf("unknown snapshot: %+v", e)
	}
}

// If the snapshot cannot be taken, nothing is changed.
func TestBackupFailureLeavesTheFile(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, nil, 0o644)
	reg, root := snapshotRegistry(t, notADir, "a.txt")
	for _, c := range []struct{ name, args string }{
		{"write_file", `{"path": "a.txt", "content": "new"}`},
		{"patch_file", `{"path": "a.txt", "search": "inside", "replace": "x"}`},
		{"exec_shell", `{"command": "rm a.txt"}`},
	} {
		_, e := call[map[string]any](t, reg, c.name, c.args)
		if e == nil || e.Code != tool.CodeBackupFailed || !strings.Contains(e.Message, "nothing was changed") {
			t.Errorf("%s with a broken snapshot store: %+v", c.name, e)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "inside:a.txt" {
		t.Errorf("the file changed: %q", b)
	}
}

// diff_snapshot with to shows what happened between two snapshots: one request's turn, a command's files included,
// and nothing from before or after it.
func TestDiffBetweenTwoSnapshots(t *testing.T) {
	reg, _ := snapshotRegistry(t, t.TempDir(), "src/", "src/main.go")
	if _, e := call[readFileOut](t, reg, "read_file", `{"path": "src/main.go"}`); e != nil {
		t.Fatal(e)
	}
	w, e := call[writeFileOut](t, reg, "write_file", `{"path": "src/main.go", "content": "v2\n"}`)
	if e != nil {
		t.Fatal(e)
	}
	x, e := call[struct{ Backup string }](t, reg, "exec_shell", `{"command": "touch src/made-by-command.txt"}`)
	if e != nil || x.Backup == "" {
		t.Fatalf("exec: %+v, %v", x, e)
	}
	if _, e := call[patchFileOut](t, reg, "patch_file", `{"path": "src/main.go", "search": "v2", "replace": "v3"}`); e != nil {
		t.Fatal(e)
	}
	for _, c := range []struct {
		name, args string
		has, lacks []string
	}{
		{"the write alone", `{"id": "` + w.Backup + `", "to": "` + x.Backup + `"}`, []string{"-inside:main.go", "+v2"}, []string{"made-by-command", "v3"}},
		{"from the command on", `{"id": "` + x.Backup[:8] + `"}`, []string{"made-by-command.txt", "-v2", "+v3"}, []string{"inside:main.go"}},
		{"one path between the two", `{"id": "` + w.Backup + `", "to": "` + x.Backup + `", "path": "src/made-by-command.txt"}`, nil, []string{"main.go"}},
	} {
		d, e := call[diffSnapshotOut](t, reg, "diff_snapshot", c.args)
		if e != nil {
			t.Fatalf("%s: %v", c.name, e)
		}
		for _, s := range c.has {
			if !strings.Contains(d.Diff, s) {
				t.Errorf("%s: the diff lacks %q:\n%s", c.name, s, d.Diff)
			}
		}
		for _, s := range c.lacks {
			if strings.Contains(d.Diff, s) {
				t.Errorf("%s: the diff has %q:\n%s", c.name, s, d.Diff)
			}
		}
	}
	if _, e := call[diffSnapshotOut](t, reg, "diff_snapshot", `{"id": "`+w.Backup+`", "to": "0123456789"}`); e == nil || e.Code != tool.CodeNotFound {
		t.Errorf("unknown later snapshot: %+v", e)
	}
}
