package app

import (
	"sync"

	"github.com/rooted-dev/rooted/backend/watch"
)

// Event names shared with the frontend (frontend/src/bridge/events.ts); TestEventNamesMatchFrontend keeps the two
// lists equal.
const (
	// EventToolOutput carries a running tool's output: ToolOutput.
	EventToolOutput = "tool:output"
	// EventSnapshot reports the first snapshot of an opened project, which can take a while: SnapshotProgress.
	EventSnapshot = "snapshot:progress"
	// EventFsChanges carries what changed on disk in the open project, debounced and batched: FsChanges.
	EventFsChanges = "fs:changes"
	// EventLLM carries a relayed LLM response, piece by piece: LLMStream.
	EventLLM = "llm:stream"
	// EventJobs says background jobs started, ended or wrote output, at most every jobsEventEvery: JobsChanged.
	EventJobs = "jobs:changed"
)

// LLMStream is one piece of a relayed response for the request ID: its Head, a piece of body (Data, base64,
// numbered by Seq from 0), or the End (Seq is then the number of pieces sent; Error says why it ended early).
type LLMStream struct {
	ID    string   `json:"id"`
	Seq   int      `json:"seq"`
	Head  *LLMHead `json:"head,omitempty"`
	Data  string   `json:"data,omitempty"`
	End   bool     `json:"end,omitempty"`
	Error string   `json:"error,omitempty"`
}

// LLMHead is the status and headers of a relayed response.
type LLMHead struct {
	Status     int               `json:"status"`
	StatusText string            `json:"status_text"`
	Headers    map[string]string `json:"headers"`
}

// FsChanges is one batch of changes in project Workspace, at Root. Each change's op is one or more of create, write,
// remove, rename, chmod and rescan joined by "|"; rescan means "re-read this path and everything below it".
type FsChanges struct {
	Workspace string        `json:"workspace"`
	Root      string        `json:"root"`
	Changes   []watch.Event `json:"changes"`
	Watch     WatchStatus   `json:"watch"`
}

// WatchStatus says whether the open project is watched live. When Degraded, some folders are not watched (the
// system's watch limit) and the UI re-scans what it shows instead.
type WatchStatus struct {
	Active   bool   `json:"active"`
	Watched  int    `json:"watched"`
	Degraded bool   `json:"degraded"`
	Reason   string `json:"reason,omitempty"`
}

func toWatchStatus(st watch.Status, active bool) WatchStatus {
	return WatchStatus{Active: active, Watched: st.Watched, Degraded: st.Degraded, Reason: st.Reason}
}

// SnapshotProgress says where the first snapshot of project Workspace (at Root) is.
type SnapshotProgress struct {
	Workspace string `json:"workspace"`
	Root      string `json:"root"`
	State     string `json:"state"` // "running", "done" or "failed"
	Files     int    `json:"files,omitempty"`
	Elapsed   int64  `json:"elapsed_ms"`
	Error     string `json:"error,omitempty"`
}

// ToolOutput is a piece of a running tool's output, for the call with ID.
type ToolOutput struct {
	ID     string `json:"id"`
	Stream string `json:"stream"` // "stdout" or "stderr"; "status" for the step a call is at (Worktrees.Start); "host" asks, "host_ended" (streamHost)
	Data   string `json:"data"`
	// A question about a host (streamHost, streamHostEnded): the port asked for, which an answer covers alone;
	// its token, for AnswerHost; how long the command waits for the answer; why it ended unanswered.
	Port   int    `json:"port,omitempty"`
	Ask    string `json:"ask,omitempty"`
	WaitMS int64  `json:"wait_ms,omitempty"`
	Ended  string `json:"ended,omitempty"`
}

// maxQueued bounds the events kept for a window that has not started: a project busy on disk must not grow memory
// without bound before the window is up. The first snapshot's reports come first and are kept.
const maxQueued = 4096

// emitter sends events to the window. A project given on the command line is opened before Wails calls startup,
// and its first snapshot and watcher report from then on: until the window is up their events are queued, then
// sent in order, so none is lost and none races with startup.
type emitter struct {
	mu     sync.Mutex
	send   func(name string, data any) // nil until the window is up
	queued []queuedEvent
}

type queuedEvent struct {
	name string
	data any
}

// Emit sends an event to the window, or queues it until the window is up.
func (e *emitter) Emit(name string, data any) {
	e.mu.Lock()
	send := e.send
	if send == nil {
		if len(e.queued) < maxQueued {
			e.queued = append(e.queued, queuedEvent{name, data})
		}
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	send(name, data)
}

// start sends the queued events through send, then every later one.
func (e *emitter) start(send func(name string, data any)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, q := range e.queued {
		send(q.name, q.data)
	}
	e.queued, e.send = nil, send
}
