//go:build !linux

package testthread

// onMain reports false where a thread's ID is not read: the test's goroutine stays where it was locked.
func onMain() bool { return false }
