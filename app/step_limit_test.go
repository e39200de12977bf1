package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The window's step limit lives in settings.json: 100 until set, refused outside 1 to 10,000 with a field error and
// nothing written, kept across a restart of the services.
func TestStepLimitSetting(t *testing.T) {
	svc := openServices(t, t.TempDir())
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
