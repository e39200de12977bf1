//go:build unix

package gitguard

import (
	"path/filepath"
	"slices"
	"testing"
)

// The gitlinks read from an index are git's own, in every index version and both object formats.
func TestGitlinksAsGitListsThem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ version, format string }{{"2", "sha1"}, {"3", "sha1"}, {"4", "sha1"}, {"2", "sha256"}, {"4", "sha256"}} {
		t.Run("v"+c.version+"/"+c.format, func(t *testing.T) {
			t.Parallel()
			abs := t.TempDir()
			git(t, abs, "init", "-q", "--object-format="+c.format)
			write(t, filepath.Join(abs, "a", "file"), "x", 0o644)
			write(t, filepath.Join(abs, "zz", "long-name-for-prefix-compression", "f"), "x", 0o644)
			id := "1111111111111111111111111111111111111111"
			if c.format == "sha256" {
				id += "111111111111111111111111"
			}
			git(t, abs, "add", "-A")
			git(t, abs, "update-index", "--add", "--cacheinfo", "160000,"+id+",lib/sub")
			git(t, abs, "update-index", "--add", "--cacheinfo", "160000,"+id+",zz/long-name-for-prefix-compression/sub2")
			git(t, abs, "update-index", "--index-version", c.version)
			root := openRoot(t, abs)
			got := Gitlinks(root, ".git/index", ".")
			if want := []string{"lib/sub", "zz/long-name-for-prefix-compression/sub2"}; !slices.Equal(got, want) {
				t.Errorf("gitlinks %q, want %q", got, want)
			}
		})
	}
	if indexGitlinks([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x05")) != nil {
		t.Error("a truncated index gave gitlinks")
	}
}
