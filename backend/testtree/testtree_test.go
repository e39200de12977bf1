package testtree

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Every kind of entry lands as the key says: content, folders, exact modes, a file planted beside the folder.
func TestWriteMakesWhatTheKeysSay(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "p")
	Write(t, dir, map[string]string{
		"a/b/c.txt":          "c\n",
		"empty/":             "ignored",
		"bin/run.sh (0o755)": "#!/bin/sh\n",
		"secret (0o600)":     "s",
		"ro/ (0o555)":        "",
		"ro/inside.txt":      "i",
		"../beside.txt":      "planted beside",
	})
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "ro"), 0o755) })
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("a/b/c.txt"); got != "c\n" {
		t.Errorf("a/b/c.txt holds %q", got)
	}
	if got := read("ro/inside.txt"); got != "i" {
		t.Errorf("a file in a read-only folder holds %q", got)
	}
	if got, err := os.ReadFile(filepath.Join(base, "beside.txt")); err != nil || string(got) != "planted beside" {
		t.Errorf("../beside.txt: %q %v", got, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "empty")); err != nil || !fi.IsDir() {
		t.Errorf("empty/ is not a folder: %v", err)
	}
	for rel, want := range map[string]os.FileMode{"bin/run.sh": 0o755, "secret": 0o600, "ro": os.ModeDir | 0o555} {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", rel, fi.Mode(), want)
		}
	}
}

// Links are made after every file, so a tree whose link and file share a prefix fails rather than writing the
// file through the link, out of the folder.
func TestWriteNeverWritesThroughItsOwnLink(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	os.Mkdir(filepath.Join(base, "outside"), 0o755)
	ft := &fatalRecorder{TB: t}
	ft.run(func() {
		Write(ft, filepath.Join(base, "p"), map[string]string{"x => ../outside": "", "x/y.txt": "not through the link"})
	})
	if !ft.failed {
		t.Error("a link over a folder of the tree was made")
	}
	if _, err := os.Stat(filepath.Join(base, "outside", "y.txt")); err == nil {
		t.Error("a write went through the link out of the tree")
	}
}

func TestWriteLinks(t *testing.T) {
	t.Parallel()
	dir := Dir(t, map[string]string{"d/f.txt": "f", "d/l => f.txt": "", "up => ../elsewhere": ""})
	for link, want := range map[string]string{"d/l": "f.txt", "up": filepath.FromSlash("../elsewhere")} {
		if got, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(link))); err != nil || got != want {
			t.Errorf("%s => %q (%v), want %q", link, got, err, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "d", "l")); err != nil || string(b) != "f" {
		t.Errorf("d/l reads %q %v", b, err)
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	got := Parse("a comment\n-- main.go --\npackage main\n\n-- run.sh (0o755) --\n#!/bin/sh\n-- build/ --\n-- l => main.go --\n-- last --\nno newline")
	want := map[string]string{
		"main.go":        "package main\n\n",
		"run.sh (0o755)": "#!/bin/sh\n",
		"build/":         "",
		"l => main.go":   "",
		"last":           "no newline",
	}
	if !maps.Equal(got, want) {
		t.Errorf("Parse = %q, want %q", got, want)
	}
	if got := Parse("no entries\n-- --\n"); len(got) != 0 {
		t.Errorf("text without entries gives %q", got)
	}
}

// A repository made here is the same whoever runs the test: the user's identity, branch name and global excludes
// play no part.
func TestRepoIgnoresTheUsersGitConfiguration(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755)
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Someone Else\n\temail = else@example.com\n[init]\n\tdefaultBranch = trunk\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".config", "git", "ignore"), []byte("*.txt\n"), 0o644)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))

	dir := Repo(t, map[string]string{"a.txt": "a\n", ".gitignore": "*.log\n", "x.log": "ignored\n"})
	if got := strings.TrimSpace(Git(t, dir, "branch", "--show-current")); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
	if got := strings.TrimSpace(Git(t, dir, "log", "-1", "--format=%an <%ae> %cn <%ce> %s")); got != "Rooted Test <test@rooted.invalid> Rooted Test <test@rooted.invalid> initial" {
		t.Errorf("commit by %q", got)
	}
	if got := strings.Fields(Git(t, dir, "ls-files")); strings.Join(got, " ") != ".gitignore a.txt" {
		t.Errorf("committed %q: the user's global excludes or the tree's .gitignore were not applied as git would", got)
	}
	Write(t, dir, map[string]string{"b.txt": "b\n"})
	Commit(t, dir, "second")
	Commit(t, dir, "nothing changed")
	if got := strings.Split(strings.TrimSpace(Git(t, dir, "log", "--format=%s")), "\n"); strings.Join(got, ",") != "nothing changed,second,initial" {
		t.Errorf("log %q", got)
	}
}

func TestGitFailureFailsTheTest(t *testing.T) {
	t.Parallel()
	ft := &fatalRecorder{TB: t}
	dir := t.TempDir()
	ft.run(func() { Git(ft, dir, "rev-parse", "HEAD") }) // not a repository
	if !ft.failed || !strings.Contains(ft.msg, "not a git repository") {
		t.Errorf("a failing git reported %v %q", ft.failed, ft.msg)
	}
}

// fatalRecorder records a Fatal instead of ending the test; Fatal ends its goroutine, as testing's does.
type fatalRecorder struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls do on a goroutine of its own, which a Fatal ends, and waits for it.
func (f *fatalRecorder) run(do func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		do()
	}()
	<-done
}

// The package, and testcpu, testthread and readertest beside it, are for tests: a package of the module that imports one outside its _test.go
// files would carry test fixtures into the product.
func TestOnlyTestsImportIt(t *testing.T) {
	t.Parallel()
	testOnly := []string{"github.com/rooted-dev/rooted/backend/testtree", "github.com/rooted-dev/rooted/backend/testcpu", "github.com/rooted-dev/rooted/backend/testthread", "github.com/rooted-dev/rooted/backend/readerproc/readertest"}
	out, err := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "github.com/rooted-dev/rooted/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list listed only %d packages:\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if slices.Contains(testOnly, imp) {
				t.Errorf("%s imports %s outside its tests", pkg, imp)
			}
		}
	}
}
