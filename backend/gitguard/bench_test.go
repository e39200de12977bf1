package gitguard

import (
	"os"
	"path/filepath"
	"testing"
)

// The guard reads every repository of the project before and after each command: the cost on this repository's
// own checkout (with the frontend's node_modules when installed), or the project named by ROOTED_BENCH_PROJECT,
// where nothing changed.
func BenchmarkGitGuard(b *testing.B) {
	abs, _ := filepath.Abs(filepath.Join("..", ".."))
	if p := os.Getenv("ROOTED_BENCH_PROJECT"); p != "" {
		abs = p
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	g := New() // as exec_shell holds one for all its commands
	for b.Loop() {
		st := g.Scan(root, abs)
		if said, _ := st.restore(root, abs); len(said) != 0 {
			b.Fatal("the guard changed something")
		}
	}
}
