package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeProvider serves a model list the way each kind does, and records the credentials it was sent.
func fakeProvider(t *testing.T, wantKey string) (*httptest.Server, *[]string) {
	t.Helper()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + r.Header.Get("x-api-key")
		seen = append(seen, r.URL.Path+" "+key)
		if wantKey != "" && key != wantKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"scripted-large"},{"id":"scripted"}]}`))
		case "/api/tags":
			_, _ = w.Write([]byte(`{"models":[{"name":"llama3:8b","model":"llama3:8b"},{"name":"qwen"}]}`))
		case "/moved/models":
			http.Redirect(w, r, "/v1/models", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

// A provider is tried before it is saved: its models, or what is wrong in words, and the providers file untouched.
func TestProbeUnsavedProvider(t *testing.T) {
	srv, seen := fakeProvider(t, "sk-right")
	open, _ := fakeProvider(t, "")
	// A port nothing listens on: a listener opened and closed.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()

	path := filepath.Join(t.TempDir(), "providers.json")
	s := NewStore(path, func(string) string { return "" })
	ctx := context.Background()
	cases := []struct {
		name    string
		in      ProviderChange
		ok      bool
		models  []string
		status  int
		problem string
	}{
		{"openai-compatible with its key", ProviderChange{Kind: "openai-compatible", BaseURL: srv.URL + "/v1/", APIKey: "sk-right"}, true, []string{"scripted", "scripted-large"}, 0, ""},
		{"anthropic with its key", ProviderChange{Kind: "anthropic", BaseURL: srv.URL + "/v1", APIKey: "sk-right"}, true, []string{"scripted", "scripted-large"}, 0, ""},
		{"ollama, its /v1 URL taken back to the root", ProviderChange{Kind: "ollama", BaseURL: open.URL + "/v1"}, true, []string{"llama3:8b", "qwen"}, 0, ""},
		{"a wrong key", ProviderChange{Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "sk-wrong"}, false, nil, 401, "refused the API key (HTTP 401)"},
		{"no key where one is needed", ProviderChange{Kind: "openai-compatible", BaseURL: srv.URL + "/v1"}, false, nil, 401, "needs an API key (HTTP 401)"},
		{"not the API's base URL", ProviderChange{Kind: "openai-compatible", BaseURL: open.URL + "/nope"}, false, nil, 404, "has no model list (HTTP 404)"},
		{"ollama not running", ProviderChange{Kind: "ollama", BaseURL: closed}, false, nil, 0, "Ollama isn't running at " + closed},
		{"nothing listening", ProviderChange{Kind: "openai-compatible", BaseURL: closed + "/v1"}, false, nil, 0, "Nothing answers at " + closed + "/v1"},
		{"a redirect is not followed with the key", ProviderChange{Kind: "openai-compatible", BaseURL: srv.URL + "/moved", APIKey: "sk-right"}, false, nil, 302, "redirects elsewhere"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := s.Probe(ctx, c.in, nil)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if r.OK != c.ok || !slices.Equal(r.Models, c.models) && c.ok || r.Status != c.status || !strings.Contains(r.Problem, c.problem) {
				t.Errorf("%+v: want ok %v models %v status %d problem %q", r, c.ok, c.models, c.status, c.problem)
			}
		})
	}
	// The redirect's target was not asked with the key: the only requests with it are the direct ones.
	for _, s := range *seen {
		if strings.HasSuffix(s, "sk-right") && !strings.HasPrefix(s, "/v1/models") && !strings.HasPrefix(s, "/moved/models") {
			t.Errorf("the key went to %s", s)
		}
	}
	if n := slices.Index(*seen, "/moved/models sk-right"); n < 0 || n+1 < len(*seen) && strings.HasPrefix((*seen)[n+1], "/v1/models") {
		t.Errorf("the redirect was followed: %v", *seen)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("probing saved the providers file: %v", err)
	}
}

// A saved provider's key is used for a probe of the same id and host with the key left blank, as the form sends
// it; never for another host, and never a key in clear text to a public address.
func TestProbeKeys(t *testing.T) {
	srv, seen := fakeProvider(t, "sk-stored")
	s := NewStore(filepath.Join(t.TempDir(), "providers.json"), func(string) string { return "" })
	if _, err := s.SaveProvider(ProviderChange{ID: "mine", Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "sk-stored"}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Probe(context.Background(), ProviderChange{ID: "mine", Kind: "openai-compatible", BaseURL: srv.URL + "/v1"}, nil)
	if err != nil || !r.OK {
		t.Fatalf("stored key: %+v, %v (seen %v)", r, err, *seen)
	}
	other, otherSeen := fakeProvider(t, "")
	r, err = s.Probe(context.Background(), ProviderChange{ID: "mine", Kind: "openai-compatible", BaseURL: other.URL + "/v1"}, nil)
	if err != nil || !r.OK || len(*otherSeen) != 1 || strings.Contains((*otherSeen)[0], "sk-stored") {
		t.Errorf("the stored key followed the provider to another host: %+v, %v, %v", r, err, *otherSeen)
	}
	if _, err := s.Probe(context.Background(), ProviderChange{Kind: "openai-compatible", BaseURL: "http://203.0.113.7/v1", APIKey: "sk-x"}, nil); !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrKeyInClear) {
		t.Errorf("a key in clear text to a public address: %v", err)
	}
	if _, err := s.Probe(context.Background(), ProviderChange{Kind: "gemini", BaseURL: srv.URL}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown kind: %v", err)
	}
}
