//go:build !linux || bindings

package app

// CheckDisplay has nothing to check outside Linux (the desktop is always there), nor while Wails generates bindings.
func CheckDisplay() error { return nil }
