//go:build linux

package shell

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/sandbox"
)

// BenchmarkRunSandboxed is what the sandbox costs a command that does nothing (true): the helper, its
// namespaces or subreaper, Landlock, the seccomp filter and the capability drop, against the same program run
// without a sandbox.
func BenchmarkRunSandboxed(b *testing.B) {
	dir := b.TempDir()
	p := sandbox.Policy{Readable: cmdenv.Readable(dir, os.Getenv), Writable: []string{dir}}
	sandboxed := sandbox.Probe(p)
	subreaper := sandboxed
	subreaper.Processes = "subreaper"
	for _, c := range []struct {
		name string
		info sandbox.Info
	}{{"none", sandbox.Info{}}, {sandboxed.Processes, sandboxed}, {"subreaper", subreaper}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := Run(context.Background(), Spec{Argv: []string{"true"}, Dir: dir, Env: cmdenv.Env(os.Environ(), nil), Timeout: 20 * time.Second, Policy: p, Sandbox: c.info})
				if err != nil || res.ExitCode != 0 {
					b.Fatal(res, err)
				}
			}
		})
	}
}

// BenchmarkReadOnlyBinds is what binding the 12 protected paths read-only adds to a command in its PID namespace:
// each iteration runs true with and without the binds, one after the other, so that a shared machine's changing
// load weighs on both alike; it reports each one's time per command and their ratio.
func BenchmarkReadOnlyBinds(b *testing.B) {
	dir := b.TempDir()
	var protected []string
	for _, p := range []string{".git/hooks", ".git/info", ".git/modules/sub/hooks", ".git/modules/sub/info", ".husky", ".vscode", ".venv/bin", "node_modules"} {
		os.MkdirAll(filepath.Join(dir, p), 0o755)
		protected = append(protected, filepath.Join(dir, p))
	}
	for _, p := range []string{".git/config", ".git/modules/sub/config", ".envrc", "lefthook.yml"} {
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
		protected = append(protected, filepath.Join(dir, p))
	}
	p := sandbox.Policy{Readable: cmdenv.Readable(dir, os.Getenv), Writable: []string{dir}}
	ro := p
	ro.ReadOnly = protected
	// and the folders above them, pinned first (as package tools lists them)
	for _, d := range []string{".git", ".git/modules", ".git/modules/sub", ".venv"} {
		ro.Pinned = append(ro.Pinned, filepath.Join(dir, d))
	}
	info := sandbox.Probe(p)
	if info.Processes != "pid namespace" {
		b.Skip("no PID namespace here: nothing is bound")
	}
	var plain, bound time.Duration
	run := func(policy sandbox.Policy) time.Duration {
		start := time.Now()
		res, err := Run(context.Background(), Spec{Argv: []string{"true"}, Dir: dir, Env: cmdenv.Env(os.Environ(), nil), Timeout: 20 * time.Second, Policy: policy, Sandbox: info})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(res, err)
		}
		return time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 { // alternate which goes first
			plain += run(p)
			bound += run(ro)
		} else {
			bound += run(ro)
			plain += run(p)
		}
		n++
	}
	b.ReportMetric(float64(plain.Nanoseconds())/float64(n), "plain-ns/cmd")
	b.ReportMetric(float64(bound.Nanoseconds())/float64(n), "read-only-ns/cmd")
	b.ReportMetric(float64(bound)/float64(plain), "ratio")
}
