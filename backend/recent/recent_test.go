package recent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRecentOrderDedupAndCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "cfg", "recent.json"))
	now := time.Unix(1_700_000_000, 0)
	var dirs []string
	for i := range Max + 3 {
		d := filepath.Join(dir, fmt.Sprintf("p%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
		if err := s.Add(d, now.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Add(dirs[Max], now.Add(time.Hour)); err != nil { // re-opening moves it to the front, once
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != Max || list[0].Path != dirs[Max] || list[1].Path != dirs[Max+2] || list[0].Name != fmt.Sprintf("p%d", Max) {
		t.Fatalf("list = %+v", list)
	}
	// A project folder deleted since is not offered.
	if err := os.RemoveAll(dirs[Max+2]); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(dirs[Max]); err != nil {
		t.Fatal(err)
	}
	list, _ = s.List()
	if len(list) != Max-2 || list[0].Path != dirs[Max+1] {
		t.Fatalf("after delete and forget: %+v", list)
	}
	// A new store on the same file sees the same list: it is persisted.
	again, _ := NewStore(s.file).List()
	if len(again) != len(list) {
		t.Errorf("persisted %d, want %d", len(again), len(list))
	}
}

func TestCorruptFileIsReplacedOnAdd(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "recent.json")
	if err := os.WriteFile(file, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(file)
	if _, err := s.List(); err == nil {
		t.Error("a corrupt file listed without error")
	}
	d := t.TempDir()
	if err := s.Add(d, time.Now()); err != nil {
		t.Fatal(err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 || list[0].Path != d {
		t.Errorf("after Add: %+v, %v", list, err)
	}
}
