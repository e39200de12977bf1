package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed patch_file.md
var patchFileDoc string

type patchEdit struct {
	Search     string `json:"search" jsonschema:"exact text to find" tool:"nonempty"`
	Replace    string `json:"replace" jsonschema:"text to put in its place (empty to delete)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence instead of requiring exactly one"`
}

type patchFileIn struct {
	Path       string      `json:"path" jsonschema:"file to change, relative to the working directory" tool:"nonempty"`
	Search     string      `json:"search,omitempty" jsonschema:"exact text to find; it must occur exactly once unless replace_all is set"`
	Replace    *string     `json:"replace,omitempty" jsonschema:"text to put in its place (empty to delete); required with search"`
	ReplaceAll bool        `json:"replace_all,omitempty" jsonschema:"replace every occurrence of search"`
	Edits      []patchEdit `json:"edits,omitempty" jsonschema:"several edits applied in order, all or nothing; instead of search and replace"`
	Backup     *bool       `json:"backup,omitempty" jsonschema:"record a snapshot of the project first, so the change can be undone (default true)"`
	DryRun     bool        `json:"dry_run,omitempty" jsonschema:"change nothing: return the diff the patch would make, after the same checks"`
}

type patchFileOut struct {
	Path string `json:"path"`
	// Matched is how many occurrences the edits found, Replaced how many they changed.
	Matched  int   `json:"matched"`
	Replaced int   `json:"replaced"`
	Size     int64 `json:"size"`
	// Backup is the snapshot taken before the patch ("" when skipped).
	Backup string `json:"backup,omitempty"`
	// Diff is the unified diff of the change (of the change it would make, with DryRun).
	Diff   string `json:"diff"`
	DryRun bool   `json:"dry_run,omitempty"`
	// Note says what the patch did beyond the exact match asked for (a match with whitespace ignored).
	Note string `json:"note,omitempty"`
}

func patchFile(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "patch_file", Title: "Patch file", Description: patchFileDoc, Destructive: true,
		TextCarries: []string{"diff"}, Narrow: "the patch itself was applied whole; read_file shows the file",
		Examples: []string{
			`{"path": "main.go", "search": "fmt.Println(\"hi\")", "replace": "fmt.Println(\"hello\")"}`,
			`{"path": "main.go", "search": "oldName", "replace": "newName", "replace_all": true}`,
			`{"path": "main.go", "edits": [{"search": "a := 1", "replace": "a := 2"}, {"search": "b := 1", "replace": "b := 2"}]}`,
		},
	}, func(ctx context.Context, in patchFileIn) (patchFileOut, error) {
		defer d.Lane.Foreground()() // someone waits for it: other workspaces' searches pause (sched.Lane.Pace)
		edits, err := in.edits()
		if err != nil {
			return patchFileOut{}, err
		}
		t, err := d.Session.Resolve(in.Path)
		if err != nil {
			return patchFileOut{}, err
		}
		defer d.Session.LockPath(t)()
		fresh := freshness(ctx, d.Session, t)
		check := func(fi fs.FileInfo, read func() ([]byte, error)) error {
			if err := requireRead(ctx, d, t); err != nil {
				return err
			}
			return fresh(fi, read)
		}
		var p files.PatchResult
		backup := ""
		if in.DryRun {
			if p, err = files.PlanPatch(t.Root, t.Rel, edits, check); err != nil {
				return patchFileOut{}, err
			}
			t.Rel = p.Rel
		} else {
			if backup, err = d.backup(ctx, in.Backup, "Backup before file patch: "+t.Slash(), t.Slash()); err != nil {
				return patchFileOut{}, err
			}
			if p, err = files.Patch(t.Root, t.Rel, edits, check); err != nil {
				return patchFileOut{}, err
			}
			t.Rel = p.Rel
			d.Session.Saw(tool.Conversation(ctx), t, session.VersionOf(p.Info, []byte(p.After)))
			d.changed(t, false)
		}
		out := patchFileOut{Path: t.Slash(), Size: p.Size, Backup: backup, DryRun: in.DryRun, Diff: files.Diff(t.Slash(), []byte(p.Before), []byte(p.After), false), Note: looseNote(p.Loose, len(edits))}
		for i, n := range p.Replaced {
			out.Matched += n
			if edits[i].ReplaceAll {
				out.Replaced += n
			} else {
				out.Replaced++
			}
		}
		return out, nil
	})
}

// looseNote tells the model which edits matched only with whitespace ignored, so it checks the diff.
func looseNote(loose []files.Loose, of int) string {
	var parts []string
	for _, l := range loose {
		which := "the search text"
		if of > 1 {
			which = fmt.Sprintf("edit %d's search text", l.Edit+1)
		}
		parts = append(parts, fmt.Sprintf("%s matched line %d only with whitespace ignored; the replacement was indented as the file is there", which, l.Line))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": check the diff"
}

// edits turns either input form into a list, refusing a mix or neither.
func (in patchFileIn) edits() ([]files.Edit, error) {
	single := in.Search != "" || in.Replace != nil || in.ReplaceAll
	switch {
	case single && len(in.Edits) > 0:
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "edits", Message: "give either search and replace, or edits, not both"}
	case len(in.Edits) > 0:
		out := make([]files.Edit, len(in.Edits))
		for i, e := range in.Edits {
			out[i] = files.Edit{Search: e.Search, Replace: e.Replace, ReplaceAll: e.ReplaceAll}
		}
		return out, nil
	case in.Search == "":
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "search", Message: `missing field "search" (a string): the exact text to replace; or give "edits"`}
	case in.Replace == nil:
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "replace", Message: `missing field "replace" (a string): the new text, "" to delete the search text`}
	}
	return []files.Edit{{Search: in.Search, Replace: *in.Replace, ReplaceAll: in.ReplaceAll}}, nil
}
