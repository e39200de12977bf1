package tools

import (
	"context"
	_ "embed"

	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed list_snapshots.md
var listSnapshotsDoc string

type listSnapshotsIn struct {
	Limit int  `json:"limit,omitempty" jsonschema:"most snapshots to list (default 50)" tool:"min=1,max=1000"`
	Log   bool `json:"log,omitempty" jsonschema:"list the log of every backup and restore instead"`
}

type listSnapshotsOut struct {
	Snapshots []snapshot.Snapshot `json:"snapshots,omitempty"`
	Log       []snapshot.LogEntry `json:"log,omitempty"`
	Limit     int                 `json:"limit"`
}

func listSnapshots(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "list_snapshots", Title: "List snapshots", Description: listSnapshotsDoc, ReadOnly: true,
		TextCarries: []string{"snapshots", "log"}, Narrow: "pass a smaller limit",
		Examples: []string{`{}`, `{"limit": 10}`, `{"log": true}`},
	}, func(ctx context.Context, in listSnapshotsIn) (listSnapshotsOut, error) {
		limit := in.Limit
		if limit == 0 {
			limit = 50
		}
		repo, err := d.repo()
		if err != nil {
			return listSnapshotsOut{}, err
		}
		if in.Log {
			log, err := repo.Log(limit)
			return listSnapshotsOut{Log: log, Limit: limit}, err
		}
		list, err := repo.List(ctx, limit)
		if list == nil {
			list = []snapshot.Snapshot{}
		}
		return listSnapshotsOut{Snapshots: list, Limit: limit}, err
	})
}
