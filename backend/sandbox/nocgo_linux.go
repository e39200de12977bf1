//go:build linux && !cgo

package sandbox

// cgoThreads: this build has no cgo; Go signals its threads with tgkill (selfDeniesTkill).
const cgoThreads = false
