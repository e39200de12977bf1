package llm

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Edits from several goroutines at once all land: each is a read-modify-write under the store's lock.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.SaveProvider(ProviderChange{ID: fmt.Sprintf("p%d", i), Kind: string(OpenAICompatible), BaseURL: "http://localhost:1/v1"}); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.SetActive("ollama", fmt.Sprintf("m%d", i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c, err := s.Load()
	if err != nil || len(c.Providers) != 21 {
		t.Fatalf("%d providers after 20 saved at once and the default (%v)", len(c.Providers), err)
	}
}

// The merge rules of a provider edit: a key stays with its host, clear_key removes it, context windows are per
// model, and deleting the active provider makes the next one active.
func TestSaveProviderRules(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "p.json"), func(string) string { return "" })
	find := func(c Config, id string) Provider { p, _ := c.Find(id); return p }
	c, err := s.SaveProvider(ProviderChange{ID: "or", Kind: string(OpenAICompatible), BaseURL: "https://openrouter.ai/api/v1/", APIKey: " k ", Model: "a", ContextWindow: 8192})
	if p := find(c, "or"); err != nil || p.APIKey != "k" || p.BaseURL != "https://openrouter.ai/api/v1" || p.Name != "or" || p.ContextWindows["a"] != 8192 {
		t.Fatalf("saved: %+v %v", p, err)
	}
	c, _ = s.SaveProvider(ProviderChange{ID: "or", Kind: string(OpenAICompatible), BaseURL: "https://openrouter.ai/api/v1", Model: "b"})
	if p := find(c, "or"); p.APIKey != "k" || p.ContextWindows["a"] != 8192 {
		t.Errorf("an edit without a key or window: %+v", p)
	}
	c, _ = s.SaveProvider(ProviderChange{ID: "or", Kind: string(OpenAICompatible), BaseURL: "https://collector.example/v1"})
	if p := find(c, "or"); p.APIKey != "" {
		t.Errorf("the key followed the base URL to another host")
	}
	s.SaveProvider(ProviderChange{ID: "or", Kind: string(OpenAICompatible), BaseURL: "https://openrouter.ai/api/v1", APIKey: "k"})
	c, _ = s.SaveProvider(ProviderChange{ID: "or", Kind: string(OpenAICompatible), BaseURL: "https://openrouter.ai/api/v1", ClearKey: true})
	if p := find(c, "or"); p.APIKey != "" {
		t.Errorf("clear_key kept the key")
	}
	if _, err := s.SaveProvider(ProviderChange{ID: "x", Kind: string(OpenAICompatible), BaseURL: "http://localhost/v1", ContextWindow: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a negative context window: %v", err)
	}
	if _, err := s.SetActive("or", ""); err != nil {
		t.Fatal(err)
	}
	if c, err := s.DeleteProvider("or"); err != nil || c.Active != "ollama" || len(c.Providers) != 1 {
		t.Errorf("delete the active provider: %+v %v", c, err)
	}
	if _, err := s.DeleteProvider("or"); !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("delete twice: %v", err)
	}
}
