//go:build unix

package search

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rooted-dev/rooted/backend/walk"
)

// BenchmarkLargeFile reads a 3 MiB source file (the size of the Go tree's largest, ssa/opGen.go) three ways and
// counts its lines: mapped (as searches once read files larger than the 128 KiB read buffer, and ripgrep does a
// single file); read into a buffer kept from earlier reads, as a search reads them now (the larger buffers' free
// list); and read into memory the process never touched, as a new process (the CLI) reads its first large files.
// The last reports ns/fault: what faulting in one fresh page costs on this machine, measured apart by touching
// the memory before reading into it.
func BenchmarkLargeFile(b *testing.B) {
	dir := b.TempDir()
	line := "\t{name: \"ADDQconst\", argLen: 1, reg: regInfo{inputs: []inputInfo{{0, 49135}}}},\n"
	content := strings.Repeat(line, (3<<20)/len(line))
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var big walk.Entry // the file as a walk yields it, its folder held open
	if err := walk.Walk(context.Background(), r, "", walk.Options{}, func(e walk.Entry) error {
		big = e.Keep()
		return fs.SkipAll
	}); err != nil || big.Dir == nil {
		b.Fatal("big.go not walked:", err)
	}
	defer big.Release()
	want := strings.Count(content, "\n")
	check := func(data []byte) {
		if n := bytes.Count(data, []byte{'\n'}); n != want {
			b.Fatalf("%d lines, want %d", n, want)
		}
	}
	b.Run("mapped", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			f, err := r.Open("big.go")
			if err != nil {
				b.Fatal(err)
			}
			data, err := unix.Mmap(int(f.Fd()), 0, len(content), unix.PROT_READ, unix.MAP_SHARED)
			if err != nil {
				b.Fatal(err)
			}
			check(data)
			unix.Munmap(data)
			f.Close()
		}
	})
	b.Run("read, reused buffer", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			f, err := big.Dir.Open(big.Name)
			if err != nil {
				b.Fatal(err)
			}
			data, release, err := readAllPooled(f)
			if err != nil {
				b.Fatal(err)
			}
			check(data)
			release()
			f.Close()
		}
	})
	b.Run("read, fresh memory", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		pages := (len(content) + 4095) / 4096
		var faulting time.Duration
		for b.Loop() {
			mem, err := unix.Mmap(-1, 0, pages*4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for i := 0; i < len(mem); i += 4096 {
				mem[i] = 0 // the first touch of each page: the fault a fresh read buffer takes
			}
			faulting += time.Since(start)
			f, err := r.Open("big.go")
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.ReadFull(f, mem[:len(content)])
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			check(mem[:n])
			unix.Munmap(mem)
		}
		b.ReportMetric(float64(faulting.Nanoseconds())/float64(b.N*pages), "ns/fault")
	})
}
