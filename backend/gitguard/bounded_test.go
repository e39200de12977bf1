//go:build unix

package gitguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that makes many folders git takes for repositories, each with a large configuration that costs no disk
// (a sparse file), must not make the guard read and hold them: that ran Rooted out of time (every later command
// refused) and out of memory (killed, leaving a planted core.fsmonitor in place). A configuration over configLimit
// is refused from its size, unread, and removed as unreadable; what the command planted next to them is still put
// back.
func TestSparseConfigsAreRefusedBySize(t *testing.T) {
	t.Parallel()
	abs, root := newRepo(t)
	g := New()
	before := g.Scan(root, abs)
	// The command: 20 bare-looking folders with 4 MiB sparse configurations, and a new repository with a
	// program-running setting.
	const n = 20
	for i := range n {
		d := filepath.Join(abs, "junk", fmt.Sprint(i))
		write(t, filepath.Join(d, "HEAD"), "ref: refs/heads/main\n", 0o644)
		os.MkdirAll(filepath.Join(d, "objects"), 0o755)
		os.MkdirAll(filepath.Join(d, "refs"), 0o755)
		f, err := os.Create(filepath.Join(d, "config"))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(4 << 20)
		f.Close()
	}
	git(t, abs, "init", "-q", "sub")
	cfg := filepath.Join(abs, "sub", ".git", "config")
	os.WriteFile(cfg, []byte(read(cfg)+"[core]\n\tfsmonitor = \"echo ran\"\n"), 0o644)

	after := g.Scan(root, abs)
	held := 0
	for p, c := range after.configs {
		held += len(c.data)
		if strings.HasPrefix(p, "junk/") && (!c.unreadable || c.data != nil) {
			t.Errorf("%s (4 MiB) was read: %d bytes held, unreadable %v", p, len(c.data), c.unreadable)
		}
	}
	if held > configLimit {
		t.Errorf("the scan holds %d bytes of configuration", held)
	}
	said, _, err := before.RestoreWithin(root, abs)
	if err != nil {
		t.Fatalf("restore: %v %q", err, said)
	}
	if strings.Contains(read(cfg), "fsmonitor") {
		t.Errorf("the planted core.fsmonitor stayed: %q", said)
	}
	for i := range n {
		if _, err := os.Lstat(filepath.Join(abs, "junk", fmt.Sprint(i), "config")); err == nil {
			t.Errorf("junk/%d/config, which Rooted could not read, is still there", i)
			break
		}
	}
}

// One scan holds at most scanBudget bytes of what it reads, whatever the number of files: past it, files are
// guarded as unreadable (a new one removed), never read.
func TestScanBudget(t *testing.T) {
	t.Parallel()
	abs, root := newRepo(t)
	st := New().Scan(root, abs)
	st.budget = 10
	st.read(root, st.configs, ".git/config")
	if c := st.configs[".git/config"]; !c.unreadable || c.data != nil {
		t.Errorf("read past the budget: %+v", c)
	}
}
