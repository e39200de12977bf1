package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/tool"
)

// fileCommand is the shared shape of the human-friendly commands: they build one tool call from flags, run it,
// and print the result for people (or as JSON with --json).
type fileCommand struct {
	fs     *flag.FlagSet
	pf     projectFlags
	asJSON *bool
	stdio  IO
}

func newFileCommand(name, synopsis string, stdio IO) *fileCommand {
	c := &fileCommand{fs: newFlagSet(name, stdio, synopsis), stdio: stdio}
	c.pf.register(c.fs)
	c.asJSON = c.fs.Bool("json", false, "print the tool's JSON result instead of human output")
	return c
}

// call runs a tool and hands the decoded result to human, or prints JSON; it returns the exit code.
func (c *fileCommand) call(ctx context.Context, name string, args map[string]any, human func(raw []byte) error) int {
	w, terr := c.pf.open()
	if terr != nil {
		return c.fail(terr)
	}
	defer w.Close()
	reg := w.Registry()
	in, err := json.Marshal(args)
	if err != nil {
		return c.fail(tool.Errorf(tool.CodeInternal, "encoding arguments: %v", err))
	}
	out, terr := reg.Call(ctx, name, in)
	if terr != nil {
		return c.fail(terr)
	}
	if *c.asJSON {
		return printJSON(c.stdio, out)
	}
	if err := human(out); err != nil {
		return c.fail(tool.Errorf(tool.CodeInternal, "%v", err))
	}
	return ExitOK
}

// fail prints a tool error: JSON with --json, else "rooted: code: message" on stderr.
func (c *fileCommand) fail(e *tool.Error) int {
	if *c.asJSON {
		return printError(c.stdio, e)
	}
	fmt.Fprintf(c.stdio.Stderr, "rooted %s: %s: %s\n", c.fs.Name(), e.Code, e.Message)
	return ExitToolError
}

