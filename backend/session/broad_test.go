package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project root that holds the user's home folder or Rooted's settings is refused before anything is opened:
// commands may write the whole project, and there they could rewrite a shell's startup file or their own rules.
func TestRootsThatHoldHomeOrSettingsAreRefused(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home", "user")
	config := filepath.Join(home, ".config")
	outside := filepath.Join(base, "xdg")
	cache := filepath.Join(base, "cache")
	for _, d := range []string{filepath.Join(home, "code", "app"), filepath.Join(config, "rooted"), filepath.Join(outside, "rooted"), filepath.Join(cache, "rooted"), filepath.Join(base, "projects")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(base, "link-to-home")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root, config, refused string // refused: a word of the reason, "" when it opens
	}{
		{"a project in the home folder", filepath.Join(home, "code", "app"), config, ""},
		{"a folder beside the home folder", filepath.Join(base, "projects"), config, ""},
		{"the home folder", home, config, "home folder"},
		{"the home folder through a link", filepath.Join(base, "link-to-home"), config, "home folder"},
		{"the home folder's parent", filepath.Join(base, "home"), config, "home folder"},
		{"the top of the file system", "/", config, "home folder"},
		{"Rooted's settings folder", filepath.Join(config, "rooted"), config, "Rooted's settings"},
		{"a folder holding the settings elsewhere", outside, outside, "Rooted's settings"},
		{"a folder beside the settings elsewhere", filepath.Join(base, "projects"), outside, ""},
		{"a folder holding Rooted's cache", cache, config, "Rooted's cache"},
		{"Rooted's cache folder", filepath.Join(cache, "rooted"), config, "Rooted's cache"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", tc.config)
			t.Setenv("XDG_CACHE_HOME", cache)
			s, err := Open(tc.root)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("%s was refused: %v", tc.root, err)
				}
				s.Close()
				return
			}
			if err == nil {
				s.Close()
				t.Fatalf("%s was opened as a project", tc.root)
			}
			if !errors.Is(err, ErrTooBroad) || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("%s: the refusal does not say why (%s): %v", tc.root, tc.refused, err)
			}
		})
	}
}
