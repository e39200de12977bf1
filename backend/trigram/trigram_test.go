package trigram

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"testing"

	"github.com/google/codesearch/index"
)

// The index never leaves out a file that matches: for random files and random literal and regexp queries, every
// file the regexp matches is among the candidates, and a rare literal narrows the candidates to few files.
func TestCandidatesCoverEveryMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"func", "Close", "error", "ErrShortWrite", "return", "nil", "if", "\n", " ", "\t", "{", "}", "é", "日本", "x", "\x00"}
	var files [][]byte
	var b Builder
	for i := range 400 {
		var buf bytes.Buffer
		for range rng.IntN(200) {
			buf.WriteString(words[rng.IntN(len(words))])
		}
		files = append(files, buf.Bytes())
		if id := b.Add(fmt.Sprintf("f%03d.go", i), buf.Bytes()); id != uint32(i) {
			t.Fatalf("file number %d, want %d", id, i)
		}
	}
	s := writeSegment(t, &b)
	if s.Files() != 400 || s.Name(7) != "f007.go" {
		t.Fatalf("files %d, name %q", s.Files(), s.Name(7))
	}
	queries := []string{"ErrShortWrite", "Close", `func\s+\w+`, `(?i)close`, `Err(Short|Long)Write`, "日本", "é", `x{3}`, "ab", `.`, `re?turn`, `\{\n`}
	for range 40 {
		queries = append(queries, regexp.QuoteMeta(words[rng.IntN(len(words))]+words[rng.IntN(len(words))]))
	}
	for _, q := range queries {
		re := regexp.MustCompile("(?m)" + q)
		parsed, err := syntax.Parse(q, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		ids, all := s.Match(index.RegexpQuery(parsed))
		for i, f := range files {
			if re.Match(f) && !all && !slices.Contains(ids, uint32(i)) {
				t.Errorf("query %q: file %d matches but is not a candidate", q, i)
			}
		}
	}
	// A literal found in a handful of files narrows to about those.
	parsed, _ := syntax.Parse("ErrShortWriteErrShortWrite", syntax.Perl)
	ids, all := s.Match(index.RegexpQuery(parsed))
	want := 0
	for _, f := range files {
		if bytes.Contains(f, []byte("ErrShortWriteErrShortWrite")) {
			want++
		}
	}
	if all || len(ids) > want*3+5 {
		t.Errorf("a rare literal gave %d candidates (all=%v) for %d matching files", len(ids), all, want)
	}
}

// A damaged or foreign file is refused with ErrCorrupt, never a crash.
func TestOpenRefusesDamagedSegments(t *testing.T) {
	var b Builder
	b.Add("a", []byte("hello world"))
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := b.Write(good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	for name, content := range map[string][]byte{
		"empty":     {},
		"truncated": data[:len(data)/2],
		"foreign":   []byte("not an index at all, but long enough to have a header and a trailer"),
		"bad sizes": append(append([]byte(magic), bytes.Repeat([]byte{0xff}, 32)...), magic...),
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, content, 0o644)
		if s, err := Open(p); err == nil {
			s.Close()
			t.Errorf("%s: opened", name)
		}
	}
}

