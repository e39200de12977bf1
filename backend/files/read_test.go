package files

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// rootWith is a root holding one file.
func rootWith(t testing.TB, name, content string) *os.Root {
	t.Helper()
	r, _ := testtree.Root(t, map[string]string{name: content})
	return r
}

func TestReadLineAccounting(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200_000) // longer than the reader's buffer: one line, not several
	tests := []struct {
		name, content string
		opt           ReadOptions
		text          string
		total, start  int
		end           int
		truncated     bool
		ending        string
	}{
		{"empty", "", ReadOptions{}, "", 0, 1, 0, false, "none"},
		{"no final newline", "a\nb", ReadOptions{}, "a\nb", 2, 1, 2, false, "lf"},
		{"mixed", "a\r\nb\nc", ReadOptions{}, "a\r\nb\nc", 3, 1, 3, false, "mixed"},
		{"long line counted once", long + "\nend\n", ReadOptions{Offset: 2}, "end\n", 2, 2, 2, false, "lf"},
		{"long crlf line", long + "\r\nend", ReadOptions{Limit: 1}, long + "\r\n", 2, 1, 1, true, "crlf"},
		{"range past the end", "a\nb\n", ReadOptions{Offset: 5, Limit: 2}, "", 2, 5, 4, false, "lf"},
		{"byte cap on a range", "aaaa\nbbbb\ncccc\n", ReadOptions{Offset: 1, Limit: 3, MaxBytes: 10}, "aaaa\nbbbb\n", 3, 1, 2, true, "lf"},
	}
	for _, tt := range tests {
		r := rootWith(t, "f", tt.content)
		c, err := Read(r, "f", tt.opt)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !c.TotalLinesKnown {
			t.Errorf("%s: a small file's line count is unknown", tt.name)
		}
		if c.Text != tt.text || c.TotalLines != tt.total || c.StartLine != tt.start || c.EndLine != tt.end || c.Truncated != tt.truncated || c.LineEnding != tt.ending {
			t.Errorf("%s: got text %.20q total %d range %d-%d truncated %v ending %s", tt.name, c.Text, c.TotalLines, c.StartLine, c.EndLine, c.Truncated, c.LineEnding)
		}
	}
}

func TestReadRefusals(t *testing.T) {
	t.Parallel()
	r := rootWith(t, "elf", "\x7fELF\x02\x01\x01\x00\x00\x00")
	_, err := Read(r, "elf", ReadOptions{})
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, ErrBinary) || !strings.Contains(fe.Detail, "ELF") {
		t.Errorf("ELF: %v", err)
	}
	r = rootWith(t, "big", strings.Repeat("a", DefaultMaxBytes+1))
	if _, err := Read(r, "big", ReadOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	r = rootWith(t, "exact", strings.Repeat("a", DefaultMaxBytes))
	if c, err := Read(r, "exact", ReadOptions{}); err != nil || len(c.Text) != DefaultMaxBytes {
		t.Errorf("exactly the cap: %d, %v", len(c.Text), err)
	}
}

func BenchmarkRead1MB(b *testing.B) {
	line := strings.Repeat("the quick brown fox jumps over the lazy dog ", 2) + "\n"
	content := strings.Repeat(line, (1<<20)/len(line))
	r := rootWith(b, "f", content)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(r, "f", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A binary file is refused with what it looks like, so the model knows not to try again with other options.
func TestReadNamesBinaryKinds(t *testing.T) {
	t.Parallel()
	tar := make([]byte, 512)
	copy(tar, "src/\x00")
	copy(tar[257:], "ustar\x0000")
	for _, c := range []struct{ head, want string }{
		{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"},
		{"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "a JPEG image"},
		{"RIFF\x24\x00\x00\x00WEBPVP8 ", "a WEBP image"},
		{"RIFF\x24\x00\x00\x00WAVEfmt ", "a WAV audio file"},
		{"PK\x03\x04\x14\x00\x00\x00\x08\x00", "a ZIP archive"},
		{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "a gzip archive"},
		{string(tar), "a tar archive"},
		{"\x7fELF\x02\x01\x01\x00\x00\x00", "an ELF executable"},
		{"MZ\x90\x00\x03\x00\x00\x00\x04\x00", "a Windows executable"},
		{"\x00asm\x01\x00\x00\x00", "a WebAssembly module"},
		{"SQLite format 3\x00\x10\x00\x01\x01", "an SQLite database"},
		{"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\x00", "a PDF document"},
		{"\xff\xfeh\x00i\x00", "UTF-16 text"},
		{"\x00\x01\x02\x03 random", "binary data"},
	} {
		r := rootWith(t, "f.bin", c.head)
		_, err := Read(r, "f.bin", ReadOptions{})
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, ErrBinary) || !strings.Contains(fe.Detail, "looks like "+c.want) {
			t.Errorf("%q: want %q, got %v", c.head[:min(len(c.head), 12)], c.want, err)
		}
	}
}

// A line range at the start of a huge file returns at once: the read stops after the range instead of counting
// every line, and says the total is unknown. A slow read fails the test by its deadline, not by a timing.
func TestReadRangeStopsAtTheRange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.log")
	head := strings.Repeat("a log line of text, long enough to pass the binary sniff\n", 400)
	if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	// The rest is text too, and sparse: 10 GB of "\n"-free holes would be binary, so lines are written at the end.
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("\nlast line\n"), 10<<30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type result struct {
		c   Content
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := Read(r, "huge.log", ReadOptions{Offset: 1, Limit: 2})
		done <- result{c, err}
	}()
	select {
	case got := <-done:
		c := got.c
		if got.err != nil {
			t.Fatal(got.err)
		}
		if c.Text != strings.Repeat("a log line of text, long enough to pass the binary sniff\n", 2) || c.StartLine != 1 || c.EndLine != 2 || !c.Truncated {
			t.Errorf("range: %q %d-%d truncated %v", c.Text, c.StartLine, c.EndLine, c.Truncated)
		}
		if c.TotalLinesKnown || c.TotalLines < 3 {
			t.Errorf("total_lines %d known %v: the total of a 10 GB file cannot be known from its first lines", c.TotalLines, c.TotalLinesKnown)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a 2-line range of a 10 GB file reads the whole file")
	}

	// A range in a smaller file still counts every line.
	r2 := rootWith(t, "f", strings.Repeat("x\n", 100_000))
	c, err := Read(r2, "f", ReadOptions{Offset: 1, Limit: 2})
	if err != nil || c.TotalLines != 100_000 || !c.TotalLinesKnown || !c.Truncated {
		t.Errorf("small file range: total %d known %v truncated %v %v", c.TotalLines, c.TotalLinesKnown, c.Truncated, err)
	}
}

// A limit or offset as large as an int can hold reads as "to the end" or "past the end", never overflows.
func TestReadHugeRange(t *testing.T) {
	t.Parallel()
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.WriteFile("a.txt", []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Read(root, "a.txt", ReadOptions{Offset: 2, Limit: math.MaxInt})
	if err != nil || c.Text != "two\n" || c.StartLine != 2 || c.EndLine != 2 || c.Truncated {
		t.Fatalf("limit MaxInt: %+v %v", c, err)
	}
	c, err = Read(root, "a.txt", ReadOptions{Offset: math.MaxInt, Limit: math.MaxInt})
	if err != nil || c.Text != "" || c.TotalLines != 2 {
		t.Fatalf("offset MaxInt: %+v %v", c, err)
	}
}
