package tools

import (
	"context"
	_ "embed"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed change_working_directory.md
var changeWorkingDirectoryDoc string

type changeWorkingDirectoryIn struct {
	Path string `json:"path" jsonschema:"directory to change to: relative to the current directory, absolute inside the root, or - for the previous one" tool:"nonempty"`
}

type changeWorkingDirectoryOut struct {
	Success           bool   `json:"success"`
	CurrentDirectory  string `json:"current_directory"`
	Relative          string `json:"relative"`
	PreviousDirectory string `json:"previous_directory"`
	Message           string `json:"message"`
}

func changeWorkingDirectory(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "change_working_directory", Title: "Change directory", Description: changeWorkingDirectoryDoc,
		ReadOnly: true, Examples: []string{`{"path": "src"}`, `{"path": ".."}`, `{"path": "-"}`},
	}, func(ctx context.Context, in changeWorkingDirectoryIn) (changeWorkingDirectoryOut, error) {
		before, err := d.Session.Info()
		if err != nil {
			return changeWorkingDirectoryOut{}, err
		}
		after, err := d.Session.Chdir(in.Path)
		if err != nil {
			return changeWorkingDirectoryOut{}, err
		}
		return changeWorkingDirectoryOut{
			Success: true, CurrentDirectory: after.Cwd, Relative: after.CwdRel, PreviousDirectory: before.Cwd,
			Message: "Changed directory to " + filepath.ToSlash(after.CwdRel),
		}, nil
	})
}
