package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/rooted-dev/rooted/backend/beside"

	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

func runCall(ctx context.Context, stdio IO, args []string) int {
	return CallWith(ctx, stdio, args, nil)
}

// CallWith is rooted call with a web fetcher for web_fetch: rooted-mcp's "call", which links the HTTP client that
// rooted leaves out. rooted itself has none, and hands a web_fetch the project's rules allow to rooted-mcp.
func CallWith(ctx context.Context, stdio IO, args []string, web webfetch.Fetcher) int {
	return CallExtras(ctx, stdio, args, Extras{Web: web})
}

// CallExtras is rooted call with what rooted-mcp links: web_fetch's fetcher, and the MCP client that calls the
// tools of the servers the user's settings name for the project (mcp__<server>__<tool>).
func CallExtras(ctx context.Context, stdio IO, args []string, x Extras) int {
	web := x.Web
	fs := newFlagSet("call", stdio, "TOOL [--root DIR] [--cwd DIR] [JSON]")
	var pf projectFlags
	pf.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 || len(pos) > 2 {
		return usageError(stdio, fs, "want a tool name and at most one JSON argument, got %d arguments", len(pos))
	}
	name, input := pos[0], ""
	if len(pos) == 2 {
		input = pos[1]
	} else if stdio.Stdin != nil {
		if input, err = readAll(stdio.Stdin); err != nil {
			return usageError(stdio, fs, "reading arguments from stdin: %v", err)
		}
	}
	w, terr := pf.openWith(web)
	if terr != nil {
		return printError(stdio, terr)
	}
	defer w.Close()
	reg := w.Registry()
	if isForeign(name) {
		if x.OpenForeign == nil {
			if code, ok := handOver(stdio, w, args, pos, input); ok {
				return code
			}
			return printError(stdio, tool.Errorf(tool.CodeServerFailed, "%s is another MCP server's tool, which %s calls; it is not installed beside rooted", name, MCPName))
		}
		if f, ok := withForeign(w.Session(), reg, x.OpenForeign); ok {
			defer f.Close()
		}
	}
	res, terr := reg.CallForms(ctx, name, []byte(input))
	if terr != nil && web == nil && terr.Details["fetcher"] == "none" {
		// Allowed, but this binary has no HTTP client: the MCP server's binary runs the call with one.
		if code, ok := handOver(stdio, w, args, pos, input); ok {
			return code
		}
	}
	if terr != nil {
		if terr.Code == tool.CodeUnknownTool {
			fmt.Fprintln(stdio.Stderr, "rooted call:", terr.Message)
			printError(stdio, terr)
			return ExitUsage
		}
		return printError(stdio, terr)
	}
	if _, _, ok := res.Image(); ok { // an image is described (type, size, dimensions), not dumped as base64
		return printJSON(stdio, res.Structured())
	}
	return printJSON(stdio, res.JSON())
}

// printError writes a tool error's JSON to stdout, where scripts read results, and returns ExitToolError.
func printError(stdio IO, e *tool.Error) int {
	printJSON(stdio, e.JSON())
	return ExitToolError
}

func printJSON(stdio IO, raw []byte) int {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		buf.Reset()
		buf.Write(raw)
	}
	buf.WriteByte('\n')
	_, _ = stdio.Stdout.Write(buf.Bytes())
	return ExitOK
}

// handOver has rooted-mcp, which links what rooted leaves out (an HTTP client, the MCP client), run the call:
// ok is false when it cannot be found.
func handOver(stdio IO, s interface{ Close() error }, args, pos []string, input string) (code int, ok bool) {
	server, err := beside.Find(MCPName)
	if err != nil {
		return 0, false
	}
	_ = s.Close()
	argv := append([]string{server, "call"}, args...)
	if len(pos) == 1 { // the JSON came on stdin, which this process has read
		argv = append(argv, input)
	}
	return become(argv, stdio), true
}
