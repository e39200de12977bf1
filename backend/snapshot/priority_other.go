//go:build !unix

package snapshot

func lowerPriority(int) {}
