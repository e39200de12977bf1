package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/readerproc"
)

// frame is one request as readerproc sends it.
func frame(args []string, in string) string {
	head, _ := json.Marshal(readerproc.Request{Args: args, Len: len(in)})
	return string(head) + "\n" + in
}

// replies reads every reply frame serve wrote.
func replies(t *testing.T, out []byte) (heads []readerproc.Reply, bodies []string) {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return heads, bodies
		}
		var h readerproc.Reply
		if err != nil || json.Unmarshal(line, &h) != nil {
			t.Fatalf("not a reply frame: %q (%v)", line, err)
		}
		body := make([]byte, h.Len)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("a reply's %d bytes: %v", h.Len, err)
		}
		heads, bodies = append(heads, h), append(bodies, string(body))
	}
}

var page = []string{"page", "--url", "https://example.com/a/", "--content-type", "text/plain; charset=iso-8859-1"}

// Requests are answered in turn, each reply framed with its exit code, until stdin ends; a command refused (bad
// usage, or serve itself) is a reply with exit code 2, and the next request is still served.
func TestServeAnswersRequestAfterRequest(t *testing.T) {
	in := frame(page, "caf\xe9") + frame([]string{"serve"}, "") + frame([]string{"page", "--html"}, "<p>x</p>") + frame(page, "na\xefve")
	var out, stderr bytes.Buffer
	if code := serve(t.Context(), strings.NewReader(in), &out, &stderr, time.Hour, func() { t.Error("idle exit") }); code != 0 {
		t.Fatalf("serve: exit %d, %s", code, &stderr)
	}
	heads, bodies := replies(t, out.Bytes())
	if len(heads) != 4 {
		t.Fatalf("%d replies to 4 requests: %+v", len(heads), heads)
	}
	for i, want := range []struct {
		code int
		body string
	}{{0, `"text":"café"`}, {2, ""}, {2, ""}, {0, `"text":"naïve"`}} {
		if heads[i].Code != want.code || !strings.Contains(bodies[i], want.body) {
			t.Errorf("reply %d: %+v %q; want code %d and %q", i, heads[i], bodies[i], want.code, want.body)
		}
	}
	if !strings.Contains(heads[2].Stderr, "--url") {
		t.Errorf("a page without --url: stderr %q", heads[2].Stderr)
	}
}

// A line that is not a request ends serve with exit code 2: the stream can no longer be trusted.
func TestServeRefusesWhatIsNotAFrame(t *testing.T) {
	for _, in := range []string{"not json\n", `{"args":[],"len":0}` + "\n", `{"args":["page"],"len":-1}` + "\n"} {
		var out, stderr bytes.Buffer
		if code := serve(t.Context(), strings.NewReader(in), &out, &stderr, time.Hour, func() {}); code != 2 || out.Len() != 0 {
			t.Errorf("%q: exit %d, replied %q", in, code, out.String())
		}
	}
	var out, stderr bytes.Buffer
	if code := serve(t.Context(), strings.NewReader(`{"args":["page"],"len":10}`+"\nshort"), &out, &stderr, time.Hour, func() {}); code != 1 {
		t.Errorf("a request cut short: exit %d", code)
	}
}

// serve ends by itself after idle without a request, counted from its start or from its last answer.
func TestServeEndsWhenIdle(t *testing.T) {
	for _, requests := range []int{0, 2} {
		stdin, w := io.Pipe()
		out, replies := io.Pipe()
		ended := make(chan struct{})
		go serve(context.Background(), stdin, replies, io.Discard, 300*time.Millisecond, func() { close(ended) })
		r := bufio.NewReader(out)
		for range requests {
			go w.Write([]byte(frame(page, "caf\xe9")))
			if _, err := r.ReadBytes('\n'); err != nil { // the reply's frame
				t.Fatal(err)
			}
			if _, err := r.ReadBytes('\n'); err != nil { // its JSON, on a line
				t.Fatal(err)
			}
			select {
			case <-ended:
				t.Fatal("serve ended while it was answering")
			default:
			}
		}
		select {
		case <-ended:
		case <-time.After(time.Minute):
			t.Fatalf("after %d requests, serve did not end after its idle time", requests)
		}
		w.Close()
	}
}
