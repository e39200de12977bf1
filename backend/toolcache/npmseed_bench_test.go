package toolcache

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSeedNpmCache is what an npm command pays before it runs to seed the project's npm cache from a lockfile
// of 1,000 packages, all in the user's cache (a tarball and a packument each, with their index entries): the first
// command of a project, which links and copies them, and every later one, which finds them there.
func BenchmarkSeedNpmCache(b *testing.B) {
	user := filepath.Join(b.TempDir(), "npm")
	b.Setenv("npm_config_cache", user)
	b.Setenv("NPM_CONFIG_CACHE", "")
	put := func(key string, data []byte) string {
		sum := sha512.Sum512(data)
		integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
		for _, rel := range contentPaths(integrity) {
			p := filepath.Join(user, "_cacache", filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, data, 0o644)
		}
		k := sha256.Sum256([]byte(key))
		hx := hex.EncodeToString(k[:])
		bucket := filepath.Join(user, "_cacache", "index-v5", hx[:2], hx[2:4], hx[4:])
		os.MkdirAll(filepath.Dir(bucket), 0o755)
		os.WriteFile(bucket, []byte(fmt.Sprintf("\nabc\t{\"key\":%q,\"integrity\":%q}", key, integrity)), 0o644)
		return integrity
	}
	var lock strings.Builder
	lock.WriteString(`{"lockfileVersion": 3, "packages": {"": {"name": "p"}`)
	for i := range 1000 {
		name := fmt.Sprintf("pkg%d", i)
		tgz := fmt.Sprintf("https://registry.npmjs.org/%s/-/%s-1.0.0.tgz", name, name)
		integrity := put("make-fetch-happen:request-cache:"+tgz, []byte("tarball "+name))
		put("make-fetch-happen:request-cache:https://registry.npmjs.org/"+name, []byte("packument "+name))
		fmt.Fprintf(&lock, `, "node_modules/%s": {"version": "1.0.0", "resolved": %q, "integrity": %q}`, name, tgz, integrity)
	}
	lock.WriteString("}}")
	project := b.TempDir()
	os.WriteFile(filepath.Join(project, "package-lock.json"), []byte(lock.String()), 0o644)
	r, err := os.OpenRoot(project)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			cache := b.TempDir()
			os.MkdirAll(filepath.Join(cache, "npm"), 0o700)
			b.StartTimer()
			if n := SeedNpmCache(cache, r, os.Getenv); n < 3000 {
				b.Fatalf("seeded %d", n)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		cache := b.TempDir()
		os.MkdirAll(filepath.Join(cache, "npm"), 0o700)
		SeedNpmCache(cache, r, os.Getenv)
		for b.Loop() {
			if n := SeedNpmCache(cache, r, os.Getenv); n != 0 {
				b.Fatalf("seeded %d again", n)
			}
		}
	})
}
