package app

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Jobs serves each open project's background commands to its Run tab: their list, their output, and Stop.
type Jobs struct {
	set   *workspace.Set
	store *settings.Store // nil without a config directory
}

// BackgroundAfter is when a command still running moves to the background in project ws, in seconds: 0 the
// default (a minute), negative never.
func (j *Jobs) BackgroundAfter(ws string) (int, error) {
	w, err := open(j.set, ws)
	if err != nil {
		return 0, err
	}
	if j.store == nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	p, err := j.store.Project(w.Root())
	if err != nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return p.BackgroundAfterSec, nil
}

// SetBackgroundAfter sets when a command still running moves to the background (seconds; 0 the default,
// negative never).
func (j *Jobs) SetBackgroundAfter(ws string, sec int) (int, error) {
	w, err := open(j.set, ws)
	if err != nil {
		return 0, err
	}
	if j.store == nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	if sec < 0 {
		sec = -1
	}
	err = j.store.UpdateProject(w.Root(), func(p *settings.Project) error {
		p.BackgroundAfterSec = sec
		return nil
	})
	if err != nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return sec, nil
}

// Job is a background command as the Run tab shows it.
type Job struct {
	ID         string `json:"id"`
	Command    string `json:"command"`
	Running    bool   `json:"running"`
	StartedAt  string `json:"started_at"`
	ExitCode   int    `json:"exit_code"` // when not running
	Killed     bool   `json:"killed"`
	DurationMS int64  `json:"duration_ms"`
	Bytes      int64  `json:"bytes"`
	Error      string `json:"error"`
	Hint       string `json:"hint"`
}

// JobOutput is a job's output from an offset on.
type JobOutput struct {
	Job
	Output  string `json:"output"`
	Next    int64  `json:"next"`
	Dropped int64  `json:"dropped"`
}

// List lists project ws's jobs, newest first.
func (j *Jobs) List(ws string) []Job {
	w, err := j.set.Get(ws)
	if err != nil || w.Jobs() == nil {
		return []Job{}
	}
	list := w.Jobs().List(w.Root())
	out := make([]Job, len(list))
	for i, x := range list {
		out[i] = toJob(x)
	}
	return out
}

// Output returns what job id of project ws wrote from since on.
func (j *Jobs) Output(ws, id string, since int64) (JobOutput, error) {
	job, err := j.get(ws, id)
	if err != nil {
		return JobOutput{}, err
	}
	o := job.Read(context.Background(), since, 0)
	return JobOutput{Job: toJob(o.Info), Output: o.Output, Next: o.Next, Dropped: o.Dropped}, nil
}

// Kill stops job id of project ws and everything it started.
func (j *Jobs) Kill(ws, id string) (Job, error) {
	job, err := j.get(ws, id)
	if err != nil {
		return Job{}, err
	}
	job.Kill()
	return toJob(job.Info()), nil
}

func (j *Jobs) get(ws, id string) (*jobs.Job, error) {
	w, err := open(j.set, ws)
	if err != nil {
		return nil, err
	}
	if w.Jobs() == nil {
		return nil, reject(tool.Errorf(tool.CodeNotFound, "no job %s", id))
	}
	job, err := w.Jobs().Get(w.Root(), id)
	if err != nil {
		return nil, reject(tool.Errorf(tool.CodeNotFound, "no job %s in this project", id))
	}
	return job, nil
}

func toJob(i jobs.Info) Job {
	j := Job{ID: i.ID, Command: i.Command, Running: i.Running, StartedAt: i.StartedAt, Killed: i.Killed, DurationMS: i.DurationMS, Bytes: i.Bytes, Error: i.Error, Hint: i.Hint}
	if i.ExitCode != nil {
		j.ExitCode = *i.ExitCode
	}
	return j
}

// JobsChanged says which jobs of project Workspace (at Root) started, ended or wrote output since the last report.
type JobsChanged struct {
	Workspace string   `json:"workspace"`
	Root      string   `json:"root"`
	IDs       []string `json:"ids"`
}

// jobsEventEvery is how often at most the window hears of jobs: a build printing thousands of lines a second is
// one report per interval, and the window reads what is new from where it got to.
const jobsEventEvery = 100 * time.Millisecond

// jobNotifier gathers the jobs' reports and sends them to the window as EventJobs, at most every jobsEventEvery.
type jobNotifier struct {
	emit    func(name string, data any)
	every   time.Duration // jobsEventEvery when zero
	mu      sync.Mutex
	pending map[jobsOf]map[string]bool // project -> job ids
	timer   *time.Timer
}

// jobsOf is a project whose jobs changed: its workspace and root.
type jobsOf struct{ ws, root string }

// note records that job id of project ws (at root) changed; it never blocks on the window.
func (n *jobNotifier) note(ws, root, id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pending == nil {
		n.pending = map[jobsOf]map[string]bool{}
	}
	k := jobsOf{ws, root}
	if n.pending[k] == nil {
		n.pending[k] = map[string]bool{}
	}
	n.pending[k][id] = true
	if n.timer == nil {
		every := n.every
		if every == 0 {
			every = jobsEventEvery
		}
		n.timer = time.AfterFunc(every, n.send)
	}
}

func (n *jobNotifier) send() {
	n.mu.Lock()
	pending := n.pending
	n.pending, n.timer = nil, nil
	n.mu.Unlock()
	keys := slices.SortedFunc(maps.Keys(pending), func(a, b jobsOf) int { return cmp.Or(cmp.Compare(a.ws, b.ws), cmp.Compare(a.root, b.root)) })
	for _, k := range keys {
		n.emit(EventJobs, JobsChanged{Workspace: k.ws, Root: k.root, IDs: slices.Sorted(maps.Keys(pending[k]))})
	}
}
