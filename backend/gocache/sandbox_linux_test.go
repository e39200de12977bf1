package gocache_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/toolcache"
)

func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked() // the sandbox re-executes this test binary as its helper
	os.Exit(m.Run())
}

// A sandboxed go command gets this binary as its cache program and starts warm from the user's build cache, but
// nothing in the sandbox can write that cache: not the cache program, not the command.
func TestSandboxedGoReadsButNeverWritesTheUserCache(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	home, proj, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".cache", "go-build")
	os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "p.go"), []byte("package p\n\nfunc F() int { return 1 }\n"), 0o644)
	base := append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "HOME="+home)
	cmd := exec.Command(goBin, "build", "./...") // the user's own build, in a terminal
	cmd.Dir, cmd.Env = proj, append(base, "GOCACHE="+user, "GOCACHEPROG=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	before := listing(t, user)

	getenv := func(k string) string {
		if k == "GOCACHE" {
			return user
		}
		return os.Getenv(k)
	}
	goEnv, writable := toolcache.GoCaches(filepath.Join(t.TempDir(), "toolcache"), false, getenv)
	if !strings.Contains(strings.Join(goEnv, "\n"), "GOCACHEPROG=") {
		t.Fatalf("no cache program in %v", goEnv)
	}
	policy := sandbox.Policy{Readable: cmdenv.Readable(home, getenv, filepath.Dir(goBin)), Writable: append([]string{proj, tmp}, writable...)}
	info := sandbox.Probe(policy)
	if !info.Active {
		t.Skip("no sandbox on this machine")
	}
	run := func(argv ...string) shell.Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		res, err := shell.Run(ctx, shell.Spec{
			Argv: argv, Dir: proj, Timeout: 4 * time.Minute, Policy: policy, Sandbox: info,
			Env: append(append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "HOME="+home, "TMPDIR="+tmp), goEnv...),
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(goBin, "build", "./..."); res.ExitCode != 0 {
		t.Fatalf("go build in the sandbox: %+v", res)
	}
	// Nothing the user's build compiled was compiled again: no output the user's cache holds is in the private one.
	private := strings.TrimPrefix(goEnv[0], "GOCACHE=")
	if again := common(outputNames(user), outputNames(private)); len(again) > 0 {
		t.Errorf("compiled again in the sandbox although the user's cache holds them: %v", again)
	}
	// The command itself cannot write there either.
	var entry string
	filepath.WalkDir(user, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "-d") && entry == "" {
			entry = p
		}
		return nil
	})
	if res := run("/bin/sh", "-c", `cat "$1" >/dev/null && echo poisoned > "$1"`, "sh", entry); res.ExitCode == 0 {
		t.Errorf("a sandboxed command overwrote %s", entry)
	}
	if res := run("/bin/sh", "-c", `echo x > "$1/00/new-a"`, "sh", user); res.ExitCode == 0 {
		t.Error("a sandboxed command wrote a new entry into the user's cache")
	}
	if after := listing(t, user); after != before {
		t.Fatalf("the user's cache changed:\n%s\n---\n%s", before, after)
	}
}

func listing(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		out = append(out, p+" "+fi.ModTime().String()+" "+fi.Mode().String())
		return nil
	})
	return strings.Join(out, "\n")
}

// outputNames are the names of the compiled outputs (-d files) in a build cache.
func outputNames(dir string) map[string]bool {
	out := map[string]bool{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "-d") {
			out[filepath.Base(p)] = true
		}
		return nil
	})
	return out
}

func common(a, b map[string]bool) []string {
	var both []string
	for k := range a {
		if b[k] {
			both = append(both, k)
		}
	}
	return both
}
