package webfetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/readerproc"
)

// PageFunc turns a page's body into text in this process: its charset decoded (from contentType or the markup),
// and, for HTML, the readable article as Markdown with links made absolute against base, and its title.
type PageFunc func(body []byte, contentType string, base *url.URL, html bool) (title, text string, err error)

var localPage PageFunc

// RegisterPage makes ReadPage turn pages into text in this process with f. Package pagemd calls it when it is
// linked (rooted-reader, tests); it is not safe to call once pages are being read.
func RegisterPage(f PageFunc) { localPage = f }

// ReadPage turns a page's body into text: in this process when package pagemd is linked, else in rooted-reader.
// Text (not HTML) that is valid UTF-8 and names UTF-8, ASCII or no charset is returned as it is, less a byte-order
// mark, without either.
func ReadPage(ctx context.Context, body []byte, contentType string, base *url.URL, html bool) (title, text string, err error) {
	if !html && plainUTF8(body, contentType) {
		return "", string(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))), nil
	}
	if localPage != nil {
		return localPage(body, contentType, base, html)
	}
	return ReadPageRemote(ctx, body, contentType, base, html)
}

// plainUTF8 says body is valid UTF-8 and its media type names UTF-8, ASCII or no charset. Charset decoding would
// read some such bodies otherwise (HTML's rules take "us-ascii", or a first KiB that is ASCII with no charset
// named, as windows-1252), which garbles text that is UTF-8 after all; the bytes as they are is the better reading.
func plainUTF8(body []byte, contentType string) bool {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch strings.ToLower(params["charset"]) {
	case "", "utf-8", "utf8", "us-ascii":
		return utf8.Valid(body)
	}
	return false
}

// maxPageReply bounds rooted-reader's answer to "page": far above any page's Markdown (a body is at most 5 MB, and
// links made absolute grow it), to refuse only a reader gone wrong.
const maxPageReply = 256 << 20

// pageReply is rooted-reader's answer to "page".
type pageReply struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	Error string `json:"error,omitempty"`
}

// ReadPageRemote turns a page into text in rooted-reader, whatever this binary links; it is killed when ctx ends.
func ReadPageRemote(ctx context.Context, body []byte, contentType string, base *url.URL, html bool) (title, text string, err error) {
	args := []string{"page", "--url", base.String(), "--content-type", contentType}
	if html {
		args = append(args, "--html")
	}
	out, err := readerproc.Run(ctx, args, body, maxPageReply)
	if err != nil {
		return "", "", fmt.Errorf("reading the page: %w", err)
	}
	var r pageReply
	if err := json.Unmarshal(out, &r); err != nil {
		return "", "", fmt.Errorf("reading the page: %s answered %d bytes that are not its reply", readerproc.Name, len(out))
	}
	if r.Error != "" {
		return "", "", errors.New(r.Error)
	}
	return r.Title, r.Text, nil
}

// ServePage is rooted-reader's "page": it reads the page in this process and returns the reply ReadPageRemote
// reads. The binary must link package pagemd.
func ServePage(body []byte, contentType string, base *url.URL, html bool) ([]byte, error) {
	if localPage == nil {
		return nil, errors.New("this program does not link the page reader")
	}
	title, text, err := localPage(body, contentType, base, html)
	if err != nil {
		return marshal(pageReply{Error: err.Error()})
	}
	return marshal(pageReply{Title: title, Text: text})
}

// marshal is JSON without HTML's escapes (<, > and & would take 6 bytes each).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
