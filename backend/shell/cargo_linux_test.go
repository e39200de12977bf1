//go:build linux

package shell_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/toolcache"
)

// registry is a sparse cargo registry over HTTP holding a few one-function crates; it counts the downloads of each.
type registry struct {
	srv       *httptest.Server
	mu        sync.Mutex
	downloads map[string]int
}

func newRegistry(t *testing.T, names ...string) *registry {
	t.Helper()
	r := &registry{downloads: map[string]int{}}
	crates, index := map[string][]byte{}, map[string]string{}
	for _, name := range names {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for file, body := range map[string]string{
			"Cargo.toml": fmt.Sprintf("[package]\nname = %q\nversion = \"0.1.0\"\nedition = \"2021\"\n", name),
			"src/lib.rs": fmt.Sprintf("pub fn %s() -> &'static str { %q }\n", name, name),
		} {
			tw.WriteHeader(&tar.Header{Name: name + "-0.1.0/" + file, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(1, 0)})
			tw.Write([]byte(body))
		}
		tw.Close()
		gz.Close()
		crates[name] = buf.Bytes()
		sum := sha256.Sum256(buf.Bytes())
		index["/index/"+name[:2]+"/"+name[2:4]+"/"+name] = fmt.Sprintf(`{"name":%q,"vers":"0.1.0","deps":[],"cksum":%q,"features":{},"yanked":false}`+"\n", name, hex.EncodeToString(sum[:]))
	}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch p := req.URL.Path; {
		case p == "/index/config.json":
			fmt.Fprintf(w, `{"dl": "http://%s/dl/{crate}/{version}"}`, req.Host)
		case index[p] != "":
			w.Write([]byte(index[p]))
		case strings.HasPrefix(p, "/dl/"):
			name := strings.Split(p, "/")[2]
			r.mu.Lock()
			r.downloads[name]++
			r.mu.Unlock()
			w.Write(crates[name])
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *registry) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.downloads[name]
}

// crateProject writes a binary crate depending on deps, with cargo pointed at the registry in place of crates.io.
func crateProject(t *testing.T, dir, url string, deps ...string) {
	t.Helper()
	manifest := "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n"
	main := "fn main() {\n"
	for _, d := range deps {
		manifest += d + " = \"0.1\"\n"
		main += fmt.Sprintf("    println!(\"{}\", %s::%s());\n", d, d)
	}
	for rel, body := range map[string]string{
		"Cargo.toml":         manifest,
		"src/main.rs":        main + "}\n",
		".cargo/config.toml": "[source.crates-io]\nreplace-with = \"local\"\n\n[source.local]\nregistry = \"sparse+" + url + "/index/\"\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tree lists the files under dir with their size, mode and time; "" when there is none.
func tree(dir string) string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			fi, _ := d.Info()
			out = append(out, fmt.Sprintf("%s %d %s %s", p, fi.Size(), fi.Mode(), fi.ModTime()))
		}
		return nil
	})
	return strings.Join(out, "\n")
}

