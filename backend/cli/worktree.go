package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
	"github.com/rooted-dev/rooted/backend/worktree"
)

const worktreeSynopsis = "new NAME [--branch B] [--no-setup] | list | apply NAME | commit NAME [-m MSG] | discard NAME  [--root DIR] [--json]"

// runWorktree makes and brings home the project's worktrees, as the window's conversations do.
func runWorktree(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("worktree", worktreeSynopsis, stdio)
	branch := c.fs.String("branch", "", "new: the exact branch to create (default rooted/NAME, made unique)")
	noSetup := c.fs.Bool("no-setup", false, "new: do not run the project's worktree_setup command")
	message := c.fs.String("m", "", "commit: the commit message (default \"Rooted: NAME\")")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		return usageError(stdio, c.fs, "want new, list, apply, commit or discard")
	}
	verb, rest := pos[0], pos[1:]
	switch {
	case verb == "list" && len(rest) == 0:
	case (verb == "new" || verb == "apply" || verb == "commit" || verb == "discard") && len(rest) == 1:
	default:
		return usageError(stdio, c.fs, "want new NAME, list, apply NAME, commit NAME or discard NAME")
	}
	root, terr := c.pf.projectRoot()
	if terr != nil {
		return c.fail(terr)
	}
	m, err := worktree.ForUser(workspace.Options{})
	if err != nil {
		return c.fail(tool.Errorf(tool.CodeInternal, "no cache folder to keep worktrees in: %v", err))
	}
	out, human, err := worktreeVerb(ctx, m, root, verb, rest, worktreeFlags{branch: *branch, noSetup: *noSetup, message: *message})
	if err != nil {
		var te *tool.Error
		if !errors.As(err, &te) {
			te = tools.Classify(err)
		}
		return c.fail(te)
	}
	if *c.asJSON {
		b, err := json.Marshal(out)
		if err != nil {
			return c.fail(tool.Errorf(tool.CodeInternal, "%v", err))
		}
		return printJSON(stdio, b)
	}
	fmt.Fprint(stdio.Stdout, human)
	return ExitOK
}

// worktreeFlags are the flags of rooted worktree's verbs.
type worktreeFlags struct {
	branch, message string
	noSetup         bool
}

// worktreeVerb runs one verb on the project at root's worktrees; it returns the result as JSON shows it and as a
// person reads it.
func worktreeVerb(ctx context.Context, m *worktree.Manager, root, verb string, rest []string, f worktreeFlags) (out any, human string, err error) {
	switch verb {
	case "new":
		opt := worktree.NewOptions{Name: rest[0], Branch: f.branch}
		if f.noSetup {
			opt.Setup = []string{}
		}
		w, err := m.New(ctx, root, opt)
		if err != nil {
			return nil, "", err
		}
		human = fmt.Sprintf("%s  %s  %s\n", w.Name, w.Branch, w.Path)
		if w.Setup != nil {
			human += fmt.Sprintf("setup %v: exit %d %s\n%s\n", w.Setup.Command, w.Setup.ExitCode, w.Setup.Error, w.Setup.Output)
		}
		return w, human, nil
	case "list":
		list, err := m.List(ctx, root)
		if err != nil {
			return nil, "", err
		}
		if list == nil {
			list = []worktree.Worktree{}
		}
		for _, w := range list {
			human += fmt.Sprintf("%s  %s  %d file%s changed  from %.12s  %s\n", w.Name, w.Branch, w.Changed, plural(w.Changed), w.Base, w.Path)
		}
		if len(list) == 0 {
			human = "no worktrees: rooted worktree new NAME makes one\n"
		}
		return map[string]any{"worktrees": list}, human, nil
	case "apply":
		a, err := m.Apply(ctx, root, rest[0])
		if err != nil {
			return nil, "", err
		}
		human = fmt.Sprintf("applied %d file%s from %s", len(a.Changed), plural(len(a.Changed)), a.Worktree)
		if len(a.Merged) > 0 {
			human += fmt.Sprintf(", merged with the main checkout's own changes in %s", strings.Join(a.Merged, ", "))
		}
		if a.Snapshot != "" {
			human += fmt.Sprintf(" (the state before: snapshot %.12s)", a.Snapshot)
		}
		return a, human + "\n", nil
	case "commit":
		id, err := m.Commit(ctx, root, rest[0], f.message)
		if err != nil {
			return nil, "", err
		}
		human = fmt.Sprintf("committed %.12s\n", id)
		if id == "" {
			human = "nothing to commit\n"
		}
		return map[string]any{"worktree": rest[0], "commit": id, "committed": id != ""}, human, nil
	default: // discard
		if err := m.Discard(ctx, root, rest[0]); err != nil {
			return nil, "", err
		}
		return map[string]any{"worktree": rest[0], "discarded": true}, "discarded " + rest[0] + "\n", nil
	}
}
