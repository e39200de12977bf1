package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/version"
)

func TestVersion(t *testing.T) {
	version.Version, version.Commit = "1.2.3", "0123456789abcdef0123+dirty"
	t.Cleanup(func() { version.Version, version.Commit = "dev", "" })
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := run(t, "", args...)
		if code != ExitOK || !strings.HasPrefix(out, "rooted 1.2.3 (commit 0123456789ab+dirty, "+runtime.Version()) || !strings.Contains(out, "sandbox: ") {
			t.Errorf("%v: exit %d, printed %q", args, code, out)
		}
	}
	code, out, _ := run(t, "", "version", "--json")
	var v struct {
		Version, Commit, GoVersion string
		Modified                   bool
		Sandbox                    struct{ Active bool }
	}
	if err := json.Unmarshal([]byte(out), &v); code != ExitOK || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if v.Version != "1.2.3" || v.Commit != "0123456789abcdef0123" || !v.Modified {
		t.Errorf("version JSON: %+v", v)
	}
	if code, _, _ := run(t, "", "version", "extra"); code != ExitUsage {
		t.Errorf("an extra argument: exit %d, want %d", code, ExitUsage)
	}
}

// rooted open checks the folder before looking for the desktop app, so a typo gets the right message.
func TestOpenRefusesWhatIsNotAFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct {
		args []string
		code int
		says string
	}{
		{[]string{"open", "serach"}, ExitUsage, `"serach" is neither a command nor a folder`},
		{[]string{"open", filepath.Join(dir, "missing")}, ExitToolError, "no such file or directory"},
		{[]string{"open", file}, ExitToolError, "not a directory"},
		{[]string{"open", dir, dir}, ExitUsage, "one folder at a time"},
		{[]string{"open", dir, "--root", dir}, ExitUsage, "give the folder once"},
	}
	for _, c := range cases {
		code, _, stderr := run(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.says)
		}
	}
}
