package ignore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// globalRules are the user's global git excludes, read once per process: the file named by core.excludesFile, or
// git's default $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore). It and the git configuration files are read
// as every file Rooted reads for itself (smallfile): a pipe, a device or a file over 1 MiB there is skipped.
var globalRules = sync.OnceValue(loadGlobal)

func loadGlobal() rules {
	b, err := smallfile.Read(globalExcludesFile())
	if err != nil {
		return nil
	}
	return compile(string(b))
}

// globalExcludesFile finds core.excludesFile in the user's global git configuration. It reads the files itself,
// as ripgrep does, because starting git costs more than a whole small search; a configuration that includes other
// files ([include], [includeIf]) is left to git.
func globalExcludesFile() string {
	var files []string
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		files = []string{g}
	} else {
		home, _ := os.UserHomeDir()
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig")) // read last: git lets it win
		}
	}
	found := ""
	for _, f := range files {
		b, err := smallfile.Read(f)
		if err != nil {
			continue
		}
		keys := gitconfig.Parse(b)
		if gitconfig.Includes(keys) {
			return excludesFileFromGit()
		}
		if v := gitconfig.Last(keys, "core.excludesfile"); v != "" {
			found = v
		}
	}
	if found != "" {
		return expandHome(found)
	}
	return defaultExcludesFile()
}

func excludesFileFromGit() string {
	// An included file can be a pipe too: git is given a few seconds, not forever.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, cmdenv.Trusted("git"), "config", "--global", "--path", "--get", "core.excludesFile").Output(); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			return p
		}
	}
	return defaultExcludesFile()
}

func defaultExcludesFile() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "git", "ignore")
}

// expandHome does what git config --path does to a leading "~/".
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
