package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/rooted-dev/rooted/backend/gitguard"
)

// BenchmarkExecShellBuiltProject is one command end to end through exec_shell (ls src, no backup) in a project
// that has been built: a cargo target/ of 3,550 files (1,500 in deps, 30 of them test binaries; 2,000 in
// incremental; 50 build-script folders) and 20 Python packages, each with its __pycache__ of 10 files. It
// measures what the name rule costs per command where there is most for it to find: the output fingerprints
// taken on the guard's walks, and a read-only bind per __pycache__.
func BenchmarkExecShellBuiltProject(b *testing.B) {
	benchLs(b, builtProject(b))
}

// BenchmarkGuardWalkBuiltProject is the guard's walk alone, which finds the tool files, the dependency folders and
// the build outputs too, in the project of BenchmarkExecShellBuiltProject: taken twice per command.
func BenchmarkGuardWalkBuiltProject(b *testing.B) {
	root := builtProject(b)
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	empty, err := os.OpenRoot(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer empty.Close()
	guard := gitguard.New().WithToolNames(isToolName)
	none := guard.Scan(empty, empty.Name())
	for b.Loop() {
		// 81 runnable outputs: 30 named, the rest counted.
		if st := guard.Scan(r, root); len(st.Deps()) != 20 || !slices.Contains(none.OutputsChanged(st), "and 51 more") {
			b.Fatal(st.Deps(), none.OutputsChanged(st))
		}
	}
}

// builtProject makes the project of BenchmarkExecShellBuiltProject.
func builtProject(b *testing.B) string {
	root := b.TempDir()
	write := func(p string, mode os.FileMode) {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x\n"), mode)
	}
	for i := range 1500 {
		name := "target/debug/deps/crate" + strconv.Itoa(i) + "-0123456789abcdef"
		switch {
		case i < 30:
			write(name, 0o755)
		case i%2 == 0:
			write(name+".rlib", 0o644)
		default:
			write(name+".d", 0o644)
		}
	}
	for i := range 2000 {
		write("target/debug/incremental/crate"+strconv.Itoa(i/100)+"/s-"+strconv.Itoa(i)+".o", 0o644)
	}
	for i := range 50 {
		write("target/debug/build/crate"+strconv.Itoa(i)+"-0123/build-script-build", 0o755)
	}
	write("target/debug/app", 0o755)
	for i := range 20 {
		for j := range 10 {
			write("py/pkg"+strconv.Itoa(i)+"/__pycache__/m"+strconv.Itoa(j)+".cpython-311.pyc", 0o644)
		}
		write("py/pkg"+strconv.Itoa(i)+"/m.py", 0o644)
	}
	write("src/main.rs", 0o644)
	write(".gitignore", 0o644)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("target/\n__pycache__/\n"), 0o644)
	commitAll(b, root)
	return root
}