// Every trigram's posting list read back equals the files that hold it, across many table blocks: the first and
// last rows of a block, trigrams below the first and above the last, and trigrams between two rows. One builder
// writes three segments in turn (what Reset keeps must not leak from one into the next), of files of a few letters
// and files of any bytes (every byte of a trigram orders it).
func TestPostingsAcrossBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var b Builder
	for seg := range 3 {
		want := map[uint32][]uint32{}
		for f := range 300 {
			content := make([]byte, 200+rng.IntN(400))
			for i := range content {
				if f%3 == seg%3 {
					content[i] = byte(rng.IntN(256))
				} else {
					content[i] = byte('a' + rng.IntN(20))
				}
			}
			if f%50 == 0 {
				content = bytes.Repeat(content[:7], 100) // the same few trigrams over and over
			}
			id := b.Add(fmt.Sprintf("s%d-f%d", seg, f), content)
			seen := map[uint32]bool{}
			for i := 0; i+3 <= len(content); i++ {
				tri := uint32(content[i])<<16 | uint32(content[i+1])<<8 | uint32(content[i+2])
				if !seen[tri] {
					seen[tri] = true
					want[tri] = append(want[tri], id)
				}
			}
		}
		s := writeSegment(t, &b)
		b.Reset()
		if s.tris < 10*fenceEvery || s.tris != len(want) {
			t.Fatalf("segment %d: %d trigrams, want %d (the test needs many blocks)", seg, s.tris, len(want))
		}
		for tri, ids := range want {
			got, ok := s.posting(tri)
			if !ok || !slices.Equal(got, ids) {
				t.Fatalf("segment %d, trigram %06x: got %v (%v), want %v", seg, tri, got, ok, ids)
			}
		}
		for _, tri := range []uint32{0, 'a'<<16 | 'a'<<8 | 'A', 0xffffff, 'z'<<16 | 'z'<<8 | 'z'} {
			if _, held := want[tri]; held {
				continue
			}
			if got, ok := s.posting(tri); !ok || len(got) != 0 {
				t.Errorf("segment %d, absent trigram %06x: %v %v", seg, tri, got, ok)
			}
		}
		if s.Name(0) != fmt.Sprintf("s%d-f0", seg) || s.Name(299) != fmt.Sprintf("s%d-f299", seg) {
			t.Errorf("names: %q %q", s.Name(0), s.Name(299))
		}
	}
}

// writeSegment writes b's segment to a file of the test's and opens it.
func writeSegment(t *testing.T, b *Builder) *Segment {
	t.Helper()
	return writeSegmentAt(t, b, filepath.Join(t.TempDir(), "seg"))
}

// writeSegmentAt writes b's segment to path and opens it, closed when tb ends.
func writeSegmentAt(tb testing.TB, b *Builder, path string) *Segment {
	tb.Helper()
	if err := b.Write(path); err != nil {
		tb.Fatal(err)
	}
	return openSegment(tb, path)
}

