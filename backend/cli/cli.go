// Package cli runs Rooted's subcommands: the same registry the window uses, from a terminal. Exit codes are a
// contract: 0 success, 1 the tool failed (its error JSON is printed), 2 bad usage.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/webfetch"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitToolError = 1
	ExitUsage     = 2
)

// IO is where a command reads and writes; tests pass buffers.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

type command struct {
	name, args, summary string
	run                 func(ctx context.Context, io IO, args []string) int
}

func commands() []command {
	return []command{
		{"tools", "[--json] [--root DIR]", "list every tool with its description and input schema (with --root, the project's MCP servers' too)", runTools},
		{"call", "TOOL [--root DIR] [--cwd DIR] [JSON]", "run one tool with JSON arguments (or JSON on stdin) and print its JSON result", runCall},
		{"read", "--file PATH [--offset N] [--limit N]", "print a file, or a range of its lines", runRead},
		{"edit", "--file PATH --content TEXT | --search OLD --replace NEW", "write a file atomically, or replace exact text in it", runEdit},
		{"ls", "[PATH]", "list a directory, directories first", runLs},
		{"search", "PATTERN [PATH] [--regex] [-i] [--glob G]", "search file contents, .gitignore respected (as rg does)", runSearch},
		{"find", "GLOB...", "find files by name, .gitignore respected", runFind},
		{"exec", "[--timeout 30s] -- PROGRAM ARGS...", "run an allowlisted program in the project (sandboxed where the OS allows)", runExec},
		{"snapshots", "[--limit N] [--log]", "list the snapshots taken before every change (or the backup log)", runSnapshots},
		{"diff", "ID [--path P]", "show what changed since a snapshot", runDiff},
		{"restore", "ID [--path P]...", "put the project (or some paths) back as in a snapshot; the restore is itself backed up", runRestore},
		{"conversations", "list | show ID | export ID [--format markdown|json] [-o FILE]", "the project's agent conversations, as the window keeps them: list, print as Markdown, or export", runConversations},
		{"worktree", "new NAME | list | apply NAME | commit NAME | discard NAME", "a git worktree of the project on a branch of its own, outside it, and bringing its changes home", runWorktree},
		{"mcp", "[--root DIR] | sign-in NAME [--root DIR]", "serve every tool over MCP on stdin/stdout (for Claude Desktop, Claude Code, Cursor, Zed); sign-in: sign in with OAuth to an MCP server the project's settings name", runMCP},
		{"open", "[DIR]", "open the desktop app (on DIR); the same as rooted with no command", runOpen},
		{"version", "[--json]", "print the version, commit, Go version and whether commands can be sandboxed here", runVersion},
	}
}

// IsCommand reports whether arg names a subcommand, so main can tell "rooted call ..." from window flags.
func IsCommand(arg string) bool {
	if arg == "help" || arg == "--help" || arg == "-h" || arg == "--version" {
		return true
	}
	for _, c := range commands() {
		if c.name == arg {
			return true
		}
	}
	return false
}

// Main runs the subcommand in args[0] and returns the process exit code.
func Main(ctx context.Context, stdio IO, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		usage(stdio.Stdout)
		return ExitOK
	}
	if args[0] == "--version" {
		args[0] = "version"
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, stdio, args[1:])
		}
	}
	fmt.Fprintf(stdio.Stderr, "rooted: unknown command %q\n\n", args[0])
	usage(stdio.Stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: rooted [DIR | --root DIR]      open the desktop app (on DIR)")
	fmt.Fprintln(w, "       rooted COMMAND [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %s %s\n      %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nEvery command takes --root DIR (default: the current directory) and --cwd DIR (inside the root);")
	fmt.Fprintln(w, "commands print for people, or the tool's JSON with --json. rooted COMMAND --help for flags.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 the tool reported an error, 2 bad usage.")
}

// projectFlags are the flags every tool-running command shares.
type projectFlags struct{ root, cwd string }

func (p *projectFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.root, "root", ".", "project root; nothing outside it can be touched")
	fs.StringVar(&p.cwd, "cwd", "", "working directory inside the root that relative paths start from")
}

// open opens the flags' root as a one-shot workspace (no watcher, no jobs: the call searches the disk once), or
// returns a tool error. The caller closes it.
func (p *projectFlags) open() (*workspace.Workspace, *tool.Error) { return p.openWith(nil) }

// openWith is open with web_fetch's fetcher (nil: none, as in rooted, which links no HTTP client).
func (p *projectFlags) openWith(web webfetch.Fetcher) (*workspace.Workspace, *tool.Error) {
	w, err := workspace.Open(context.Background(), p.root, "cli", workspace.Options{Web: web})
	if err != nil {
		e := tools.Classify(err)
		if e.Code == tool.CodeInternal || e.Code == tool.CodeNotFound || e.Code == tool.CodeNotADirectory {
			e.Message = fmt.Sprintf("cannot open project root %s: %s", p.root, e.Message)
		}
		return nil, e
	}
	if p.cwd != "" {
		if _, err := w.Session().Chdir(p.cwd); err != nil {
			_ = w.Close()
			return nil, tools.Classify(err)
		}
	}
	return w, nil
}

// projectRoot is the absolute root the flags name, as a session resolves it (links followed), for a command that
// acts on Rooted's data about the project rather than on its files (its conversations, its worktrees).
func (p *projectFlags) projectRoot() (string, *tool.Error) {
	s, err := session.Open(p.root)
	if err != nil {
		e := tools.Classify(err)
		e.Message = fmt.Sprintf("cannot open project root %s: %s", p.root, e.Message)
		return "", e
	}
	defer s.Close()
	info, err := s.Info()
	if err != nil {
		return "", tool.Errorf(tool.CodeNoProject, "%v", err)
	}
	return info.Root, nil
}

// parseInterleaved parses flags that may come before or after positional arguments, as users type them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// Parse consumes a "--" and stops there: everything after it is positional, flags or not.
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlagSet(name string, stdio IO, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(stdio.Stderr, "Usage: rooted %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func usageError(stdio IO, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(stdio.Stderr, "rooted %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return ExitUsage
}

func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}

func readAll(r io.Reader) (string, error) {
	if r == nil {
		return "", nil
	}
	b, err := io.ReadAll(r)
	return strings.TrimSpace(string(b)), err
}
