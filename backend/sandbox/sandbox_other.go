//go:build !linux

package sandbox

// Platform returns this platform's backend: None, as Rooted has no sandbox for it yet. A platform's backend is an
// added file (sandbox_darwin.go, with Seatbelt) that implements Backend and passes conformance_test.go.
func Platform() Backend { return None{} }

// RunHelperIfAsked does nothing where there is no sandbox helper.
func RunHelperIfAsked() {}
