package cmdenv

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

var trusted sync.Map // name -> absolute path

// Trusted returns the absolute path of a program Rooted runs itself, outside any sandbox (git, for snapshots),
// looked up once per process. It comes from the system's own program folders (trustedPath), never from a PATH
// folder the user or a command could write: a PATH may hold a folder inside the project (an active virtualenv,
// direnv, node_modules/.bin), the temporary folder or a cache, and a "git" planted there would run with the user's
// full rights. Without a trusted match it returns name, and running it fails plainly.
func Trusted(name string) string {
	if p, ok := trusted.Load(name); ok {
		return p.(string)
	}
	found := trustedPath(name)
	if found == "" {
		found = name
	}
	trusted.Store(name, found)
	return found
}

func insideAny(dir string, roots []string) bool {
	dir = filepath.Clean(dir)
	for _, r := range roots {
		r = filepath.Clean(r)
		if dir == r || strings.HasPrefix(dir, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// lookIn returns dir/name when it is a regular file someone may run, or "".
func lookIn(dir, name string) string {
	p := filepath.Join(dir, name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
}
