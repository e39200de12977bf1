// Package webfetch is what web_fetch's declaration needs of the web without an HTTP client: the URL it takes
// (https, a host, no credentials), the host a rule names, which addresses are never fetched (Refused: anything but
// public unicast), the one dialer that connects only to public addresses (PublicDialer, which web_fetch's client
// and the commands' proxy both use), the page a fetch returns and its errors, and the Fetcher a face provides. The
// client itself is httpfetch, which the CLI does not link (net/http would cost every command's start-up).
//
// Guarantees: Parse accepts only http and https URLs with a host and no user info, and makes them https; Refused
// is an allow-list (global unicast outside the special ranges); PublicDialer dials only addresses Refused passes
// (a test's exempt addr:port aside), refusing a host when any address it resolves to is not public, and checks the
// socket's address again just before connect.
package webfetch

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/idna"
)

// Fetcher fetches a page (httpfetch.Client). A redirect to a host other than u's is followed only when follow says
// so; else the page has RedirectTo set and nothing else.
type Fetcher interface {
	Fetch(ctx context.Context, u *url.URL, follow func(host string) bool) (Page, error)
}

// Page is a fetched page.
type Page struct {
	// URL is the address the content came from, after the redirects followed.
	URL string
	// Status is the HTTP status (a 404's body is still a page the model may read).
	Status int
	// MediaType is the response's media type (text/html), without parameters.
	MediaType string
	Title     string
	// Content is the page as Markdown (HTML) or as it came (text, JSON).
	Content string
	// Bytes is the size of the body read.
	Bytes int64
	// RedirectTo, when set, is where a redirect to a host the caller did not allow leads; nothing was fetched from it.
	RedirectTo string
	// Fetched is when the page was read; a cached page keeps its first time.
	Fetched time.Time
	// Cached says the page came from the cache.
	Cached bool
}

// MediaError is a response of a type the fetcher does not turn into text (an image, a PDF, an archive).
type MediaError struct{ URL, MediaType string }

func (e *MediaError) Error() string {
	return fmt.Sprintf("%s is %s; web_fetch reads HTML, text and JSON only", e.URL, e.MediaType)
}

// TooLargeError is a body over the cap.
type TooLargeError struct {
	URL   string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the most web_fetch reads", e.URL, e.Limit)
}

// SchemeError is a URL (or a redirect) that is not https.
type SchemeError struct{ URL string }

func (e *SchemeError) Error() string {
	return fmt.Sprintf("%s: web_fetch fetches https:// URLs only", e.URL)
}

// Parse checks a URL as web_fetch takes it: absolute, https (http is upgraded, as browsers do for known hosts),
// with a host and no user info. It returns the URL to fetch.
func Parse(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("not a URL: %v", err)
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "https" && scheme != "http" {
		return nil, &SchemeError{URL: raw}
	}
	u.Scheme = "https"
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%s has no host", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%s carries a user name or password; web_fetch sends no credentials", raw)
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	return u, nil
}

// Host is the host name of a URL Parse accepted, as rules name it (lower case, no port).
func Host(u *url.URL) string {
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ascii, err := idna.Lookup.ToASCII(h); err == nil {
		return ascii // rules name a domain in its ASCII form (permissions.Normalize)
	}
	return h
}
