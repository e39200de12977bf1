package cli

import (
	"os"
	"path/filepath"
)

// AbsoluteHome makes a relative HOME absolute, from the folder Rooted started in, before anything reads it: every
// folder Rooted derives from it (its settings, the snapshots' cache, the sandbox's lists of what commands may read)
// must name the same place wherever a later step runs, and git, started in the project, would otherwise take it from
// there. It says what it did, for the start-up log; "" when HOME was absolute or unset.
func AbsoluteHome() string {
	home := os.Getenv("HOME")
	if home == "" || filepath.IsAbs(home) {
		return ""
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return ""
	}
	os.Setenv("HOME", abs)
	return "HOME " + home + " is relative: taken as " + abs
}
