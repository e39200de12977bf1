//go:build linux && !bindings

package app

import (
	"errors"
	"os"
)

// CheckDisplay fails plainly when there is no display to open a window on, instead of GTK's abort.
func CheckDisplay() error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display: DISPLAY and WAYLAND_DISPLAY are unset, so the window cannot open. " +
			"Run Rooted in a desktop session (or under xvfb-run), or use the command line: rooted help")
	}
	return nil
}
