// Package gitdir tells which folders git takes for a repository's git folder, by git's own rules (setup.c,
// is_git_directory): a folder holding a valid HEAD, an objects folder and a refs folder, where objects and refs
// are looked for in the common folder a commondir file names. A work-tree folder that passes is a repository to
// git whatever its name, objects may be a link, and a commondir may send git anywhere: whatever must not be
// changed behind git's back is found here, once, for everything that protects it.
//
// Guaranteed: Is agrees with git on the shapes git accepts (HEAD a ref, a "ref: refs/..." file, a link into refs/
// or an object id; objects and refs reached through links; commondir relative or absolute). Common tells a linked
// worktree's commondir, which its common folder points back to, from one planted to lead git elsewhere.
// Pointer files (a .git file, commondir) are parsed as git parses them (read_gitfile_gently, get_common_dir_noenv):
// the whole file, only trailing newlines and carriage returns stripped, the value ending at a NUL as a C string
// does; "  ../x " is a different folder from "../x" to git, so it is here too. Every file is read without
// following a final link where git does not, without blocking (a named pipe at HEAD or commondir is refused, not
// waited on) and up to a size cap; what cannot be read so is not a repository to git either.
// Not covered: GIT_DIR, GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY in the environment of whoever runs git later.
package gitdir

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/smallfile"
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

// commonDir reads dir/commondir as git does: the whole file (a NUL ends it), trailing newlines and carriage
// returns stripped, relative to dir unless absolute. A commondir that cannot be read without blocking is treated as
// naming nothing, and git dies on it ("failed to read"), so no repository is lost that way.
func commonDir(dir string) (string, bool) {
	b, err := smallfile.ReadMax(filepath.Join(dir, "commondir"), 64<<10)
	if err != nil {
		return dir, false
	}
	line, ok := ParseCommonDir(b)
	if !ok {
		return dir, false // git refuses such a repository altogether
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(dir, line)
	}
	return filepath.Clean(line), true
}

// ParseCommonDir is get_common_dir_noenv's reading of a commondir file's bytes: trailing "\n" and "\r" removed,
// nothing else, and the path ends at the first NUL. False for an empty value.
func ParseCommonDir(b []byte) (string, bool) {
	b = bytes.TrimRight(b, "\r\n")
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b), len(b) > 0
}

// ParseGitFile is read_gitfile_gently's reading of a .git file's bytes: it must start with "gitdir: " (the space
// included), trailing "\n" and "\r" are removed and nothing else, and the path ends at the first NUL. The path is
// relative to the .git file's folder unless absolute. False when git takes the file for no pointer at all.
func ParseGitFile(b []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("gitdir: "))
	if !ok {
		return "", false
	}
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i] // git reads the buffer as a C string from here on
	}
	rest = bytes.TrimRight(rest, "\r\n")
	return string(rest), len(rest) > 0
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
	// Opened without blocking and only as a regular file: a named pipe called HEAD must not hang whoever asks.
	buf, err := smallfile.ReadPrefix(p, 255) // what validate_headref reads of a file of any size
	if err != nil {
		return false
	}
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
