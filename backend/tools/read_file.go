package tools

import (
	"context"
	"crypto/sha256"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed read_file.md
var readFileDoc string

type readFileIn struct {
	Path   string `json:"path" jsonschema:"file to read, relative to the working directory or absolute inside the project" tool:"nonempty"`
	Offset int    `json:"offset,omitempty" jsonschema:"first line to return, 1-based (default 1)" tool:"min=1"`
	Limit  int    `json:"limit,omitempty" jsonschema:"number of lines to return (default: to the end)" tool:"min=1"`
}

type readFileOut struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	files.Content
}

func readFile(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "read_file", Title: "Read file", Description: readFileDoc,
		ReadOnly: true, Examples: []string{`{"path": "README.md"}`, `{"path": "big.log", "offset": 2001, "limit": 500}`},
	}, func(ctx context.Context, in readFileIn) (readFileOut, error) {
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return readFileOut{}, err
		}
		c, err := files.Read(t.Root, t.Rel, files.ReadOptions{Offset: in.Offset, Limit: in.Limit})
		if err != nil {
			return readFileOut{}, err
		}
		v := session.Version{Size: c.Size, ModTime: c.ModTime}
		if c.StartLine == 1 && !c.Truncated {
			v.Sum = sha256.Sum256([]byte(c.Text)) // the whole file: a touch without a change is not staleness
		}
		d.Session.Saw(t, v)
		return readFileOut{Path: t.Slash(), Exists: true, Content: c}, nil
	})
}
