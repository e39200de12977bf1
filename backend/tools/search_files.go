package tools

import (
	"context"
	_ "embed"
	"path"

	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed search_files.md
var searchFilesDoc string

type searchFilesIn struct {
	Query           string          `json:"query" jsonschema:"text to find (literal unless regex is true)" tool:"nonempty"`
	Regex           bool            `json:"regex,omitempty" jsonschema:"treat query as an RE2 regular expression"`
	Glob            tool.StringList `json:"glob,omitempty" jsonschema:"file patterns to search (*.go, src/**, !*_test.go); one or a list"`
	Path            string          `json:"path,omitempty" jsonschema:"directory to search, relative to the working directory; default: the working directory"`
	CaseInsensitive bool            `json:"case_insensitive,omitempty" jsonschema:"ignore case"`
	Context         int             `json:"context,omitempty" jsonschema:"lines of context before and after each match" tool:"min=0,max=20"`
	Output          string          `json:"output,omitempty" jsonschema:"content (matching lines, the default), files (paths with counts) or count" tool:"enum=content|files|count"`
	Limit           int             `json:"limit,omitempty" jsonschema:"most results to return (default 100)" tool:"min=1,max=10000"`
	IncludeHidden   bool            `json:"include_hidden,omitempty" jsonschema:"also search hidden files and directories"`
	IncludeIgnored  bool            `json:"include_ignored,omitempty" jsonschema:"also search files git ignores"`
}

type searchFilesOut struct {
	Query string `json:"query"`
	Path  string `json:"path"`
	search.Result
}

func searchFiles(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "search_files", Title: "Search files", Description: searchFilesDoc, ReadOnly: true,
		TextCarries: []string{"matches", "files"},
		Examples: []string{
			`{"query": "func main"}`,
			`{"query": "TODO|FIXME", "regex": true, "glob": "*.go", "output": "files"}`,
			`{"query": "parseConfig", "path": "internal", "context": 2, "glob": ["*.go", "!*_test.go"]}`,
		},
	}, func(ctx context.Context, in searchFilesIn) (searchFilesOut, error) {
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return searchFilesOut{}, err
		}
		g, err := search.CompileGlobs(in.Glob)
		if err != nil {
			return searchFilesOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "glob", Message: err.Error()}
		}
		opt := search.Options{
			Query: in.Query, Regex: in.Regex, CaseInsensitive: in.CaseInsensitive, Glob: g, Context: in.Context,
			Output: in.Output, Limit: in.Limit, IncludeHidden: in.IncludeHidden, IncludeIgnored: in.IncludeIgnored,
			Lane: d.Lane,
		}
		dir := t.Slash()
		// A path naming a file searches that file.
		if fi, err := t.Root.Lstat(t.Rel); err == nil && fi.Mode().IsRegular() {
			opt.File = dir
			dir = path.Dir(dir)
		}
		res, err := search.Search(ctx, d.searchSource(t), dir, opt)
		if err != nil {
			if search.IsBadPattern(err) {
				return searchFilesOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "query", Message: "invalid regular expression: " + err.Error()}
			}
			return searchFilesOut{}, err
		}
		return searchFilesOut{Query: in.Query, Path: t.Slash(), Result: res}, nil
	})
}
