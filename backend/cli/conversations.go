package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/tool"
)

const conversationsSynopsis = "list | show ID | export ID [--format markdown|json] [-o FILE]  [--root DIR] [--json]"

// runConversations reads the project's conversations from the store the window writes (the user's data folder),
// so what it shows and exports is what the window shows and exports: the same Markdown, the same JSON.
func runConversations(_ context.Context, stdio IO, args []string) int {
	c := newFileCommand("conversations", conversationsSynopsis, stdio)
	format := c.fs.String("format", conversations.Markdown, "export format: markdown or json")
	out := c.fs.String("o", "", "export: write to this file instead of standard output")
	data := c.fs.String("data", "", "Rooted's data folder (default: $XDG_DATA_HOME/rooted, else ~/.local/share/rooted)")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		return usageError(stdio, c.fs, "want list, show ID or export ID")
	}
	verb, rest := pos[0], pos[1:]
	switch {
	case verb == "list" && len(rest) == 0:
	case (verb == "show" || verb == "export") && len(rest) == 1:
	default:
		return usageError(stdio, c.fs, "want list, show ID or export ID")
	}
	if *format != conversations.Markdown && *format != conversations.JSON {
		return usageError(stdio, c.fs, "--format is markdown or json, not %q", *format)
	}
	root, terr := c.pf.projectRoot()
	if terr != nil {
		return c.fail(terr)
	}
	base := *data
	if base == "" {
		if base, err = conversations.DefaultBase(); err != nil {
			return c.fail(tool.Errorf(tool.CodeInternal, "no data folder: %v", err))
		}
	}
	store := conversations.ForProject(base, root)
	switch verb {
	case "list":
		err = listConversations(stdio, store, root, *c.asJSON)
	case "show":
		f := conversations.Markdown
		if *c.asJSON {
			f = conversations.JSON
		}
		err = exportConversation(stdio, store, rest[0], f, "")
	default:
		err = exportConversation(stdio, store, rest[0], *format, *out)
	}
	if err != nil {
		return c.fail(conversationError(err))
	}
	return ExitOK
}

// conversationError gives a failure of the conversation store its code.
func conversationError(err error) *tool.Error {
	code := tool.CodeInternal
	switch {
	case errors.Is(err, conversations.ErrNotFound):
		code = tool.CodeNotFound
	case errors.Is(err, conversations.ErrBadID):
		code = tool.CodeInvalidArgument
	}
	return tool.Errorf(code, "%v", err)
}

// listConversations prints the project's conversations, newest first, as lines or as JSON.
func listConversations(stdio IO, store *conversations.Store, root string, asJSON bool) error {
	list, err := store.List()
	if err != nil {
		return err
	}
	if asJSON {
		b, _ := json.MarshalIndent(map[string]any{"conversations": list}, "", "  ")
		fmt.Fprintln(stdio.Stdout, string(b))
		return nil
	}
	for _, m := range list {
		fmt.Fprintf(stdio.Stdout, "%-20s  %s  %s\n", m.ID, m.Updated.Local().Format(time.DateTime), m.Title)
	}
	if len(list) == 0 {
		fmt.Fprintf(stdio.Stdout, "no conversations for %s\n", root)
	}
	return nil
}

// exportConversation writes conversation id in format to standard output, or, with out, to that file: written
// whole or not at all, so an export never leaves half a file where one was.
func exportConversation(stdio IO, store *conversations.Store, id, format, out string) error {
	if out == "" {
		w := bufio.NewWriter(stdio.Stdout)
		if err := store.Export(w, id, format); err != nil {
			return err
		}
		return w.Flush()
	}
	var buf bytesBuffer
	if err := store.Export(&buf, id, format); err != nil {
		return err
	}
	path, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := configfile.Write(path, buf); err != nil {
		return err
	}
	if err := os.Chmod(path, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Stderr, "wrote %s (%d bytes)\n", path, len(buf))
	return nil
}

// bytesBuffer is an io.Writer collecting bytes.
type bytesBuffer []byte

func (b *bytesBuffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}
