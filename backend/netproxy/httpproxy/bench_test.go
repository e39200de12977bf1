package httpproxy_test

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// BenchmarkDownload is a command's HTTPS download of a 1 KiB and a 1 MiB file from a loopback fixture, each on a new
// connection (as a package manager's first request to a host is): directly, and through the proxy. The
// difference is the proxy's per-request overhead (its CONNECT round trip, the check, the copying).
func BenchmarkDownload(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) { benchDownload(b, size) })
	}
}

func benchDownload(b *testing.B, size int) {
	body := bytes.Repeat([]byte("x"), size)
	web := webfetchtest.New(b, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }), "pkg.example.com")
	site := web.Sites["pkg.example.com"]
	o := web.Options()
	_, proxy := start(b, httpproxy.Options{Hosts: []string{"pkg.example.com"}, Resolver: web.Resolver, Exempt: o.Exempt})
	direct := site.Server.URL + "/f" // the address itself: no proxy, no name to resolve
	for _, bc := range []struct {
		name  string
		url   string
		proxy *url.URL
	}{{"direct", direct, nil}, {"proxy", site.URL("/f"), proxy}} {
		b.Run(bc.name, func(b *testing.B) {
			tr := &http.Transport{DisableKeepAlives: true, TLSClientConfig: &tls.Config{RootCAs: o.RootCAs}}
			if bc.proxy != nil {
				tr.Proxy = http.ProxyURL(bc.proxy)
			}
			c := &http.Client{Transport: tr}
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				res, err := c.Get(bc.url)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if n != int64(len(body)) {
					b.Fatalf("read %d bytes", n)
				}
			}
		})
	}
}
