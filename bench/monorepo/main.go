// Command monorepo measures Rooted on a large project the way an agent lives through it: it builds a corpus of
// copies of the Go source tree (each file made unique, committed to a fresh git repository), starts `rooted mcp`
// on it (the window's wiring: watcher, index, snapshots), and from the moment the project opens searches every few
// seconds for the first two minutes (distinct rare literals, and a common one), each search beside `rg` and a
// fresh `rooted call search_files` process in the same run; then the steady state once the trigram index is in,
// an edit's cost, and the server's resident memory while it indexes and after.
//
// Last, it closes the project and opens it again: the trigram index is kept between openings, so the second
// opening's searches are narrowed from the first (checked against the tree first: a stat a file). Before each
// opening, seven more are made and closed once connected, and initialize is read against their median.
//
// Usage: go run ./bench/monorepo -rooted build/bin/rooted [-copies 8] [-dir /tmp/rooted-monorepo] [-window 2m]
// (-copies 40: 459k files, 6.2 GB, the bars of a project that size)
package main

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rooted-dev/rooted/backend/testcorpus"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/watch"
)

// rare are literals that a few files hold, one per search so no search repeats another's work; common is in
// nearly every Go file.
var (
	rare   = []string{"ErrShortWrite", "ErrShortBuffer", "ErrNoProgress", "ErrClosedPipe", "SectionReader", "NopCloser", "LimitedReader", "MultiWriter", "TeeReader", "ReadAtLeast", "WriteString(w", "ErrUnexpectedEOF", "OffsetWriter", "ReaderFrom", "StringWriter", "RuneScanner", "ByteScanner", "CopyBuffer", "CopyN(", "ReadSeekCloser"}
	common = "func "
	absent = "zqxNotInAnyFileJv"
)

// bars are what each measure should meet: those of a 92k-file project (8 copies) and of a 460k-file one (40).
type bars struct {
	steadyRare, steadyAbsent, memory, usable, mean string
}

func barsFor(copies int) bars {
	if copies >= 40 {
		return bars{steadyRare: "< 30 ms", steadyAbsent: "< 10 ms", memory: "< 300 MiB", usable: "< 90 s", mean: "<= 0.5x"}
	}
	return bars{steadyRare: "< 20 ms", steadyAbsent: "< 10 ms", memory: "< 250 MiB", usable: "—", mean: "0.25x goal"}
}

