// Package readertest builds rooted-reader for a test, which hands it to readerproc.UseForTests: a test binary has
// no rooted-reader beside it. For tests only.
package readertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Build builds cmd/rooted-reader into a folder of the test's and returns the executable's path. With
// ROOTED_TEST_READER set, it returns that executable, built from the same tree, instead: a test run as a user who
// cannot build (no module cache) is given one.
func Build(t testing.TB) string {
	t.Helper()
	if exe := os.Getenv("ROOTED_TEST_READER"); exe != "" {
		if strings.TrimSuffix(filepath.Base(exe), ".exe") != "rooted-reader" {
			t.Fatalf("ROOTED_TEST_READER=%s: not a rooted-reader", exe)
		}
		return exe
	}
	exe := filepath.Join(t.TempDir(), "rooted-reader")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", exe, "github.com/rooted-dev/rooted/cmd/rooted-reader")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goCache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+goCache)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building rooted-reader: %v\n%s", err, out)
	}
	return exe
}

// goCache is the go command's build cache as the test process started, before a test moved XDG_CACHE_HOME or HOME
// (a build with an empty cache takes minutes).
var goCache = func() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "go-build")
	}
	return "" // the go command's own default
}()
