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

// A providers file written by an earlier version, with Ollama's OpenAI-compatible /v1 (the default provider then),
// loads as the Ollama kind at the server's root, keeping its model, context windows and key; other
// OpenAI-compatible providers are left as they are. The file itself changes only with the next save.
func TestOldOllamaEntryMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "providers.json")
	old := `{"providers": [
		{"id": "ollama", "name": "Ollama (local)", "kind": "openai-compatible", "base_url": "http://localhost:11434/v1", "model": "qwen3:8b", "context_windows": {"qwen3:8b": 40960}},
		{"id": "box", "name": "GPU box", "kind": "openai-compatible", "base_url": "http://192.168.1.9:11434/v1/", "api_key": "sk-box"},
		{"id": "lms", "name": "LM Studio", "kind": "openai-compatible", "base_url": "http://localhost:1234/v1"},
		{"id": "odd", "name": "Not /v1", "kind": "openai-compatible", "base_url": "http://localhost:11434/openai/v1"},
		{"id": "or", "name": "OpenRouter", "kind": "openai-compatible", "base_url": "https://openrouter.ai/api/v1"}
	], "active": "ollama"}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(path, func(string) string { return "" })
	c, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		kind Kind
		base string
	}{
		"ollama": {Ollama, "http://localhost:11434"},
		"box":    {Ollama, "http://192.168.1.9:11434"},
		"lms":    {OpenAICompatible, "http://localhost:1234/v1"},
		"odd":    {OpenAICompatible, "http://localhost:11434/openai/v1"},
		"or":     {OpenAICompatible, "https://openrouter.ai/api/v1"},
	}
	for _, p := range c.Providers {
		if w := want[p.ID]; p.Kind != w.kind || p.BaseURL != w.base {
			t.Errorf("%s: %s at %s, want %s at %s", p.ID, p.Kind, p.BaseURL, w.kind, w.base)
		}
	}
	if p, _ := c.Find("ollama"); p.Model != "qwen3:8b" || p.ContextWindows["qwen3:8b"] != 40960 {
		t.Errorf("the model or its window was lost: %+v", p)
	}
	if p, _ := c.Find("box"); p.APIKey != "sk-box" {
		t.Errorf("the key was lost: %+v", p)
	}
	if b, _ := os.ReadFile(path); string(b) != old {
		t.Error("loading rewrote the file")
	}
	if _, err := s.SetActive("ollama", ""); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"kind": "ollama"`) {
		t.Errorf("the next save did not keep the migration:\n%s", b)
	}
}

// A base URL typed with Ollama's /v1 or /api is saved as the server's root, where the window adds /api itself.
func TestSaveOllamaBaseURL(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
	for _, in := range []string{"http://localhost:11434", "http://localhost:11434/", "http://localhost:11434/v1", "http://localhost:11434/api/"} {
		c, err := s.SaveProvider(ProviderChange{ID: "o", Kind: "ollama", BaseURL: in})
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := c.Find("o"); p.BaseURL != "http://localhost:11434" {
			t.Errorf("%s saved as %s", in, p.BaseURL)
		}
	}
	if _, err := s.SaveProvider(ProviderChange{ID: "x", Kind: "ollama-ish", BaseURL: "http://localhost:11434"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown kind: %v", err)
	}
}

// An Ollama provider's relay carries Ollama's chat, show and tags below its base URL, and nothing else of its API:
// the web view cannot pull, delete or copy models, nor reach the OpenAI-compatible /v1 through it.
func TestRelayOllamaEndpoints(t *testing.T) {
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.Method+" "+r.URL.Path)
		fmt.Fprintf(w, `{"path":%q}`, r.URL.Path)
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/ollama"} {
		hits = nil
		s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
		if err := s.Save(Config{Providers: []Provider{{ID: "o", Name: "Ollama", Kind: Ollama, BaseURL: base}}}); err != nil {
			t.Fatal(err)
		}
		r := &Relay{Store: s}
		for _, ep := range []string{"/api/chat", "/api/show", "/api/tags"} {
			var got strings.Builder
			method := "POST"
			if ep == "/api/tags" {
				method = "GET"
			}
			if err := r.Do(context.Background(), Request{Provider: "o", URL: base + ep, Method: method, Body: `{"model":"m"}`}, func(Head) {}, func(b []byte) { got.Write(b) }); err != nil {
				t.Errorf("%s%s: %v", base, ep, err)
			}
			if want := fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(base+ep, srv.URL)); got.String() != want {
				t.Errorf("%s%s: got %s, want %s", base, ep, got.String(), want)
			}
		}
		for _, ep := range []string{"/api/pull", "/api/delete", "/api/copy", "/api/push", "/api/create", "/api/chat/x", "/api", "/v1/chat/completions", "/v1/models", "/"} {
			err := r.Do(context.Background(), Request{Provider: "o", URL: base + ep, Method: "POST", Body: `{"model":"m"}`}, func(Head) {}, func([]byte) {})
			if !errors.Is(err, ErrNotOllamaAPI) && !errors.Is(err, ErrOutsideProvider) {
				t.Errorf("%s%s was relayed: %v", base, ep, err)
			}
		}
		if len(hits) != 3 {
			t.Errorf("under %s the server saw %q, want only chat, show and tags", base, hits)
		}
	}
	// The same paths go through for an OpenAI-compatible provider, whose API is whatever lies below its base URL.
	r := relayTo(t, srv, OpenAICompatible, "")
	if err := r.Do(context.Background(), Request{Provider: "p", URL: srv.URL + "/v1/api/pull"}, func(Head) {}, func([]byte) {}); err != nil {
		t.Errorf("OpenAI-compatible: %v", err)
	}
}

// A redirect from an Ollama server is followed only to one of the relayed endpoints.
func TestRelayOllamaRedirect(t *testing.T) {
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.URL.Path)
		switch r.URL.Path {
		case "/api/chat":
			http.Redirect(w, r, "/api/delete", http.StatusTemporaryRedirect)
		case "/api/tags":
			http.Redirect(w, r, "/api/show", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
	if err := s.Save(Config{Providers: []Provider{{ID: "o", Name: "Ollama", Kind: Ollama, BaseURL: srv.URL}}}); err != nil {
		t.Fatal(err)
	}
	r := &Relay{Store: s}
	if err := r.Do(context.Background(), Request{Provider: "o", URL: srv.URL + "/api/chat", Method: "POST", Body: "{}"}, func(Head) {}, func([]byte) {}); !errors.Is(err, ErrNotOllamaAPI) {
		t.Errorf("redirect to /api/delete: %v", err)
	}
	if err := r.Do(context.Background(), Request{Provider: "o", URL: srv.URL + "/api/tags"}, func(Head) {}, func([]byte) {}); err != nil {
		t.Errorf("redirect to /api/show: %v", err)
	}
	if strings.Join(hits, " ") != "/api/chat /api/tags /api/show" {
		t.Errorf("server saw %q", hits)
	}
}
