package files

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

func TestApplyEdits(t *testing.T) {
	t.Parallel()
	src := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	tests := []struct {
		name    string
		content string
		edits   []Edit
		want    string
		counts  []int
		err     error
		lines   []int
		hint    string
	}{
		{"single", src, []Edit{{Search: "func a", Replace: "func alpha"}}, strings.Replace(src, "func a", "func alpha", 1), []int{1}, nil, nil, ""},
		{"ambiguous", src, []Edit{{Search: "\treturn 1", Replace: "\treturn 2"}}, "", nil, ErrMultipleMatches, []int{2, 6}, ""},
		{"replace all", src, []Edit{{Search: "return 1", Replace: "return 2", ReplaceAll: true}}, strings.ReplaceAll(src, "return 1", "return 2"), []int{2}, nil, nil, ""},
		{"in order", "x", []Edit{{Search: "x", Replace: "y"}, {Search: "y", Replace: "z"}}, "z", []int{1, 1}, nil, nil, ""},
		{"all or nothing", src, []Edit{{Search: "func a", Replace: "func A"}, {Search: "nope", Replace: "x"}}, "", nil, ErrNoMatch, nil, ""},
		{"indentation hint when ambiguous", src, []Edit{{Search: "    return 1\n}", Replace: "x"}}, "", nil, ErrNoMatch, []int{2, 6}, "matches at 2 places (lines 2, 6)"},
		{"similar line hint", src, []Edit{{Search: "func bb() {", Replace: "x"}}, "", nil, ErrNoMatch, nil, `most similar line is 5: "func b() {"`},
		{"no hint for nonsense", src, []Edit{{Search: "zzzzqqqq", Replace: "x"}}, "", nil, ErrNoMatch, nil, ""},
		{"crlf kept", "a\r\nb\r\nc\r\n", []Edit{{Search: "a\nb\n", Replace: "A\nB\n"}}, "A\r\nB\r\nc\r\n", []int{1}, nil, nil, ""},
		{"crlf exact", "a\r\nb\r\n", []Edit{{Search: "a\r\n", Replace: "x\r\n"}}, "x\r\nb\r\n", []int{1}, nil, nil, ""},
		{"empty search", src, []Edit{{Search: "", Replace: "x"}}, "", nil, ErrEmptySearch, nil, ""},
		{"no change", src, []Edit{{Search: "a", Replace: "a"}}, "", nil, ErrNoChange, nil, ""},
		{"delete", "keep drop keep", []Edit{{Search: " drop", Replace: ""}}, "keep keep", []int{1}, nil, nil, ""},
	}
	for _, tt := range tests {
		got, counts, err := ApplyEdits(tt.content, tt.edits)
		if tt.err != nil {
			var ee *EditError
			if !errors.Is(err, tt.err) || !errors.As(err, &ee) {
				t.Errorf("%s: err = %v, want %v", tt.name, err, tt.err)
				continue
			}
			if tt.lines != nil && !slices.Equal(ee.Lines, tt.lines) {
				t.Errorf("%s: lines = %v, want %v", tt.name, ee.Lines, tt.lines)
			}
			if !strings.Contains(ee.Hint, tt.hint) || (tt.hint == "" && ee.Hint != "") {
				t.Errorf("%s: hint = %q, want %q", tt.name, ee.Hint, tt.hint)
			}
			continue
		}
		if err != nil || got != tt.want || !slices.Equal(counts, tt.counts) {
			t.Errorf("%s: got %q %v %v, want %q %v", tt.name, got, counts, err, tt.want, tt.counts)
		}
	}
}