func main() {
	rooted := flag.String("rooted", "build/bin/rooted", "the rooted CLI binary")
	copies := flag.Int("copies", 8, "copies of the Go source tree")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "rooted-monorepo"), "where the corpus is built (kept for the next run)")
	window := flag.Duration("window", 2*time.Minute, "how long after opening to search every few seconds")
	gap := flag.Duration("gap", 2*time.Second, "pause between one search round and the next")
	edits := flag.Int("edits", 30, "edits timed in the steady state")
	settle := flag.Duration("settle", 10*time.Minute, "how long to wait for the trigram index after the first minutes")
	prepare := flag.Bool("prepare", false, "build the corpus, print its path and stop (for the in-process benchmarks: ROOTED_SEARCH_CORPUS)")
	flag.Parse()
	if _, err := exec.LookPath("rg"); err != nil && !*prepare {
		fail(fmt.Errorf("ripgrep (rg) is required, to compare with: %v", err))
	}
	corpus := filepath.Join(*dir, fmt.Sprintf("corpus-%d", *copies))
	if err := build(corpus, *copies); err != nil {
		fail(err)
	}
	if *prepare {
		fmt.Println(corpus)
		return
	}
	bar := barsFor(*copies)
	files, size := countFiles(corpus)
	fmt.Printf("corpus: %d files, %.0f MiB, %d copies of %s, one git commit\n", files, float64(size)/(1<<20), *copies, testcorpus.GoSrc())

	ctx := context.Background()
	// Page cache warm for all, as for the second run of anything.
	timeCmd("rg", "-c", "-F", "ErrShortWrite", corpus)
	watchSetup, watched := watchTree(corpus)
	// Closing that watcher leaves the kernel freeing its 10k watches in the background for a moment: the first
	// search measured below shared the machine with it (0.98 s, against 0.83 s started two seconds later), and so
	// did the first of the initialize samples once (60-64 ms, against a median of 47 ms).
	time.Sleep(3 * time.Second)
	// initialize again on openings of their own, each with a fresh home, as the first opening below has: one
	// sample is at the mercy of the moment it is taken.
	firstInits := initializeSamples(ctx, *rooted, corpus, "")

	cache, _ := os.MkdirTemp("", "rooted-monorepo-cache-")
	defer os.RemoveAll(cache)
	srv := startServer(ctx, *rooted, corpus, cache)
	cmd, session, opened, initialize := srv.cmd, srv.session, srv.opened, srv.initialize
	defer session.Close()
	rss := newSampler(cmd.Process.Pid)
	built := watchBuilt(cache, opened)
	call := func(name string, args map[string]any) (time.Duration, string) {
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		took := time.Since(start)
		if err != nil {
			fail(fmt.Errorf("%s: %v", name, err))
		}
		var text strings.Builder
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text.WriteString(t.Text)
			}
		}
		if res.IsError {
			fail(fmt.Errorf("%s: %s", name, text.String()))
		}
		return took, text.String()
	}
	count := func(q string) map[string]any { return map[string]any{"query": q, "output": "count", "limit": 1} }
	cli := func(q string) time.Duration {
		in := fmt.Sprintf(`{"query":%q,"output":"count","limit":1}`, q)
		c := exec.Command(*rooted, "call", "search_files", "--root", corpus, in)
		c.Env = cmd.Env
		start := time.Now()
		if out, err := c.CombinedOutput(); err != nil {
			fail(fmt.Errorf("rooted call search_files: %v %s", err, out))
		}
		return time.Since(start)
	}

	// The first minutes: a search every few seconds, each beside rg and a fresh CLI process, one after another so
	// they do not share the machine.
	fmt.Printf("\nsearches from the moment the project opens (full counts; rooted over MCP, a fresh `rooted call search_files`, `rg -c -F`):\n")
	fmt.Printf("%7s  %-18s %10s %10s %10s %9s %9s\n", "at", "query", "rooted", "CLI", "rg", "rooted/rg", "rooted/CLI")
	var worstRg, worstCLI float64
	var sumRg float64
	rounds := 0
	var fastestCLI time.Duration // a scan of the tree: a narrowed search is many times faster
	var narrowedAt, mergedAt time.Duration
	for i := 0; time.Since(opened) < *window; i++ {
		q := rare[i%len(rare)]
		if i%4 == 3 {
			q = common
		}
		at := time.Since(opened)
		took, _ := call("search_files", count(q))
		fresh := cli(q)
		rg := timeCmd("rg", "-c", "-F", q, corpus)
		r1, r2 := took.Seconds()/rg.Seconds(), took.Seconds()/fresh.Seconds()
		if fastestCLI == 0 || fresh < fastestCLI {
			fastestCLI = fresh
		}
		if q != common && narrowedAt == 0 && took < max(60*time.Millisecond, fastestCLI/8) {
			narrowedAt = at // the first search the trigram index answered
		}
		if mergedAt == 0 && isMerged(cache) {
			mergedAt = time.Since(opened)
		}
		worstRg, worstCLI, sumRg, rounds = max(worstRg, r1), max(worstCLI, r2), sumRg+r1, rounds+1
		fmt.Printf("%6.1fs  %-18s %10s %10s %10s %9.2f %9.2f\n", at.Seconds(), q, ms(took), ms(fresh), ms(rg), r1, r2)
		time.Sleep(*gap)
	}
	duringRSS := rss.peak()
	fmt.Printf("\n%-60s %14s %10s\n", "measure", "rooted", "bar")
	fmt.Printf("%-60s %14s %10s\n", fmt.Sprintf("slowest search in the first %s, against rg (%d searches)", *window, rounds), fmt.Sprintf("%.2fx", worstRg), "<= 1x")
	fmt.Printf("%-60s %14s %10s\n", "  mean of rooted/rg over those searches", fmt.Sprintf("%.2fx", sumRg/float64(max(rounds, 1))), bar.mean)
	fmt.Printf("%-60s %14s %10s\n", "  slowest against a fresh CLI process", fmt.Sprintf("%.2fx", worstCLI), "<= 1x")
	fmt.Printf("%-60s %13.0fM %10s\n", "resident memory, peak while indexing (first "+window.String()+")", duringRSS, bar.memory)
	printInitialize(initialize, firstInits)
	fmt.Printf("%-60s %14s %10s\n", fmt.Sprintf("watcher setup (%d inotify watches, one per folder)", watched), ms(watchSetup), "—")

	// The steady state: once the trigram index is in (built in the background), a rare literal's full count.
	probe := count("ErrShortWrite")
	var repeated time.Duration
	ready := time.Duration(0)
	for deadline := time.Now().Add(*settle); time.Now().Before(deadline); time.Sleep(time.Second) {
		var ts []time.Duration
		for range 5 {
			t, _ := call("search_files", probe)
			ts = append(ts, t)
		}
		// In once a search takes under 60 ms, or an eighth of the fastest scan by a fresh CLI process in the same
		// run (on a busy machine a narrowed search can take longer than 60 ms, and the wait would measure that).
		if repeated = median(ts); repeated < max(60*time.Millisecond, fastestCLI/8) {
			ready = cmp.Or(narrowedAt, time.Since(opened))
			break
		}
	}
	// The steady state is once the build's segments are merged into one (the server does it in the background
	// after the index is in): the index's folder under the cache holds the merged segment only.
	merged := mergedAt
	for deadline := time.Now().Add(*settle); merged == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if isMerged(cache) {
			merged = time.Since(opened)
		}
	}
	// Beside each steady search's wall time, the CPU the server spent on it (all its threads): a machine shared
	// with other work stretches the wall time by the share of the cores the server is given, the CPU much less.
	var steady, steadyCommon, steadyAbsent, steadyCPU, absentCPU []time.Duration
	for i := range 10 {
		c0 := threadsCPU(cmd.Process.Pid)
		t, _ := call("search_files", count(rare[i%len(rare)]))
		c1 := threadsCPU(cmd.Process.Pid)
		steady, steadyCPU = append(steady, t), append(steadyCPU, c1-c0)
		t, _ = call("search_files", count(absent))
		steadyAbsent, absentCPU = append(steadyAbsent, t), append(absentCPU, threadsCPU(cmd.Process.Pid)-c1)
	}
	// The same ten again, as an agent searches again for what it looked up before: the files searches keep
	// reading are in memory by now (the text of those that match, a filter of large ones that do not).
	var again, againCPU []time.Duration
	for i := range 10 {
		c0 := threadsCPU(cmd.Process.Pid)
		t, _ := call("search_files", count(rare[i%len(rare)]))
		again, againCPU = append(again, t), append(againCPU, threadsCPU(cmd.Process.Pid)-c0)
	}
	for range 3 {
		t, _ := call("search_files", map[string]any{"query": common})
		steadyCommon = append(steadyCommon, t)
	}
	// The searches above come some 20 s apart, so the first narrowed one is late by up to that: the build's
	// manifest, written as the build lands (saved for the next opening), says when the index was whole.
	fmt.Printf("%-60s %14s %10s\n", "trigram index whole (the build's manifest written), after opening", ms(built()), bar.usable)
	fmt.Printf("%-60s %14s %10s\n", "  the first search it narrowed, after opening", ms(ready), "")
	fmt.Printf("%-60s %14s %10s\n", "trigram segments merged into one, after opening", ms(merged), "—")
	fmt.Printf("%-60s %14s %10s\n", "steady state: rare literal, full count (median of 10)", ms(median(steady)), bar.steadyRare)
	fmt.Printf("%-60s %14s %10s\n", "  slowest of those", ms(slices.Max(steady)), "")
	fmt.Printf("%-60s %14s %10s\n", "  the server's CPU for one (median of 10)", ms(median(steadyCPU)), "")
	fmt.Printf("%-60s %14s %10s\n", "  the same ten searched again (median; slowest)", ms(median(again))+"; "+ms(slices.Max(again)), bar.steadyRare)
	fmt.Printf("%-60s %14s %10s\n", "  the server's CPU for one of those (median)", ms(median(againCPU)), "")
	fmt.Printf("%-60s %14s %10s\n", "steady state: a literal in no file, full count (median of 10)", ms(median(steadyAbsent)), bar.steadyAbsent)
	fmt.Printf("%-60s %14s %10s\n", "  the server's CPU for one (median of 10)", ms(median(absentCPU)), "")
	fmt.Printf("%-60s %14s %10s\n", "steady state: common literal, first 100 (median of 3)", ms(median(steadyCommon)), "—")
	fmt.Printf("%-60s %13.0fM %10s\n", "peak resident memory so far", rss.peak(), bar.memory)
	target := "copy0/strings/strings.go"
	call("read_file", map[string]any{"path": target}) // an edit replaces what the session has read
	content, err := os.ReadFile(filepath.Join(corpus, filepath.FromSlash(target)))
	if err != nil {
		fail(err)
	}
	var editTimes []time.Duration
	for i := range *edits {
		took, _ := call("write_file", map[string]any{"path": target, "content": string(content) + fmt.Sprintf("\n// edit %d\n", i)})
		editTimes = append(editTimes, took)
	}
	afterRSS, anon, mapped := rssMiB(cmd.Process.Pid)
	rss.stop()
	slices.Sort(editTimes)
	fmt.Printf("%-60s %14s %10s\n", fmt.Sprintf("edit, write + snapshot (median of %d; p95)", len(editTimes)), ms(median(editTimes))+"; "+ms(editTimes[len(editTimes)*95/100]), "< 100 ms")
	fmt.Printf("%-60s %13.0fM %10s\n", "resident memory after (steady state)", afterRSS, bar.memory)
	fmt.Printf("%-60s %13.0fM %10s\n", "  of which heap and stacks (anonymous)", anon, "")
	fmt.Printf("%-60s %13.0fM %10s\n", "  of which mapped files (trigram index, binary)", mapped, "")

	// The second opening: the server ends (keeping its trigram index), and a new one opens the same project.
	session.Close()
	cmd.Wait()
	reopen(ctx, *rooted, corpus, cache, bar)
}

