package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Exit codes of rooted exec beyond the program's own, as shells and timeout(1) use them.
const (
	ExitTimedOut = 124
	ExitRefused  = 126
)

func runExec(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("exec", "[--root DIR] [--cwd DIR] [--timeout 30s] [--json] -- PROGRAM ARGS...", stdio)
	timeout := c.fs.Duration("timeout", 0, "stop the program after this long (default 30s; the project's maximum applies)")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		return usageError(stdio, c.fs, "want a program to run, after --")
	}
	in := map[string]any{"command": pos[0]}
	if len(pos) > 1 {
		in["args"] = pos[1:]
	}
	if *timeout > 0 {
		in["timeout_ms"] = timeout.Milliseconds()
	}
	w, terr := c.pf.open()
	if terr != nil {
		return c.refused(terr)
	}
	defer w.Close()
	reg := w.Registry()
	raw, _ := json.Marshal(in)
	if !*c.asJSON {
		// Show the program's output as it runs, as a terminal would.
		ctx = tool.WithProgress(ctx, func(stream string, chunk []byte) {
			if stream == "stderr" {
				stdio.Stderr.Write(chunk)
			} else {
				stdio.Stdout.Write(chunk)
			}
		})
	}
	start := time.Now()
	out, terr := reg.Call(ctx, "exec_shell", raw)
	if terr != nil {
		return c.refused(terr)
	}
	if *c.asJSON {
		return printJSON(stdio, out)
	}
	var res shell.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return c.refused(tool.Errorf(tool.CodeInternal, "%v", err))
	}
	switch {
	case res.TimedOut:
		fmt.Fprintf(stdio.Stderr, "rooted exec: stopped after %s (timeout)\n", time.Since(start).Round(time.Millisecond))
		return ExitTimedOut
	case res.Cancelled:
		fmt.Fprintln(stdio.Stderr, "rooted exec: interrupted")
		return 130
	case !res.Sandbox.Active && res.Sandbox.Reason != "":
		fmt.Fprintln(stdio.Stderr, "rooted exec: note:", res.Sandbox.Reason)
	}
	return res.ExitCode
}

// refused reports a command that did not run; with --json as the error JSON (exit 1), else as a message (126).
func (c *fileCommand) refused(e *tool.Error) int {
	if *c.asJSON {
		return printError(c.stdio, e)
	}
	fmt.Fprintf(c.stdio.Stderr, "rooted exec: %s: %s\n", e.Code, e.Message)
	return ExitRefused
}
