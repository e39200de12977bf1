// Package instructions finds the files a project keeps for coding agents and reads them for the agent's system
// prompt, as other agents read them: at the root AGENTS.md, or when there is none CLAUDE.md, then
// .github/copilot-instructions.md; in each folder from the root down to the working directory, its AGENTS.md (or
// CLAUDE.md). Each file is capped (MaxFile), and so is the whole (MaxTotal). The window, the CLI and the MCP
// server share it.
//
// Guarantees: every file is read through the project's *os.Root, so a link out of the project is never followed,
// and as every file Rooted reads for itself (package smallfile): a pipe or a device by one of these names is
// skipped without blocking, and so is a file over 1 MiB (with a warning in the log).
package instructions

import (
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Caps on what goes into a system prompt, in bytes.
const (
	MaxFile  = 16 << 10
	MaxTotal = 32 << 10
)

// File is one file read into the system prompt.
type File struct {
	Path      string `json:"path"` // slash path from the project root
	Content   string `json:"content"`
	Size      int    `json:"size"`      // bytes on disk
	Truncated bool   `json:"truncated"` // only the first part was read: the file, or the total, is over its cap
}

// Find returns the instruction files of the project open as root for the working directory cwd (a slash path
// relative to the root; "" or "." is the root), outermost first.
func Find(root *os.Root, cwd string) []File {
	dirs := []string{"."}
	if rel := path.Clean(strings.Trim(cwd, "/")); rel != "." && rel != "" && rel != ".." && !strings.HasPrefix(rel, "../") {
		parts := strings.Split(rel, "/")
		for i := range parts {
			dirs = append(dirs, strings.Join(parts[:i+1], "/"))
		}
	}
	out := []File{}
	left := MaxTotal
	for i, dir := range dirs {
		if left <= 0 {
			break
		}
		names := []string{"AGENTS.md", "CLAUDE.md"}
		if i == 0 {
			names = append(names, ".github/copilot-instructions.md")
		}
		for _, name := range names {
			rel := path.Join(dir, name)
			b, err := smallfile.ReadIn(root, rel)
			if err != nil {
				continue // missing, a folder or a pipe by that name, too large, or a link out of the project
			}
			f := File{Path: rel, Size: len(b)}
			limit := min(MaxFile, left)
			if len(b) > limit {
				b, f.Truncated = b[:limit], true
				for len(b) > 0 && !utf8.Valid(b) {
					b = b[:len(b)-1] // not mid-character
				}
			}
			f.Content = string(b)
			left -= len(b)
			out = append(out, f)
			break // one file per folder: AGENTS.md wins
		}
	}
	return out
}
