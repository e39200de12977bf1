package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/beside"
)

// DesktopName is the desktop app's executable, installed beside rooted (build/bin, /usr/bin).
const DesktopName = "rooted-desktop"

// runOpen starts the desktop app on DIR (or on its open screen). The app is found beside this executable, then on
// PATH; on Unix this process becomes it, so a launcher, a terminal or a test that signals rooted reaches the app.
func runOpen(_ context.Context, stdio IO, args []string) int {
	flags := newFlagSet("open", stdio, "[DIR]")
	root := flags.String("root", "", "the project folder to open (the same as DIR)")
	pos, err := parseInterleaved(flags, args)
	if err != nil {
		return flagExit(err)
	}
	switch {
	case len(pos) > 1:
		return usageError(stdio, flags, "one folder at a time, not %d", len(pos))
	case len(pos) == 1 && *root != "":
		return usageError(stdio, flags, "give the folder once: DIR or --root DIR")
	case len(pos) == 1:
		*root = pos[0]
	}
	var dirArgs []string
	if *root != "" {
		abs, err := filepath.Abs(*root)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
				err = errors.New("not a directory")
			}
		}
		if err != nil && len(pos) == 1 && !strings.ContainsAny(*root, `/\.`) && errors.Is(err, fs.ErrNotExist) {
			// "rooted serach": more likely a mistyped command than a folder.
			fmt.Fprintf(stdio.Stderr, "rooted: %q is neither a command nor a folder (see rooted help)\n", *root)
			return ExitUsage
		}
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "rooted: cannot open %s: %v\n", *root, unwrapPathError(err))
			return ExitToolError
		}
		dirArgs = []string{"--root", abs}
	}
	app, err := beside.Find(DesktopName)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "rooted: the desktop app %v: install the rooted package, or build it with make build; every other command works without it (rooted help)\n", err)
		return ExitToolError
	}
	return become(append([]string{app}, dirArgs...), stdio)
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
