// Package pagemd turns a fetched page into text: its charset decoded, and an HTML page's readable article (no
// menus, footers, scripts) as Markdown. Linking it registers it with webfetch, whose ReadPage then reads in this
// process (rooted-reader, tests); the desktop app, rooted and rooted-mcp leave it to rooted-reader, which parses
// confined, and readability and the HTML parser's tables cost nothing to their start.
package pagemd

import (
	"bytes"
	"io"
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/rooted-dev/rooted/backend/webfetch"
)

func init() { webfetch.RegisterPage(Read) }

// Read is webfetch.PageFunc: body decoded from the charset its Content-Type or its own markup declares, and, when
// html is set, turned into Markdown.
func Read(body []byte, contentType string, base *url.URL, html bool) (title, text string, err error) {
	text, err = utf8Text(body, contentType)
	if err != nil || !html {
		return "", text, err
	}
	return Markdown(text, base)
}

// utf8Text decodes body from the charset its Content-Type or its own markup declares.
func utf8Text(body []byte, contentType string) (string, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return string(body), nil // an unknown charset: the bytes as they are, which is what a browser would show
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	return string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))), nil // a UTF-8 byte-order mark is not text
}

// Markdown turns an HTML page into Markdown: its readable article where readability finds one (no menus, footers,
// scripts), else the whole body. Links are made absolute against base.
func Markdown(page string, base *url.URL) (title, md string, err error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return "", "", err
	}
	node := doc
	parser := readability.NewParser()
	article, err := parser.ParseAndMutate(doc, base) // no copy of the document: it is parsed again if this fails
	if err == nil && article.Node != nil {
		node, title = article.Node, article.Title()
	} else if doc, err = html.Parse(strings.NewReader(page)); err != nil { // readability has changed doc
		return "", "", err
	} else {
		node = doc
	}
	out, err := htmltomarkdown.ConvertNode(node, converter.WithDomain(base.Scheme+"://"+base.Host))
	if err != nil {
		return "", "", err
	}
	return strings.TrimSpace(title), strings.TrimSpace(string(out)), nil
}
