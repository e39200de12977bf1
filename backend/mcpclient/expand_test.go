package mcpclient

import (
	"fmt"
	"strings"
	"testing"
)

// mapSecrets is a key store of fixed entries.
type mapSecrets map[string]string

func (m mapSecrets) Secret(name string) (string, error) {
	if v, ok := m[name]; ok {
		return v, nil
	}
	return "", fmt.Errorf("%q: %w", name, ErrNoSecret)
}

// References resolve in the shapes other clients write, a "$" that is no reference stays, and what cannot be
// resolved is an error naming it rather than an empty value sent on.
func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "EMPTY": ""}
	r := resolver{
		lookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		secrets:   mapSecrets{"docs": "s3cret"},
	}
	for _, c := range []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"${TOKEN}", "t0k", ""},
		{"Bearer ${TOKEN}", "Bearer t0k", ""},
		{"${env:TOKEN}", "t0k", ""},
		{"$TOKEN", "t0k", ""},
		{"${EMPTY:-x}", "", ""},
		{"${UNSET:-fallback}", "fallback", ""},
		{"Bearer ${keyring:docs}", "Bearer s3cret", ""},
		{"pa$$word", "pa$$word", ""},
		{"a $TOKEN b", "a $TOKEN b", ""},
		{"${UNSET}", "", "UNSET is not set"},
		{"${keyring:nope}", "", "no secret of that name"},
		{"${a b}", "", "names no environment variable"},
	} {
		got, err := r.expand(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %q, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := (resolver{lookupEnv: r.lookupEnv}).expand("${keyring:docs}"); err == nil || !strings.Contains(err.Error(), "no key store") {
		t.Errorf("without a key store: %v", err)
	}
}
