package tools

import (
	"fmt"
	"strings"
)

// ModelText is a command's run as a terminal shows it: its output (stdout, then stderr under its own heading), then a
// line with the exit code and what else the model should know (a timeout, a cut, the backup, a job, a hint).
func (r execShellOut) ModelText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\n", strings.Join(r.Command, " "))
	if r.Stdout != "" {
		b.WriteString(r.Stdout)
		if !strings.HasSuffix(r.Stdout, "\n") {
			b.WriteByte('\n')
		}
	}
	if r.Stderr != "" {
		b.WriteString("[stderr]\n" + r.Stderr)
		if !strings.HasSuffix(r.Stderr, "\n") {
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
	if r.Truncated {
		notes = append(notes, fmt.Sprintf("output cut (%d bytes written in all)", r.Bytes))
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
	b.WriteString("(" + strings.Join(notes, "; ") + ")")
	if r.Hint != "" {
		b.WriteString("\nhint: " + r.Hint)
	}
	return b.String()
}
