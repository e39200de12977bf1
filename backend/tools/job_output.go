package tools

import (
	"context"
	_ "embed"
	"errors"
	"time"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed job_output.md
var jobOutputDoc string

type jobOutputIn struct {
	ID     string `json:"id" jsonschema:"the job id exec_shell returned (job-1)" tool:"nonempty"`
	Since  int64  `json:"since,omitempty" jsonschema:"return output from this offset on: the next of the previous result (default 0, from the start)" tool:"min=0"`
	WaitMS int64  `json:"wait_ms,omitempty" jsonschema:"when there is no new output yet and the job still runs, wait up to this many milliseconds for some (default 0, at most 30000)" tool:"min=0,max=30000"`
}

func jobOutput(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "job_output", Title: "Background job output", Description: jobOutputDoc, ReadOnly: true,
		TextCarries: []string{"output"},
		Examples:    []string{`{"id": "job-1"}`, `{"id": "job-1", "since": 2048, "wait_ms": 5000}`},
	}, func(ctx context.Context, in jobOutputIn) (jobOutputOut, error) {
		j, err := d.job(in.ID)
		if err != nil {
			return jobOutputOut{}, err
		}
		return jobOutputOut(j.Read(ctx, in.Since, time.Duration(in.WaitMS)*time.Millisecond)), nil
	})
}

// job returns the open project's job with id.
func (d Deps) job(id string) (*jobs.Job, error) {
	if d.Jobs == nil {
		return nil, tool.Errorf(tool.CodeNotFound, "no job %s: background jobs live in a session that stays (the window or the MCP server), not in a one-shot call", id)
	}
	info, err := d.Session.Info()
	if err != nil {
		return nil, err
	}
	j, err := d.Jobs.Get(info.Root, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return nil, tool.Errorf(tool.CodeNotFound, "no job %s in this project (jobs end when the project closes; exec_shell with background: true starts one)", id)
	}
	return j, err
}