// server is rooted mcp serving the corpus, with cache as its cache and configuration home, and a client connected.
type server struct {
	cmd        *exec.Cmd
	session    *mcp.ClientSession
	opened     time.Time     // when the client began to connect
	initialize time.Duration // how long the connection (MCP initialize) took
}

func startServer(ctx context.Context, rooted, corpus, cache string) server {
	cmd := exec.Command(rooted, "mcp", "--root", corpus)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "XDG_CONFIG_HOME="+cache)
	client := mcp.NewClient(&mcp.Implementation{Name: "monorepo-bench", Version: "1"}, nil)
	opened := time.Now()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail(err)
	}
	return server{cmd: cmd, session: session, opened: opened, initialize: time.Since(opened)}
}

// reopen opens the project again with the cache of the first opening and times its first searches, each beside
// rg: the index kept is checked against the tree (a stat a file) and narrows from the first search.
func reopen(ctx context.Context, rooted, corpus, cache string, bar bars) {
	inits := initializeSamples(ctx, rooted, corpus, cache)
	srv := startServer(ctx, rooted, corpus, cache)
	session, opened, initialize := srv.session, srv.opened, srv.initialize
	defer session.Close()
	rss := newSampler(srv.cmd.Process.Pid)
	defer rss.stop()
	fmt.Printf("\nthe second opening of the project (its trigram index kept from the first):\n")
	printInitialize(initialize, inits)
	fmt.Printf("%7s  %-18s %10s %10s %9s\n", "at", "query", "rooted", "rg", "rooted/rg")
	for i, q := range []string{"CopyBuffer", "RuneScanner", absent, common, "ReaderFrom"} {
		at := time.Since(opened)
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"query": q, "output": "count", "limit": 1}})
		took := time.Since(start)
		if err != nil || res.IsError {
			fail(fmt.Errorf("search_files after reopening: %v", err))
		}
		rg := timeCmd("rg", "-c", "-F", q, corpus)
		fmt.Printf("%6.1fs  %-18s %10s %10s %9.2f\n", at.Seconds(), q, ms(took), ms(rg), took.Seconds()/rg.Seconds())
		if i == 0 {
			time.Sleep(time.Second)
		}
	}
	fmt.Printf("%-60s %13.0fM %10s\n", "resident memory, peak after reopening", rss.peak(), bar.memory)
}

