package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tools"
)

func runTools(ctx context.Context, stdio IO, args []string) int {
	fs := newFlagSet("tools", stdio, "[--json]")
	asJSON := fs.Bool("json", false, "print the specs as JSON (name, description, input_schema, effects, examples)")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		return usageError(stdio, fs, "unexpected argument %q", fs.Arg(0))
	}
	specs := tools.Registry(tools.Deps{Session: session.New()}).Specs()
	if *asJSON {
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
		first, _, _ := strings.Cut(s.Description, "\n\n")
		fmt.Fprintf(stdio.Stdout, "%s (%s)\n  %s\n\n", s.Name, effect, strings.ReplaceAll(first, "\n", "\n  "))
	}
	return ExitOK
}
