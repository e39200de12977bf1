//go:build !linux

package index

// background does nothing where a thread's priority cannot be set on its own.
func background(int) {}
