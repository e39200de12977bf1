package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/permissions"
)

func TestProjectSettingsPersistPerRoot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "settings.json")
	s := NewStore(path)
	p, err := s.Project("/a")
	if err != nil || !slices.Equal(p.EffectiveAllowlist(), cmdpolicy.DefaultAllowlist) || p.MaxTimeout() != DefaultMaxTimeout {
		t.Fatalf("defaults: %+v, %v", p, err)
	}
	if err := s.SetProject("/a", Project{Allowlist: []string{"go", "make"}, Network: NetworkOn, MaxTimeoutMS: 60000}); err != nil {
		t.Fatal(err)
	}
	again, _ := NewStore(path).Project("/a")
	if !slices.Equal(again.EffectiveAllowlist(), []string{"go", "make"}) || !again.Network.On() || again.MaxTimeout() != time.Minute {
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

// Rules added at once from two places (an approval card, the settings screen) are all kept, and read back by a
// new store (a restart).
func TestUpdateProjectKeepsConcurrentRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s := NewStore(path)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.UpdateProject("/p", func(p *Project) error {
				p.Rules = append(p.Rules, permissions.Rule{Action: permissions.Allow, Tool: "exec_shell", Command: fmt.Sprintf("cmd%d", i)})
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, err := NewStore(path).Project("/p")
	if err != nil || len(p.Rules) != 20 {
		t.Fatalf("kept %d rules of 20: %v", len(p.Rules), err)
	}
	if p.BackgroundAfter() != DefaultBackgroundAfter || (Project{BackgroundAfterSec: -1}).BackgroundAfter() != 0 || (Project{BackgroundAfterSec: 5}).BackgroundAfter() != 5*time.Second {
		t.Errorf("background after: %v", p.BackgroundAfter())
	}
}