// openSegment opens the segment at path and closes it when tb ends.
func openSegment(tb testing.TB, path string) *Segment {
	tb.Helper()
	s, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// A builder reset for the next segment keeps nothing of the last one but its arrays' room.
func TestResetStartsANewSegment(t *testing.T) {
	var b Builder
	b.Add("old.go", []byte("package old // ErrShortWrite"))
	b.Add("old2.go", []byte("more old text"))
	first := writeSegment(t, &b)
	b.Reset()
	if b.Files() != 0 || b.Pairs() != 0 {
		t.Fatalf("after Reset: %d files, %d pairs", b.Files(), b.Pairs())
	}
	b.Add("new.go", []byte("package fresh"))
	s := writeSegment(t, &b)
	if s.Files() != 1 || s.Name(0) != "new.go" {
		t.Fatalf("second segment: %d files, first %q", s.Files(), s.Name(0))
	}
	if ids, all := s.Match(index.RegexpQuery(mustParse(t, "ErrShortWrite"))); all || len(ids) != 0 {
		t.Errorf("the new segment matches the old one's text: %v %v", ids, all)
	}
	if ids, _ := s.Match(index.RegexpQuery(mustParse(t, "fresh"))); !slices.Equal(ids, []uint32{0}) {
		t.Errorf("the new segment does not find its own file: %v", ids)
	}
	if ids, _ := first.Match(index.RegexpQuery(mustParse(t, "ErrShortWrite"))); !slices.Equal(ids, []uint32{0}) {
		t.Errorf("the first segment, written before Reset: %v", ids)
	}
}

func mustParse(t *testing.T, re string) *syntax.Regexp {
	t.Helper()
	p, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Merged segments answer as the segments did: every trigram's posting list is the segments' lists joined, with
// each segment's file numbers after the earlier segments' files, and every name is where its number says; a
// segment with no trigrams and one with no files merge too. A merge of a damaged segment fails and leaves no file.
func TestMergeKeepsEveryPosting(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var b Builder
	var segs []*Segment
	want := map[uint32][]uint32{}
	var names []string
	for seg := range 5 {
		files := 150
		switch seg {
		case 2:
			files = 0
		case 3:
			files = 3 // files too short for a trigram
		}
		for f := range files {
			var content []byte
			if seg != 3 {
				content = make([]byte, 100+rng.IntN(300))
				for i := range content {
					if f%4 == 0 {
						content[i] = byte(rng.IntN(256))
					} else {
						content[i] = byte('a' + rng.IntN(12))
					}
				}
			}
			name := fmt.Sprintf("s%d/f%d.go", seg, f)
			b.Add(name, content)
			id := uint32(len(names))
			names = append(names, name)
			seen := map[uint32]bool{}
			for i := 0; i+3 <= len(content); i++ {
				tri := uint32(content[i])<<16 | uint32(content[i+1])<<8 | uint32(content[i+2])
				if !seen[tri] {
					seen[tri] = true
					want[tri] = append(want[tri], id)
				}
			}
		}
		segs = append(segs, writeSegment(t, &b))
		b.Reset()
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "merged")
	yields := 0
	if err := Merge(path, segs, func() { yields++ }); err != nil {
		t.Fatal(err)
	}
	if yields == 0 {
		t.Error("the merge never yielded")
	}
	m := openSegment(t, path)
	if m.Files() != len(names) || m.tris != len(want) {
		t.Fatalf("merged: %d files, %d trigrams; want %d, %d", m.Files(), m.tris, len(names), len(want))
	}
	for i, name := range names {
		if m.Name(uint32(i)) != name {
			t.Fatalf("name %d: %q, want %q", i, m.Name(uint32(i)), name)
		}
	}
	for tri, ids := range want {
		got, ok := m.posting(tri)
		if !ok || !slices.Equal(got, ids) {
			t.Fatalf("trigram %06x: got %v (%v), want %v", tri, got, ok, ids)
		}
	}
	// A query through Match: the merged candidates are the segments' candidates, renumbered.
	parsed, _ := syntax.Parse(`abc|(?i)hij`, syntax.Perl)
	q := index.RegexpQuery(parsed)
	var joined []uint32
	base := uint32(0)
	for _, s := range segs {
		ids, all := s.Match(q)
		if all {
			t.Fatal("the query narrows nothing")
		}
		for _, id := range ids {
			joined = append(joined, base+id)
		}
		base += uint32(s.Files())
	}
	if got, _ := m.Match(q); len(joined) == 0 || !slices.Equal(got, joined) {
		t.Errorf("merged candidates %v, want %v", got, joined)
	}

	// A segment whose postings were damaged after it was opened: the merge fails, and nothing is left behind.
	var d Builder
	d.Add("a", []byte("hello world, hello there"))
	bad := filepath.Join(dir, "bad")
	s := writeSegmentAt(t, &d, bad)
	if err := os.WriteFile(bad, bytes.Repeat([]byte{0xff}, int(s.end)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := Merge(out, []*Segment{s}, func() {}); err == nil {
		t.Error("merged a damaged segment")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "merged" && e.Name() != "bad" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A segment whose table is sound but whose posting lists are not (varints that never end, a list longer than its
// row says) is refused by Merge, which leaves no file behind.
func TestMergeRefusesDamagedPostings(t *testing.T) {
	for name, damage := range map[string]func(p []byte){
		"unterminated varints": func(p []byte) {
			for i := range p {
				p[i] = 0x80
			}
		},
		"a list longer than its row": func(p []byte) { p[0] = 0x81 }, // the first list's first delta takes two bytes
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var b Builder
			b.Add("a", []byte("hello world"))
			b.Add("b", []byte("hello there"))
			path := filepath.Join(dir, "seg")
			s := writeSegmentAt(t, &b, path)
			data, _ := os.ReadFile(path)
			damage(data[s.postAt:s.end])
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := Merge(filepath.Join(dir, "merged"), []*Segment{s}, func() {}); !errors.Is(err, ErrCorrupt) {
				t.Errorf("merge of a damaged segment: %v, want ErrCorrupt", err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}
