// Package version says which build of Rooted is running: the release version stamped at build time, the commit
// and whether the tree had local changes (from the Go toolchain's build information), and the Go version. It does
// not say what the machine can do; the CLI's version command adds the sandbox from package shell.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the release, set at link time: go build -ldflags "-X github.com/rooted-dev/rooted/backend/version.Version=1.2.3".
// The Makefile stamps wails.json's productVersion; a plain go build says "dev".
var Version = "dev"

// Commit is the revision, set at link time like Version (the Makefile does, since a GOFLAGS of -buildvcs=false,
// or a build outside a checkout, leaves the toolchain's own record empty). Build information is the fallback.
var Commit = ""

// Info describes this build.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`   // the VCS revision the binary was built from
	Modified  bool   `json:"modified,omitempty"` // built from a tree with uncommitted changes
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"` // GOOS/GOARCH
}

// Get reads this build's information.
func Get() Info {
	info := Info{Version: Version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if Commit != "" {
		info.Commit, info.Modified = strings.CutSuffix(Commit, "+dirty")
		return info
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	return info
}

// Short is the commit abbreviated as git does, with "+dirty" for a modified tree; "unknown" without one.
func (i Info) Short() string {
	c := i.Commit
	if c == "" {
		return "unknown"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	if i.Modified {
		c += "+dirty"
	}
	return c
}
