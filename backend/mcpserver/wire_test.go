package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testcorpus"
	"github.com/rooted-dev/rooted/backend/testcpu"
)

// goFile is 1 MiB of Go: the standard library's non-test sources in walk order, cut at the end of a line. Short
// lines, tab indentation, quotes and operators (&&, <-) are what a read of code carries.
func goFile(tb testing.TB) []byte {
	tb.Helper()
	src := testcorpus.GoSrc()
	if src == "" {
		tb.Skip("no go command to find the Go source tree")
	}
	var buf []byte
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(buf) >= 1<<20 {
			return fs.SkipDir
		}
		if d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			b, _ := os.ReadFile(p)
			buf = append(buf, b...)
		}
		return nil
	})
	if len(buf) < 1<<20 {
		tb.Skipf("the Go source tree at %s holds less than 1 MiB of Go", src)
	}
	buf = buf[:1<<20]
	return buf[:bytes.LastIndexByte(buf, '\n')+1]
}

// stdio is a server on the project dir behind the stdio transport, spoken to over pipes, initialized.
type stdio struct {
	in  *io.PipeWriter
	out *bufio.Reader
}

func startStdio(tb testing.TB, dir string) *stdio {
	tb.Helper()
	c := serveStdio(tb, Options{Root: dir, MaxResultBytes: -1})
	c.roundTrip(tb, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`)
	c.send(tb, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// serveStdio is a server with opt behind the stdio transport, spoken to over pipes, not yet initialized.
func serveStdio(tb testing.TB, opt Options) *stdio {
	tb.Helper()
	tb.Setenv("XDG_CONFIG_HOME", tb.TempDir())
	tb.Setenv("XDG_CACHE_HOME", tb.TempDir())
	s, err := New(opt)
	if err != nil {
		tb.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		s.Run(context.Background(), &Transport{Reader: inR, Writer: outW})
		outW.Close()
		close(done)
	}()
	tb.Cleanup(func() {
		inW.Close()
		outR.Close()
		<-done
		s.Close()
	})
	return &stdio{in: inW, out: bufio.NewReaderSize(outR, 4<<20)}
}

func (c *stdio) send(tb testing.TB, frame string) {
	tb.Helper()
	if _, err := io.WriteString(c.in, frame+"\n"); err != nil {
		tb.Fatal(err)
	}
}

// roundTrip sends a request and returns the line that answers it, as it came over the wire.
func (c *stdio) roundTrip(tb testing.TB, frame string) []byte {
	tb.Helper()
	go io.WriteString(c.in, frame+"\n")
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			tb.Fatalf("reading the answer to %.80s: %v", frame, err)
		}
		if !bytes.Contains(line[:min(len(line), 100)], []byte(`"method"`)) { // not a request or notification of the server's
			return line
		}
	}
}

func readCall(path string, limit int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":%q,"limit":%d}}}`, path, limit)
}

// A whole-file read over stdio costs at most 1.2 times the file: the content goes once, as the text block, without
// line numbers when more than the 2,000-line window was asked for, and without encoding/json's \u003c for every <.
func TestWholeFileReadCostsAboutTheFileOnTheWire(t *testing.T) {
	content := goFile(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.go"), content, 0o644)
	c := startStdio(t, dir)
	lines := bytes.Count(content, []byte("\n"))
	line := c.roundTrip(t, readCall("big.go", lines))

	if ratio := float64(len(line)) / float64(len(content)); ratio > 1.2 {
		t.Errorf("a read of %d bytes (%d lines) took %d bytes on the wire, %.3fx the file", len(content), lines, len(line), ratio)
	}
	var r struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &r); err != nil || r.Result.IsError || len(r.Result.Content) != 1 {
		t.Fatalf("answer %.300s: %v", line, err)
	}
	text := r.Result.Content[0].Text
	head, rest, _ := strings.Cut(text, "\n")
	want := fmt.Sprintf("(lines 1-%d of %d, without line numbers since more than 2000 were asked for; a range of at most 2000 lines is numbered)", lines, lines)
	if head != want || !strings.HasPrefix(rest, string(content)) || rest[len(content):] != fmt.Sprintf("(big.go: all %d lines)", lines) {
		t.Errorf("text block: first line %q, want %q; content as on disk: %v; last line %q", head, want, strings.HasPrefix(rest, string(content)), rest[min(len(rest), len(content)):])
	}
	for _, ch := range []string{"<", ">", "&"} {
		if n, onWire := strings.Count(string(content), ch), bytes.Count(line, []byte(ch)); n == 0 || onWire < n {
			t.Errorf("%q: %d in the file, %d as itself on the wire", ch, n, onWire)
		}
	}

	// The default read is the 2,000-line window, numbered.
	line = c.roundTrip(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"big.go"}}}`)
	json.Unmarshal(line, &r)
	if text := r.Result.Content[0].Text; !strings.HasPrefix(text, "   1\t") || !strings.Contains(text, "\n2000\t") || strings.Contains(text, "\n2001\t") {
		t.Errorf("default read: %.100q ... %q", text, text[max(0, len(text)-200):])
	}
}

// Undoing the HTML escaping changes no decoded string: every encoded string decodes as it did, and a <, > or &
// decodes from itself.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{"a && b <- c > d", `\u003c`, `\\u003c`, "\\", `"<"`, "\t<\n", "\u2028<", "&amp;", `x\`, "\x00<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc, err := json.Marshal(map[string]any{"text": s, "list": []string{s, "<" + s + ">"}})
		if err != nil {
			t.Skip()
		}
		var want, got any
		json.Unmarshal(enc, &want)
		un := unescapeHTML(enc)
		if err := json.Unmarshal(un, &got); err != nil {
			t.Fatalf("%s -> %s: %v", enc, un, err)
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s decodes as %s, after unescaping %s", enc, a, b)
		}
		if bytes.Contains(un, []byte(`\u003c`)) && !bytes.Contains(un, []byte(`\\u003c`)) {
			t.Fatalf("an escaped < is left: %s", un)
		}
	})
}

// BenchmarkReadFileWire is a read_file of the 1 MiB Go file over the stdio transport (pipes): the time from the
// request to the whole answer, and the answer's size against the file's.
func BenchmarkReadFileWire(b *testing.B) {
	content := goFile(b)
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "big.go"), content, 0o644)
	c := startStdio(b, dir)
	lines := bytes.Count(content, []byte("\n"))
	for _, bc := range []struct {
		name  string
		limit int
	}{{"whole-file", lines}, {"default-window", 0}} {
		frame := readCall("big.go", bc.limit)
		if bc.limit == 0 {
			frame = strings.Replace(frame, `,"limit":0`, "", 1)
		}
		b.Run(bc.name, func(b *testing.B) {
			var n int
			cpu := testcpu.Start()
			for b.Loop() {
				n = len(c.roundTrip(b, frame))
			}
			b.ReportMetric(float64(n), "wire-bytes")
			b.ReportMetric(float64(n)/float64(len(content)), "x-file")
			// The process's CPU time (server and the test's reading client), steadier than the wall time on a
			// busy machine.
			cpu.Report(b)
		})
	}
}
