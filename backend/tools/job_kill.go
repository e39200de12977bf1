package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/jobs"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed job_kill.md
var jobKillDoc string

type jobKillIn struct {
	ID string `json:"id" jsonschema:"the job id exec_shell returned (job-1)" tool:"nonempty"`
}

type jobKillOut struct {
	jobs.Info
	// WasRunning says the job was still running when it was stopped (false: it had already ended).
	WasRunning bool `json:"was_running"`
}

func jobKill(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "job_kill", Title: "Stop background job", Description: jobKillDoc, Idempotent: true,
		Examples: []string{`{"id": "job-1"}`},
	}, func(ctx context.Context, in jobKillIn) (jobKillOut, error) {
		j, err := d.job(in.ID)
		if err != nil {
			return jobKillOut{}, err
		}
		was := j.Kill()
		return jobKillOut{Info: j.Info(), WasRunning: was}, nil
	})
}
