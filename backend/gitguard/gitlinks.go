package gitguard

import (
	"bytes"
	"encoding/binary"
	"os"
	"path"
	"path/filepath"
)

// A gitlink in a repository's index (a submodule entry) makes git enter the folder it names: the user's git status
// reads the configuration of a repository found there and runs its core.fsmonitor. A command that creates a
// repository and adds a gitlink to it is caught during the run by watching where the gitlinks lead (package tools).

// indexLimit is the largest index read for its gitlinks.
const indexLimit = 256 << 20

// Indexes are the index files of the repositories with a work tree, each with its work tree (root-relative).
func (st *State) Indexes() map[string]string {
	out := map[string]string{}
	for g, wt := range st.dirs {
		if wt != "" {
			out[path.Join(g, "index")] = wt
		}
	}
	return out
}

// HasEntry reports whether p (root-relative) was a .git (folder, file or link) when st was scanned.
func (st *State) HasEntry(p string) bool {
	_, ok := st.entries[p]
	return ok
}

// Gitlinks lists, root-relative, where the gitlinks of the index file index lead, in the work tree worktree; none
// when the index cannot be read or parsed.
func Gitlinks(root *os.Root, index, worktree string) []string {
	b, err := readRegular(root, index, indexLimit)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range indexGitlinks(b) {
		if rel := path.Join(worktree, p); rel != "." && filepath.IsLocal(rel) {
			out = append(out, rel)
		}
	}
	return out
}

// indexGitlinks parses a git index (versions 2, 3 and 4; SHA-1 or SHA-256 object names) and returns the paths of
// its gitlink entries (mode 160000). What it cannot parse gives no paths.
func indexGitlinks(b []byte) []string {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil
	}
	// The object names' length is the repository's; an index with one in the other's length fails to parse.
	for _, hashLen := range []int{20, 32} {
		if links, ok := parseEntries(b, version, hashLen); ok {
			return links
		}
	}
	return nil
}

func parseEntries(b []byte, version uint32, hashLen int) ([]string, bool) {
	count := int(binary.BigEndian.Uint32(b[8:12]))
	off := 12
	var links []string
	var prev []byte
	for range count {
		start := off
		fixed := 40 + hashLen + 2
		if off+fixed > len(b) {
			return nil, false
		}
		mode := binary.BigEndian.Uint32(b[off+24 : off+28])
		flags := binary.BigEndian.Uint16(b[off+40+hashLen : off+fixed])
		off += fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 || off+2 > len(b) {
				return nil, false
			}
			off += 2
		}
		var name []byte
		if version == 4 {
			strip, n := offsetVarint(b[off:])
			if n == 0 || strip > uint64(len(prev)) {
				return nil, false
			}
			off += n
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, false
			}
			name = append(append([]byte{}, prev[:len(prev)-int(strip)]...), b[off:off+end]...)
			off += end + 1
		} else {
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, false
			}
			name = b[off : off+end]
			off = start + (off-start+end+8)&^7 // NUL padding to a multiple of 8
			if off > len(b) {
				return nil, false
			}
		}
		prev = name
		if mode&0o170000 == 0o160000 {
			links = append(links, string(name))
		}
	}
	return links, off <= len(b)-hashLen // extensions and the checksum follow
}

// offsetVarint reads git's offset varint (varint.c), returning the value and the bytes read (0 when malformed).
func offsetVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	n := 1
	for c&128 != 0 {
		if n >= len(b) || n > 9 {
			return 0, 0
		}
		val++
		c = b[n]
		val = val<<7 + uint64(c&127)
		n++
	}
	return val, n
}
