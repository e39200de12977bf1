package files

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// DefaultMaxBytes is how much a whole-file read may return; larger files must be read by line range.
const DefaultMaxBytes = 1 << 20

// ReadOptions select a line range. Offset is the first line (1-based, 0 means 1); Limit is a line count (0: to the end).
type ReadOptions struct {
	Offset, Limit int
	// MaxBytes caps the returned content; 0 means DefaultMaxBytes.
	MaxBytes int
}

// Content is a file's text, or a line range of it, with line endings exactly as on disk.
type Content struct {
	Text string `json:"content"`
	Size int64  `json:"size"`
	// TotalLines is the file's line count when TotalLinesKnown; otherwise the lines seen before reading stopped
	// (a ranged read stops after its range when more than CountBeyond bytes would be left to count).
	TotalLines      int  `json:"total_lines"`
	TotalLinesKnown bool `json:"total_lines_known"`
	// StartLine and EndLine are the 1-based inclusive range returned (EndLine < StartLine when empty).
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// Truncated is true when lines after EndLine were not returned.
	Truncated bool `json:"truncated"`
	// LineEnding is "lf", "crlf", "mixed" or "none" (no line break at all).
	LineEnding string    `json:"line_ending"`
	ModTime    time.Time `json:"mod_time"`
}

// CountBeyond is how far a ranged read goes on past its range only to count the file's lines: a few
// milliseconds of reading. Past it, the read stops and the total is unknown, so a line range at the start of a
// 10 GB log returns at once.
const CountBeyond = 16 << 20

// sniffLen is how much of a file decides whether it is binary (git looks at the first 8000 bytes the same way).
const sniffLen = 8000

// Read returns the text of rel under root. Binary files are refused with ErrBinary; files over MaxBytes with
// ErrTooLarge unless a line range is asked for.
func Read(root *os.Root, rel string, opt ReadOptions) (Content, error) {
	f, fi, err := OpenRegular(root, "read", rel)
	if err != nil {
		return Content{}, err
	}
	defer f.Close()
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	ranged := opt.Offset > 1 || opt.Limit > 0
	if !ranged && fi.Size() > int64(maxBytes) {
		return Content{}, &Error{
			Op: "read", Path: rel, Err: ErrTooLarge, Size: fi.Size(),
			Detail: fmt.Sprintf("%s, more than the %s a whole read returns; ask for a line range with offset and limit, for example {\"offset\": 1, \"limit\": 2000}",
				HumanSize(fi.Size()), HumanSize(int64(maxBytes))),
		}
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffLen)
	if bytes.IndexByte(head, 0) >= 0 {
		return Content{}, &Error{
			Op: "read", Path: rel, Err: ErrBinary, Size: fi.Size(),
			Detail: fmt.Sprintf("%s, looks like %s", HumanSize(fi.Size()), guessType(head)),
		}
	}
	return window(br, fi.Size(), fi.ModTime(), opt, maxBytes, ranged)
}

// Window returns the lines of text opt asks for, exactly as Read returns a file's, for text that is not a file's
// bytes (a PDF's extracted pages): capped at opt.MaxBytes, with Truncated saying more lines follow. A whole read
// over the cap is cut there rather than refused, since the text cannot be read in another way. Size is the text's.
func Window(text string, modTime time.Time, opt ReadOptions) Content {
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	c, _ := window(bufio.NewReader(strings.NewReader(text)), int64(len(text)), modTime, opt, maxBytes, opt.Offset > 1 || opt.Limit > 0)
	return c // a strings.Reader does not fail
}

// window scans the lines of br (size bytes) for the range opt asks for.
func window(br *bufio.Reader, size int64, modTime time.Time, opt ReadOptions, maxBytes int, ranged bool) (Content, error) {
	s := lineScan{c: Content{Size: size, ModTime: modTime, TotalLinesKnown: true}, ranged: ranged, maxBytes: maxBytes}
	// An offset or limit past any file's lines counts as no more than that (it would overflow the sums below).
	s.c.StartLine = min(max(opt.Offset, 1), math.MaxInt32)
	limit := min(opt.Limit, math.MaxInt32)
	if limit > 0 {
		s.last = s.c.StartLine + limit - 1
	}
	// The text is built in a strings.Builder, whose String does not copy, sized once for what the read can return:
	// the file, at most the cap, and for a line range at most 128 bytes a line (a Go file averages 30). A 1 MiB
	// read is one allocation rather than a doubling buffer and a copy; a short range of a big file stays small.
	grow := min(size, int64(maxBytes))
	if limit > 0 {
		grow = min(grow, int64(limit)*128)
	}
	s.out.Grow(int(grow))
	if err := s.scan(br); err != nil {
		return Content{}, err
	}
	return s.finish(), nil
}

// lineScan reads a file line by line, keeping the lines of the range asked for (up to the byte cap), counting
// the rest where that is cheap, and noting the line endings it sees.
type lineScan struct {
	c        Content
	out      strings.Builder
	ranged   bool
	maxBytes int
	last     int // last line number to keep; 0 means all

	line     int
	consumed int64
	inLine   bool
	crlf, lf bool
	prev     byte // last byte of the previous piece, so a CR split from its LF still counts as CRLF
}

