// Package jobs keeps the commands that run in the background (a dev server, a watcher, a long build): each is a
// job with an id, its output kept as it comes (the last OutputCap bytes, with offsets that keep counting), and its
// result when it ends. A job runs through the same function as a command in the foreground (exec_shell's, with its
// sandbox and policy); this package only starts, follows and stops it.
//
// Guarantees: at most MaxRunning jobs run at once; a job's output never holds more than OutputCap bytes; Kill,
// CloseRoot and Close cancel a job's context and return only once its run function has returned (which, for a
// command, means its whole process group is gone); nothing starts after Close.
//
// Not guaranteed: a job outlives a crash of the process only as far as its run function lets it (commands run in
// a sandbox that dies with its parent).
package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/shell"
)

// Defaults.
const (
	DefaultMaxRunning = 8
	DefaultOutputCap  = 1 << 20 // per job
	// keepFinished is how many finished jobs are kept for their output, the oldest dropped first.
	keepFinished = 32
)

// ErrTooMany says MaxRunning jobs already run.
var ErrTooMany = errors.New("too many background jobs")

// ErrClosed says the manager was closed (the app is exiting).
var ErrClosed = errors.New("background jobs are closed")

// ErrNotFound says no job has the id (in this project).
var ErrNotFound = errors.New("no such job")

// Run is a job's work: it runs until it ends or ctx is cancelled, passing output to live as it comes.
// hint, when not empty, is what the job's reader should know about how it ended (the network being off).
type Run func(ctx context.Context, live func(stream string, chunk []byte)) (res shell.Result, hint string, err error)

// Manager holds the jobs of one session.
type Manager struct {
	MaxRunning int
	OutputCap  int
	// OnChange, when set, hears when a job starts or ends (the window refreshes its list).
	OnChange func(Info)
	// OnOutput, when set, hears that a listed job wrote output (root and job id), once per write: it must not
	// block, and coalescing is the listener's (the window reads the output from where it got to).
	OnOutput func(root, id string)

	mu     sync.Mutex
	jobs   []*Job
	seq    int
	closed bool
}

// Job is one background command.
type Job struct {
	m                 *Manager
	id, root, command string
	started           time.Time
	cancel            context.CancelFunc
	done              chan struct{}
	cap               int

	mu       sync.Mutex
	out      []byte // the kept tail of the output
	base     int64  // offset of out[0] in everything written
	changed  chan struct{}
	ended    time.Time
	result   shell.Result
	err      error
	killed   bool
	forward  func(stream string, chunk []byte)
	finished bool
	hint     string
	// visible jobs are listed; a command that may still end in the foreground is not, until Promote.
	visible bool
}

