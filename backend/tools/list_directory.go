package tools

import (
	"context"
	_ "embed"
	"path/filepath"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/ignore"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed list_directory.md
var listDirectoryDoc string

// defaultListLimit keeps one listing readable for a model; the UI asks for more.
const defaultListLimit = 1000

type listDirectoryIn struct {
	Path  string `json:"path,omitempty" jsonschema:"directory to list, relative to the working directory; default: the working directory"`
	Limit int    `json:"limit,omitempty" jsonschema:"most entries to return (default 1000)" tool:"min=1,max=100000"`
}

type listDirectoryOut struct {
	Path string `json:"path"`
	files.Listing
}

func listDirectory(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "list_directory", Title: "List directory", Description: listDirectoryDoc,
		ReadOnly: true, Examples: []string{`{"path": "src"}`, `{}`, `{"path": ".", "limit": 50}`},
		TextCarries: []string{"entries"}, Narrow: "list a subfolder, or find_files with a pattern",
	}, func(ctx context.Context, in listDirectoryIn) (listDirectoryOut, error) {
		defer d.Lane.Foreground()() // someone waits for it: other workspaces' searches pause (sched.Lane.Pace)
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return listDirectoryOut{}, err
		}
		limit := in.Limit
		if limit == 0 {
			limit = defaultListLimit
		}
		l, err := files.List(t.Root, t.Rel, limit)
		if err != nil {
			return listDirectoryOut{}, err
		}
		m := ignore.New(t.Root)
		for i, e := range l.Entries {
			// A symlink is never a directory to git, whatever it points to: "build/" does not ignore a link "build".
			l.Entries[i].Ignored = m.Ignored(filepath.Join(t.Rel, e.Name), e.Kind == files.KindDir)
		}
		return listDirectoryOut{Path: t.Slash(), Listing: l}, nil
	})
}
