package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/snapshot"
)

// stringList is a flag that may be repeated.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func runSnapshots(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("snapshots", "[--limit N] [--log] [--root DIR] [--json]", stdio)
	limit := c.fs.Int("limit", 0, "most entries to list (default 50)")
	log := c.fs.Bool("log", false, "list the log of every backup and restore")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return usageError(stdio, c.fs, "unexpected argument %q", pos[0])
	}
	in := map[string]any{}
	if *limit > 0 {
		in["limit"] = *limit
	}
	if *log {
		in["log"] = true
	}
	return c.call(ctx, "list_snapshots", in, func(raw []byte) error {
		var r struct {
			Snapshots []snapshot.Snapshot `json:"snapshots"`
			Log       []snapshot.LogEntry `json:"log"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		for _, s := range r.Snapshots {
			fmt.Fprintf(stdio.Stdout, "%s  %s  %3d file%s  %s\n", s.ID[:12], s.Time.Local().Format(time.DateTime), s.Files, plural(s.Files)+" ", s.Reason)
		}
		for _, e := range r.Log {
			what := e.Reason
			if e.Action == "restore" {
				what = "restored " + e.ID[:12]
				if len(e.Paths) > 0 {
					what += " (" + strings.Join(e.Paths, ", ") + ")"
				}
				what += ", state before it saved as " + e.Backup[:12]
			}
			fmt.Fprintf(stdio.Stdout, "%s  %-7s  %s  %s\n", e.Time.Local().Format(time.DateTime), e.Action, e.ID[:12], what)
		}
		if len(r.Snapshots)+len(r.Log) == 0 {
			fmt.Fprintln(stdio.Stdout, "no snapshots yet: one is taken before every change Rooted makes")
		}
		return nil
	})
}

// snapshotID parses args that name one snapshot, and returns the tool input holding its id; nil and the exit code
// where they do not.
func (c *fileCommand) snapshotID(args []string) (map[string]any, int) {
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return nil, flagExit(err)
	}
	if len(pos) != 1 {
		return nil, usageError(c.stdio, c.fs, "want one snapshot id")
	}
	return map[string]any{"id": pos[0]}, ExitOK
}

func runDiff(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("diff", "ID [--to ID] [--path P] [--root DIR] [--json]", stdio)
	path := c.fs.String("path", "", "limit the diff to this file or directory")
	to := c.fs.String("to", "", "compare with this later snapshot instead of the files as they are now")
	in, exit := c.snapshotID(args)
	if in == nil {
		return exit
	}
	if *path != "" {
		in["path"] = *path
	}
	if *to != "" {
		in["to"] = *to
	}
	return c.call(ctx, "diff_snapshot", in, func(raw []byte) error {
		var r struct{ Diff string }
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		fmt.Fprint(stdio.Stdout, r.Diff)
		return nil
	})
}

func runRestore(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("restore", "ID [--path P]... [--root DIR] [--json]", stdio)
	var paths stringList
	c.fs.Var(&paths, "path", "restore only this file or directory (repeatable)")
	in, exit := c.snapshotID(args)
	if in == nil {
		return exit
	}
	if len(paths) > 0 {
		in["paths"] = []string(paths)
	}
	return c.call(ctx, "restore_snapshot", in, func(raw []byte) error {
		var r snapshot.RestoreResult
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Stdout, "restored %s: %d written, %d removed; undo with: rooted restore %s\n", r.Restored[:12], len(r.Written), len(r.Removed), r.Backup[:12])
		return nil
	})
}
