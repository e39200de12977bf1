package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/version"
)

type versionOut struct {
	version.Info
	Sandbox sandbox.Info `json:"sandbox"`
}

// runVersion prints the build and whether commands can be sandboxed on this machine.
func runVersion(_ context.Context, stdio IO, args []string) int {
	fs := newFlagSet("version", stdio, "[--json]")
	asJSON := fs.Bool("json", false, "print the version, commit, Go version, platform and sandbox as JSON")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() > 0 {
		return usageError(stdio, fs, "unexpected argument %q", fs.Arg(0))
	}
	out := versionOut{Info: version.Get(), Sandbox: sandbox.Probe(sandbox.Policy{})}
	if *asJSON {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(stdio.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintf(stdio.Stdout, "rooted %s (commit %s, %s, %s)\n", out.Version, out.Short(), out.GoVersion, out.Platform)
	if out.Sandbox.Active {
		fmt.Fprintf(stdio.Stdout, "sandbox: %s ABI %d: commands run confined to the project\n", out.Sandbox.Kind, out.Sandbox.Level)
	} else {
		fmt.Fprintf(stdio.Stdout, "sandbox: none: %s\n", out.Sandbox.Reason)
	}
	return ExitOK
}
