//go:build unix

package becomemcp

import (
	"os"
	"syscall"
)

// init imports os and syscall alone, which Go initialises within the first 3 ms. Go initialises, at each step, the
// first package by import path whose imports are done: a package that imported path/filepath or strings would wait
// for them, and they sort after every third-party module, so about 60 packages (a WebAssembly runtime, image
// decoders among them) would initialise first, some 3 ms of rooted's start.
func init() {
	if len(os.Args) < 2 || os.Args[1] != "mcp" {
		return
	}
	// Only what rooted mcp takes: its flags, or sign-in. Anything else is rooted's usage error to report, not
	// rooted-mcp's other commands to run.
	if len(os.Args) > 2 && os.Args[2] != "sign-in" && (os.Args[2] == "" || os.Args[2][0] != '-') {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	// Linux gives the executable's real path; elsewhere it may be a link to it (from /usr/local/bin, say).
	for range 8 {
		target, err := os.Readlink(self)
		if err != nil || target == "" {
			break
		}
		if target[0] != '/' {
			target = dir(self) + "/" + target
		}
		self = target
	}
	server := dir(self) + "/" + Name
	if fi, err := os.Stat(server); err != nil || fi.IsDir() {
		return // rooted's mcp command looks on PATH too, and says what is missing
	}
	// On success Exec does not return; on failure rooted's mcp command tries again and reports why.
	_ = syscall.Exec(server, append([]string{server}, os.Args[2:]...), os.Environ())
}

// dir is filepath.Dir for an absolute path, without path/filepath (see init).
func dir(path string) string {
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == '/' {
			return path[:i]
		}
	}
	return "/"
}
