package ignore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// globalRules are the user's global git excludes, read once per process: the file named by core.excludesFile, or
// git's default $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore). Without git on PATH, the default is used.
var globalRules = sync.OnceValue(func() rules {
	b, err := os.ReadFile(globalExcludesFile())
	if err != nil {
		return nil
	}
	return compile(string(b))
})

func globalExcludesFile() string {
	if out, err := exec.Command("git", "config", "--global", "--path", "--get", "core.excludesFile").Output(); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			return p
		}
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "git", "ignore")
}
