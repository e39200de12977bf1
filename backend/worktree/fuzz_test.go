package worktree

import (
	"regexp"
	"testing"
)

// A worktree's folder and branch are named after a conversation's title, which the model may have written: the
// name is always one folder (no separator, no dot to climb with), a valid branch after "rooted/", and never
// starts like an option.
func FuzzSlug(f *testing.F) {
	for _, s := range []string{"", "Fix the parser!", "../../etc", "-f", "a/b..c", ".git", "@{-1}", "x\x00y", "ÜNÏCODE", "refs/heads/main.lock", "  --  "} {
		f.Add(s)
	}
	valid := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	f.Fuzz(func(t *testing.T, name string) {
		s := Slug(name)
		if len(s) == 0 || len(s) > 48 || !valid.MatchString(s) {
			t.Fatalf("Slug(%q) = %q", name, s)
		}
	})
}
