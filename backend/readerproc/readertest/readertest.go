// Package readertest builds rooted-reader for a test and puts it first on PATH, where readerproc finds it when it
// is not beside the running binary (a test binary never has it beside). For tests only.
package readertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Install builds cmd/rooted-reader into a folder of the test's and puts that folder first on PATH for the test.
// It returns the executable's path.
func Install(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	exe := filepath.Join(dir, "rooted-reader")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", exe, "github.com/rooted-dev/rooted/cmd/rooted-reader")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building rooted-reader: %v\n%s", err, out)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return exe
}
