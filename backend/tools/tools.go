// Package tools declares Rooted's tools, one file each with its description beside it in Markdown, and wires them
// to a session. Every face (Wails, LLM, CLI, MCP) gets its registry from Registry.
package tools

import (
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Deps are what the tools act on. One Deps (and so one registry) per session.
type Deps struct {
	Session *session.Session
}

// Registry declares every tool against deps.
func Registry(d Deps) *tool.Registry {
	return tool.NewRegistry(Classify,
		getWorkingDirectory(d),
		changeWorkingDirectory(d),
		listDirectory(d),
		readFile(d),
		writeFile(d),
		patchFile(d),
		searchFiles(d),
		findFiles(d),
	)
}
