package shell

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxLockfile bounds the lockfile SeedNpmCache reads (the project's file, which a command may have made huge).
const maxLockfile = 64 << 20

// SeedNpmCache makes the project's npm cache (under dir, ToolCacheDir) hold, as links to the user's files, the
// packages the project's lockfile names (package-lock.json, npm-shrinkwrap.json) that the user's npm cache has:
// npm reads a package whose integrity it knows by that hash alone (content-v2/<algorithm>/<hex digest>), checks it
// as it reads, and so installs offline and without downloading again. Nothing but content named by its hash is
// shared: never the index that maps a URL to a hash. The lockfile is read through project (links are not followed
// out of it), and every change to the project's cache, which commands may write, goes through an os.Root of it.
// It returns how many packages it linked.
func SeedNpmCache(dir string, project *os.Root, getenv func(string) string) int {
	var lock []byte
	for _, name := range []string{"npm-shrinkwrap.json", "package-lock.json"} {
		if fi, err := project.Lstat(name); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxLockfile {
			if b, err := project.ReadFile(name); err == nil {
				lock = b
				break
			}
		}
	}
	if lock == nil {
		return 0
	}
	var doc any
	if json.Unmarshal(lock, &doc) != nil {
		return 0
	}
	home, _ := os.UserHomeDir()
	var user string
	for _, c := range userNpmCaches(home) {
		if c == "" {
			continue
		}
		if fi, err := os.Stat(filepath.Join(c, "_cacache", "content-v2")); err == nil && fi.IsDir() {
			user = filepath.Join(c, "_cacache")
			break
		}
	}
	if user == "" {
		return 0
	}
	own, err := os.OpenRoot(filepath.Join(dir, "npm"))
	if err != nil {
		return 0
	}
	defer own.Close()
	linked := 0
	seen := map[string]bool{}
	for _, integrity := range integrities(doc, nil) {
		for _, rel := range contentPaths(integrity) {
			if seen[rel] {
				continue
			}
			seen[rel] = true
			target := filepath.Join(user, filepath.FromSlash(rel))
			if fi, err := os.Lstat(target); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			mine := path.Join("_cacache", rel)
			if _, err := own.Lstat(filepath.FromSlash(mine)); err == nil {
				continue // already there: linked before, or downloaded by a command
			}
			if own.MkdirAll(filepath.FromSlash(path.Dir(mine)), 0o700) != nil {
				continue
			}
			if own.Symlink(target, filepath.FromSlash(mine)) == nil {
				linked++
			}
		}
	}
	return linked
}

// integrities are the values of every "integrity" field in a lockfile (lockfileVersion 1, 2 and 3 nest them
// differently).
func integrities(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "integrity" {
				out = append(out, s)
				continue
			}
			out = integrities(e, out)
		}
	case []any:
		for _, e := range v {
			out = integrities(e, out)
		}
	}
	return out
}

// contentPaths are where cacache keeps the content an integrity string names ("sha512-BASE64 sha1-BASE64"), as
// slash paths under its folder: content-v2/<algorithm>/<2 hex>/<2 hex>/<rest of the hex digest>. An entry it
// cannot read is left out.
func contentPaths(integrity string) []string {
	var out []string
	for _, h := range strings.Fields(integrity) {
		algo, b64, ok := strings.Cut(h, "-")
		if !ok || (algo != "sha512" && algo != "sha384" && algo != "sha256" && algo != "sha1") {
			continue
		}
		b64, _, _ = strings.Cut(b64, "?") // options after the digest
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(raw) < 4 {
			continue
		}
		hx := hex.EncodeToString(raw)
		out = append(out, path.Join("content-v2", algo, hx[:2], hx[2:4], hx[4:]))
	}
	return out
}