func runRead(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("read", "--file PATH [--offset N] [--limit N] [--root DIR] [--json]", stdio)
	file := c.fs.String("file", "", "file to read (required)")
	offset := c.fs.Int("offset", 0, "first line, 1-based")
	limit := c.fs.Int("limit", 0, "number of lines")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if *file == "" && len(pos) == 1 {
		*file, pos = pos[0], nil
	}
	if *file == "" || len(pos) > 0 {
		return usageError(stdio, c.fs, "want --file PATH")
	}
	in := map[string]any{"path": *file}
	if *offset > 0 {
		in["offset"] = *offset
	}
	if *limit > 0 {
		in["limit"] = *limit
	}
	return c.call(ctx, "read_file", in, func(raw []byte) error {
		var r struct {
			Content   string `json:"content"`
			Truncated bool   `json:"truncated"`
			EndLine   int    `json:"end_line"`
			Total     int    `json:"total_lines"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		fmt.Fprint(stdio.Stdout, r.Content)
		if r.Truncated {
			fmt.Fprintf(stdio.Stderr, "rooted read: showing up to line %d of %d; use --offset %d for more\n", r.EndLine, r.Total, r.EndLine+1)
		}
		return nil
	})
}

func runEdit(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("edit", "--file PATH (--content TEXT | --search OLD --replace NEW [--replace-all]) [--dry-run] [--root DIR] [--json]", stdio)
	file := c.fs.String("file", "", "file to write or patch (required)")
	content := c.fs.String("content", "", "write the whole file with this content")
	search := c.fs.String("search", "", "exact text to replace")
	replace := c.fs.String("replace", "", "text to put in its place")
	replaceAll := c.fs.Bool("replace-all", false, "replace every occurrence of --search")
	stdin := c.fs.Bool("stdin", false, "read the new content from standard input")
	noBackup := c.fs.Bool("no-backup", false, "change the file without taking a snapshot first")
	dryRun := c.fs.Bool("dry-run", false, "change nothing: print the diff the edit would make")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	set := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	writing := set["content"] || *stdin
	patching := set["search"] || set["replace"]
	switch {
	case len(pos) > 0:
		return usageError(stdio, c.fs, "unexpected argument %q", pos[0])
	case *file == "":
		return usageError(stdio, c.fs, "want --file PATH")
	case writing == patching:
		return usageError(stdio, c.fs, "give either --content (or --stdin) to write the file, or --search and --replace to patch it")
	case patching && (!set["search"] || !set["replace"]):
		return usageError(stdio, c.fs, "--search and --replace go together (--replace '' deletes)")
	}
	if writing {
		if *stdin {
			b, err := readAll(stdio.Stdin)
			if err != nil {
				return usageError(stdio, c.fs, "reading stdin: %v", err)
			}
			*content = b
		}
		in := map[string]any{"path": *file, "content": *content}
		if *noBackup {
			in["backup"] = false
		}
		if *dryRun {
			in["dry_run"] = true
		}
		return c.call(ctx, "write_file", in, func(raw []byte) error {
			var r struct {
				Path    string `json:"path"`
				Size    int64  `json:"size"`
				Created bool   `json:"created"`
				Backup  string `json:"backup"`
				Diff    string `json:"diff"`
			}
			if err := json.Unmarshal(raw, &r); err != nil {
				return err
			}
			if *dryRun {
				printDryRun(stdio, r.Path, r.Diff)
				return nil
			}
			verb := "wrote"
			if r.Created {
				verb = "created"
			}
			fmt.Fprintf(stdio.Stdout, "%s %s (%s)%s\n", verb, r.Path, files.HumanSize(r.Size), undoHint(r.Backup))
			return nil
		})
	}
	in := map[string]any{"path": *file, "search": *search, "replace": *replace}
	if *replaceAll {
		in["replace_all"] = true
	}
	if *noBackup {
		in["backup"] = false
	}
	if *dryRun {
		in["dry_run"] = true
	}
	return c.call(ctx, "patch_file", in, func(raw []byte) error {
		var r struct {
			Path     string `json:"path"`
			Replaced int    `json:"replaced"`
			Backup   string `json:"backup"`
			Diff     string `json:"diff"`
			Note     string `json:"note"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		if r.Note != "" {
			fmt.Fprintf(stdio.Stderr, "rooted edit: %s\n", r.Note)
		}
		if *dryRun {
			printDryRun(stdio, r.Path, r.Diff)
			return nil
		}
		fmt.Fprintf(stdio.Stdout, "patched %s: %d replacement%s%s\n", r.Path, r.Replaced, plural(r.Replaced), undoHint(r.Backup))
		return nil
	})
}

func runLs(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("ls", "[PATH] [--limit N] [--root DIR] [--json]", stdio)
	limit := c.fs.Int("limit", 0, "most entries to list")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 1 {
		return usageError(stdio, c.fs, "want at most one path")
	}
	in := map[string]any{}
	if len(pos) == 1 {
		in["path"] = pos[0]
	}
	if *limit > 0 {
		in["limit"] = *limit
	}
	return c.call(ctx, "list_directory", in, func(raw []byte) error {
		var r struct {
			Entries   []files.Entry `json:"entries"`
			Total     int           `json:"total"`
			Truncated bool          `json:"truncated"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		for _, e := range r.Entries {
			name := e.Name
			switch {
			case e.Kind == files.KindDir:
				name += "/"
			case e.Kind == files.KindSymlink:
				name += " -> " + e.Target
			}
			size := ""
			if e.Kind == files.KindFile || e.TargetKind == files.KindFile {
				size = files.HumanSize(e.Size)
			}
			fmt.Fprintf(stdio.Stdout, "%10s  %s\n", size, name)
		}
		if r.Truncated {
			fmt.Fprintf(stdio.Stderr, "rooted ls: %d of %d entries shown\n", len(r.Entries), r.Total)
		}
		return nil
	})
}

// printDryRun prints the diff an edit would make on stdout (so it can be piped to a pager or git apply) and says
// on stderr that nothing changed.
func printDryRun(stdio IO, path, diff string) {
	fmt.Fprint(stdio.Stdout, diff)
	if diff == "" {
		fmt.Fprintf(stdio.Stderr, "rooted edit: dry run: %s would not change\n", path)
		return
	}
	fmt.Fprintf(stdio.Stderr, "rooted edit: dry run: %s not changed\n", path)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// undoHint tells how to undo a change that was backed up.
func undoHint(backup string) string {
	if backup == "" {
		return ""
	}
	return fmt.Sprintf("; undo with: rooted restore %s", backup[:12])
}
