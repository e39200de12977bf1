package gitexec

import (
	"context"
	"testing"
)

// BenchmarkGit is what starting one git costs, hardened alone and inside the sandbox (two more process starts:
// the helper and its confining stage).
func BenchmarkGit(b *testing.B) {
	for _, sandboxed := range []bool{false, true} {
		name := "hardened"
		if sandboxed {
			name = "sandboxed"
		}
		b.Run(name, func(b *testing.B) {
			if sandboxed && !Sandboxed() {
				b.Skip("no OS sandbox here")
			}
			c := Cmd{Dir: b.TempDir(), ObjectsOnly: !sandboxed}
			for b.Loop() {
				if _, err := c.Run(context.Background(), nil, "version"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
