//go:build linux && !amd64 && !arm64

package sandbox

// selfDenied is empty where Rooted has no seccomp filter (networkFilter): Landlock alone confines there.
var selfDenied []uint32
