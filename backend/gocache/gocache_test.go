package gocache

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func id(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// tree lists every file under dir with its size and modification time: what a write would change.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %d %v", p, fi.Size(), fi.ModTime().UnixNano(), fi.Mode()))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// session runs the protocol over pipes as the go command would, with the requests given, and returns the replies
// after the capabilities line.
func session(t *testing.T, c *Cache, reqs ...string) []response {
	t.Helper()
	var out bytes.Buffer
	if err := c.Serve(strings.NewReader(strings.Join(reqs, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	var hello response
	if err := dec.Decode(&hello); err != nil || strings.Join(hello.KnownCommands, ",") != "get,put,close" {
		t.Fatalf("first message: %+v %v", hello, err)
	}
	var got []response
	for dec.More() {
		var r response
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].ID < got[j].ID })
	return got
}

func put(reqID int64, action, output []byte, body string) string {
	r, _ := json.Marshal(request{ID: reqID, Command: "put", ActionID: action, OutputID: output, BodySize: int64(len(body))})
	if body == "" {
		return string(r)
	}
	b, _ := json.Marshal([]byte(body))
	return string(r) + "\n" + string(b)
}

func get(reqID int64, action []byte) string {
	r, _ := json.Marshal(request{ID: reqID, Command: "get", ActionID: action})
	return string(r)
}

// An entry only the user's cache holds is returned from there; one neither holds is a miss; a put goes to the
// private cache and is found there first; the user's cache is never written.
func TestLookupOrderAndWrites(t *testing.T) {
	user, priv := t.TempDir(), t.TempDir()
	// The user's own build put this entry (written as the go command lays it out).
	session(t, &Cache{Write: user}, put(1, id("a1"), id("o1"), "compiled by the user"))
	before := tree(t, user)

	c := &Cache{Write: priv, Read: user}
	got := session(t, c, get(1, id("a1")), get(2, id("nowhere")))
	got = append(got, session(t, c,
		put(3, id("a2"), id("o2"), "compiled in the sandbox"),
		put(4, id("a1"), id("o3"), "the sandbox's own answer for a1"),
		put(5, id("empty"), id("o4"), ""),
		`{"ID":6,"Command":"close"}`,
	)...)
	if len(got) != 6 {
		t.Fatalf("%d replies: %+v", len(got), got)
	}
	if r := got[0]; r.Miss || r.Err != "" || !bytes.Equal(r.OutputID, id("o1")) || r.Size != 20 || !strings.HasPrefix(r.DiskPath, user) {
		t.Errorf("get of an entry in the user's cache: %+v", r)
	} else if b, _ := os.ReadFile(r.DiskPath); string(b) != "compiled by the user" {
		t.Errorf("its body: %q", b)
	}
	if !got[1].Miss {
		t.Errorf("get of an entry nowhere: %+v", got[1])
	}
	for _, r := range got[2:5] {
		if r.Err != "" || !strings.HasPrefix(r.DiskPath, priv) {
			t.Errorf("put %d: %+v", r.ID, r)
		}
	}
	if after := tree(t, user); after != before {
		t.Fatalf("the user's cache changed:\n%s\n---\n%s", before, after)
	}
	// The private answer for a1 now wins over the user's.
	got = session(t, c, get(1, id("a1")), get(2, id("a2")), get(3, id("empty")))
	if r := got[0]; !bytes.Equal(r.OutputID, id("o3")) || !strings.HasPrefix(r.DiskPath, priv) {
		t.Errorf("after a private put, a1: %+v", r)
	}
	if r := got[1]; r.Miss || !strings.HasPrefix(r.DiskPath, priv) {
		t.Errorf("a2: %+v", r)
	}
	if r := got[2]; r.Miss || r.Size != 0 {
		t.Errorf("an empty body: %+v", r)
	}
}

// What the sandbox leaves in the private cache cannot hang or fool the cache program: a pipe as an action entry, a
// damaged entry, an output of the wrong size are misses.
func TestDamagedEntriesAreMisses(t *testing.T) {
	priv := t.TempDir()
	c := &Cache{Write: priv}
	session(t, c, put(1, id("ok"), id("out"), "body"))
	a := file(priv, id("fifo"), "a")
	os.MkdirAll(filepath.Dir(a), 0o700)
	if err := mkfifo(a); err != nil {
		t.Skip("no named pipes here:", err)
	}
	bad := file(priv, id("bad"), "a")
	os.MkdirAll(filepath.Dir(bad), 0o700)
	os.WriteFile(bad, []byte("v1 nonsense\n"), 0o600)
	os.WriteFile(file(priv, id("out"), "d"), []byte("changed"), 0o600) // not the size the entry names
	got := session(t, c, get(1, id("fifo")), get(2, id("bad")), get(3, id("ok")))
	for _, r := range got {
		if !r.Miss {
			t.Errorf("request %d: %+v, want a miss", r.ID, r)
		}
	}
}

// The go command itself, with this test binary as its GOCACHEPROG: a package the user's cache holds compiles
// from it (the private cache receives nothing), a changed package compiles into the private cache only.
func TestGoCommandStartsWarmFromTheUserCache(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	proj, user, priv := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644)
	// No imports: building it compiles this package only, so the test needs no standard library build.
	os.WriteFile(filepath.Join(proj, "p.go"), []byte("package p\n\nfunc F() int { return 1 }\n"), 0o644)
	build := func(env ...string) {
		t.Helper()
		cmd := exec.Command(goBin, "build", "./...")
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=", "GOTOOLCHAIN=local"}, env...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", env, err, out)
		}
	}
	build("GOCACHE="+user, "GOCACHEPROG=") // the user's own build
	before := tree(t, user)
	prog := Command(self, user, priv)
	build("GOCACHE="+priv, "GOCACHEPROG="+prog)
	if n := countOutputs(priv); n != 0 {
		t.Errorf("the private cache received %d outputs for a package the user's cache holds", n)
	}
	os.WriteFile(filepath.Join(proj, "p.go"), []byte("package p\n\nfunc F() int { return 2 }\n"), 0o644)
	build("GOCACHE="+priv, "GOCACHEPROG="+prog)
	if n := countOutputs(priv); n == 0 {
		t.Error("a changed package was not stored in the private cache")
	}
	if after := tree(t, user); after != before {
		t.Fatalf("the user's cache changed:\n%s\n---\n%s", before, after)
	}
}

func countOutputs(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "-d") {
			n++
		}
		return nil
	})
	return n
}

func TestCommandQuotesPaths(t *testing.T) {
	got := Command("/opt/my apps/rooted", "/home/u/.cache/go-build", "/home/u/it's/cache")
	want := `'/opt/my apps/rooted' ` + Arg + ` --write "/home/u/it's/cache" --read /home/u/.cache/go-build`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