// Info describes a job.
type Info struct {
	ID        string `json:"id"`
	Root      string `json:"-"`
	Command   string `json:"command"`
	Running   bool   `json:"running"`
	StartedAt string `json:"started_at"`
	// ExitCode, when the job has ended: the program's, or 128+signal when it was stopped.
	ExitCode   *int  `json:"exit_code,omitempty"`
	Killed     bool  `json:"killed,omitempty"`
	DurationMS int64 `json:"duration_ms"`
	// Bytes is how much output the job has written, Kept how much of its end is still held.
	Bytes int64  `json:"bytes"`
	Error string `json:"error,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// Start runs run in the background as a job of the project at root; command is how it is shown. A job that is not
// visible is not listed until Promote: a command that may still end in the foreground. forward, when set, also gets
// the output until Detach (the call that started the job shows it while it waits).
func (m *Manager) Start(root, command string, run Run, visible bool, forward func(string, []byte)) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	max := m.MaxRunning
	if max <= 0 {
		max = DefaultMaxRunning
	}
	running := 0
	for _, j := range m.jobs {
		if !j.isFinished() {
			running++
		}
	}
	if running >= max {
		return nil, fmt.Errorf("%w: %d run already (the most at once); stop one with job_kill first", ErrTooMany, running)
	}
	cap := m.OutputCap
	if cap <= 0 {
		cap = DefaultOutputCap
	}
	m.seq++
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{
		m: m, visible: visible, id: "job-" + strconv.Itoa(m.seq), root: root, command: command, started: time.Now(), cancel: cancel,
		done: make(chan struct{}), cap: cap, changed: make(chan struct{}), forward: forward,
	}
	m.jobs = append(m.jobs, j)
	m.trim()
	go func() {
		res, hint, err := run(ctx, j.write)
		j.mu.Lock()
		j.result, j.hint, j.err, j.ended, j.finished = res, hint, err, time.Now(), true
		close(j.changed)
		j.changed = make(chan struct{})
		j.mu.Unlock()
		cancel()
		close(j.done)
		if m.OnChange != nil && j.isVisible() {
			m.OnChange(j.Info())
		}
	}()
	if m.OnChange != nil && visible {
		go m.OnChange(j.Info())
	}
	return j, nil
}

// trim drops the oldest finished jobs beyond keepFinished. m.mu is held.
func (m *Manager) trim() {
	finished := 0
	for _, j := range m.jobs {
		if j.isFinished() {
			finished++
		}
	}
	m.jobs = slices.DeleteFunc(m.jobs, func(j *Job) bool {
		if finished > keepFinished && j.isFinished() {
			finished--
			return true
		}
		return false
	})
}

// Get returns the job with id in the project at root.
func (m *Manager) Get(root, id string) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if j.id == id && j.root == root {
			return j, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
}

// List describes the jobs of the project at root, newest first.
func (m *Manager) List(root string) []Info {
	m.mu.Lock()
	jobs := slices.Clone(m.jobs)
	m.mu.Unlock()
	out := []Info{}
	for i := len(jobs) - 1; i >= 0; i-- {
		if jobs[i].root == root && jobs[i].isVisible() {
			out = append(out, jobs[i].Info())
		}
	}
	return out
}

// CloseRoot stops every job not of keep (the project that stays open; "" stops them all) and waits for them.
func (m *Manager) CloseRoot(keep string) {
	m.mu.Lock()
	var stop []*Job
	m.jobs = slices.DeleteFunc(m.jobs, func(j *Job) bool {
		if j.root != keep || keep == "" {
			stop = append(stop, j)
			return true
		}
		return false
	})
	m.mu.Unlock()
	for _, j := range stop {
		j.Kill()
	}
}

// Close stops every job, waits for them, and refuses new ones: the app or the server is exiting.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.CloseRoot("")
}

// Promote lists a job that started as a command in the foreground: it runs on in the background.
func (j *Job) Promote() {
	j.mu.Lock()
	j.visible = true
	j.mu.Unlock()
	if j.m.OnChange != nil {
		go j.m.OnChange(j.Info())
	}
}

// Forget drops a job that ended in the foreground: its output went to the caller that waited for it.
func (j *Job) Forget() {
	j.m.mu.Lock()
	j.m.jobs = slices.DeleteFunc(j.m.jobs, func(x *Job) bool { return x == j })
	j.m.mu.Unlock()
}

// Err is the error the job's run ended with (the program could not start), once it has ended.
func (j *Job) Err() error {
	<-j.done
	return j.err
}

func (j *Job) isVisible() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.visible
}

// ID is the job's id.
func (j *Job) ID() string { return j.id }

// Done is closed when the job has ended.
func (j *Job) Done() <-chan struct{} { return j.done }

// Result is the job's result once it has ended.
func (j *Job) Result() (shell.Result, error) {
	<-j.done
	return j.result, j.err
}

// Detach stops passing output to the caller that started the job.
func (j *Job) Detach() {
	j.mu.Lock()
	j.forward = nil
	j.mu.Unlock()
}

// Kill stops the job (its whole process group) and waits until it has ended. It reports whether the job was
// still running.
func (j *Job) Kill() bool {
	j.mu.Lock()
	running := !j.finished
	if running {
		j.killed = true
	}
	j.mu.Unlock()
	j.cancel()
	<-j.done
	return running
}

func (j *Job) isFinished() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.finished
}

func (j *Job) write(stream string, b []byte) {
	j.mu.Lock()
	j.out = append(j.out, b...)
	if over := len(j.out) - j.cap; over > 0 {
		j.out = append(j.out[:0:0], j.out[over:]...)
		j.base += int64(over)
	}
	close(j.changed)
	j.changed = make(chan struct{})
	fwd, visible := j.forward, j.visible
	j.mu.Unlock()
	if fwd != nil {
		fwd(stream, b)
	}
	if visible && j.m.OnOutput != nil {
		j.m.OnOutput(j.root, j.id)
	}
}

// Output is what a job wrote from an offset on.
type Output struct {
	Info
	Output string `json:"output"`
	// Next is the offset to pass as since to read on.
	Next int64 `json:"next"`
	// Dropped is how many bytes after since were no longer kept (only the last part of a long output is).
	Dropped int64 `json:"dropped,omitempty"`
}

// Read returns the output from offset since on, waiting up to wait for some when there is none yet and the job
// still runs (or until ctx ends).
func (j *Job) Read(ctx context.Context, since int64, wait time.Duration) Output {
	j.mu.Lock()
	end := j.base + int64(len(j.out))
	changed, finished := j.changed, j.finished
	j.mu.Unlock()
	if since >= end && !finished && wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	// The output and the state are read together: a job reported as ended has no output after Next.
	j.mu.Lock()
	defer j.mu.Unlock()
	o := Output{Info: j.infoLocked()}
	if since < 0 {
		since = 0
	}
	if since < j.base {
		o.Dropped = j.base - since
		since = j.base
	}
	end = j.base + int64(len(j.out))
	if since > end {
		since = end
	}
	o.Output = string(j.out[since-j.base:])
	o.Next = end
	return o
}

// Info describes the job now.
func (j *Job) Info() Info {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.infoLocked()
}

func (j *Job) infoLocked() Info {
	i := Info{
		ID: j.id, Root: j.root, Command: j.command, Running: !j.finished, StartedAt: j.started.UTC().Format(time.RFC3339),
		Bytes: j.base + int64(len(j.out)), Killed: j.killed,
	}
	if j.finished {
		code := j.result.ExitCode
		i.ExitCode = &code
		i.DurationMS = j.ended.Sub(j.started).Milliseconds()
		if j.err != nil {
			i.Error = j.err.Error()
		}
		i.Hint = j.hint
	} else {
		i.DurationMS = time.Since(j.started).Milliseconds()
	}
	return i
}
