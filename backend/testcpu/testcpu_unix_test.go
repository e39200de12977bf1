//go:build unix

package testcpu_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/testcpu"
)

// A benchmark whose every operation keeps one thread busy for a millisecond reports the CPU time it took per
// operation in milliseconds: more than none, and no more than its threads could have used in the wall time it took.
func TestReportsTheLoopsCPUTimePerOperation(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) {
		m := testcpu.Start()
		for b.Loop() {
			for end := time.Now().Add(time.Millisecond); time.Now().Before(end); {
			}
		}
		m.Report(b)
	})
	cpu, ok := r.Extra["cpu-ms/op"]
	if !ok || r.N == 0 {
		t.Fatalf("no cpu-ms/op reported: %+v", r)
	}
	wall := float64(r.NsPerOp()) / float64(time.Millisecond)
	if most := wall * float64(runtime.GOMAXPROCS(0)); cpu <= 0 || cpu > most {
		t.Errorf("cpu-ms/op = %.3f for %d operations of %.3f ms each (at most %.3f on %d threads)", cpu, r.N, wall, most, runtime.GOMAXPROCS(0))
	}
}