// initializeSamples starts the server on the project a few times, each connected and closed at once, and returns how
// long each connection took, sorted: with cache "", each has a fresh home of its own (a first opening); else each
// has cache (the trigram index kept). It waits after the last for the machine to settle.
func initializeSamples(ctx context.Context, rooted, corpus, cache string) []time.Duration {
	var took []time.Duration
	for range 7 {
		home := cache
		if cache == "" {
			home, _ = os.MkdirTemp("", "rooted-monorepo-cache-")
		}
		srv := startServer(ctx, rooted, corpus, home)
		took = append(took, srv.initialize)
		srv.session.Close() // which waits for the process to end
		if cache == "" {
			os.RemoveAll(home)
		}
		time.Sleep(500 * time.Millisecond)
	}
	slices.Sort(took)
	time.Sleep(2 * time.Second)
	return took
}

// printInitialize prints the opening's initialize and the median of the samples beside it, which the bar is read
// against.
func printInitialize(this time.Duration, samples []time.Duration) {
	fmt.Printf("%-60s %14s %10s\n", fmt.Sprintf("initialize (MCP connect; median of %d openings)", len(samples)), ms(median(samples)), "< 50 ms")
	fmt.Printf("%-60s %14s %10s\n", "  fastest; slowest of those", ms(samples[0])+"; "+ms(samples[len(samples)-1]), "")
	fmt.Printf("%-60s %14s %10s\n", "  this opening's", ms(this), "")
}

