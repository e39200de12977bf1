package toolcache

import (
	"crypto/sha256"
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

// SeedNpmCache makes the project's npm cache (under dir, ToolCacheDir) hold what the user's npm cache has of the
// packages the project's lockfile names (package-lock.json, npm-shrinkwrap.json), so that npm installs from it
// offline and without downloading again: their tarballs and packuments, which cacache keeps by their hash
// (content-v2/<algorithm>/<hex digest>), as links to the user's files (npm checks each against its hash as it
// reads it), and the index entries that map their URLs to those hashes, as copies the project's cache owns. The
// user's cache is never written, and nothing the project's commands write there reaches another project or the
// user's npm. The lockfile is read through project (links are not followed out of it), and every change to the
// project's cache, which commands may write, goes through an os.Root of it. It returns how many entries it added.
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
	// Seeding runs before every npm command and a lockfile names hundreds of packages: once every one of them was
	// found and seeded, the lockfile's hash is recorded beside the project's cache (where commands cannot write),
	// and the same lockfile is not looked at again.
	sum := sha256.Sum256(lock)
	stamp, stampFile := hex.EncodeToString(sum[:]), filepath.Join(dir, "npm.rooted-seeded")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp {
		if fi, err := os.Lstat(filepath.Join(dir, "npm", "_cacache")); err == nil && fi.IsDir() {
			return 0
		}
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
	r, err := os.OpenRoot(filepath.Join(dir, "npm"))
	if err != nil {
		return 0
	}
	defer r.Close()
	own := &seedTarget{Root: r, made: map[string]bool{}}
	l := lockRefs{registry: strings.TrimSuffix(getenv("npm_config_registry"), "/")}
	if l.registry == "" {
		l.registry = strings.TrimSuffix(getenv("NPM_CONFIG_REGISTRY"), "/")
	}
	if l.registry == "" {
		l.registry = "https://registry.npmjs.org"
	}
	l.walk(doc, "")
	added, complete := 0, true
	linked := map[string]bool{}
	link := func(integrity string) {
		for _, rel := range contentPaths(integrity) {
			if !linked[rel] {
				linked[rel] = true
				got, missing := seedContent(own, user, rel)
				if got {
					added++
				}
				complete = complete && !missing
			}
		}
	}
	for _, integrity := range l.integrities {
		link(integrity)
	}
	for _, key := range l.keys {
		integrities, missing := seedIndex(own, user, key)
		complete = complete && !missing
		if integrities != nil {
			added++
			for _, integrity := range integrities {
				link(integrity)
			}
		}
	}
	if complete {
		os.WriteFile(stampFile, []byte(stamp), 0o600)
	}
	return added
}

// seedContent links the user's content file rel (a content-v2 path) into own's _cacache, when the user has it and
// own does not; missing says the user's cache lacks it.
func seedContent(own *seedTarget, user, rel string) (added, missing bool) {
	target := filepath.Join(user, filepath.FromSlash(rel))
	if fi, err := os.Lstat(target); err != nil || !fi.Mode().IsRegular() {
		return false, true
	}
	mine := filepath.FromSlash(path.Join("_cacache", rel))
	if _, err := own.Lstat(mine); err == nil {
		return false, false // already there: linked before, or downloaded by a command
	}
	if own.mkdirAll(filepath.Dir(mine)) != nil {
		return false, true
	}
	return own.Symlink(target, mine) == nil, false
}

// seedTarget is the project's npm cache as seeding writes it: through its root, each folder made once a call (a
// lockfile's packages share the 65,536 folders of cacache's two-level fan-out).
type seedTarget struct {
	*os.Root
	made map[string]bool
}

func (t *seedTarget) mkdirAll(dir string) error {
	if t.made[dir] {
		return nil
	}
	if err := t.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	t.made[dir] = true
	return nil
}

// maxBucket bounds an index bucket copied from the user's cache.
const maxBucket = 1 << 20

// seedIndex copies the user's index bucket of key into own's _cacache, when own has none, and returns the
// integrities its entries name (what the copy points at, to be linked); missing says the user's cache lacks it.
func seedIndex(own *seedTarget, user, key string) (integrities []string, missing bool) {
	sum := sha256.Sum256([]byte(key))
	hx := hex.EncodeToString(sum[:])
	rel := path.Join("index-v5", hx[:2], hx[2:4], hx[4:])
	src := filepath.Join(user, filepath.FromSlash(rel))
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxBucket {
		return nil, true
	}
	mine := filepath.FromSlash(path.Join("_cacache", rel))
	if _, err := own.Lstat(mine); err == nil {
		return nil, false
	}
	b, err := os.ReadFile(src)
	if err != nil || own.mkdirAll(filepath.Dir(mine)) != nil {
		return nil, true
	}
	tmp := mine + ".rooted-tmp"
	if own.WriteFile(tmp, b, 0o600) != nil || own.Rename(tmp, mine) != nil {
		own.Remove(tmp)
		return nil, true
	}
	out := []string{}
	for _, line := range strings.Split(string(b), "\n") {
		_, entry, ok := strings.Cut(line, "\t")
		var e struct {
			Integrity string `json:"integrity"`
		}
		if ok && json.Unmarshal([]byte(entry), &e) == nil && e.Integrity != "" {
			out = append(out, e.Integrity)
		}
	}
	return out, false
}

// lockRefs are what a lockfile names in npm's cache: integrity strings, and the cache keys of each package's
// tarball and packument (make-fetch-happen:request-cache:URL). A package without "resolved" (npm leaves it out
// for the default registry when told to) is at registry.
type lockRefs struct {
	registry          string
	integrities, keys []string
	seen              map[string]bool
}

// walk collects from a lockfile of any version: "packages" (v2, v3) keyed by "node_modules/NAME" paths, and
// "dependencies" (v1) keyed by NAME, each entry with "resolved" and "integrity".
func (l *lockRefs) walk(v any, name string) {
	switch v := v.(type) {
	case map[string]any:
		resolved, hasResolved := v["resolved"].(string)
		version, hasVersion := v["version"].(string)
		if !hasResolved && hasVersion && name != "" && v["integrity"] != nil {
			resolved = l.registry + "/" + name + "/-/" + path.Base(name) + "-" + version + ".tgz"
			hasResolved = true
		}
		if hasResolved && name != "" {
			l.add("make-fetch-happen:request-cache:" + resolved)
			if base, _, ok := strings.Cut(resolved, "/"+name+"/-/"); ok && strings.HasPrefix(base, "http") {
				l.add("make-fetch-happen:request-cache:" + base + "/" + strings.Replace(name, "/", "%2f", 1))
			}
		}
		for k, e := range v {
			if s, ok := e.(string); ok && k == "integrity" {
				l.integrities = append(l.integrities, s)
				continue
			}
			sub := k
			if i := strings.LastIndex(k, "node_modules/"); i >= 0 {
				sub = k[i+len("node_modules/"):]
			}
			l.walk(e, sub)
		}
	case []any:
		for _, e := range v {
			l.walk(e, "")
		}
	}
}

func (l *lockRefs) add(key string) {
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	if !l.seen[key] {
		l.seen[key] = true
		l.keys = append(l.keys, key)
	}
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
