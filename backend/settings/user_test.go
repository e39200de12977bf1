package settings

import (
	"path/filepath"
	"testing"
)

// The step limit is 100 until the user sets one, survives a restart, and changing it keeps the user's instructions
// (and the reverse).
func TestStepLimitIsAUserSetting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s := NewStore(path)
	if u, err := s.User(); err != nil || u.Steps() != DefaultStepLimit || DefaultStepLimit != 100 {
		t.Fatalf("default: %+v (%d steps), %v", u, u.Steps(), err)
	}
	if err := s.UpdateUser(func(u *User) error { u.Instructions = "Answer briefly."; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateUser(func(u *User) error { u.StepLimit = 250; return nil }); err != nil {
		t.Fatal(err)
	}
	u, _ := NewStore(path).User()
	if u.Steps() != 250 || u.Instructions != "Answer briefly." {
		t.Errorf("after setting the limit: %+v", u)
	}
	if err := s.UpdateUser(func(u *User) error { u.Instructions = "Be thorough."; return nil }); err != nil {
		t.Fatal(err)
	}
	if u, _ := NewStore(path).User(); u.Steps() != 250 || u.Instructions != "Be thorough." {
		t.Errorf("after changing the instructions: %+v", u)
	}
	if (User{StepLimit: 1 << 30}).Steps() != MaxStepLimit {
		t.Error("a hand-edited limit above the maximum is not capped")
	}
}
