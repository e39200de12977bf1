package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/shell"
)

func TestProjectSettingsPersistPerRoot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "settings.json")
	s := NewStore(path)
	p, err := s.Project("/a")
	if err != nil || !slices.Equal(p.EffectiveAllowlist(), shell.DefaultAllowlist) || p.MaxTimeout() != DefaultMaxTimeout {
		t.Fatalf("defaults: %+v, %v", p, err)
	}
	if err := s.SetProject("/a", Project{Allowlist: []string{"go", "make"}, Network: true, MaxTimeoutMS: 60000}); err != nil {
		t.Fatal(err)
	}
	again, _ := NewStore(path).Project("/a")
	if !slices.Equal(again.EffectiveAllowlist(), []string{"go", "make"}) || !again.Network || again.MaxTimeout() != time.Minute {
		t.Errorf("persisted: %+v", again)
	}
	if other, _ := s.Project("/b"); other.Allowlist != nil {
		t.Errorf("another project got %+v", other)
	}
	// An empty allowlist is a choice (nothing may run), not the default.
	s.SetProject("/c", Project{Allowlist: []string{}})
	if c, _ := NewStore(path).Project("/c"); c.EffectiveAllowlist() == nil || len(c.EffectiveAllowlist()) != 0 {
		t.Errorf("empty allowlist: %+v", c)
	}
	fi, _ := os.Stat(filepath.Dir(path))
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("config dir mode %o", fi.Mode().Perm())
	}
}
