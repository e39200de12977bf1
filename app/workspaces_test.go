package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two projects open in the window at once: a background job of A runs on while the window opens B, works in it
// and closes it; each call acts on the project its id names; closing A ends A's job. Before workspaces, opening B
// closed A's index, snapshots and jobs.
func TestJobInOneProjectSurvivesAnother(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(a, "a.txt"), []byte("in a\n"), 0o644)
	os.WriteFile(filepath.Join(b, "b.txt"), []byte("in b\n"), 0o644)
	svc := openServices(t)
	pa, err := svc.Projects.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Settings.Project(pa.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Settings.Save(pa.ID, ProjectSettingsInput{Allowlist: append(p.Allowlist, "sh"), SnapshotKeep: p.SnapshotKeep, SnapshotMaxAgeDays: p.SnapshotMaxAgeDays}); err != nil {
		t.Fatal(err)
	}
	out, err := svc.Tools.Call(pa.ID, "exec_shell", `{"command": "sh -c 'sleep 600'", "background": true}`)
	if err != nil {
		t.Fatal(err)
	}
	var started struct {
		Job struct {
			ID string `json:"id"`
		} `json:"job"`
	}
	json.Unmarshal([]byte(out), &started)
	running := func(ws string) bool {
		for _, j := range svc.Jobs.List(ws) {
			if j.ID == started.Job.ID && j.Running {
				return true
			}
		}
		return false
	}
	if !running(pa.ID) {
		t.Fatalf("A's job is not running: %+v", svc.Jobs.List(pa.ID))
	}

	pb, err := svc.Projects.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if cur(t, svc) != pb.ID {
		t.Errorf("the project opened last is not the current one")
	}
	for ws, want := range map[string]string{pa.ID: "in a", pb.ID: "in b"} {
		name := map[string]string{pa.ID: "a.txt", pb.ID: "b.txt"}[ws]
		if out, err := svc.Tools.Call(ws, "read_file", `{"path": "`+name+`"}`); err != nil || !strings.Contains(out, want) {
			t.Errorf("read %s in %s: %s, %v", name, ws, out, err)
		}
	}
	if _, err := svc.Tools.Call(pb.ID, "read_file", `{"path": "a.txt"}`); err == nil {
		t.Error("B's tools read A's file")
	}
	if len(svc.Jobs.List(pb.ID)) != 0 {
		t.Errorf("B lists A's jobs: %+v", svc.Jobs.List(pb.ID))
	}
	if err := svc.Projects.Close(pb.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tools.Call(pb.ID, "read_file", `{"path": "b.txt"}`); err == nil || !strings.Contains(err.Error(), `"no_project"`) {
		t.Errorf("a call to the closed project: %v", err)
	}
	if !running(pa.ID) {
		t.Fatalf("A's job ended with B: %+v", svc.Jobs.List(pa.ID))
	}
	if out, err := svc.Tools.Call(pa.ID, "search_files", `{"query": "in a"}`); err != nil || !strings.Contains(out, "a.txt") {
		t.Errorf("A's search after B closed: %s, %v", out, err)
	}
	if err := svc.Projects.Close(pa.ID); err != nil {
		t.Fatal(err)
	}
	if list := svc.Projects.List(); len(list) != 0 {
		t.Errorf("open after closing both: %+v", list)
	}
}
