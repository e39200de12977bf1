// Package testtree builds the project trees Rooted's tests run against: files, folders, symbolic links and modes
// written under a test's temporary folder from a map or a txtar-like text, and git repositories set up by a git that
// reads no user or system configuration and commits as a fixed identity, so that a test means the same on every
// machine. It is for tests only: no other code imports it (TestOnlyTestsImportIt checks).
//
// A tree is a map from slash path, relative to the folder it is written in, to content. The key says what the entry
// is, in the notation of Go's os/root_test.go:
//
//	"src/main.go"            a file holding the value, mode 0o644 less the umask
//	"bin/run.sh (0o755)"     a file with exactly that mode
//	"build/"                 a folder (the value is ignored); "out/ (0o700)" a folder with that mode
//	"link => ../target"      a symbolic link to the target as written (the value is ignored)
//
// Parent folders are made as needed (0o755). Folders come first, then files, then links, and modes of folders are
// set last, so that a link never redirects a later write and a read-only folder can still be filled. Paths are not
// kept inside the folder: a tree may plant a file beside the project on purpose ("../secret.txt").
package testtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Write writes files into dir (see the package comment for the notation). It fails the test on any error.
func Write(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	type entry struct {
		rel, target, content string
		mode                 os.FileMode
		link, dir            bool
	}
	var entries []entry
	for key, content := range files {
		e := entry{content: content}
		if name, target, ok := strings.Cut(key, " => "); ok {
			e.rel, e.target, e.link = name, target, true
		} else {
			e.rel, e.mode = splitMode(tb, key)
			e.dir = strings.HasSuffix(e.rel, "/")
		}
		entries = append(entries, e)
	}
	rank := func(e entry) int {
		switch {
		case e.dir:
			return 0
		case e.link:
			return 2
		}
		return 1
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if r := rank(a) - rank(b); r != 0 {
			return r
		}
		return strings.Compare(a.rel, b.rel)
	})
	check := func(err error) {
		if err != nil {
			tb.Helper()
			tb.Fatal("testtree:", err)
		}
	}
	var folderModes []entry
	for _, e := range entries {
		p := filepath.Join(dir, filepath.FromSlash(e.rel))
		switch {
		case e.dir:
			check(os.MkdirAll(p, 0o755))
			if e.mode != 0 {
				folderModes = append(folderModes, e)
			}
		case e.link:
			check(os.MkdirAll(filepath.Dir(p), 0o755))
			check(os.Symlink(filepath.FromSlash(e.target), p))
		default:
			check(os.MkdirAll(filepath.Dir(p), 0o755))
			check(os.WriteFile(p, []byte(e.content), 0o644))
			if e.mode != 0 {
				check(os.Chmod(p, e.mode))
			}
		}
	}
	for _, e := range slices.Backward(folderModes) { // deepest last-sorted first: a parent's mode cannot block a child's
		check(os.Chmod(filepath.Join(dir, filepath.FromSlash(e.rel)), e.mode))
	}
}

// splitMode takes a trailing " (0o755)" off key.
func splitMode(tb testing.TB, key string) (string, os.FileMode) {
	tb.Helper()
	name, m, ok := strings.Cut(key, " (0o")
	if !ok || !strings.HasSuffix(m, ")") {
		return key, 0
	}
	mode, err := strconv.ParseUint(strings.TrimSuffix(m, ")"), 8, 32)
	if err != nil || mode == 0 || mode > 0o7777 {
		tb.Fatalf("testtree: %q: the mode is not an octal permission", key)
	}
	return name, os.FileMode(mode & 0o777)
}

// Dir writes files into a fresh temporary folder of the test and returns it.
func Dir(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	Write(tb, dir, files)
	return dir
}

// Root writes files into a fresh temporary folder, opens it as an *os.Root (closed when the test ends) and returns
// both.
func Root(tb testing.TB, files map[string]string) (*os.Root, string) {
	tb.Helper()
	dir := Dir(tb, files)
	r, err := os.OpenRoot(dir)
	if err != nil {
		tb.Fatal("testtree:", err)
	}
	tb.Cleanup(func() { r.Close() })
	return r, dir
}

// Parse reads a tree from a txtar-like text: a line "-- name --" starts an entry named in the map notation, and
// the lines up to the next such line, each with its newline, are its content. Text before the first entry is a
// comment.
//
//	-- main.go --
//	package main
//	-- run.sh (0o755) --
//	#!/bin/sh
//	-- build/ --
//	-- link => main.go --
func Parse(text string) map[string]string {
	files := map[string]string{}
	var name string
	var content strings.Builder
	inEntry := false
	flush := func() {
		if inEntry {
			files[name] = content.String()
		}
		content.Reset()
	}
	for line := range strings.SplitAfterSeq(text, "\n") {
		bare := strings.TrimRight(line, "\r\n")
		if n, ok := strings.CutPrefix(bare, "-- "); ok {
			if n, ok = strings.CutSuffix(n, " --"); ok && n != "" {
				flush()
				name, inEntry = n, true
				continue
			}
		}
		content.WriteString(line)
	}
	flush()
	return files
}

// Env is the environment Git runs git with: the test process's own, plus no system or global configuration file, HOME and XDG_CONFIG_HOME where git finds no excludes or attributes of the user's, a fixed
// author and committer, the branch "main" for a new repository, and no automatic gc or maintenance (a commit
// may start one in the background, which would change .git under the test). For a test that runs git itself.
func Env() []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"HOME="+os.DevNull, "XDG_CONFIG_HOME="+os.DevNull,
		"GIT_AUTHOR_NAME=Rooted Test", "GIT_AUTHOR_EMAIL=test@rooted.invalid",
		"GIT_COMMITTER_NAME=Rooted Test", "GIT_COMMITTER_EMAIL=test@rooted.invalid",
		"GIT_CONFIG_COUNT=3",
		"GIT_CONFIG_KEY_0=init.defaultBranch", "GIT_CONFIG_VALUE_0=main",
		"GIT_CONFIG_KEY_1=gc.auto", "GIT_CONFIG_VALUE_1=0",
		"GIT_CONFIG_KEY_2=maintenance.auto", "GIT_CONFIG_VALUE_2=false",
	)
}

// Git runs git with args in dir, in the environment Env describes, and returns what it printed on stdout. A git
// that fails fails the test, with what it printed on stderr.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("testtree: git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return stdout.String()
}

// Commit stages everything in dir's work tree (what .gitignore leaves out stays out) and commits it with message,
// even when nothing changed.
func Commit(tb testing.TB, dir, message string) {
	tb.Helper()
	Git(tb, dir, "add", "-A")
	Git(tb, dir, "commit", "-q", "--allow-empty", "--no-verify", "-m", message)
}

// Repo writes files into a fresh temporary folder, makes it a git repository on branch main and commits the tree
// as "initial", and returns the folder.
func Repo(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := Dir(tb, files)
	Git(tb, dir, "init", "-q")
	Commit(tb, dir, "initial")
	return dir
}
