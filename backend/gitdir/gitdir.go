// Package gitdir tells which folders git takes for a repository's git folder, by git's own rules (setup.c,
// is_git_directory): a folder holding a valid HEAD, an objects folder and a refs folder, where objects and refs
// are looked for in the common folder a commondir file names. A work-tree folder that passes is a repository to
// git whatever its name, objects may be a link, and a commondir may send git anywhere: whatever must not be
// changed behind git's back is found here, once, for everything that protects it.
//
// Guaranteed: Is agrees with git on the shapes git accepts (HEAD a ref, a "ref: refs/..." file, a link into refs/
// or an object id; objects and refs reached through links; commondir relative or absolute). Common tells a linked
// worktree's commondir, which its common folder points back to, from one planted to lead git elsewhere.
// Not covered: GIT_DIR, GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY in the environment of whoever runs git later.
package gitdir

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Is reports whether git takes dir for a git folder.
func Is(dir string) bool {
	if !validHead(filepath.Join(dir, "HEAD")) {
		return false
	}
	common, _ := commonDir(dir)
	return searchable(filepath.Join(common, "objects")) && searchable(filepath.Join(common, "refs"))
}

// Common returns the common folder git uses for dir (dir itself without a commondir file) and whether it is one
// git made: the commondir of a linked worktree's folder, whose common folder holds it as worktrees/<id>. A
// commondir anywhere else (in a repository's own .git, or naming a folder that does not list this one) was not
// made by git: it only leads git to another repository's settings and hooks.
func Common(dir string) (common string, made bool) {
	common, has := commonDir(dir)
	if !has {
		return dir, true
	}
	here, err := os.Stat(dir)
	if err != nil {
		return common, false
	}
	back, err := os.Stat(filepath.Join(common, "worktrees", filepath.Base(dir)))
	return common, err == nil && os.SameFile(here, back)
}

// commonDir reads dir/commondir as git does: its first line, relative to dir unless absolute.
func commonDir(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "commondir"))
	if err != nil {
		return dir, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimRight(line, "\r \t")
	if line == "" {
		return dir, false // git refuses such a repository altogether
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(dir, line)
	}
	return filepath.Clean(line), true
}

// validHead is setup.c's validate_headref: a link whose target starts with refs/, or a file starting with
// "ref:" and then, after blanks, refs/, or with an object id.
func validHead(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(p)
		return err == nil && strings.HasPrefix(target, "refs/")
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 255)
	n, _ := f.Read(buf)
	buf = buf[:n]
	if rest, ok := bytes.CutPrefix(buf, []byte("ref:")); ok {
		return bytes.HasPrefix(bytes.TrimLeft(rest, " \t\n\r\v\f"), []byte("refs/"))
	}
	return isHexID(buf, 40) || isHexID(buf, 64)
}

// isHexID reports whether b starts with an object id of n hex digits (SHA-1 or SHA-256), as get_oid_hex_any reads.
func isHexID(b []byte, n int) bool {
	if len(b) < n {
		return false
	}
	for _, c := range b[:n] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// searchable is access(p, X_OK), which git asks of objects and refs: a folder (links followed), or a file with an
// execute bit.
func searchable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && (fi.IsDir() || fi.Mode()&0o111 != 0)
}
