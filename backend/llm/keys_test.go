package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
)

func noEnv(string) string { return "" }

func provider(c Config, id string) Provider { p, _ := c.Find(id); return p }

// fileHas reports whether the file at path contains s (a missing file contains nothing).
func fileHas(t *testing.T, path, s string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Contains(string(b), s)
}

// Without a keyring, a key is in keys.json (0600), never in providers.json; clearing the key or removing the
// provider removes it from keys.json.
func TestKeysStayOutOfTheProvidersFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooted", "providers.json")
	keys := KeysPath(path)
	s := NewStore(path, noEnv)
	if _, err := s.SaveProvider(ProviderChange{ID: "claude", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", APIKey: "sk-ant-file"}); err != nil {
		t.Fatal(err)
	}
	if fileHas(t, path, "sk-ant-file") || !fileHas(t, keys, "sk-ant-file") {
		t.Fatal("the key is not in keys.json alone")
	}
	if fi, err := os.Stat(keys); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("keys.json: %v %v; want mode 0600", fi, err)
	}
	if c, _ := NewStore(path, noEnv).Load(); provider(c, "claude").APIKey != "sk-ant-file" {
		t.Fatal("a new store over the same files does not read the key")
	}
	if _, err := s.SaveProvider(ProviderChange{ID: "claude", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", ClearKey: true}); err != nil {
		t.Fatal(err)
	}
	if fileHas(t, keys, "sk-ant-file") {
		t.Fatal("a cleared key stayed in keys.json")
	}
	s.SaveProvider(ProviderChange{ID: "claude", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", APIKey: "sk-ant-again"})
	if _, err := s.DeleteProvider("claude"); err != nil {
		t.Fatal(err)
	}
	if fileHas(t, keys, "sk-ant-again") {
		t.Fatal("a removed provider's key stayed in keys.json")
	}
}

// With GNOME Keyring on the bus, a key saved in Settings is in the keyring (a second connection reads it), in
// neither file, and it is what the relay sends.
func TestKeysInTheKeyring(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	ring := keyringtest.Dial(t, addr)
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "rooted", "providers.json")
	s := NewStoreWith(path, noEnv, ring)
	if _, err := s.SaveProvider(ProviderChange{ID: "local", Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "sk-in-keyring"}); err != nil {
		t.Fatal(err)
	}
	other := keyringtest.Dial(t, addr)
	if k, err := other.Get(ctx, s.KeyService(), "local"); err != nil || k != "sk-in-keyring" {
		t.Fatalf("the keyring holds %q, %v", k, err)
	}
	if fileHas(t, path, "sk-in-keyring") || fileHas(t, KeysPath(path), "sk-in-keyring") {
		t.Fatal("a key stored in the keyring is in a file too")
	}
	r := &Relay{Store: NewStoreWith(path, noEnv, other)}
	if err := r.Do(ctx, Request{Provider: "local", URL: srv.URL + "/v1/chat/completions", Method: "POST"}, func(Head) {}, func([]byte) {}); err != nil {
		t.Fatal(err)
	}
	if got != "Bearer sk-in-keyring" {
		t.Fatalf("the relay sent Authorization %q", got)
	}
	// A keyring that refuses the write (locked since start) is an error, and the file is left as it was.
	before, _ := os.ReadFile(path)
	keyringtest.Lock(t, addr)
	if _, err := s.SaveProvider(ProviderChange{ID: "other", Kind: "openai-compatible", BaseURL: "https://api.example.com/v1", APIKey: "sk-refused"}); err == nil || !strings.Contains(err.Error(), "locked") || strings.Contains(err.Error(), "sk-refused") {
		t.Fatalf("saving into a locked keyring: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a refused key changed providers.json")
	}
}

// An earlier version's keys (inline in providers.json) and the keys file's move into the keyring on start: the
// files no longer hold them. While the keyring refuses, nothing moves and nothing is lost.
func TestMoveKeysIntoTheKeyring(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	ring := keyringtest.Dial(t, addr)
	path := filepath.Join(t.TempDir(), "rooted", "providers.json")
	legacy := `{"providers": [
		{"id": "claude", "name": "Claude", "kind": "anthropic", "base_url": "https://api.anthropic.com/v1", "api_key": "sk-ant-old"},
		{"id": "or", "name": "OpenRouter", "kind": "openai-compatible", "base_url": "https://openrouter.ai/api/v1"},
		{"id": "ollama", "name": "Ollama", "kind": "ollama", "base_url": "http://localhost:11434"}
	], "active": "claude"}`
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	file := keystore.NewFile(KeysPath(path))
	s := NewStoreWith(path, noEnv, ring)
	if err := file.Set(ctx, s.KeyService(), "or", "sk-or-file"); err != nil {
		t.Fatal(err)
	}
	keysBefore, _ := os.ReadFile(KeysPath(path))

	keyringtest.Lock(t, addr)
	if moved, err := s.MoveKeys(ctx, file); err == nil || len(moved) != 0 {
		t.Fatalf("moving into a locked keyring: moved %v, err %v", moved, err)
	}
	if b, _ := os.ReadFile(path); string(b) != legacy {
		t.Fatal("a failed move changed providers.json")
	}
	if b, _ := os.ReadFile(KeysPath(path)); string(b) != string(keysBefore) {
		t.Fatal("a failed move changed keys.json")
	}

	keyringtest.Unlock(t, addr)
	moved, err := s.MoveKeys(ctx, file)
	if err != nil || strings.Join(moved, ",") != "claude,or" {
		t.Fatalf("MoveKeys = %v, %v; want claude and or", moved, err)
	}
	if fileHas(t, path, "api_key") || fileHas(t, path, "sk-") {
		t.Fatal("providers.json still holds a key")
	}
	if _, err := os.Stat(KeysPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("keys.json outlived its keys: %v", err)
	}
	c, err := s.Load()
	if err != nil || provider(c, "claude").APIKey != "sk-ant-old" || provider(c, "or").APIKey != "sk-or-file" || provider(c, "ollama").APIKey != "" || c.Active != "claude" {
		t.Fatalf("after the move: %+v, %v", c, err)
	}
	if moved, err := s.MoveKeys(ctx, file); err != nil || len(moved) != 0 {
		t.Fatalf("a second start moved %v, %v", moved, err)
	}
}

// BenchmarkLoad reads the providers with their keys, as every relayed request does: three providers with keys,
// from the keys file and from GNOME Keyring on a private bus (three D-Bus round trips each).
func BenchmarkLoad(b *testing.B) {
	for _, where := range []string{"file", "keyring"} {
		b.Run(where, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "rooted", "providers.json")
			var keys keystore.Store
			if where == "keyring" {
				ring := keyringtest.Dial(b, keyringtest.SecretService(b))
				keys = ring
			}
			s := NewStoreWith(path, noEnv, keys)
			for _, id := range []string{"a", "b", "c"} {
				if _, err := s.SaveProvider(ProviderChange{ID: id, Kind: "openai-compatible", BaseURL: "https://api.example.com/v1", APIKey: "sk-" + id}); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				c, err := s.Load()
				if err != nil || provider(c, "c").APIKey != "sk-c" {
					b.Fatal(c, err)
				}
			}
		})
	}
}
