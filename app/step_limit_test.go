package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The window's step limit lives in settings.json: 100 until set, refused outside 1 to 10,000 with a field error and
// nothing written, kept across a restart of the services.
func TestStepLimitSetting(t *testing.T) {
	svc := openServices(t)
	if n, err := svc.Settings.StepLimit(); err != nil || n != 100 {
		t.Fatalf("default: %d, %v", n, err)
	}
	if n, err := svc.Settings.SaveStepLimit(40); err != nil || n != 40 {
		t.Fatalf("save: %d, %v", n, err)
	}
	for _, bad := range []int{0, -3, 10_001} {
		if _, err := svc.Settings.SaveStepLimit(bad); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) || !strings.Contains(err.Error(), "step_limit") {
			t.Errorf("%d: %v", bad, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "settings.json"))
	if err != nil || !strings.Contains(string(b), `"step_limit": 40`) {
		t.Errorf("settings.json: %s, %v", b, err)
	}
	if n, _ := svc.Settings.StepLimit(); n != 40 {
		t.Errorf("read back: %d", n)
	}
}

// Saving the step limit and the user's instructions at the same moment keeps both: each is its own
// read-modify-write under the settings store's lock, so neither writes back a stale copy of the other.
func TestStepLimitAndInstructionsSavedAtOnce(t *testing.T) {
	svc := openServices(t)
	for i := range 300 {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := svc.Settings.SaveStepLimit(10 + i); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := svc.Settings.SaveUserInstructions(cur(t, svc), fmt.Sprintf("rule %d", i)); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		n, _ := svc.Settings.StepLimit()
		v, _ := svc.Settings.Instructions(cur(t, svc))
		if n != 10+i || v.User != fmt.Sprintf("rule %d", i) {
			t.Fatalf("round %d: step limit %d, instructions %q", i, n, v.User)
		}
	}
}
