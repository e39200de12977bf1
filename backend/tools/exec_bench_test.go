package tools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
)

// BenchmarkExecShellLs is one command end to end through exec_shell (ls src, no backup) in a repository with a
// husky folder, an editor folder and a node_modules of 200 packages: the guard's walks, the list of protected
// paths, their read-only binds and the watcher, the sandbox and the run.
func BenchmarkExecShellLs(b *testing.B) {
	root := b.TempDir()
	for _, d := range []string{".husky", ".vscode", "src"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for i := range 200 {
		pkg := filepath.Join(root, "node_modules", "pkg"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		os.MkdirAll(filepath.Join(pkg, "lib"), 0o755)
		os.WriteFile(filepath.Join(pkg, "lib", "index.js"), []byte("module.exports = 1\n"), 0o644)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte("{}\n"), 0o644)
	}
	os.WriteFile(filepath.Join(root, ".vscode", "settings.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".husky", "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n"), 0o644)
	os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main\n"), 0o644)
	commitAll(b, root, []string{"config", "core.hooksPath", ".husky"})
	benchLs(b, root)
}

// commitAll makes root a git repository, runs the git commands given (its configuration), and commits every file.
func commitAll(b *testing.B, root string, setup ...[]string) {
	b.Helper()
	steps := append([][]string{{"init", "-q"}}, setup...)
	for _, args := range append(steps, []string{"add", "-A"}, []string{"-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "x"}) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
}

// benchLs is one command end to end through exec_shell (ls src, no backup) per iteration, in the project at root.
func benchLs(b *testing.B, root string) {
	b.Helper()
	s, err := session.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reg := Registry(Deps{Session: s})
	for b.Loop() {
		if _, e := reg.Call(context.Background(), "exec_shell", []byte(`{"command": "ls src", "backup": false}`)); e != nil {
			b.Fatal(e)
		}
	}
}

// BenchmarkDepPrints is what fingerprinting a node_modules of 18,000 files costs (300 packages of 60 files): done
// before and after a command where the dependency folders are writable (an install, or no mount namespace).
func BenchmarkDepPrints(b *testing.B) {
	dir := b.TempDir()
	for i := range 300 {
		pkg := filepath.Join(dir, "node_modules", "pkg"+strconv.Itoa(i), "lib")
		os.MkdirAll(pkg, 0o755)
		for j := range 60 {
			os.WriteFile(filepath.Join(pkg, strconv.Itoa(j)+".js"), []byte("module.exports = 1\n"), 0o644)
		}
	}
	for b.Loop() {
		if len(depPrints(dir, []string{"node_modules"})) != 300 {
			b.Fatal("packages missing")
		}
	}
}
