// Package beside finds Rooted's other executables (rooted-mcp, rooted-desktop, rooted-reader) beside the running
// one, its links followed (/usr/local/bin/rooted may be a link into an install folder).
package beside

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Path returns the executable named name (".exe" added on Windows) in the running executable's folder, or an
// error that names where it looked.
func Path(name string) (string, error) {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err != nil {
		// Linux reads /proc/self/exe, which a chroot or a bare container may lack: the absolute path this
		// program was started by is where it is (a relative one would be a PATH search, which this is not).
		if !filepath.IsAbs(os.Args[0]) {
			return "", fmt.Errorf("%s: this program's own path is unknown: %w", name, err)
		}
		self = os.Args[0]
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	path := filepath.Join(filepath.Dir(self), name)
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return "", fmt.Errorf("%s is not installed beside this program (%s)", name, path)
	}
	return path, nil
}

// Find is Path, else name on PATH. Its error reads after the kind of program: "the MCP server (rooted-mcp) is
// not installed beside this binary (/usr/bin/rooted-mcp) nor on PATH".
func Find(name string) (string, error) {
	if path, err := Path(name); err == nil {
		return path, nil
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		beside = filepath.Join(filepath.Dir(self), name)
	}
	return "", fmt.Errorf("(%s) is not installed beside this binary (%s) nor on PATH", name, beside)
}
