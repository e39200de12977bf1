package index

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/gob"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/trigram"
)

// An index saved by an earlier layout is not read as if it were the current one: segments of the first layout
// (16-byte table rows), sound in themselves, or a manifest of the first version, are refused at opening, the index
// is built anew, and searches answer right meanwhile and after. (The same index untouched is kept.)
func TestReopenedIndexOfAnOlderLayout(t *testing.T) {
	t.Parallel()
	for _, old := range []string{"none", "segments", "manifest"} { // none: the control, kept
		t.Run(old, func(t *testing.T) {
			t.Parallel()
			r, dir, cache, _ := keptProject(t, nil) // files the manifest trusts: a sound index of this layout is kept
			saved := indexDir(dir, cache)
			switch old {
			case "segments":
				entries, _ := os.ReadDir(saved)
				rewrote := 0
				for _, e := range entries {
					if e.Name() != manifestName {
						writeFirstLayout(t, r, filepath.Join(saved, e.Name()))
						rewrote++
					}
				}
				if rewrote == 0 {
					t.Fatal("no segment saved")
				}
			case "manifest":
				setManifestVersion(t, filepath.Join(saved, manifestName), 1)
			}
			y, err := NewIndex(r, dir, Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			closed := false
			defer func() {
				if !closed {
					y.Close()
				}
			}()
			if res, err := search.Search(context.Background(), y, "", search.Options{Query: "needle", Output: search.OutputCount}); err != nil || res.Total != 1 {
				t.Errorf("older %s: %+v %v", old, res, err)
			}
			waitNarrowed(t, y)
			if _, _, st := y.Memory(); st.Reopened != (old == "none") || !st.Ready {
				t.Errorf("older %s: %+v, want the index kept only when of this layout", old, st)
			}
			if res, err := search.Search(context.Background(), y, "", search.Options{Query: "needle", Output: search.OutputCount}); err != nil || res.Total != 1 {
				t.Errorf("older %s, rebuilt: %+v %v", old, res, err)
			}
			// What is on disk now is the current layout: read once the index is closed, when no merge removes
			// segments any more.
			y.Close()
			closed = true
			entries, _ := os.ReadDir(y.tri.dir)
			for _, e := range entries {
				if e.Name() == manifestName || strings.HasPrefix(e.Name(), ".") { // a manifest being saved
					continue
				}
				if s, err := trigram.Open(filepath.Join(y.tri.dir, e.Name())); err != nil {
					t.Errorf("after the rebuild: %v", err)
				} else {
					s.Close()
				}
			}
		})
	}
}

// writeFirstLayout rewrites the segment at path, of the current layout, in the first: "RTRI1\n", the file and
// trigram counts, the offsets of the names, the table and the postings, then the names, the table (a 16-byte row
// a trigram: trigram, count, postings offset), the postings (varint gaps) and "RTRI1\n". The files are read from
// r.
func writeFirstLayout(t *testing.T, r *os.Root, path string) {
	t.Helper()
	s, err := trigram.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	lists := map[uint32][]uint32{}
	for id := range s.Files() {
		name := s.Name(uint32(id))
		names = append(names, name)
		data, err := r.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[uint32]bool{}
		for i := 0; i+3 <= len(data); i++ {
			tri := uint32(data[i])<<16 | uint32(data[i+1])<<8 | uint32(data[i+2])
			if !seen[tri] {
				seen[tri] = true
				lists[tri] = append(lists[tri], uint32(id))
			}
		}
	}
	s.Close()
	tris := slices.Sorted(func(yield func(uint32) bool) {
		for tri := range lists {
			if !yield(tri) {
				return
			}
		}
	})
	le := binary.LittleEndian
	const magic = "RTRI1\n"
	var nameOff, nameBytes, table, post []byte
	for _, n := range names {
		nameOff = le.AppendUint32(nameOff, uint32(len(nameBytes)))
		nameBytes = append(nameBytes, n...)
	}
	nameOff = le.AppendUint32(nameOff, uint32(len(nameBytes)))
	for _, tri := range tris {
		table = le.AppendUint32(table, tri)
		table = le.AppendUint32(table, uint32(len(lists[tri])))
		table = le.AppendUint64(table, uint64(len(post)))
		prev := uint32(0)
		for _, id := range lists[tri] {
			post = binary.AppendUvarint(post, uint64(id-prev))
			prev = id
		}
	}
	namesAt := uint64(len(magic) + 4*2 + 8*3)
	tableAt := namesAt + uint64(len(nameOff)+len(nameBytes))
	postAt := tableAt + uint64(len(table))
	out := []byte(magic)
	out = le.AppendUint32(out, uint32(len(names)))
	out = le.AppendUint32(out, uint32(len(tris)))
	out = le.AppendUint64(out, namesAt)
	out = le.AppendUint64(out, tableAt)
	out = le.AppendUint64(out, postAt)
	out = append(append(append(append(append(out, nameOff...), nameBytes...), table...), post...), magic...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// setManifestVersion rewrites the saved manifest at path with another version, all else as it was.
func setManifestVersion(t *testing.T, path string, version int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	err = gob.NewDecoder(bufio.NewReader(f)).Decode(&m)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	m.Version = version
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := gob.NewEncoder(out).Encode(m); err != nil {
		t.Fatal(err)
	}
}
