package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/beside"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
)

func runTools(ctx context.Context, stdio IO, args []string) int {
	return ToolsExtras(ctx, stdio, args, Extras{})
}

// ToolsExtras is rooted tools; with --root, the tools of the MCP servers the user's settings name for that project
// are listed too, which takes the MCP client (Extras.OpenForeign): rooted hands such a listing to rooted-mcp.
func ToolsExtras(ctx context.Context, stdio IO, args []string, x Extras) int {
	fs := newFlagSet("tools", stdio, "[--json] [--root DIR]")
	asJSON := fs.Bool("json", false, "print the specs as JSON (name, description, input_schema, effects, examples)")
	root := fs.String("root", "", "also list the tools of the MCP servers the user's settings name for this project")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return usageError(stdio, fs, "unexpected argument %q", pos[0])
	}
	s := session.New()
	if *root != "" {
		if s, err = session.Open(*root); err != nil {
			return printError(stdio, tools.Classify(err))
		}
	}
	defer s.Close()
	reg := tools.Registry(tools.ListDeps(s)) // the user's settings decide the optional tools (web_search)
	if *root != "" && hasForeignServers(s) {
		if x.OpenForeign == nil {
			if server, err := beside.Find(MCPName); err == nil {
				_ = s.Close()
				return become(append([]string{server, "tools"}, args...), stdio)
			}
			fmt.Fprintf(stdio.Stderr, "rooted tools: the project's MCP servers are listed by %s, which is not installed beside rooted\n", MCPName)
		} else if f, ok := withForeign(s, reg, x.OpenForeign); ok {
			defer f.Close()
			start, cancel := context.WithTimeout(ctx, time.Minute)
			f.StartAll(start)
			cancel()
			for _, p := range f.Problems() {
				fmt.Fprintln(stdio.Stderr, "rooted tools:", p)
			}
		}
	}
	return printSpecs(stdio, reg.Specs(), *asJSON)
}

func printSpecs(stdio IO, specs []tool.Spec, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(specs); err != nil {
			return ExitToolError
		}
		return ExitOK
	}
	for _, s := range specs {
		effect := "read-only"
		if !s.ReadOnly {
			effect = "changes files"
		}
		if s.Name == "web_fetch" || s.Name == "web_search" {
			effect = "reaches the web"
		}
		if isForeign(s.Name) {
			effect = "another MCP server's, asks first"
		}
		first, _, _ := strings.Cut(s.Description, "\n\n")
		fmt.Fprintf(stdio.Stdout, "%s (%s)\n  %s\n\n", s.Name, effect, strings.ReplaceAll(first, "\n", "\n  "))
	}
	return ExitOK
}
