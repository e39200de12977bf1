package llm

import (
	"path/filepath"
	"testing"
)

// A model marked text-only stays marked when another model of the provider is chosen and saved, and loses the
// mark when saved without it; the mark survives a reload from disk.
func TestTextOnlyPerModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	s := NewStore(path, func(string) string { return "" })
	base := ProviderChange{ID: "o", Kind: "ollama", BaseURL: "http://localhost:11434"}
	small := base
	small.Model, small.TextOnly = "qwen2.5-coder:7b", true
	if _, err := s.SaveProvider(small); err != nil {
		t.Fatal(err)
	}
	vision := base
	vision.Model = "llava:13b"
	c, err := NewStore(path, func(string) string { return "" }).SaveProvider(vision)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Find("o")
	if !p.TextOnly["qwen2.5-coder:7b"] || p.TextOnly["llava:13b"] {
		t.Fatalf("marks after choosing another model: %v", p.TextOnly)
	}
	small.TextOnly = false
	c, _ = s.SaveProvider(small)
	if p, _ := c.Find("o"); p.TextOnly != nil {
		t.Errorf("mark kept after saving without it: %v", p.TextOnly)
	}
}
