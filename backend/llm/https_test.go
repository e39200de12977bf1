package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// A key goes only over https, or over plain http to this machine or a private address: never in clear text
// across the internet, whether it comes from providers.json or the environment.
func TestKeysGoOnlyOverHTTPS(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant", "OPENROUTER_API_KEY": "sk-or"}
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(k string) string { return env[k] })
	cases := []struct {
		base, stored string
		want         string // the key sent; "" for none
		saveOK       bool   // whether a provider with the stored key may be saved
	}{
		{"https://api.openai.com/v1", "", "sk-openai", true},
		{"http://api.openai.com/v1", "", "", true}, // the environment key is not sent in clear text
		{"http://api.anthropic.com/v1", "", "", true},
		{"http://openrouter.ai/api/v1", "", "", true},
		{"https://llm.example.com/v1", "sk-mine", "sk-mine", true},
		{"http://llm.example.com/v1", "sk-mine", "", false},
		{"http://203.0.113.7:8000/v1", "sk-mine", "", false}, // a public address
		{"http://8.8.8.8/v1", "sk-mine", "", false},
		{"http://localhost:11434/v1", "sk-mine", "sk-mine", true},
		{"http://ollama.localhost/v1", "sk-mine", "sk-mine", true},
		{"http://127.0.0.1:8080/v1", "sk-mine", "sk-mine", true},
		{"http://[::1]:8080/v1", "sk-mine", "sk-mine", true},
		{"http://10.0.0.5:8000/v1", "sk-mine", "sk-mine", true},
		{"http://172.16.3.4/v1", "sk-mine", "sk-mine", true},
		{"http://172.32.0.1/v1", "sk-mine", "", false}, // just outside 172.16/12
		{"http://192.168.1.20:1234/v1", "sk-mine", "sk-mine", true},
		{"http://[fd00::1]/v1", "sk-mine", "sk-mine", true},
		{"http://localhost.evil.example/v1", "sk-mine", "", false},
		{"http://192.168.1.20.nip.io/v1", "sk-mine", "", false}, // a name, not an address
		{"http://localhost:11434/v1", "", "", true},
	}
	for _, c := range cases {
		p := Provider{ID: "p", Kind: OpenAICompatible, BaseURL: c.base, APIKey: c.stored}
		if k, _ := s.Key(p); k != c.want {
			t.Errorf("%s: key %q sent, want %q", c.base, k, c.want)
		}
		if err := p.Validate(); (err == nil) != c.saveOK {
			t.Errorf("%s with a stored key: save allowed %v, want %v (%v)", c.base, err == nil, c.saveOK, err)
		}
	}
}

// The relay refuses a request to a plain-http public base URL for which a key is held, rather than sending it
// without the key (or with it); an https provider is unaffected.
func TestRelayRefusesKeyInClearText(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-openai"
		}
		return ""
	})
	// http://api.openai.com with OPENAI_API_KEY set: written by hand, as Save refuses only stored keys.
	if err := s.Save(Config{Providers: []Provider{{ID: "o", Name: "OpenAI", Kind: OpenAICompatible, BaseURL: "http://api.openai.com/v1"}}}); err != nil {
		t.Fatal(err)
	}
	r := &Relay{Store: s, Client: srv.Client()}
	err := r.Do(context.Background(), Request{Provider: "o", URL: "http://api.openai.com/v1/models"}, func(Head) {}, func([]byte) {})
	if !errors.Is(err, ErrKeyInClear) {
		t.Fatalf("err = %v, want ErrKeyInClear", err)
	}
	if hits.Load() != 0 {
		t.Fatal("a request went out")
	}
}

// A key over plain http goes only to an address on this machine or a private network, judged on the address the
// connection is made to: a name that passed as private (*.localhost) but resolves elsewhere is refused when dialled.
func TestKeyedPlainHTTPDialsOnlyPrivateAddresses(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{
		"127.0.0.1:11434": true, "[::1]:80": true, "10.0.0.5:80": true, "192.168.1.2:8080": true, "[fd00::1]:80": true,
		"8.8.8.8:80": false, "[2001:4860:4860::8888]:80": false, "[::ffff:1.1.1.1]:80": false, "not-an-address": false,
	} {
		if err := privateOnly("tcp", addr, nil); (err == nil) != ok {
			t.Errorf("privateOnly(%s) = %v, want allowed %v", addr, err, ok)
		}
		if err := privateOnly("tcp", addr, nil); err != nil && !errors.Is(err, ErrKeyInClear) {
			t.Errorf("privateOnly(%s): %v is not ErrKeyInClear", addr, err)
		}
	}
}
