// Package beside finds Rooted's other executables (rooted-mcp, rooted-desktop, rooted-reader): beside the running
// one, its links followed (/usr/local/bin/rooted may be a link into an install folder), else on PATH.
package beside

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Find returns the path of the executable named name (".exe" added on Windows).
func Find(name string) (string, error) {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var path string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		path = filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			return path, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("(%s) is not installed beside this binary (%s) nor on PATH", name, path)
}
