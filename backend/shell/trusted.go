package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

var trusted sync.Map // name -> absolute path

// Trusted returns the absolute path of a program Rooted runs itself, outside any sandbox (git, for snapshots),
// looked up once per process. PATH folders that sandboxed commands may write are passed over (the temporary
// folder, the shared caches; ToolchainCaches never returns a PATH folder, but the user may add one in Settings),
// and so are relative entries: otherwise a command could drop a "git" there that Rooted would then run with the
// user's full rights. Without a safe match it returns name, and running it fails plainly.
func Trusted(name string) string {
	if p, ok := trusted.Load(name); ok {
		return p.(string)
	}
	unsafe := append(ToolchainCaches(), os.TempDir())
	found := name
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) || insideAny(dir, unsafe) {
			continue
		}
		p := filepath.Join(dir, name)
		if runtime.GOOS == "windows" {
			p += ".exe"
		}
		if lp, err := exec.LookPath(p); err == nil {
			found = lp
			break
		}
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
