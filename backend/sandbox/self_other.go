//go:build !linux

package sandbox

// ConfineSelf confines nothing where Rooted has no sandbox (see Platform), and says so by returning nil: the
// process runs as it started.
func ConfineSelf(writable []string) error { return nil }
