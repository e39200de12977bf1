package llm

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A price is set per model, as the context window is: saving a provider with another model chosen keeps the first
// model's price; saving without a price removes the chosen model's; a price that is not dollars per million tokens
// is refused and nothing is written.
func TestPricesPerModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	s := NewStore(path, func(string) string { return "" })
	cached := 0.3
	sonnet := Price{Input: 3, Output: 15, CachedInput: &cached}
	if _, err := s.SaveProvider(ProviderChange{ID: "a", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", Model: "claude-sonnet", Price: &sonnet}); err != nil {
		t.Fatal(err)
	}
	c, err := s.SaveProvider(ProviderChange{ID: "a", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", Model: "claude-haiku", Price: &Price{Input: 1, Output: 5}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Find("a")
	if got := p.Prices["claude-sonnet"]; got.Input != 3 || got.Output != 15 || got.CachedInput == nil || *got.CachedInput != 0.3 {
		t.Errorf("the first model's price: %+v", got)
	}
	if got := p.Prices["claude-haiku"]; got.Input != 1 || got.Output != 5 || got.CachedInput != nil {
		t.Errorf("the second model's price: %+v", got)
	}
	c, _ = s.SaveProvider(ProviderChange{ID: "a", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", Model: "claude-haiku"})
	if p, _ := c.Find("a"); len(p.Prices) != 1 || p.Prices["claude-sonnet"].Input != 3 {
		t.Errorf("after clearing haiku's price: %+v", p.Prices)
	}
	before, _ := os.ReadFile(path)
	neg := -1.0
	for _, bad := range []Price{{Input: -1, Output: 1}, {Input: 1, Output: math.Inf(1)}, {Input: 1, Output: 1, CachedInput: &neg}, {Input: 20_000, Output: 1}} {
		if _, err := s.SaveProvider(ProviderChange{ID: "a", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", Model: "claude-haiku", Price: &bad}); !errors.Is(err, ErrInvalid) {
			t.Errorf("price %+v: %v", bad, err)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused price changed the file")
	}
	if !strings.Contains(string(before), `"prices"`) || !strings.Contains(string(before), `"cached_input": 0.3`) {
		t.Errorf("the file does not keep the prices:\n%s", before)
	}
	// A hand-edited file with a bad price is refused on the next save rather than kept.
	if err := s.Save(Config{Providers: []Provider{{ID: "x", Kind: OpenAICompatible, BaseURL: "https://x.example/v1", Prices: map[string]Price{"m": {Input: -3}}}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a bad price in the file: %v", err)
	}
}
