package app

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Project instructions: the files a project keeps for coding agents, read into the agent's system prompt as
// other agents read them. At the root, AGENTS.md, or when there is none CLAUDE.md, then
// .github/copilot-instructions.md; in each folder from the root down to the working directory, its AGENTS.md (or
// CLAUDE.md). Each file is capped, and so is the whole.
const (
	maxInstructionFile  = 16 << 10
	maxInstructionTotal = 32 << 10
)

// InstructionFile is one file read into the system prompt.
type InstructionFile struct {
	Path      string `json:"path"` // from the project root
	Content   string `json:"content"`
	Size      int    `json:"size"`      // bytes on disk
	Truncated bool   `json:"truncated"` // only the first part was read: the file, or the total, is over its cap
}

// InstructionsView is what goes into the agent's system prompt besides Rooted's own rules.
type InstructionsView struct {
	Files []InstructionFile `json:"files"`
	User  string            `json:"user"` // the user's own instructions, from Settings
}

// Instructions returns the open project's instruction files for its working directory, and the user's own.
func (s *Settings) Instructions() (InstructionsView, error) {
	v := InstructionsView{Files: []InstructionFile{}}
	if s.store != nil {
		u, err := s.store.User()
		if err != nil {
			return v, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
		}
		v.User = u.Instructions
	}
	info, err := s.session.Info()
	if err != nil {
		return v, rejectErr(err)
	}
	t, err := s.session.Resolve(info.Root)
	if err != nil {
		return v, rejectErr(err)
	}
	dirs := []string{"."}
	if rel := path.Clean(strings.TrimPrefix(info.CwdRel, "/")); rel != "." && rel != "" {
		parts := strings.Split(rel, "/")
		for i := range parts {
			dirs = append(dirs, strings.Join(parts[:i+1], "/"))
		}
	}
	left := maxInstructionTotal
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
			b, err := files.ReadRegular(t.Root, "read", rel)
			if err != nil {
				continue // missing, a folder or a pipe by that name, or a link out of the project: not instructions
			}
			f := InstructionFile{Path: rel, Size: len(b)}
			limit := min(maxInstructionFile, left)
			if len(b) > limit {
				b, f.Truncated = b[:limit], true
				for len(b) > 0 && !utf8.Valid(b) {
					b = b[:len(b)-1] // not mid-character
				}
			}
			f.Content = string(b)
			left -= len(b)
			v.Files = append(v.Files, f)
			break // one file per folder: AGENTS.md wins
		}
	}
	return v, nil
}

// SaveUserInstructions saves the user's own instructions to the agent, for every project.
func (s *Settings) SaveUserInstructions(text string) (InstructionsView, error) {
	if s.store == nil {
		return InstructionsView{}, reject(tool.Errorf(tool.CodeInternal, "settings are not available here"))
	}
	if len(text) > settings.MaxInstructions {
		return InstructionsView{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "instructions", Message: "instructions are limited to 16 KiB"})
	}
	u, err := s.store.User()
	if err != nil {
		return InstructionsView{}, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	u.Instructions = strings.TrimSpace(text)
	if err := s.store.SetUser(u); err != nil {
		return InstructionsView{}, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	if _, err := s.session.Info(); err != nil {
		return InstructionsView{Files: []InstructionFile{}, User: u.Instructions}, nil
	}
	return s.Instructions()
}
