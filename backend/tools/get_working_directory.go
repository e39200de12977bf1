package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed get_working_directory.md
var getWorkingDirectoryDoc string

type getWorkingDirectoryIn struct{}

func getWorkingDirectory(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "get_working_directory", Title: "Working directory", Description: getWorkingDirectoryDoc,
		ReadOnly: true, Examples: []string{`{}`},
	}, func(ctx context.Context, _ getWorkingDirectoryIn) (session.Info, error) {
		return d.Session.Info()
	})
}
