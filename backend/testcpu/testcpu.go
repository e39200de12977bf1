// Package testcpu measures the CPU time a benchmark's loop takes, all threads, and reports it per operation as
// cpu-ms/op: on a machine shared with other work the wall time of an operation follows the share of the cores it
// was given, its CPU time much less. It is for benchmarks only: no other code imports it (testtree's
// TestOnlyTestsImportIt checks).
package testcpu

import (
	"testing"
	"time"
)

// Meter is the process's CPU time at the start of a measurement.
type Meter struct{ start time.Duration }

// Start starts a measurement: the CPU time from now on.
func Start() Meter { return Meter{start: Used()} }

// Report reports the CPU time since Start over b.N as the metric cpu-ms/op. Where the process's CPU time is not
// read (Used returns 0) it reads 0.
func (m Meter) Report(b *testing.B) {
	b.ReportMetric(float64(Used()-m.start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
