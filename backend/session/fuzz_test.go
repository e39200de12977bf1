package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzResolve checks the promise end to end: whatever path a caller invents, resolving it and reading or creating
// through the session's root never touches the secret file beside the root, nor creates anything outside it.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"a/f.txt", "../secret.txt", "a/../../secret.txt", "/etc/passwd", "~", "~/.bashrc", "link-out",
		"link-out/x", "a/link-up/secret.txt", "./././../proj/../secret.txt", `..\secret.txt`, "a/b/../../..", "",
		"loop", "dangling", "-", "a\x00", "/", "//", "a/./b/..//f.txt",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		base := t.TempDir()
		root := filepath.Join(base, "proj")
		must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
		must(t, os.WriteFile(filepath.Join(root, "a", "f.txt"), []byte("inside"), 0o644))
		must(t, os.WriteFile(filepath.Join(base, "secret.txt"), []byte("SECRET"), 0o644))
		must(t, os.Symlink("../secret.txt", filepath.Join(root, "link-out")))
		must(t, os.Symlink("../..", filepath.Join(root, "a", "link-up")))
		must(t, os.Symlink("loop", filepath.Join(root, "loop")))
		must(t, os.Symlink("nowhere", filepath.Join(root, "dangling")))
		s, err := Open(root)
		must(t, err)
		defer s.Close()
		_, _ = s.Chdir("a")

		target, err := s.Resolve(p)
		if err != nil {
			return
		}
		if filepath.IsAbs(target.Rel) {
			t.Fatalf("Resolve(%q) returned an absolute name %q", p, target.Rel)
		}
		if b, err := target.Root.ReadFile(target.Rel); err == nil && bytes.Contains(b, []byte("SECRET")) {
			t.Fatalf("Resolve(%q) = %q read the secret outside the root", p, target.Rel)
		}
		if f, err := target.Root.OpenFile(target.Rel, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644); err == nil {
			f.Close()
		}
		entries, err := os.ReadDir(base)
		must(t, err)
		if len(entries) != 2 {
			t.Fatalf("Resolve(%q) = %q created something beside the root: %v", p, target.Rel, entries)
		}
	})
}