// A search that misses only by whitespace is applied when exactly one run of lines matches with whitespace
// ignored, with the replacement moved to the file's indentation; never when two runs match.
func TestWhitespaceFallback(t *testing.T) {
	t.Parallel()
	goSrc := "func a() {\n\tif x {\n\t\treturn 1\n\t}\n}\n"
	tests := []struct {
		name, content string
		edit          Edit
		want          string // "" when the edit must fail
		line          int
	}{
		{"spaces for a tab", goSrc, Edit{Search: "    if x {\n        return 1\n    }", Replace: "    if y {\n        return 2\n    }"}, "func a() {\n\tif y {\n\t\treturn 2\n\t}\n}\n", 2},
		{"no indentation at all", goSrc, Edit{Search: "if x {\nreturn 1\n}\n", Replace: "if x {\n\treturn 2\n}\n"}, "func a() {\n\tif x {\n\t\treturn 2\n\t}\n}\n", 2},
		{"trailing spaces in the file", "a := 1   \nb := 2\n", Edit{Search: "a := 1\nb := 2", Replace: "a := 3\nb := 4"}, "a := 3\nb := 4\n", 1},
		{"trailing spaces in the search", "x\n\tkeep()\ny\n", Edit{Search: "\tkeep()  \ny", Replace: "\tdrop()\ny"}, "x\n\tdrop()\ny\n", 2},
		{"crlf file, lf search with other indentation", "if x {\r\n\treturn 1\r\n}\r\n", Edit{Search: "if x {\n  return 1\n}", Replace: "if x {\n  return 2\n}"}, "if x {\r\n\treturn 2\r\n}\r\n", 1},
		{"ambiguous: two runs match", "\treturn 1\n\treturn 1\n", Edit{Search: "  return 1", Replace: "  return 2"}, "", 0},
		{"ambiguous even with replace_all", "\treturn 1\nx\n\treturn 1\n", Edit{Search: "  return 1", Replace: "  return 2", ReplaceAll: true}, "", 0},
		{"different words are no match", goSrc, Edit{Search: "    if z {", Replace: "y"}, "", 0},
	}
	for _, tt := range tests {
		got, counts, loose, err := applyEdits(tt.content, []Edit{tt.edit})
		if tt.want == "" {
			if !errors.Is(err, ErrNoMatch) || loose != nil {
				t.Errorf("%s: got %q, %v, %v; want no_match", tt.name, got, loose, err)
			}
			continue
		}
		if err != nil || got != tt.want || !slices.Equal(counts, []int{1}) {
			t.Errorf("%s: got %q %v %v, want %q", tt.name, got, counts, err, tt.want)
			continue
		}
		if len(loose) != 1 || loose[0].Line != tt.line {
			t.Errorf("%s: loose = %+v, want line %d", tt.name, loose, tt.line)
		}
	}
	// An exact match never goes through the fallback.
	if _, _, loose, err := applyEdits(goSrc, []Edit{{Search: "\t\treturn 1", Replace: "\t\treturn 2"}}); err != nil || loose != nil {
		t.Errorf("exact: %v %v", loose, err)
	}
}

func TestPatchRefusesBinaryAndLeavesFileOnFailure(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, nil)
	os.WriteFile(filepath.Join(dir, "bin"), []byte("a\x00b"), 0o644)
	if _, err := Patch(r, "bin", []Edit{{Search: "a", Replace: "c"}}, nil); !errors.Is(err, ErrBinary) {
		t.Errorf("binary: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "f"), []byte("one two"), 0o644)
	_, err := Patch(r, "f", []Edit{{Search: "one", Replace: "1"}, {Search: "three", Replace: "3"}}, nil)
	if !errors.Is(err, ErrNoMatch) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "one two" {
		t.Errorf("a failed multi-edit changed the file: %q", b)
	}
	p, err := Patch(r, "f", []Edit{{Search: "one", Replace: "1"}, {Search: "two", Replace: "2"}}, nil)
	if err != nil || p.After != "1 2" || p.Before != "one two" {
		t.Fatalf("patch: %+v, %v", p, err)
	}
	noTempFiles(t, dir)
}

func BenchmarkPatch1MB(b *testing.B) {
	r, dir := testtree.Root(b, nil)
	line := "the quick brown fox jumps over the lazy dog\n"
	content := strings.Repeat(line, (1<<20)/len(line)/2) + "NEEDLE\n" + strings.Repeat(line, (1<<20)/len(line)/2)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		from, to := "NEEDLE", "HAYSTK"
		if i%2 == 1 {
			from, to = to, from
		}
		i++
		if _, err := Patch(r, "f.txt", []Edit{{Search: from, Replace: to}}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