func (s *lineScan) scan(br *bufio.Reader) error {
	for {
		// ReadSlice returns a long line in several pieces (ErrBufferFull); inLine counts it once.
		piece, err := br.ReadSlice('\n')
		if len(piece) > 0 && !s.take(piece) {
			return nil
		}
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

// take adds a piece of a line; false when the rest of the file is not worth reading.
func (s *lineScan) take(piece []byte) bool {
	n := len(piece)
	if !s.inLine {
		s.line++
		s.inLine = true
	}
	// Past the range (or the byte cap), the rest is read only to count lines, and only if it is short.
	if s.ranged && (s.c.Truncated || (s.last != 0 && s.line > s.last)) && s.c.Size-s.consumed > CountBeyond {
		s.c.Truncated, s.c.TotalLinesKnown = true, false
		return false
	}
	s.consumed += int64(n)
	if s.line >= s.c.StartLine && (s.last == 0 || s.line <= s.last) && !s.c.Truncated {
		if s.out.Len()+n > s.maxBytes {
			s.c.Truncated = true
		} else {
			s.out.Write(piece)
			s.c.EndLine = s.line
		}
	}
	if piece[n-1] == '\n' {
		s.inLine = false
		if (n > 1 && piece[n-2] == '\r') || (n == 1 && s.prev == '\r') {
			s.crlf = true
		} else {
			s.lf = true
		}
	}
	s.prev = piece[n-1]
	return true
}

// finish completes the content from what the scan saw.
func (s *lineScan) finish() Content {
	c := s.c
	c.TotalLines = s.line // all of them when TotalLinesKnown, else those up to where the scan stopped
	if s.last != 0 && s.line > s.last {
		c.Truncated = true
	}
	if c.EndLine == 0 {
		c.EndLine = c.StartLine - 1
	}
	c.Text = s.out.String()
	switch {
	case s.crlf && s.lf:
		c.LineEnding = "mixed"
	case s.crlf:
		c.LineEnding = "crlf"
	case s.lf:
		c.LineEnding = "lf"
	default:
		c.LineEnding = "none"
	}
	return c
}

// guessType names a binary file's kind for messages ("a PNG image", "a ZIP archive") from its first bytes. The
// table is the formats a project holds (images, fonts, archives, executables, databases); anything else is "binary
// data". Rooted's CLI does not link net/http for this: that one import cost every command a TLS stack at start-up.
func guessType(head []byte) string {
	for _, m := range magics {
		if len(head) >= m.at+len(m.sig) && bytes.Equal(head[m.at:m.at+len(m.sig)], []byte(m.sig)) &&
			(m.also == "" || bytes.Contains(head[:min(len(head), 16)], []byte(m.also))) {
			return m.kind
		}
	}
	return "binary data"
}

// magics are file signatures: sig at offset at, and also somewhere in the first 16 bytes when set.
var magics = []struct {
	at        int
	sig, also string
	kind      string
}{
	{0, "\x89PNG\r\n\x1a\n", "", "a PNG image"},
	{0, "\xff\xd8\xff", "", "a JPEG image"},
	{0, "GIF87a", "", "a GIF image"},
	{0, "GIF89a", "", "a GIF image"},
	{0, "RIFF", "WEBP", "a WEBP image"},
	{0, "RIFF", "WAVE", "a WAV audio file"},
	{0, "BM", "", "a BMP image"},
	{0, "\x00\x00\x01\x00", "", "an ICO image"},
	{4, "ftypavif", "", "an AVIF image"},
	{4, "ftyp", "", "an MP4 video"},
	{0, "%PDF-", "", "a PDF document"},
	{0, "PK\x03\x04", "", "a ZIP archive (or a jar, docx, xlsx)"},
	{0, "PK\x05\x06", "", "a ZIP archive (empty)"},
	{0, "\x1f\x8b", "", "a gzip archive"},
	{0, "BZh", "", "a bzip2 archive"},
	{0, "\xfd7zXZ\x00", "", "an xz archive"},
	{0, "\x28\xb5\x2f\xfd", "", "a zstd archive"},
	{0, "7z\xbc\xaf\x27\x1c", "", "a 7-Zip archive"},
	{0, "Rar!\x1a\x07", "", "a RAR archive"},
	{257, "ustar", "", "a tar archive"},
	{0, "!<arch>\n", "", "an ar archive (a static library or .deb)"},
	{0, "\x7fELF", "", "an ELF executable"},
	{0, "MZ", "", "a Windows executable"},
	{0, "\xcf\xfa\xed\xfe", "", "a Mach-O executable"},
	{0, "\xce\xfa\xed\xfe", "", "a Mach-O executable"},
	{0, "\xca\xfe\xba\xbe", "", "a Java class file or Mach-O universal binary"},
	{0, "\x00asm", "", "a WebAssembly module"},
	{0, "SQLite format 3\x00", "", "an SQLite database"},
	{0, "wOFF", "", "a WOFF font"},
	{0, "wOF2", "", "a WOFF2 font"},
	{0, "\x00\x01\x00\x00\x00", "", "a TrueType font"},
	{0, "OTTO", "", "an OpenType font"},
	{0, "OggS", "", "an Ogg media file"},
	{0, "ID3", "", "an MP3 audio file"},
	{0, "fLaC", "", "a FLAC audio file"},
	{0, "\x1aE\xdf\xa3", "", "a Matroska or WebM video"},
	{0, "\xfe\xff", "", "UTF-16 text, which is not supported"},
	{0, "\xff\xfe", "", "UTF-16 text, which is not supported"},
}
