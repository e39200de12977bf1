//go:build unix

package cmdenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A program Rooted runs itself must not come from a PATH folder a command may write: a folder inside the project
// on PATH (an active virtualenv, node_modules/.bin), the temporary folder, a cache. A "git" planted there would
// run with the user's full rights. It comes from the system's folders, root-owned, whatever PATH says.
func TestTrustedIgnoresPlantedPrograms(t *testing.T) {
	system := lookIn("/usr/bin", "git")
	if system == "" {
		system = lookIn("/bin", "git")
	}
	if system == "" {
		t.Skip("no git in the system's folders")
	}
	project := t.TempDir()
	bin := filepath.Join(project, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+"relative/bin"+string(filepath.ListSeparator)+os.Getenv("PATH"))
	t.Setenv("TMPDIR", t.TempDir()) // the project is not under the temporary folder, as a user's is not
	if lp, _ := exec.LookPath("git"); lp != filepath.Join(bin, "git") {
		t.Fatalf("the planted git is not first on PATH (%s): the test proves nothing", lp)
	}
	trusted.Delete("git") // looked up afresh, under this PATH
	t.Cleanup(func() { trusted.Delete("git") })
	got := Trusted("git")
	if !filepath.IsAbs(got) || insideAny(got, []string{project}) {
		t.Fatalf("Trusted(git) = %q, want the system's git", got)
	}
	if out, err := exec.Command(got, "--version").Output(); err != nil || len(out) == 0 {
		t.Errorf("%s --version: %v", got, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the planted git ran")
	}
	// A program only a folder outside the system's holds is not found at all.
	if err := os.WriteFile(filepath.Join(bin, "rooted-trusted-probe"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p := trustedPath("rooted-trusted-probe"); p != "" {
		t.Errorf("found %s outside the system's folders", p)
	}
}

// A program in a folder anyone but root may write is not trusted, even among the system's folders.
func TestRootOwnedChain(t *testing.T) {
	t.Parallel()
	if !rootOwnedChain("/usr/bin") {
		t.Skip("/usr/bin is not root-owned here")
	}
	dir := t.TempDir()
	if rootOwnedChain(dir) && os.Getuid() != 0 {
		t.Errorf("%s belongs to uid %d, yet counts as root's", dir, os.Getuid())
	}
	// t.TempDir lies under the temporary folder, which everyone may write (sticky or not): never trusted.
	if rootOwnedChain(filepath.Join(dir, "x")) {
		t.Errorf("a path under %s counted as root's", dir)
	}
}
