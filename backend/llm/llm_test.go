package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStoreDefaultsSavesPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "rooted", "providers.json")
	s := NewStore(path, func(string) string { return "" })
	c, err := s.Load()
	if err != nil || c.Active != "ollama" || c.Providers[0].Kind != Ollama || c.Providers[0].BaseURL != "http://localhost:11434" {
		t.Fatalf("default: %+v, %v", c, err)
	}
	c.Providers = append(c.Providers, Provider{ID: "claude", Name: "Claude", Kind: Anthropic, BaseURL: "https://api.anthropic.com/v1", APIKey: "sk-ant-secret"})
	if err := s.Save(c); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	di, _ := os.Stat(filepath.Dir(path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, dir %v; want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	back, _ := s.Load()
	if p, _ := back.Find("claude"); p.APIKey != "sk-ant-secret" {
		t.Errorf("reloaded: %+v", back)
	}
	for _, bad := range []Provider{
		{ID: "", Kind: Anthropic, BaseURL: "https://x"},
		{ID: "a", Kind: "gemini", BaseURL: "https://x"},
		{ID: "a", Kind: Anthropic, BaseURL: "file:///etc/passwd"},
	} {
		if err := s.Save(Config{Providers: []Provider{bad}}); !errors.Is(err, ErrInvalid) {
			t.Errorf("saved %+v: %v", bad, err)
		}
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "claude") {
		t.Error("a refused save changed the file")
	}
}

// An environment key goes only to its own vendor: OPENAI_API_KEY must not reach an OpenAI-compatible server
// elsewhere (OpenRouter, a colleague's vLLM).
func TestEnvironmentKeysStayWithTheirVendor(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant"}
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(k string) string { return env[k] })
	cases := []struct {
		p         Provider
		key, from string
	}{
		{Provider{Kind: OpenAICompatible, BaseURL: "https://api.openai.com/v1"}, "sk-openai", "OPENAI_API_KEY"},
		{Provider{Kind: Anthropic, BaseURL: "https://api.anthropic.com/v1"}, "sk-ant", "ANTHROPIC_API_KEY"},
		{Provider{Kind: OpenAICompatible, BaseURL: "http://localhost:11434/v1"}, "", ""},
		{Provider{Kind: OpenAICompatible, BaseURL: "https://evil.example/api.openai.com/v1"}, "", ""},
		{Provider{Kind: OpenAICompatible, BaseURL: "https://api.openai.com/v1", APIKey: "sk-mine"}, "sk-mine", "settings"},
	}
	for _, c := range cases {
		if k, from := s.Key(c.p); k != c.key || from != c.from {
			t.Errorf("%s: key %q from %q, want %q from %q", c.p.BaseURL, k, from, c.key, c.from)
		}
	}
}

func relayTo(t *testing.T, srv *httptest.Server, kind Kind, key string) *Relay {
	t.Helper()
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
	if err := s.Save(Config{Providers: []Provider{{ID: "p", Name: "test", Kind: kind, BaseURL: srv.URL + "/v1", APIKey: key}}}); err != nil {
		t.Fatal(err)
	}
	return &Relay{Store: s}
}

func TestRelayAddsTheKeyAndStreams(t *testing.T) {
	second := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: auth=%s x-api-key=%s path=%s\n\n", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"), r.URL.Path)
		w.(http.Flusher).Flush()
		<-second // the rest only after the relay delivered the first piece
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	r := relayTo(t, srv, OpenAICompatible, "sk-test")
	var head Head
	var pieces []string
	err := r.Do(context.Background(), Request{
		Provider: "p", URL: srv.URL + "/v1/chat/completions", Method: "POST",
		Headers: map[string]string{"Authorization": "Bearer from-the-webview", "Content-Type": "application/json"}, Body: "{}",
	}, func(h Head) { head = h }, func(b []byte) {
		pieces = append(pieces, string(b))
		if len(pieces) == 1 {
			close(second)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if head.Status != 200 || head.Headers["content-type"] != "text/event-stream" {
		t.Errorf("head: %+v", head)
	}
	if len(pieces) < 2 || pieces[0] != "data: auth=Bearer sk-test x-api-key= path=/v1/chat/completions\n\n" {
		t.Errorf("pieces: %q", pieces)
	}
}

func TestRelayAnthropicKeyHeader(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s|%s", r.Header.Get("X-Api-Key"), r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	var got strings.Builder
	err := relayTo(t, srv, Anthropic, "sk-ant").Do(context.Background(), Request{Provider: "p", URL: srv.URL + "/v1/messages", Method: "POST", Body: "{}"},
		func(Head) {}, func(b []byte) { got.Write(b) })
	if err != nil || got.String() != "sk-ant|" {
		t.Errorf("got %q, %v", got.String(), err)
	}
}

// A provider that answers with a redirect to another host does not get the key sent there (Go drops
// Authorization across hosts, not x-api-key); a redirect under the base URL is followed.
func TestRelayRedirectsStayUnderTheBaseURL(t *testing.T) {
	var leaked strings.Builder
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.WriteString(r.Header.Get("X-Api-Key") + r.Header.Get("Authorization"))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		case "/v1/moved":
			http.Redirect(w, r, "/v1/models", http.StatusTemporaryRedirect)
		default:
			fmt.Fprint(w, r.Header.Get("X-Api-Key"))
		}
	}))
	defer srv.Close()
	for _, kind := range []Kind{Anthropic, OpenAICompatible} {
		r := relayTo(t, srv, kind, "sk-secret")
		err := r.Do(context.Background(), Request{Provider: "p", URL: srv.URL + "/v1/away", Method: "POST", Body: "{}"}, func(Head) {}, func([]byte) {})
		if err == nil || !errors.Is(err, ErrOutsideProvider) {
			t.Errorf("%s: redirect to another host: %v", kind, err)
		}
	}
	if leaked.Len() > 0 {
		t.Fatalf("the key reached the other host: %q", leaked.String())
	}
	var got strings.Builder
	err := relayTo(t, srv, Anthropic, "sk-secret").Do(context.Background(), Request{Provider: "p", URL: srv.URL + "/v1/moved"}, func(Head) {}, func(b []byte) { got.Write(b) })
	if err != nil || got.String() != "sk-secret" {
		t.Errorf("redirect under the base URL: %q, %v", got.String(), err)
	}
}

// The relay is not an open proxy: only URLs under the provider's base URL are sent, with its key.
func TestRelayRefusesOtherURLs(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit = true }))
	defer srv.Close()
	r := relayTo(t, srv, OpenAICompatible, "sk-test")
	for _, u := range []string{
		"http://example.com/v1/chat/completions",
		srv.URL + "/v2/chat/completions",
		srv.URL + "/v1x/chat",
		srv.URL + "/v1/../admin",
		strings.Replace(srv.URL, "http://", "http://user@", 1) + "/v1/models",
		strings.Replace(srv.URL, "http://", "https://", 1) + "/v1/models",
	} {
		err := r.Do(context.Background(), Request{Provider: "p", URL: u}, func(Head) {}, func([]byte) {})
		if !errors.Is(err, ErrOutsideProvider) {
			t.Errorf("%s: %v", u, err)
		}
	}
	if err := r.Do(context.Background(), Request{Provider: "nope", URL: srv.URL + "/v1/models"}, func(Head) {}, func([]byte) {}); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("unknown provider: %v", err)
	}
	if hit {
		t.Error("a refused request reached the server")
	}
}

func TestRelayCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	err := relayTo(t, srv, OpenAICompatible, "").Do(ctx, Request{Provider: "p", URL: srv.URL + "/v1/chat/completions"}, func(Head) {}, func([]byte) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
}
