//go:build !linux

package sandbox

// ConfineSelf confines nothing where Rooted has no sandbox (see Platform): the process runs as it started.
func ConfineSelf(writable []string) error { return nil }

// SealSelf seals nothing where Rooted has no sandbox.
func SealSelf(readable []string) error { return nil }
