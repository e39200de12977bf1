package conversations

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSaveListRenameDelete(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	s := ForProject(base, "/home/me/shop")
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Minute); return clock }

	if list, err := s.List(); err != nil || len(list) != 0 {
		t.Fatalf("empty store: %v, %v", list, err)
	}
	if _, err := s.Save("c1", "Fix the build", json.RawMessage(`{"messages":[1]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save("c2", "", json.RawMessage(`{"messages":[]}`)); err != nil {
		t.Fatal(err)
	}
	// Saving again (as every step does) keeps the title and creation time.
	m, err := s.Save("c1", "", json.RawMessage(`{"messages":[1,2]}`))
	if err != nil || m.Title != "Fix the build" || !m.Created.Before(m.Updated) {
		t.Fatalf("resave: %+v, %v", m, err)
	}
	list, _ := s.List()
	if len(list) != 2 || list[0].ID != "c1" || list[1].Title != "New conversation" {
		t.Fatalf("list: %+v", list)
	}
	c, _ := s.Load("c1")
	if string(c.Body) != `{"messages":[1,2]}` {
		t.Errorf("body: %s", c.Body)
	}
	if _, err := s.Rename("c2", "  Add a test  "); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Load("c2"); c.Title != "Add a test" {
		t.Errorf("renamed: %+v", c.Meta)
	}
	if err := s.Delete("c2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("c2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	// Another project has its own conversations.
	if l, _ := ForProject(base, "/home/me/other").List(); len(l) != 0 {
		t.Errorf("other project sees %v", l)
	}
}

func TestIDsCannotNameOtherFiles(t *testing.T) {
	t.Parallel()
	s := ForProject(t.TempDir(), "/p")
	for _, id := range []string{"../x", "a/b", "", "..", "a.json"} {
		if _, err := s.Save(id, "t", json.RawMessage(`{}`)); !errors.Is(err, ErrBadID) {
			t.Errorf("save %q: %v", id, err)
		}
	}
	if _, err := s.Save("ok", "t", json.RawMessage(`not json`)); err == nil {
		t.Error("saved a body that is not JSON")
	}
}

// A damaged file (a crash of some other writer, a disk full) does not hide the others.
func TestDamagedFileIsSkipped(t *testing.T) {
	t.Parallel()
	s := ForProject(t.TempDir(), "/p")
	s.Save("good", "Good", json.RawMessage(`{}`))
	os.WriteFile(filepath.Join(s.dir, "bad.json"), []byte(`{"id":"bad",`), 0o600)
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].ID != "good" {
		t.Fatalf("list: %+v, %v", list, err)
	}
}
