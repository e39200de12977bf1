package tools

import (
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/tool"
)

// ModelText is a command's run as a terminal shows it: its output (stdout, then stderr under its own heading), then a
// line with the exit code and what else the model should know (a timeout, a cut, the backup, a job, a hint).
func (r execShellOut) ModelText() string { return r.ModelTextWithin(0) }

// ModelTextWithin is ModelText within budget bytes (0: no budget): stdout and stderr share what the other lines
// leave, in proportion to their sizes, each as its head and, for the most part, its tail, where a build's errors
// and a test's verdict are.
func (r execShellOut) ModelTextWithin(budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\n", strings.Join(r.Command, " "))
	stdout, stderr := r.Stdout, r.Stderr
	if room := budget - 512 - b.Len(); budget > 0 && len(stdout)+len(stderr) > room {
		room = max(room, 0)
		outRoom := room * len(stdout) / (len(stdout) + len(stderr))
		stdout = tool.HeadAndTail(stdout, outRoom)
		stderr = tool.HeadAndTail(stderr, room-outRoom)
	}
	if stdout != "" {
		b.WriteString(stdout)
		if !strings.HasSuffix(stdout, "\n") {
			b.WriteByte('\n')
		}
	}
	if stderr != "" {
		b.WriteString("[stderr]\n" + stderr)
		if !strings.HasSuffix(stderr, "\n") {
			b.WriteByte('\n')
		}
	}
	var notes []string
	if r.Job != nil {
		state := "ended"
		if r.Job.Running {
			state = "running"
		}
		notes = append(notes, fmt.Sprintf("job %s %s; its output continues at offset %d (job_output)", r.Job.ID, state, r.Job.Next))
	} else {
		notes = append(notes, fmt.Sprintf("exit code %d", r.ExitCode))
	}
	if r.TimedOut {
		notes = append(notes, "timed out")
	}
	if r.Cancelled {
		notes = append(notes, "cancelled")
	}
	if r.Truncated || stdout != r.Stdout || stderr != r.Stderr {
		notes = append(notes, fmt.Sprintf("output cut (%d bytes written in all; a narrower command, or a background job read with job_output, shows more)", r.Bytes))
	}
	notes = append(notes, fmt.Sprintf("%d ms in %s", r.DurationMS, r.Cwd))
	if r.Backup != "" {
		notes = append(notes, "backup "+r.Backup)
	}
	if len(r.GitRestored) > 0 {
		notes = append(notes, "put back: "+strings.Join(r.GitRestored, ", "))
	}
	if len(r.DependenciesChanged) > 0 {
		notes = append(notes, "dependencies changed: "+strings.Join(r.DependenciesChanged, ", "))
	}
	if len(r.OutputsChanged) > 0 {
		notes = append(notes, "build outputs changed: "+strings.Join(r.OutputsChanged, ", "))
	}
	b.WriteString("(" + strings.Join(notes, "; ") + ")")
	if r.Hint != "" {
		b.WriteString("\nhint: " + r.Hint)
	}
	return b.String()
}
