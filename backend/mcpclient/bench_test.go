package mcpclient

import (
	"context"
	"testing"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

var probes = []struct {
	name  string
	probe func(sandbox.Policy) sandbox.Info
}{
	{"sandboxed", nil},
	{"plain", func(sandbox.Policy) sandbox.Info { return sandbox.Info{} }},
}

// BenchmarkOpenToToolsListed is the time from a project's open to its server's tools listed: the process started
// (through the sandbox helper, or plainly), the handshake of its era, and tools/list.
func BenchmarkOpenToToolsListed(b *testing.B) {
	for _, era := range eras {
		for _, p := range probes {
			b.Run(era+"/"+p.name, func(b *testing.B) {
				f := newFixture(b, era, nil, p.probe)
				b.ResetTimer()
				for b.Loop() {
					m := New(f.m.opts)
					m.Start()
					m.Wait(context.Background())
					if n := len(m.DynamicTools()); n != 5 {
						b.Fatalf("%d tools: %+v", n, m.Status())
					}
					b.StopTimer()
					_ = m.Close()
					b.StartTimer()
				}
			})
		}
	}
}

// BenchmarkCall is one call of add on a running server, through the registry as every face makes it: the
// per-call overhead of the sandbox is the difference between the two.
func BenchmarkCall(b *testing.B) {
	for _, era := range eras {
		for _, p := range probes {
			b.Run(era+"/"+p.name, func(b *testing.B) {
				f := newFixture(b, era, nil, p.probe)
				args := []byte(`{"a": 1, "b": 2}`)
				if _, e := f.reg.Call(context.Background(), "mcp__fx__add", args); e != nil {
					b.Fatal(e)
				}
				b.ResetTimer()
				for b.Loop() {
					if _, e := f.reg.Call(context.Background(), "mcp__fx__add", args); e != nil {
						b.Fatal(e)
					}
				}
			})
		}
	}
}
