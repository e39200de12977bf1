package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed diff_snapshot.md
var diffSnapshotDoc string

type diffSnapshotIn struct {
	ID   string `json:"id" jsonschema:"the snapshot's id, or at least its first 4 characters" tool:"nonempty"`
	Path string `json:"path,omitempty" jsonschema:"limit the diff to this file or directory"`
	To   string `json:"to,omitempty" jsonschema:"a later snapshot to compare with instead of the files as they are now"`
}

type diffSnapshotOut struct {
	ID    string `json:"id"`
	To    string `json:"to,omitempty"`
	Path  string `json:"path,omitempty"`
	Diff  string `json:"diff"`
	Empty bool   `json:"empty"`
}

func diffSnapshot(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "diff_snapshot", Title: "Diff against snapshot", Description: diffSnapshotDoc, ReadOnly: true, TextCarries: []string{"diff"},
		Narrow:   "pass path to see one file's diff",
		Examples: []string{`{"id": "3f2a9c1b"}`, `{"id": "3f2a9c1b", "path": "src/main.go"}`, `{"id": "3f2a9c1b", "to": "8e41d07a"}`},
	}, func(ctx context.Context, in diffSnapshotIn) (diffSnapshotOut, error) {
		repo, err := d.repo()
		if err != nil {
			return diffSnapshotOut{}, err
		}
		rel := ""
		if in.Path != "" {
			t, err := d.Session.Resolve(in.Path)
			if err != nil {
				return diffSnapshotOut{}, err
			}
			rel = t.Slash()
		}
		diff, err := repo.DiffTo(ctx, in.ID, in.To, rel)
		if err != nil {
			return diffSnapshotOut{}, err
		}
		return diffSnapshotOut{ID: in.ID, To: in.To, Path: rel, Diff: diff, Empty: diff == ""}, nil
	})
}
