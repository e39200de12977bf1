package index

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/trigram"
	"github.com/rooted-dev/rooted/backend/walk"
)

// A trigram index is kept on disk between openings of a project: beside its segments, a manifest names them and
// holds each covered (and binary) file's identity as the build saw it, before reading it (size, modification and
// change times, inode). A later opening checks every file of the tree against it (one stat each, no read) and
// searches directly, as changed since the build, every file whose identity differs or that the manifest does not
// know: a file changed while the project was closed is never answered from the index.
//
// A file whose times are within racyWindow of the moment it was listed is saved as unknown (git's "racy" entries):
// a write in the same clock tick as the listing could leave its identity unchanged. Files changed since the build
// are saved as unknown too.

const manifestName = "manifest"

// manifestVersion changes with the manifest's or the segments' layout: a manifest of another version is not used.
const manifestVersion = 2

// racyWindow: a file modified this close to its listing is not trusted to show a later change in its identity
// (a variable for tests, whose files are all new).
var racyWindow = 2 * time.Second

// fileID is what a file's stat says of its content; size -1 is unknown (never equal to a file's).
type fileID = walk.Identity

var unknownID = fileID{Size: -1}

// listed is a file the build is to read, with its identity when listed.
type listed struct {
	rel string
	id  fileID
}

// manifest is the file saved beside the segments.
type manifest struct {
	Version  int
	Gen      int
	Segments []string // file names, in order of their files' numbers
	Covered  nameTableData
	Binary   nameTableData
	// CoveredIDs and BinaryIDs are the identities of Covered's and Binary's files, in their order.
	CoveredIDs, BinaryIDs []fileID
}

type nameTableData struct {
	Data []byte
	Off  []uint32
}

// listIdentities lists the files a trigram index covers (every file a search may read but ignored ones), each
// with its identity now. The same walk gives the list in memory of a search's files, which the index keeps unless
// the tree changed meanwhile: the first search after a build or a reopening walks nothing.
func (x *Index) listIdentities() []listed { return x.listEach(nil) }

// listEach is listIdentities, telling each (when not nil) of every file as the walk reaches it, in path order.
func (x *Index) listEach(each func(listed)) []listed {
	var list []listed
	x.mu.RLock()
	epoch := x.epoch
	x.mu.RUnlock()
	now := time.Now()
	var total int64 // the files' sizes: whether the build fills the text cache
	// Each file is stat'ed from its folder's descriptor as the walk goes (a stat through the root resolves the
	// path anew: 15 µs a file); a link, stat'ed through the root by the walk already, by what it points to.
	err := x.disk.Walk(context.Background(), "", search.WalkOptions{IncludeHidden: true}, func(f search.File) bool {
		id := unknownID
		if f.Info != nil {
			id = fileID{Size: f.Info.Size(), Mtime: f.Info.ModTime().UnixNano(), Ctime: changeTime(f.Info)}
		} else if f.Dir != nil {
			if got, err := f.Dir.Identity(f.Name); err == nil {
				id = got
			}
		}
		total += max(id.Size, 0)
		list = append(list, listed{f.Rel, racy(id, now)})
		if each != nil {
			each(list[len(list)-1])
		}
		f.Release()
		return true
	})
	x.mu.RLock()
	x.noFill.Store(total > fillLimit*x.budget)
	x.mu.RUnlock()
	if err != nil || !x.live() {
		return list
	}
	// Only the list of a search's default files: one with hidden files too would cost as much again (at 460k
	// files, 8 MiB of string headers), for searches that ask for them, which make their own when they come.
	var shown []string
	for _, f := range list {
		if !strings.HasPrefix(f.rel, ".") && !strings.Contains(f.rel, "/.") {
			shown = append(shown, f.rel)
		}
	}
	visible := newFileList(slices.Clip(shown))
	x.mu.Lock()
	if x.epoch == epoch {
		x.lists[listKey{}] = visible
	}
	x.mu.Unlock()
	return list
}

// racy is id, or unknown when the file changed within racyWindow of now.
func racy(id fileID, now time.Time) fileID {
	if limit := now.Add(-racyWindow).UnixNano(); id.Mtime >= limit || id.Ctime >= limit {
		return unknownID
	}
	return id
}

// save writes the manifest of the segments in use, with the files changed since the build as unknown. It writes
// to a temporary file and renames it, so a reader sees the old manifest or the new one. One save runs at a time,
// and none after close, whose own save is the last: a save still under way when the index closed would otherwise
// rename its manifest over whatever came after (the next opening's, or one the user's tools put there).
func (n *narrower) save() error {
	n.saveMu.Lock()
	defer n.saveMu.Unlock()
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return nil
	}
	return n.saveLocked()
}

