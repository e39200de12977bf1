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
	DryRun         bool   `json:"dry_run,omitempty" jsonschema:"change nothing: return the diff the write would make, after the same checks"`
}

type writeFileOut struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Created bool   `json:"created"`
	// Backup is the snapshot taken before the write ("" when skipped); restore_snapshot undoes the write.
	Backup string `json:"backup,omitempty"`
	// Diff is the unified diff of the change (of the change it would make, with DryRun).
	Diff   string `json:"diff"`
	DryRun bool   `json:"dry_run,omitempty"`
}

func writeFile(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "write_file", Title: "Write file", Description: writeFileDoc, Destructive: true, Idempotent: true,
		TextCarries: []string{"diff"}, Narrow: "the write itself was made whole; read_file shows the file",
		Examples: []string{`{"path": "src/hello.go", "content": "package main\n\nfunc main() {}\n"}`},
	}, func(ctx context.Context, in writeFileIn) (writeFileOut, error) {
		defer d.Lane.Foreground()() // someone waits for it: other workspaces' searches pause (sched.Lane.Pace)
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return writeFileOut{}, err
		}
		defer d.Session.LockPath(t)()
		if in.ExpectedSHA256 != "" && !validSHA256(in.ExpectedSHA256) {
			return writeFileOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "expected_sha256", Message: "expected_sha256 is 64 hex digits"}
		}
		var before []byte
		tooLarge := int64(-1)
		check := writePrecondition(ctx, d, t, in.ExpectedSHA256)
		keep := func(fi fs.FileInfo, read func() ([]byte, error)) error {
			memo := func() ([]byte, error) { // read once, whoever asks first
				if before == nil {
					b, err := read()
					if err != nil {
						return nil, err
					}
					before = b
				}
				return before, nil
			}
			if err := check(fi, memo); err != nil {
				return err
			}
			if fi.Size() > files.MaxPatchBytes {
				tooLarge = fi.Size()
				return nil
			}
			_, err := memo() // for the diff
			return err
		}
		content := []byte(in.Content)
		diff := func(w files.WriteResult) string {
			if tooLarge >= 0 {
				return fmt.Sprintf("(no diff: %s was %s)\n", t.Slash(), files.HumanSize(tooLarge))
			}
			return files.Diff(t.Slash(), before, content, w.Created)
		}
		if in.DryRun {
			w, err := files.PlanWrite(t.Root, t.Rel, content, keep)
			if err != nil {
				return writeFileOut{}, err
			}
			t.Rel = w.Rel
			return writeFileOut{Path: t.Slash(), Size: w.Size, Created: w.Created, Diff: diff(w), DryRun: true}, nil
		}
		reason := "Backup before file mod: "
		if tool.IsUser(ctx) {
			reason = "Backup before your edit: "
		}
		backup, err := d.backup(ctx, in.Backup, reason+t.Slash(), t.Slash())
		if err != nil {
			return writeFileOut{}, err
		}
		w, err := files.Write(t.Root, t.Rel, content, keep)
		if err != nil {
			return writeFileOut{}, err
		}
		t.Rel = w.Rel
		if !tool.IsUser(ctx) {
			d.Session.Saw(tool.Conversation(ctx), t, session.VersionOf(w.Info, content))
		}
		d.changed(t, w.Created)
		return writeFileOut{Path: t.Slash(), Size: w.Size, Created: w.Created, Backup: backup, Diff: diff(w)}, nil
	})
}

// requireRead is the read-before-edit rule: the agent may change an existing file only after reading (or
// writing) it in this conversation, so it never replaces what it has not seen. The user's own edits and a one-shot
// CLI call are exempt.
func requireRead(ctx context.Context, d Deps, t session.Target) error {
	if d.EditUnread || tool.IsUser(ctx) || d.Session.HasSeen(tool.Conversation(ctx), t) {
		return nil
	}
	if target, err := files.FollowLinks(t.Root, t.Rel); err == nil && target != t.Rel && d.Session.HasSeen(tool.Conversation(ctx), t, target) {
		return nil
	}
	return &tool.Error{
		Code: tool.CodeNotRead, Path: t.Slash(),
		Message: fmt.Sprintf("not read: %s exists and has not been read in this conversation; read_file it first (your edit replaces what is there), then retry; nothing was changed", t.Slash()),
	}
}

// writePrecondition is what a write requires of the file it replaces: for the agent, that it has not changed
// since the session read or wrote it (freshness); for the user, nothing beyond expected, when given.
func writePrecondition(ctx context.Context, d Deps, t session.Target, expected string) files.Precondition {
	fresh := freshness(ctx, d.Session, t)
	return func(fi fs.FileInfo, read func() ([]byte, error)) error {
		if err := requireRead(ctx, d, t); err != nil {
			return err
		}
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

// freshness is the stale-file precondition of writes and patches, against what ctx's conversation last saw. It
// checks the file actually written, which for a symlink is its target.
func freshness(ctx context.Context, s *session.Session, t session.Target) files.Precondition {
	conv := tool.Conversation(ctx)
	return func(fi fs.FileInfo, read func() ([]byte, error)) error {
		return s.CheckFresh(conv, t, fi, read)
	}
}
