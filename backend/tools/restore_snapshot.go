package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed restore_snapshot.md
var restoreSnapshotDoc string

type restoreSnapshotIn struct {
	ID    string   `json:"id" jsonschema:"the snapshot's id, or at least its first 4 characters" tool:"nonempty"`
	Paths []string `json:"paths,omitempty" jsonschema:"restore only these files or directories (default: the whole project)"`
}

func restoreSnapshot(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "restore_snapshot", Title: "Restore snapshot", Description: restoreSnapshotDoc, Destructive: true,
		Examples: []string{`{"id": "3f2a9c1b"}`, `{"id": "3f2a9c1b", "paths": ["src/main.go"]}`},
	}, func(ctx context.Context, in restoreSnapshotIn) (snapshot.RestoreResult, error) {
		defer d.Lane.Foreground()() // someone waits for it: other workspaces' searches pause (sched.Lane.Pace)
		repo, err := d.repo()
		if err != nil {
			return snapshot.RestoreResult{}, err
		}
		var rels []string
		for _, p := range in.Paths {
			t, err := d.Session.Resolve(p)
			if err != nil {
				return snapshot.RestoreResult{}, err
			}
			rels = append(rels, t.Slash())
		}
		res, err := repo.Restore(ctx, in.ID, rels)
		d.changedAll()
		return res, err
	})
}
