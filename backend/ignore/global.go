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

// globalRules are the user's global git excludes: the file named by core.excludesFile, or git's default
// $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore). It and the git configuration files are read as every file
// Rooted reads for itself (smallfile): a pipe, a device or a file over 1 MiB there is skipped.
//
// They are read again whenever one of those files changes: each matcher made (one a walk, a search, a snapshot)
// stats them, three or four stats, and reads and compiles them only when one differs in identity, size or
// modification time from what was read last, or when the environment names other files. Files a configuration
// includes ([include], [includeIf]) are git's to find, and are not watched; an edit to the top configuration
// file or to the excludes file itself is.
func globalRules() rules { return globals.get() }

// globals is what globalRules read last, with the files it was read from. It is per process because what it
// caches is: the user's own files, the same for every project, and checked on every use.
var globals globalCache

type globalCache struct {
	mu    sync.Mutex
	from  []stamp // the configuration files, then the excludes file; nil before the first read
	rules rules
}

// stamp is what a file was when it was read: fi is nil when it did not exist.
type stamp struct {
	path string
	fi   os.FileInfo
}

func stampOf(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		fi = nil
	}
	return stamp{path, fi}
}

// same reports whether the file is still what it was.
func (s stamp) same() bool {
	now := stampOf(s.path)
	if s.fi == nil || now.fi == nil {
		return s.fi == nil && now.fi == nil
	}
	return os.SameFile(s.fi, now.fi) && s.fi.Size() == now.fi.Size() && s.fi.ModTime().Equal(now.fi.ModTime()) && s.fi.Mode() == now.fi.Mode()
}

func (c *globalCache) get() rules {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.from != nil && c.fresh() {
		return c.rules
	}
	// Stamped before reading: a change made while reading is seen by the next use.
	var from []stamp
	for _, f := range configFiles() {
		from = append(from, stampOf(f))
	}
	file := globalExcludesFile()
	from = append(from, stampOf(file))
	c.from, c.rules = from, loadFrom(file)
	return c.rules
}

// fresh reports whether nothing read last has changed: the same configuration files, each as it was, and the
// excludes file they named.
func (c *globalCache) fresh() bool {
	files := configFiles()
	if len(files) != len(c.from)-1 {
		return false
	}
	for i, f := range files {
		if c.from[i].path != f {
			return false
		}
	}
	for _, s := range c.from {
		if !s.same() {
			return false
		}
	}
	return true
}

func loadGlobal() rules { return loadFrom(globalExcludesFile()) }

func loadFrom(file string) rules {
	b, err := smallfile.Read(file)
	if err != nil {
		return nil
	}
	return compile(string(b))
}

// configFiles are the user's global git configuration files, in the order git reads them.
func configFiles() []string {
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		return []string{g}
	}
	var files []string
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
	return files
}

// globalExcludesFile finds core.excludesFile in the user's global git configuration. It reads the files itself,
// as ripgrep does, because starting git costs more than a whole small search; a configuration that includes other
// files ([include], [includeIf]) is left to git.
func globalExcludesFile() string {
	found := ""
	for _, f := range configFiles() {
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
