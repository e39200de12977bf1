package netproxy_test

import (
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/netproxy"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"PyPI.org.", "pypi.org", ""},
		{" *.pythonhosted.org ", "*.pythonhosted.org", ""},
		{"bücher.example", "xn--bcher-kva.example", ""},
		{"*", "", "every host"},
		{"*.", "", "every host"},
		{"https://pypi.org", "", "not a host name"},
		{"pypi.org:443", "", "not a host name"},
		{"localhost", "", "not a host name"},
		{"a*.example.com", "", "not a host name"},
	} {
		got, err := netproxy.Normalize(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Normalize(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		list []string
		host string
		want bool
	}{
		{[]string{"*.crates.io"}, "static.crates.io", true},
		{[]string{"*.crates.io"}, "a.b.crates.io", true},
		{[]string{"*.crates.io"}, "crates.io", false},
		{[]string{"*.crates.io"}, "evilcrates.io", false},
		{[]string{"pypi.org"}, "PYPI.ORG.", true},
		{[]string{"pypi.org"}, "pypi.org.evil.example", false},
		{nil, "pypi.org", false},
	} {
		if got := netproxy.Allowed(tc.list, tc.host); got != tc.want {
			t.Errorf("Allowed(%v, %q) = %v", tc.list, tc.host, got)
		}
	}
}
