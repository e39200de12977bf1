package toolcache

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// cargo's registry holds code that builds run without a check again: a .crate in registry/cache is checked against
// its index checksum only when it is downloaded, and registry/src holds the sources extracted from it. So a
// sandboxed cargo never writes the user's registry; it gets one of its own per project (CargoRegistryDir, kept
// between commands), in which every index entry, .crate and extracted source the user's registry holds appears
// as a link to the user's file or folder. cargo reads through the links, which the sandbox keeps read-only; a crate
// the user's registry lacks is downloaded, checked and extracted into the project's registry beside them; and
// nothing a command writes lands where the user's own cargo reads.

// CargoRegistryDir is a project's own cargo registry under dir (ToolCacheDir).
func CargoRegistryDir(dir string) string { return filepath.Join(dir, "cargo-registry") }

// mirrorRegistry makes own (a project's registry) show what user (the user's registry) holds, as links: the
// entries of index/<registry> (file by file: a sparse index's folders are the project's, so cargo can add entries),
// cache/<registry> and src/<registry>. A link whose target is gone (the user cleaned their registry) is removed,
// so that cargo downloads the crate again rather than write through a dangling link into the user's registry,
// which the sandbox refuses. An index that is a git repository (cargo's older protocol) is linked whole.
//
// Commands may write own, so every change Rooted makes there goes through an os.Root of it: no link a command
// planted is followed out of it. Rooted's own record of what it mirrored lies beside own, where commands cannot
// write.
//
// A user's registry holds thousands of index entries, and this runs before every command: it runs only when the
// folders of the user's downloaded and extracted crates changed since it last ran (cargo adds and removes there,
// and writes the index entries of what it downloads), as the stamp beside own records.
func mirrorRegistry(user, own string) {
	stamp, stampFile := registryStamp(user), own+".rooted-mirrored"
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp {
		return
	}
	r, err := os.OpenRoot(own)
	if err != nil {
		return
	}
	defer r.Close()
	for _, kind := range []string{"index", "cache", "src"} {
		from := filepath.Join(user, kind)
		regs, _ := os.ReadDir(from)
		if len(regs) == 0 {
			continue
		}
		if r.MkdirAll(kind, 0o700) != nil {
			continue
		}
		for _, reg := range regs {
			if !reg.IsDir() {
				continue
			}
			src, dst := filepath.Join(from, reg.Name()), filepath.Join(kind, reg.Name())
			if _, err := os.Stat(filepath.Join(src, ".git")); err == nil && kind == "index" {
				if _, err := r.Lstat(dst); err != nil {
					r.Symlink(src, dst)
				}
				continue
			}
			syncLinks(r, src, dst, kind == "index")
		}
	}
	os.WriteFile(stampFile, []byte(stamp), 0o600)
}

// registryStamp names the state of a user's registry that mirrorRegistry follows: each registry's folder of
// downloaded crates and of extracted ones, and its index folder, with their modification times.
func registryStamp(user string) string {
	var b strings.Builder
	for _, kind := range []string{"index", "cache", "src"} {
		regs, _ := os.ReadDir(filepath.Join(user, kind))
		for _, reg := range regs {
			if fi, err := reg.Info(); err == nil {
				fmt.Fprintf(&b, "%s/%s %d\n", kind, reg.Name(), fi.ModTime().UnixNano())
			}
		}
	}
	return b.String()
}

// syncLinks makes the folder own (relative to r) show the entries of the folder user: an entry own lacks becomes
// a link to the user's, and a link own holds to an entry the user no longer has is removed. With deep set, a
// folder of the user's becomes a folder in own, synced in turn; otherwise it is linked whole (an extracted crate).
// Two listings a folder and no call per entry that has not changed: a user's registry holds thousands of entries,
// and this runs before every command.
func syncLinks(r *os.Root, user, own string, deep bool) {
	ue, err := os.ReadDir(user)
	if err != nil {
		return
	}
	oe, err := readDirIn(r, own)
	if err != nil && r.MkdirAll(own, 0o700) != nil {
		return
	}
	have := make(map[string]fs.DirEntry, len(oe))
	for _, e := range oe {
		have[e.Name()] = e
	}
	for _, e := range ue {
		name := e.Name()
		o, ok := have[name]
		delete(have, name)
		switch {
		case deep && e.IsDir():
			if !ok || o.IsDir() {
				syncLinks(r, filepath.Join(user, name), filepath.Join(own, name), true)
			}
		case !ok && (e.IsDir() || e.Type().IsRegular()):
			r.Symlink(filepath.Join(user, name), filepath.Join(own, name))
		}
	}
	for name, o := range have { // in own only: the project's own download, or a link to what the user removed
		if o.Type()&fs.ModeSymlink != 0 {
			if t, err := r.Readlink(filepath.Join(own, name)); err == nil && t == filepath.Join(user, name) {
				r.Remove(filepath.Join(own, name))
			}
		}
	}
}

// readDirIn lists the folder name under r, following no link out of r.
func readDirIn(r *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// CargoHome gives sandboxed cargo a home of its own under dir: the user's config.toml without its tokens and
// credential providers, links to the user's bin and git folders, and as its registry the project's own under
// cacheDir (ToolCacheDir; CargoRegistryDir), which shows what the user's registry holds and takes what cargo
// downloads; it returns CARGO_HOME (nil when the user has no cargo home). cargo's own config.toml may hold
// [registry] token, so the sandbox cannot read it.
func CargoHome(dir, cacheDir string, getenv func(string) string) []string {
	user := getenv("CARGO_HOME")
	if user == "" {
		home, _ := os.UserHomeDir()
		if home == "" {
			return nil
		}
		user = filepath.Join(home, ".cargo")
	}
	if fi, err := os.Stat(user); err != nil || !fi.IsDir() {
		return nil
	}
	own := filepath.Join(dir, "cargo-home")
	if err := os.MkdirAll(own, 0o700); err != nil {
		return nil
	}
	for _, name := range []string{"config.toml", "config"} {
		if b, err := os.ReadFile(filepath.Join(user, name)); err == nil {
			os.WriteFile(filepath.Join(own, "config.toml"), cmdenv.FilterTOMLSecrets(b), 0o600)
			break
		}
	}
	for _, sub := range []string{"bin", "git"} {
		if _, err := os.Stat(filepath.Join(user, sub)); err == nil {
			os.Symlink(filepath.Join(user, sub), filepath.Join(own, sub))
		}
	}
	registry := CargoRegistryDir(cacheDir)
	if err := os.MkdirAll(registry, 0o700); err != nil {
		return []string{"CARGO_HOME=" + own}
	}
	mirrorRegistry(filepath.Join(user, "registry"), registry)
	os.Symlink(registry, filepath.Join(own, "registry"))
	return []string{"CARGO_HOME=" + own}
}
