//go:build unix

package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testtree"
)

func paths(fs []File) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return strings.Join(out, ",")
}

// AGENTS.md wins over CLAUDE.md in each folder on the way to the working directory; a link out of the project and
// a pipe are never read; a file over the per-file cap is cut on a character boundary.
func TestFind(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("SECRET"), 0o600)
	root, dir := testtree.Root(t, map[string]string{
		"AGENTS.md":                       "Run make test before you finish.",
		"CLAUDE.md":                       "ignored: AGENTS.md is there",
		".github/copilot-instructions.md": "ignored too",
		"svc/CLAUDE.md":                   "svc: use the logger",
		"svc/api/AGENTS.md":               strings.Repeat("é", 10<<10), // 20 KiB, two bytes a character
		"other/AGENTS.md":                 "not on the way",
		"svc/api/v2/keep.go":              "package v2",
	})
	os.Symlink(outside, filepath.Join(dir, "svc/api/v2/AGENTS.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "svc/api/v2/CLAUDE.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Find(root, "svc/api/v2")
	if p := paths(got); p != "AGENTS.md,svc/CLAUDE.md,svc/api/AGENTS.md" {
		t.Fatalf("files: %s", p)
	}
	for _, f := range got {
		if strings.Contains(f.Content, "SECRET") || strings.Contains(f.Content, "ignored") {
			t.Errorf("%s: %q", f.Path, f.Content)
		}
	}
	if big := got[2]; !big.Truncated || len(big.Content) != MaxFile || big.Size != 20<<10 {
		t.Errorf("a 20 KiB file: truncated %v, %d of %d bytes", big.Truncated, len(big.Content), big.Size)
	}
	if p := paths(Find(root, "")); p != "AGENTS.md" {
		t.Errorf("at the root: %s", p)
	}
	if p := paths(Find(root, "../..")); p != "AGENTS.md" {
		t.Errorf("a working directory above the root: %s", p)
	}
}

// Where there is no AGENTS.md, CLAUDE.md, then copilot-instructions.md; and the total is capped.
func TestFindFallbacksAndTotal(t *testing.T) {
	t.Parallel()
	root, _ := testtree.Root(t, map[string]string{
		".github/copilot-instructions.md": strings.Repeat("c", 15<<10),
		"a/CLAUDE.md":                     strings.Repeat("a", 15<<10),
		"a/b/AGENTS.md":                   strings.Repeat("b", 15<<10),
		"a/b/c/AGENTS.md":                 "never reached: the total is spent",
	})
	got := Find(root, "a/b/c")
	if p := paths(got); p != ".github/copilot-instructions.md,a/CLAUDE.md,a/b/AGENTS.md" {
		t.Fatalf("files: %s", p)
	}
	total := 0
	for _, f := range got {
		total += len(f.Content)
	}
	if total != MaxTotal || !got[2].Truncated {
		t.Errorf("total %d bytes (want %d), last truncated %v", total, MaxTotal, got[2].Truncated)
	}
}

// A pipe, a link to /dev/zero (refused as a link out of the project) and a 2 MiB file at every instruction
// location: Find returns at once and reads none of them.
func TestFindSpecialFiles(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", "sub/AGENTS.md"} {
		for kind, create := range map[string]func(p string) error{
			"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o644) },
			"dev-zero": func(p string) error { return os.Symlink("/dev/zero", p) },
			"2MiB":     func(p string) error { return os.WriteFile(p, make([]byte, 2<<20), 0o644) },
		} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				root, dir := testtree.Root(t, map[string]string{"sub/x.go": "package x", ".github/x": ""})
				if err := create(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
					t.Fatal(err)
				}
				done := make(chan []File, 1)
				go func() { done <- Find(root, "sub") }()
				select {
				case got := <-done:
					if len(got) != 0 {
						t.Errorf("read %s", paths(got))
					}
				case <-time.After(20 * time.Second):
					t.Fatal("Find hangs")
				}
			})
		}
	}
}
