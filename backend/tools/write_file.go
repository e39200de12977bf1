package tools

import (
	"context"
	_ "embed"
	"io/fs"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed write_file.md
var writeFileDoc string

type writeFileIn struct {
	Path    string `json:"path" jsonschema:"file to create or overwrite, relative to the working directory" tool:"nonempty"`
	Content string `json:"content" jsonschema:"the complete new content of the file"`
	Backup  *bool  `json:"backup,omitempty" jsonschema:"record a snapshot of the project first, so the change can be undone (default true)"`
}

type writeFileOut struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Created bool   `json:"created"`
	// Backup is the snapshot taken before the write ("" when skipped); restore_snapshot undoes the write.
	Backup string `json:"backup,omitempty"`
}

func writeFile(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "write_file", Title: "Write file", Description: writeFileDoc, Destructive: true, Idempotent: true,
		Examples: []string{`{"path": "src/hello.go", "content": "package main\n\nfunc main() {}\n"}`},
	}, func(ctx context.Context, in writeFileIn) (writeFileOut, error) {
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return writeFileOut{}, err
		}
		defer d.Session.LockPath(t)()
		backup, err := d.backup(ctx, in.Backup, "Backup before file mod: "+t.Slash(), t.Slash())
		if err != nil {
			return writeFileOut{}, err
		}
		w, err := files.Write(t.Root, t.Rel, []byte(in.Content), freshness(d.Session, t))
		if err != nil {
			return writeFileOut{}, err
		}
		t.Rel = w.Rel
		d.Session.Saw(t, session.VersionOf(w.Info, []byte(in.Content)))
		d.changed(t, w.Created)
		return writeFileOut{Path: t.Slash(), Size: w.Size, Created: w.Created, Backup: backup}, nil
	})
}

// freshness is the stale-file precondition of writes and patches. It checks the file actually written, which
// for a symlink is its target.
func freshness(s *session.Session, t session.Target) files.Precondition {
	return func(fi fs.FileInfo, read func() ([]byte, error)) error {
		return s.CheckFresh(t, fi, read)
	}
}
