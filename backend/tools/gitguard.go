package tools

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/gitconfig"
)

// The project's .git is a channel to run code later, outside any sandbox: git runs its hooks and the programs its
// configuration names (core.fsmonitor, aliases with !, filters, ...) when the user next runs git. Landlock cannot
// deny writes below a folder it lets commands write, so around every command Rooted records those files and, if
// the command changed them, puts them back and says so: a new or changed hook is removed or restored, and a
// configuration file whose executable settings changed is restored whole (other changes, such as a new remote or
// an upstream branch, stay). The file tools refuse to write in .git at all.

// gitState is what a command may not change in one .git folder.
type gitState struct {
	dir     string            // root-relative .git folder
	files   map[string][]byte // config files: root-relative path -> content (nil: absent)
	modes   map[string]fs.FileMode
	hooks   map[string][32]byte // hook files by root-relative path -> content hash
	hookRaw map[string][]byte
}

var gitConfigFiles = []string{"config", "config.worktree", "info/attributes"}

// guardGit records the project's .git (when it is a folder) before a command.
func guardGit(root *os.Root) *gitState {
	fi, err := root.Lstat(".git")
	if err != nil || !fi.IsDir() {
		return &gitState{} // none yet (a command that creates one is checked for hooks afterwards)
	}
	st := &gitState{dir: ".git", files: map[string][]byte{}, modes: map[string]fs.FileMode{}, hooks: map[string][32]byte{}, hookRaw: map[string][]byte{}}
	for _, name := range gitConfigFiles {
		rel := path.Join(".git", name)
		if fi, err := root.Lstat(rel); err == nil && fi.Mode().IsRegular() {
			if b, err := files.ReadRegular(root, "exec", rel); err == nil {
				st.files[rel], st.modes[rel] = b, fi.Mode().Perm()
			}
		}
	}
	for rel, b := range hookFiles(root) {
		st.hooks[rel], st.hookRaw[rel] = sha256.Sum256(b), b
	}
	return st
}

// hookFiles reads the hooks git would run: the files in .git/hooks that are not samples.
func hookFiles(root *os.Root) map[string][]byte {
	out := map[string][]byte{}
	d, err := root.Open(".git/hooks")
	if err != nil {
		return out
	}
	defer d.Close()
	entries, _ := d.ReadDir(-1)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sample") || e.IsDir() {
			continue
		}
		rel := ".git/hooks/" + e.Name()
		if e.Type()&fs.ModeSymlink != 0 {
			out[rel] = []byte("symlink") // any link is a change to undo
			continue
		}
		if b, err := files.ReadRegular(root, "exec", rel); err == nil {
			out[rel] = b
		}
	}
	return out
}

// restore undoes what a command changed of before's files, and returns what it undid.
func (before *gitState) restore(root *os.Root) []string {
	var undone []string
	now := hookFiles(root)
	for rel, b := range now {
		old, had := before.hooks[rel]
		if had && old == sha256.Sum256(b) {
			continue
		}
		root.Remove(rel)
		if had {
			root.WriteFile(rel, before.hookRaw[rel], 0o755)
			undone = append(undone, "restored "+rel+", which the command changed")
		} else {
			undone = append(undone, "removed "+rel+", a hook the command added")
		}
	}
	for rel, old := range before.files {
		cur, err := files.ReadRegular(root, "exec", rel)
		if err == nil && bytes.Equal(cur, old) {
			continue
		}
		if keys := execKeysChanged(old, cur); len(keys) > 0 || (err != nil && path.Base(rel) == "config") {
			root.Remove(rel)
			if werr := root.WriteFile(rel, old, before.modes[rel]); werr == nil {
				what := "the command removed it"
				if len(keys) > 0 {
					what = "the command set " + strings.Join(keys, ", ")
				}
				undone = append(undone, fmt.Sprintf("restored %s: %s", rel, what))
			}
		}
	}
	// A configuration file the command created (config.worktree, info/attributes) with executable settings.
	if before.dir != "" {
		for _, name := range gitConfigFiles {
			rel := path.Join(".git", name)
			if _, had := before.files[rel]; had {
				continue
			}
			if cur, err := files.ReadRegular(root, "exec", rel); err == nil {
				if keys := execKeysChanged(nil, cur); len(keys) > 0 {
					root.Remove(rel)
					undone = append(undone, fmt.Sprintf("removed %s: the command set %s", rel, strings.Join(keys, ", ")))
				}
			}
		}
	}
	slices.Sort(undone)
	return undone
}

// runsPrograms matches the configuration keys (lower case, subsection kept) whose value is a program git runs, or
// which decide what it runs or where: narrower than what "git config" refuses to set (shell.GitExecKey), so that
// a new remote or branch does not count.
var runsPrograms = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|worktree|alternaterefscommand)|alias\..+|filter\..+\.(clean|smudge|process)|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|credential\.(.+\.)?helper|gpg\.(.+\.)?program|sequence\.editor|include\.path|includeif\..+\.path|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|protocol\.(.+\.)?allow|url\..+\.(pushinsteadof|insteadof)|pager\..+|sendemail\..+|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|difftool\..+\.(cmd|path)|mergetool\..+\.(cmd|path)|submodule\..+\.update|init\.templatedir)$`)
}) // compiled on first use: start-up stays short

// execKeysChanged lists the executable settings (runsPrograms) whose values differ between two git
// configuration files.
func execKeysChanged(before, after []byte) []string {
	a, b := gitconfig.Parse(before), gitconfig.Parse(after)
	var out []string
	for k, v := range b {
		if runsPrograms().MatchString(k) && !slices.Equal(a[k], v) {
			out = append(out, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && runsPrograms().MatchString(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
