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
// linked (the desktop app, rooted-reader, tests); it is not safe to call once pages are being read.
func RegisterPage(f PageFunc) { localPage = f }

// ReadPage turns a page's body into text: in this process when package pagemd is linked, else in rooted-reader.
// Text that is already UTF-8 and says so, or says no charset, is returned as it is without either.
func ReadPage(ctx context.Context, body []byte, contentType string, base *url.URL, html bool) (title, text string, err error) {
	if !html && plainUTF8(body, contentType) {
		return "", string(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))), nil
	}
	if localPage != nil {
		return localPage(body, contentType, base, html)
	}
	return ReadPageRemote(ctx, body, contentType, base, html)
}

// plainUTF8 says body is valid UTF-8 and its media type names UTF-8, ASCII or no charset: what charset decoding
// would return unchanged (a byte-order mark aside).
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
	// Markdown and JSON's escapes can make the text some times the body: bound the answer well above that.
	out, err := readerproc.Run(ctx, args, body, 8*len(body)+64<<10)
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
		return json.Marshal(pageReply{Error: err.Error()})
	}
	return json.Marshal(pageReply{Title: title, Text: text})
}
