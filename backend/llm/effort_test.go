package llm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A reasoning effort is set per model, as a price is: another model's save keeps the first one's; saving without
// one removes the chosen model's; a value that is not an effort is refused and nothing is written.
func TestEffortsPerModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	s := NewStore(path, func(string) string { return "" })
	save := func(model, effort string) (Config, error) {
		return s.SaveProvider(ProviderChange{ID: "a", Kind: "anthropic", BaseURL: "https://api.anthropic.com/v1", Model: model, Effort: effort})
	}
	if _, err := save("claude-sonnet", "high"); err != nil {
		t.Fatal(err)
	}
	c, err := save("claude-haiku", "low")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Find("a"); p.Efforts["claude-sonnet"] != "high" || p.Efforts["claude-haiku"] != "low" {
		t.Errorf("efforts: %v", p.Efforts)
	}
	c, _ = save("claude-haiku", "")
	if p, _ := c.Find("a"); len(p.Efforts) != 1 || p.Efforts["claude-sonnet"] != "high" {
		t.Errorf("after clearing haiku's: %v", p.Efforts)
	}
	before, _ := os.ReadFile(path)
	for _, bad := range []string{"HIGH", "extreme", " low"} {
		if _, err := save("claude-haiku", bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("effort %q: %v", bad, err)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused effort changed the file")
	}
}
