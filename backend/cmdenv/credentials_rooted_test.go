package cmdenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Rooted's own folder (providers.json, and keys.json where no keyring holds the keys) is a credential wherever
// XDG_CONFIG_HOME puts it, not only at ~/.config/rooted: a config folder the user makes readable is opened around it.
func TestRootedConfigOutsideHomeIsACredential(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cfg")
	for _, rel := range []string{"rooted/keys.json", "rooted/providers.json", "tool/settings.toml"} {
		p := filepath.Join(cfg, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := Readable(filepath.Join(t.TempDir(), "home"), func(k string) string {
		return map[string]string{"XDG_CONFIG_HOME": cfg}[k]
	}, cfg)
	rooted := filepath.Join(cfg, "rooted")
	for _, p := range got {
		if p == cfg || p == rooted || strings.HasPrefix(p, rooted+string(filepath.Separator)) {
			t.Errorf("readable: %s (Rooted's keys are below %s)", p, rooted)
		}
	}
	if !slices.Contains(got, filepath.Join(cfg, "tool")) {
		t.Errorf("the config folder's other entries are not readable: %v", got)
	}
}
