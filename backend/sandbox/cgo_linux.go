//go:build linux && cgo

package sandbox

// cgoThreads: this build's threads are signalled by libpsx with tkill (selfDeniesTkill).
const cgoThreads = true
