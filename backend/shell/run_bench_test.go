//go:build linux

package shell

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkRunSandboxed is what the sandbox costs a command that does nothing (true): the helper, its
// namespaces or subreaper, Landlock, the seccomp filter and the capability drop, against the same program run
// without a sandbox.
func BenchmarkRunSandboxed(b *testing.B) {
	dir := b.TempDir()
	p := Policy{Readable: Readable(dir, os.Getenv), Writable: []string{dir}}
	sandboxed := Probe(p)
	subreaper := sandboxed
	subreaper.Processes = "subreaper"
	for _, c := range []struct {
		name string
		info SandboxInfo
	}{{"none", SandboxInfo{}}, {sandboxed.Processes, sandboxed}, {"subreaper", subreaper}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := Run(context.Background(), Spec{Argv: []string{"true"}, Dir: dir, Env: Env(os.Environ(), nil), Timeout: 20 * time.Second, Policy: p, Sandbox: c.info})
				if err != nil || res.ExitCode != 0 {
					b.Fatal(res, err)
				}
			}
		})
	}
}
