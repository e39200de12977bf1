package tools

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

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
	// ExpectedSHA256 makes the write conditional on the file's current content, as an editor saves what it loaded.
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"write only if the file's current content has this SHA-256 (hex): what you loaded is still what is there"`
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
		if in.ExpectedSHA256 != "" && !validSHA256(in.ExpectedSHA256) {
			return writeFileOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "expected_sha256", Message: "expected_sha256 is 64 hex digits"}
		}
		reason := "Backup before file mod: "
		if tool.IsUser(ctx) {
			reason = "Backup before your edit: "
		}
		backup, err := d.backup(ctx, in.Backup, reason+t.Slash(), t.Slash())
		if err != nil {
			return writeFileOut{}, err
		}
		w, err := files.Write(t.Root, t.Rel, []byte(in.Content), writePrecondition(ctx, d.Session, t, in.ExpectedSHA256))
		if err != nil {
			return writeFileOut{}, err
		}
		t.Rel = w.Rel
		if !tool.IsUser(ctx) {
			d.Session.Saw(t, session.VersionOf(w.Info, []byte(in.Content)))
		}
		d.changed(t, w.Created)
		return writeFileOut{Path: t.Slash(), Size: w.Size, Created: w.Created, Backup: backup}, nil
	})
}

// writePrecondition is what a write requires of the file it replaces: for the agent, that it has not changed
// since the session read or wrote it (freshness); for the user, nothing beyond expected, when given.
func writePrecondition(ctx context.Context, s *session.Session, t session.Target, expected string) files.Precondition {
	fresh := freshness(s, t)
	return func(fi fs.FileInfo, read func() ([]byte, error)) error {
		if !tool.IsUser(ctx) {
			if err := fresh(fi, read); err != nil {
				return err
			}
		}
		if expected == "" {
			return nil
		}
		content, err := read()
		if err != nil {
			return err
		}
		if hex.EncodeToString(sha256Sum(content)) != strings.ToLower(expected) {
			return fmt.Errorf("%w: its content is no longer what was loaded (expected_sha256 differs)", session.ErrStale)
		}
		return nil
	}
}

func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

func validSHA256(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sha256.Size
}

// freshness is the stale-file precondition of writes and patches. It checks the file actually written, which
// for a symlink is its target.
func freshness(s *session.Session, t session.Target) files.Precondition {
	return func(fi fs.FileInfo, read func() ([]byte, error)) error {
		return s.CheckFresh(t, fi, read)
	}
}