// saveLocked is save, with n.saveMu held.
func (n *narrower) saveLocked() error {
	n.mu.Lock()
	// While a saved index is being checked, the manifest on disk stays as it is: the files not checked yet are not
	// known to be unchanged, and the next opening checks them all again.
	if n.dir == "" || n.segs == nil || n.stale || n.check != nil || len(n.segPaths) != len(n.segs) {
		n.mu.Unlock()
		return nil
	}
	m := manifest{Version: manifestVersion, Gen: n.gen, Covered: nameTableData{n.covered.data, n.covered.off}, Binary: nameTableData{n.binary.data, n.binary.off}}
	for _, p := range n.segPaths {
		m.Segments = append(m.Segments, filepath.Base(p))
	}
	dirty := make([]string, 0, len(n.dirty)+len(n.during))
	for rel := range n.dirty {
		dirty = append(dirty, rel)
	}
	for rel := range n.during {
		dirty = append(dirty, rel)
	}
	covered, binary := n.covered, n.binary
	m.CoveredIDs, m.BinaryIDs = n.coveredIDs, n.binaryIDs
	n.mu.Unlock()
	// The identities are held in memory only from a build to its first save (at 460k files, 11 MiB): later saves
	// take them from the manifest on disk, which is of the same build when it names the same files.
	if m.CoveredIDs == nil {
		old, err := n.readManifest()
		if err != nil || old.Gen != m.Gen || len(old.CoveredIDs) != covered.Len() || len(old.BinaryIDs) != binary.Len() {
			return err
		}
		m.CoveredIDs, m.BinaryIDs = old.CoveredIDs, old.BinaryIDs
	} else {
		m.CoveredIDs, m.BinaryIDs = slices.Clone(m.CoveredIDs), slices.Clone(m.BinaryIDs)
	}
	for _, rel := range dirty {
		if i, ok := covered.find(rel); ok && i < len(m.CoveredIDs) {
			m.CoveredIDs[i] = unknownID
		}
		if i, ok := binary.find(rel); ok && i < len(m.BinaryIDs) {
			m.BinaryIDs[i] = unknownID
		}
	}
	tmp, err := os.CreateTemp(n.dir, ".manifest-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := gob.NewEncoder(w).Encode(&m); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(n.dir, manifestName)); err != nil {
		return err
	}
	n.mu.Lock()
	if n.gen == m.Gen {
		n.coveredIDs, n.binaryIDs = nil, nil
	}
	n.mu.Unlock()
	return nil
}

// readManifest reads the manifest on disk.
func (n *narrower) readManifest() (manifest, error) {
	var m manifest
	f, err := os.Open(filepath.Join(n.dir, manifestName))
	if err != nil {
		return m, err
	}
	defer f.Close()
	err = gob.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&m)
	if err == nil && (m.Version != manifestVersion || len(m.Covered.Off) != len(m.CoveredIDs)+1 || len(m.Binary.Off) != len(m.BinaryIDs)+1) {
		err = errors.New("manifest of another layout")
	}
	return m, err
}

// saved is an index found on disk at opening, not yet checked against the tree.
type saved struct {
	m     manifest
	segs  []*trigram.Segment
	paths []string
}

// load reads the manifest and opens its segments; nil when there is none, or it is not usable (then the folder is
// emptied for a build).
func (n *narrower) load() *saved {
	s := &saved{}
	var err error
	s.m, err = n.readManifest()
	files := 0
	for i := 0; err == nil && i < len(s.m.Segments); i++ {
		p := filepath.Join(n.dir, filepath.Base(s.m.Segments[i]))
		var seg *trigram.Segment
		if seg, err = trigram.Open(p); err == nil {
			s.segs, s.paths = append(s.segs, seg), append(s.paths, p)
			files += seg.Files()
		}
	}
	if err == nil && (files != len(s.m.CoveredIDs) || len(s.segs) == 0) {
		err = errors.New("manifest and segments disagree")
	}
	if err != nil {
		for _, seg := range s.segs {
			seg.Close()
		}
		os.RemoveAll(n.dir)
		return nil
	}
	return s
}

// keptIndexes is how many projects' trigram indexes the cache keeps: opening a project prunes the least recently
// opened beyond it, so a machine that opens many projects (or test runs in temporary folders) does not collect
// an index for each forever.
const keptIndexes = 8

// prune marks the index at dir as just opened and removes the indexes of the projects opened least recently beyond
// keptIndexes, beside it in its parent folder.
func prune(dir string) {
	now := time.Now()
	os.Chtimes(dir, now, now)
	parent := filepath.Dir(dir)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	type kept struct {
		name string
		at   time.Time
	}
	var all []kept
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && e.IsDir() {
			all = append(all, kept{e.Name(), fi.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b kept) int { return b.at.Compare(a.at) })
	for _, k := range all[min(keptIndexes, len(all)):] {
		if k.name != filepath.Base(dir) {
			os.RemoveAll(filepath.Join(parent, k.name))
		}
	}
}
