package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed find_files.md
var findFilesDoc string

type findFilesIn struct {
	Glob           tool.StringList `json:"glob" jsonschema:"file patterns (*.go, src/**/*.ts, !vendor/**); one or a list"`
	Path           string          `json:"path,omitempty" jsonschema:"directory to look in, relative to the working directory; default: the working directory"`
	Limit          int             `json:"limit,omitempty" jsonschema:"most files to return (default 100)" tool:"min=1,max=10000"`
	IncludeHidden  bool            `json:"include_hidden,omitempty" jsonschema:"also list hidden files"`
	IncludeIgnored bool            `json:"include_ignored,omitempty" jsonschema:"also list files git ignores"`
}

type findFilesOut struct {
	Path string `json:"path"`
	search.FindResult
}

func findFiles(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "find_files", Title: "Find files", Description: findFilesDoc, ReadOnly: true,
		TextCarries: []string{"files"}, Narrow: "a narrower pattern or path finds fewer",
		Examples: []string{`{"glob": "*.go"}`, `{"glob": ["src/**/*.ts", "!**/*.d.ts"], "limit": 20}`},
	}, func(ctx context.Context, in findFilesIn) (findFilesOut, error) {
		if len(in.Glob) == 0 {
			return findFilesOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "glob", Message: `field "glob" must not be empty: give a pattern such as "*.go"`}
		}
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return findFilesOut{}, err
		}
		g, err := search.CompileGlobs(in.Glob)
		if err != nil {
			return findFilesOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "glob", Message: err.Error()}
		}
		res, err := search.Find(ctx, search.DiskSource{Root: t.Root}, t.Slash(), g,
			search.WalkOptions{IncludeHidden: in.IncludeHidden, IncludeIgnored: in.IncludeIgnored}, in.Limit)
		if err != nil {
			return findFilesOut{}, err
		}
		return findFilesOut{Path: t.Slash(), FindResult: res}, nil
	})
}
