package tools

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// jobStarted is what a command moved to the background returns: its job id and where its output goes on.
type jobStarted struct {
	ID      string `json:"id"`
	Running bool   `json:"running"`
	// Next is the offset of the output after what this result holds: job_output's since.
	Next int64 `json:"next"`
}

type foregroundKey struct{}

// Foreground marks a call whose command must finish (or time out) in the foreground, never move to the
// background: the check Rooted runs after an edit, whose result the edit waits for.
func Foreground(ctx context.Context) context.Context {
	return context.WithValue(ctx, foregroundKey{}, true)
}

// runCommand runs a checked command: in the foreground when there are no jobs here (a one-shot CLI call) or the
// project never moves commands to the background; otherwise as a job, returned at once with background, or
// when it still runs after the project's background time (which may come before its timeout).
func (d Deps) runCommand(ctx context.Context, in execShellIn, c execCheck, backup string,
	run func(ctx context.Context, live func(string, []byte), timeout time.Duration) (execShellOut, error),
) (execShellOut, error) {
	progress := tool.ProgressFrom(ctx)
	after := c.proj.BackgroundAfter()
	if ctx.Value(foregroundKey{}) != nil {
		after = 0
	}
	c.timeout = c.timeoutWith(after, d.Jobs != nil)
	if in.Background && d.Jobs == nil {
		return execShellOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "background", Message: "background commands need a session that stays (the window or the MCP server); this one ends with the call. Nothing was run"}
	}
	if d.Jobs == nil || !in.Background && (after <= 0 || after >= c.timeout) {
		return run(ctx, progress, c.timeout)
	}
	jobTimeout := time.Duration(0) // a command in the background runs until it ends, job_kill, or the project closes
	if in.Background && in.TimeoutMS > 0 {
		jobTimeout = c.timeout
	}
	var full execShellOut // the foreground result, read after the job is done
	// A command that may move to the background asks about hosts while its call waits on it (the face's asker
	// refuses once the call has returned); one started there has no one waiting to answer.
	ask := hostAsk(ctx)
	if in.Background {
		ask = nil
	}
	job, err := d.Jobs.Start(c.info.Root, permissions.Join(c.argv), func(jctx context.Context, live func(string, []byte)) (shell.Result, string, error) {
		out, err := run(WithHostAsk(jctx, ask), live, jobTimeout)
		full = out
		return out.Result, out.Hint, err
	}, in.Background, progress)
	if errors.Is(err, jobs.ErrTooMany) && !in.Background {
		return run(ctx, progress, c.timeout) // no room for another job: this one runs to its end here
	}
	if err != nil {
		return execShellOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "background", Message: err.Error() + "; nothing was run"}
	}
	if in.Background {
		return d.backgrounded(job, c, backup, "started in the background"), nil
	}
	// The background time comes before the timeout (else the command ran above, with its timeout): a command
	// still running then moves to the background, where the timeout no longer applies.
	moved := time.NewTimer(after)
	defer moved.Stop()
	select {
	case <-job.Done():
	case <-ctx.Done():
		job.Kill()
		job.Forget()
		return full, job.Err()
	case <-moved.C:
		job.Promote()
		return d.backgrounded(job, c, backup, fmt.Sprintf("still running after %s, so it moved to the background", after)), nil
	}
	job.Forget()
	return full, job.Err()
}

// backgrounded is the result of a command that runs on as a job: the output so far and how to follow it.
func (d Deps) backgrounded(job *jobs.Job, c execCheck, backup, how string) execShellOut {
	job.Detach()
	o := job.Read(context.Background(), 0, 0)
	out := execShellOut{
		Command: c.argv, Cwd: c.info.CwdRel, Backup: backup,
		Result: shell.Result{Stdout: o.Output, Bytes: o.Bytes, DurationMS: o.DurationMS},
		Job:    &jobStarted{ID: job.ID(), Running: o.Running, Next: o.Next},
	}
	out.Hint = fmt.Sprintf("The command %s as %s. Read what it writes next with job_output {\"id\": %q, \"since\": %d} (wait_ms waits for new output), and stop it with job_kill {\"id\": %q}; it also ends when the project closes.", how, job.ID(), job.ID(), o.Next, job.ID())
	if !c.proj.Network.On() {
		out.Hint += " This project's commands have no network: a server cannot listen on a port (not even localhost) and nothing can be fetched; if it must, ask the user to turn on \"Commands may use the network\" in Settings (in allow-list mode, only the listed hosts can be fetched, and nothing can listen either)."
	}
	return out
}
