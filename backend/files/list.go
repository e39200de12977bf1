package files

import (
	"cmp"
	"io"
	"io/fs"
	"os"
	"slices"
)

// Entry kinds.
const (
	KindFile    = "file"
	KindDir     = "dir"
	KindSymlink = "symlink"
	KindOther   = "other"
)

// Entry is one directory entry. Size is the file's size; 0 for directories.
type Entry struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Size int64  `json:"size"`
	// Target is what a symlink points to, and TargetKind what it resolves to inside the root ("" when it dangles
	// or leaves the root).
	Target     string `json:"target,omitempty"`
	TargetKind string `json:"target_kind,omitempty"`
	// Ignored is set by callers that know the ignore rules (git would not track the entry).
	Ignored bool `json:"ignored,omitempty"`
}

// Listing is a capped directory listing: directories first, then by name.
type Listing struct {
	Entries   []Entry `json:"entries"`
	Total     int     `json:"total"`
	Limit     int     `json:"limit"`
	Truncated bool    `json:"truncated"`
}

// List reads the directory rel under root. At most limit entries are returned (all when limit <= 0); Total counts
// every entry.
func List(root *os.Root, rel string, limit int) (Listing, error) {
	dir, err := root.Open(rel)
	if err != nil {
		return Listing{}, err
	}
	defer dir.Close()
	fi, err := dir.Stat()
	if err != nil {
		return Listing{}, err
	}
	if !fi.IsDir() {
		return Listing{}, &Error{Op: "list", Path: rel, Err: ErrNotDir}
	}
	var entries []Entry
	for {
		batch, err := dir.ReadDir(1024)
		for _, d := range batch {
			entries = append(entries, entry(root, rel, d))
		}
		if err == io.EOF || len(batch) == 0 {
			break
		}
		if err != nil {
			return Listing{}, err
		}
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		if da, db := a.Kind == KindDir || a.TargetKind == KindDir, b.Kind == KindDir || b.TargetKind == KindDir; da != db {
			if da {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	l := Listing{Entries: entries, Total: len(entries), Limit: limit}
	if limit > 0 && len(entries) > limit {
		l.Entries, l.Truncated = entries[:limit], true
	}
	if l.Entries == nil {
		l.Entries = []Entry{}
	}
	return l, nil
}

func entry(root *os.Root, dir string, d fs.DirEntry) Entry {
	e := Entry{Name: d.Name(), Kind: kindOf(d.Type())}
	name := join(dir, d.Name())
	switch e.Kind {
	case KindFile:
		if info, err := d.Info(); err == nil {
			e.Size = info.Size()
		}
	case KindSymlink:
		e.Target, _ = root.Readlink(name)
		// Stat through the root follows the link only while it stays inside, so a link out reads as dangling.
		if info, err := root.Stat(name); err == nil {
			e.TargetKind = kindOf(info.Mode().Type())
			if e.TargetKind == KindFile {
				e.Size = info.Size()
			}
		}
	}
	return e
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return KindSymlink
	case m.IsDir():
		return KindDir
	case m.IsRegular():
		return KindFile
	}
	return KindOther
}

func join(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + string(os.PathSeparator) + name
}
