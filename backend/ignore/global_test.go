package ignore

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An edit to the global excludes file, or to the configuration that names it, is seen by the next matcher made:
// nothing read once per process goes stale. Each step changes one thing and says what the next matcher ignores.
// Not parallel: the global configuration is found through the environment.
func TestGlobalExcludesAreReadAgainWhenChanged(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, "gitconfig")
	first, second := filepath.Join(home, "first-ignore"), filepath.Join(home, "second-ignore")
	t.Setenv("GIT_CONFIG_GLOBAL", config)
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	write := func(p, content string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// rewrite replaces a file in place with content of the same size, its modification time put back: only its
	// identity (inode) tells the change, as after an editor's save by rename.
	sameSize := func(p, content string) {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		tmp := p + ".new"
		write(tmp, content)
		os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		name    string
		change  func()
		ignored []string
		kept    []string
	}{
		{"no configuration: the default file, absent", func() {}, nil, []string{"a.log", "a.tmp"}},
		{"the configuration names a file", func() {
			write(first, "*.log\n")
			write(config, "[core]\n\texcludesFile = "+first+"\n")
		}, []string{"a.log"}, []string{"a.tmp"}},
		{"the file gains a line", func() { write(first, "*.log\n*.tmp\n") }, []string{"a.log", "a.tmp"}, []string{"a.txt"}},
		{"the file is saved by rename, same size and time", func() { sameSize(first, "*.txt\n*.tmp\n") }, []string{"a.txt", "a.tmp"}, []string{"a.log"}},
		{"the configuration names another file", func() {
			write(second, "*.bak\n")
			write(config, "[core]\n\texcludesFile = "+second+"\n")
		}, []string{"a.bak"}, []string{"a.txt", "a.tmp", "a.log"}},
		{"the file is removed", func() { os.Remove(second) }, nil, []string{"a.bak"}},
		{"the file comes back", func() { write(second, "*.md\n") }, []string{"a.md"}, []string{"a.bak"}},
		{"another configuration file by the environment", func() {
			other := filepath.Join(home, "other-config")
			write(other, "[core]\n\texcludesFile = "+first+"\n")
			t.Setenv("GIT_CONFIG_GLOBAL", other)
		}, []string{"a.txt", "a.tmp"}, []string{"a.md"}},
		{"nothing changes: the same rules", func() {}, []string{"a.txt", "a.tmp"}, []string{"a.md"}},
	} {
		step.change()
		m := New(root)
		for _, p := range step.ignored {
			if !m.Ignored(p, false) {
				t.Errorf("%s: %s not ignored", step.name, p)
			}
		}
		for _, p := range step.kept {
			if m.Ignored(p, false) {
				t.Errorf("%s: %s ignored", step.name, p)
			}
		}
	}
}

// Matchers made while nothing changes share one read: the file is not read again (its rules are the same
// slice), however many are made.
func TestGlobalExcludesAreNotReadAgainWhenUnchanged(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "ignore")
	os.WriteFile(file, []byte("*.log\n"), 0o644)
	os.WriteFile(filepath.Join(home, "gitconfig"), []byte("[core]\nexcludesFile = "+file+"\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	a := globalRules()
	b := globalRules()
	if len(a) == 0 || &a[0] != &b[0] {
		t.Fatal("unchanged global excludes were read again")
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(file, later, later) // touched: read again
	if c := globalRules(); &c[0] == &a[0] {
		t.Fatal("a touched excludes file was not read again")
	}
}