// Sandboxed cargo builds from what the user's registry holds without downloading it again, downloads a crate the
// user's registry lacks into the project's own registry (kept for the next command, offline), and never writes
// the user's registry, neither cargo nor a command aiming at it through the project's links.
func TestSandboxedCargoReadsTheUsersRegistryAndDownloadsIntoItsOwn(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed here")
	}
	reg := newRegistry(t, "oldie", "newbie")
	base := t.TempDir()
	userCargo := filepath.Join(base, "user-cargo")
	os.MkdirAll(userCargo, 0o755)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	userEnv := append(os.Environ(), "CARGO_HOME="+userCargo)

	// The user's own build, in a terminal, fills the user's registry with oldie.
	userProject := filepath.Join(base, "user-project")
	crateProject(t, userProject, reg.srv.URL, "oldie")
	cmd := exec.Command("cargo", "build", "-q")
	cmd.Dir, cmd.Env = userProject, userEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the user's cargo build: %v\n%s", err, out)
	}
	if reg.count("oldie") != 1 {
		t.Fatalf("the user's build downloaded oldie %d times", reg.count("oldie"))
	}
	userRegistry := filepath.Join(userCargo, "registry")
	before := tree(userRegistry)
	var userCrate string
	filepath.WalkDir(filepath.Join(userRegistry, "cache"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "oldie-0.1.0.crate") {
			userCrate = p
		}
		return nil
	})
	if userCrate == "" {
		t.Fatalf("no oldie .crate in the user's registry:\n%s", before)
	}

	// The project, its commands sandboxed as exec_shell runs them, with the network on.
	t.Setenv("CARGO_HOME", userCargo)
	proj := filepath.Join(base, "project")
	crateProject(t, proj, reg.srv.URL, "oldie", "newbie")
	cacheDir := toolcache.ToolCacheDir(proj)
	policy := settings.Project{Network: settings.NetworkOn}.Policy(proj, filepath.Join(base, "tmp"))
	info := sandbox.Probe(policy)
	if !info.Active {
		t.Skip("no sandbox on this machine")
	}
	run := func(argv ...string) shell.Result {
		t.Helper()
		tmp, err := os.MkdirTemp(base, "tmp-") // a command's own temporary folder, and cargo home in it
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		p := policy
		p.Writable = append(append([]string{}, policy.Writable...), tmp)
		env := append([]string{"TMPDIR=" + tmp}, toolcache.CargoHome(tmp, cacheDir, os.Getenv)...)
		env = append(env, toolcache.PackageCaches(cacheDir, os.Getenv)...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		res, err := shell.Run(ctx, shell.Spec{Argv: argv, Dir: proj, Env: cmdenv.Env(os.Environ(), nil, env...), Timeout: 4 * time.Minute, Policy: p, Sandbox: sandbox.Probe(p)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run("cargo", "run", "-q"); res.ExitCode != 0 || res.Stdout != "oldie\nnewbie\n" {
		t.Fatalf("cargo run in the sandbox: exit %d\nstdout %s\nstderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n, m := reg.count("oldie"), reg.count("newbie"); n != 1 || m != 1 {
		t.Errorf("downloads: oldie %d times (want 1: the user's build only), newbie %d (want 1)", n, m)
	}
	if after := tree(userRegistry); after != before {
		t.Errorf("the user's registry changed:\n%s\n---\n%s", before, after)
	}

	// A command aiming at the user's registry, directly or through the project's links, writes nothing there.
	own := toolcache.CargoRegistryDir(cacheDir)
	link := filepath.Join(own, strings.TrimPrefix(userCrate, userRegistry))
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the project's registry does not link oldie's .crate at %s: %v", link, err)
	}
	for _, target := range []string{link, userCrate, filepath.Join(filepath.Dir(userCrate), "planted.crate")} {
		if res := run("sh", "-c", `echo planted > "$1"`, "sh", target); res.ExitCode == 0 {
			t.Errorf("a sandboxed command wrote %s", target)
		}
	}
	if after := tree(userRegistry); after != before {
		t.Errorf("the user's registry changed:\n%s\n---\n%s", before, after)
	}

	// The next command, a new cargo home, the registry gone: newbie is still the project's, oldie still the user's.
	reg.srv.Close()
	if res := run("sh", "-c", "cargo clean -q && cargo run -q --offline"); res.ExitCode != 0 || res.Stdout != "oldie\nnewbie\n" {
		t.Fatalf("cargo run offline in the next command: exit %d\nstdout %s\nstderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}

	// When the user cleans their registry, the next command's setup drops the project's link to what went, so that
	// cargo downloads the crate again into the project's registry rather than write through a dangling link.
	os.Remove(userCrate)
	before = tree(userRegistry)
	if res := run("true"); res.ExitCode != 0 {
		t.Fatalf("true: %+v", res)
	}
	if _, err := os.Lstat(link); err == nil {
		t.Errorf("a link to the removed %s is left", userCrate)
	}
	if after := tree(userRegistry); after != before {
		t.Errorf("the user's registry changed:\n%s\n---\n%s", before, after)
	}
}
