package settings

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Project is asked on every tool call, so the store keeps the file's projects between calls; whatever changes
// the file (this store, another one, another process, the user's editor) is seen at the next call, and what a
// caller does to the settings it got never reaches the next caller.
func TestProjectSeesEveryChangeOfTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s, other := NewStore(path), NewStore(path)
	const root = "/home/me/shop"
	allow := func(want ...string) {
		t.Helper()
		p, err := s.Project(root)
		if err != nil || !slices.Equal(p.Allowlist, want) {
			t.Fatalf("Project = %v, %v; want the allowlist %v", p.Allowlist, err, want)
		}
	}
	byHand := func(text string, keepTime bool) {
		t.Helper()
		fi, _ := os.Stat(path)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600) // in place: the same inode
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if keepTime && fi != nil {
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}
	}
	edit := func(list string) string {
		return fmt.Sprintf(`{"projects": {%q: {"allowlist": [%s]}}}`, root, list)
	}

	allow() // no file: the defaults
	if err := s.SetProject(root, Project{Allowlist: []string{"go"}}); err != nil {
		t.Fatal(err)
	}
	allow("go")
	if err := other.SetProject(root, Project{Allowlist: []string{"ls"}}); err != nil {
		t.Fatal(err)
	}
	allow("ls")
	byHand(edit(`"aa"`), false)
	allow("aa")
	time.Sleep(10 * time.Millisecond)
	byHand(edit(`"bb"`), false) // the same size, a later time
	allow("bb")
	byHand(edit(`"cc"`), true) // in place, of the same size, at the same time: only the bytes differ
	allow("cc")
	byHand(edit(`"ccc"`), true) // the same time, another size
	allow("ccc")

	p, _ := s.Project(root)
	p.Allowlist[0] = "rm"
	p.Allowlist = append(p.Allowlist, "curl")
	allow("ccc")

	byHand(`{"projects": `, false)
	if _, err := s.Project(root); err == nil {
		t.Fatal("a broken settings file read as settings")
	}
	byHand(edit(`"go", "make"`), false)
	allow("go", "make")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	allow()
}

// BenchmarkProject is the read every tool call makes, from the settings file of a user of 40 projects.
func BenchmarkProject(b *testing.B) {
	path := filepath.Join(b.TempDir(), "settings.json")
	projects := map[string]Project{}
	for i := range 40 {
		projects[fmt.Sprintf("/home/me/src/project-%d", i)] = Project{
			Allowlist: []string{"go", "git", "make", "npm", "node", "ls", "cat", "grep", "sed", "rg", "python3", "cargo"},
			Network:   NetworkAllowlist, NetworkHosts: []string{"proxy.golang.org", "registry.npmjs.org", "*.pkg.dev", "crates.io"},
			WorktreeSetup: []string{"npm", "ci"},
			MCPServers:    map[string]MCPServer{"docs": {Command: "npx", Args: []string{"-y", "docs-server"}, Env: map[string]string{"DOCS_MODE": "local"}}},
		}
	}
	data, _ := json.Marshal(map[string]any{"projects": projects})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	s := NewStore(path)
	b.ReportAllocs()
	for b.Loop() {
		if p, err := s.Project("/home/me/src/project-7"); err != nil || len(p.Allowlist) != 12 {
			b.Fatal(p, err)
		}
	}
}
