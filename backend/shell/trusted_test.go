//go:build unix

package shell

import (
	"os"
	"path/filepath"
	"testing"
)

// A program Rooted runs itself must not be found in a PATH folder a sandboxed command may write (the temporary
// folder, a cache), or a command could plant a "git" that Rooted then runs with the user's full rights.
func TestTrustedSkipsFoldersCommandsMayWrite(t *testing.T) {
	cache := t.TempDir()
	safe := t.TempDir()
	t.Setenv("TMPDIR", cache) // the temporary folder: commands may write it
	name := "rooted-trusted-probe"
	for _, dir := range []string{cache, safe} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\necho "+dir+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", cache+string(filepath.ListSeparator)+"relative/bin"+string(filepath.ListSeparator)+safe)
	if got, want := Trusted(name), filepath.Join(safe, name); got != want {
		t.Errorf("Trusted(%q) = %s, want %s (the writable cache on PATH comes first)", name, got, want)
	}
	// Looked up once: a program planted later in the first safe folder does not change the answer.
	os.Remove(filepath.Join(safe, name))
	if got := Trusted(name); got != filepath.Join(safe, name) {
		t.Errorf("second lookup: %s", got)
	}
}