// indexFiles lists the files under cache's trigram index folders that match pattern (manifest, *.tri).
func indexFiles(cache, pattern string) []string {
	m, _ := filepath.Glob(filepath.Join(cache, "rooted", "search", "*", pattern))
	return m
}

// watchBuilt watches for the first manifest in the index's folder under cache, every 100 ms; the time it returns
// is when that appeared, after opened (0: not yet).
func watchBuilt(cache string, opened time.Time) func() time.Duration {
	var at atomic.Int64
	go func() {
		for at.Load() == 0 {
			if len(indexFiles(cache, "manifest")) > 0 {
				at.Store(int64(time.Since(opened)))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return func() time.Duration { return time.Duration(at.Load()) }
}

// isMerged reports whether the trigram index under cache is one merged segment (the steady state).
func isMerged(cache string) bool {
	all := indexFiles(cache, "*.tri")
	return len(all) == 1 && strings.HasSuffix(all[0], "-merged.tri")
}

// sampler reads a process's resident memory every 200 ms and keeps the peak.
type sampler struct {
	mu   sync.Mutex
	max  float64
	done chan struct{}
}

func newSampler(pid int) *sampler {
	s := &sampler{done: make(chan struct{})}
	go func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				r, _, _ := rssMiB(pid)
				s.mu.Lock()
				s.max = max(s.max, r)
				s.mu.Unlock()
			}
		}
	}()
	return s
}

func (s *sampler) peak() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.max
}

func (s *sampler) stop() { close(s.done) }

// watchTree times setting up the watcher the window and `rooted mcp` use, on its own, and counts its watches.
func watchTree(dir string) (time.Duration, int) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		fail(err)
	}
	defer root.Close()
	start := time.Now()
	w, err := watch.New(root, dir, watch.Options{})
	if err != nil {
		fail(err)
	}
	took := time.Since(start)
	st := w.Status()
	w.Close()
	return took, st.Watched
}

// build makes the corpus unless it is there: copies of GOROOT/src, a unique last line per file, one commit.
func build(corpus string, copies int) error {
	if _, err := os.Stat(filepath.Join(corpus, ".git", "HEAD")); err == nil {
		return nil
	}
	os.RemoveAll(corpus)
	src := testcorpus.GoSrc()
	n := 0
	for c := range copies {
		dst := filepath.Join(corpus, fmt.Sprintf("copy%d", c))
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			out := filepath.Join(dst, rel)
			if d.IsDir() {
				return os.MkdirAll(out, 0o755)
			}
			if !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n++
			if !bytes.Contains(b[:min(len(b), 8000)], []byte{0}) {
				b = append(b, fmt.Sprintf("\n// unique %d\n", n)...)
			}
			return os.WriteFile(out, b, 0o644)
		})
		if err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus"}} {
		c := exec.Command("git", args...)
		c.Dir = corpus
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v %s", args, err, out)
		}
	}
	return nil
}

func countFiles(dir string) (n int, size int64) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == ".git" && d.IsDir() {
			return filepath.SkipDir
		}
		if err == nil && d.Type().IsRegular() {
			n++
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	return n, size
}

func timeCmd(name string, args ...string) time.Duration {
	start := time.Now()
	exec.Command(name, args...).Run()
	return time.Since(start)
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

// rssMiB reads a process's resident set from /proc: all of it, the anonymous part (heap, stacks) and the part
// that is mapped files (page cache the kernel can drop).
func rssMiB(pid int) (rss, anon, file float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			rss = float64(kb) / 1024
		case "RssAnon:":
			anon = float64(kb) / 1024
		case "RssFile:":
			file = float64(kb) / 1024
		}
	}
	return rss, anon, file
}

// threadsCPU is the time a process's threads have run on a CPU, from the scheduler's own count in nanoseconds
// (/proc/PID/task/TID/schedstat), finer than the 10 ms ticks of /proc/PID/stat. A thread that ended is not
// counted; the Go runtime keeps its threads.
func threadsCPU(pid int) time.Duration {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			sum += time.Duration(ns)
		}
	}
	return sum
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "monorepo:", err)
	os.Exit(1)
}
