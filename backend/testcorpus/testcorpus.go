// Package testcorpus names the tree Rooted's benchmarks read: the Go source tree of the go command on PATH, asked
// of `go env GOROOT` (the toolchain that runs the benchmark, not the root recorded at build time, which the
// binary may no longer sit beside). It is for benchmarks and bench tools only.
package testcorpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// GoSrc is $GOROOT/src of the go command on PATH, or "" when there is no go command.
func GoSrc() string {
	if r := goroot(); r != "" {
		return filepath.Join(r, "src")
	}
	return ""
}

// Search is the tree the search benchmarks read: $ROOTED_SEARCH_CORPUS when set (bench/search.sh sets it), else
// GoSrc.
func Search() string {
	if dir := os.Getenv("ROOTED_SEARCH_CORPUS"); dir != "" {
		return dir
	}
	return GoSrc()
}
