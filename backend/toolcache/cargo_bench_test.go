package toolcache

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCargoHome is what making a command's cargo home costs once its project's registry is set up (every
// command after the first): when the user's registry is as it was, and when the user's cargo has downloaded a
// crate since, so that the registry is walked and compared with the project's links. The user's registry here
// holds 300 crates (a .crate and an extracted folder each) and 3,000 sparse index entries.
func BenchmarkCargoHome(b *testing.B) {
	user := filepath.Join(b.TempDir(), "cargo")
	reg := "index.crates.io-1949cf8c6b5b557f"
	for i := range 3000 {
		p := filepath.Join(user, "registry", "index", reg, ".cache", fmt.Sprintf("%02d", i%100), fmt.Sprintf("%02d", i/100), fmt.Sprintf("crate%d", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("index entry"), 0o644)
	}
	for i := range 300 {
		os.MkdirAll(filepath.Join(user, "registry", "cache", reg), 0o755)
		os.WriteFile(filepath.Join(user, "registry", "cache", reg, fmt.Sprintf("crate%d-1.0.0.crate", i)), []byte("crate"), 0o644)
		os.MkdirAll(filepath.Join(user, "registry", "src", reg, fmt.Sprintf("crate%d-1.0.0", i), "src"), 0o755)
	}
	getenv := func(k string) string {
		if k == "CARGO_HOME" {
			return user
		}
		return ""
	}
	cache := b.TempDir()
	CargoHome(b.TempDir(), cache, getenv) // the first command sets the project's registry up
	run := func(b *testing.B, change func(i int)) {
		i := 0
		for b.Loop() {
			b.StopTimer()
			tmp, _ := os.MkdirTemp(b.TempDir(), "tmp")
			change(i)
			i++
			b.StartTimer()
			if env := CargoHome(tmp, cache, getenv); len(env) != 1 {
				b.Fatal(env)
			}
		}
	}
	b.Run("unchanged", func(b *testing.B) { run(b, func(int) {}) })
	b.Run("after-a-download", func(b *testing.B) { // the user's cargo downloaded a crate since: the index is walked
		run(b, func(i int) {
			os.WriteFile(filepath.Join(user, "registry", "cache", reg, fmt.Sprintf("new%d-1.0.0.crate", i)), []byte("crate"), 0o644)
		})
	})
}
