package app

import (
	"strings"

	"github.com/rooted-dev/rooted/backend/instructions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Project instructions (AGENTS.md and friends) are found by backend/instructions, which the CLI and MCP server
// can use as well; these are the window's DTOs for them.

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
	// Skills are the skills of the project (from its working directory up) and of the user, in precedence order,
	// and the SKILL.md files left out; the system prompt lists them within a share of the model's window.
	Skills skills.Catalog `json:"skills"`
	// Commands are the prompt files /name runs (.agents/commands), for the request box's completion.
	Commands []skills.Command `json:"commands"`
}

// Instructions returns project ws's instruction files for its working directory, and the user's own.
func (s *Settings) Instructions(ws string) (InstructionsView, error) {
	v := InstructionsView{Files: []InstructionFile{}, Skills: skills.Catalog{Skills: []skills.Skill{}}, Commands: []skills.Command{}}
	if s.store != nil {
		u, err := s.store.User()
		if err != nil {
			return v, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
		}
		v.User = u.Instructions
	}
	w, err := open(s.set, ws)
	if err != nil {
		return v, err
	}
	info, err := w.Session().Info()
	if err != nil {
		return v, rejectErr(err)
	}
	t, err := w.Session().Resolve(info.Root)
	if err != nil {
		return v, rejectErr(err)
	}
	for _, f := range instructions.Find(t.Root, info.CwdRel) {
		v.Files = append(v.Files, InstructionFile(f))
	}
	places := skills.Places{Project: t.Root, Cwd: info.CwdRel, User: s.skillDirs, UserCommands: s.commandDirs}
	v.Skills, v.Commands = places.Find(), places.Commands()
	return v, nil
}

// SaveUserInstructions saves the user's own instructions to the agent, for every project, and returns project
// ws's instructions with them.
func (s *Settings) SaveUserInstructions(ws, text string) (InstructionsView, error) {
	if s.store == nil {
		return InstructionsView{}, reject(tool.Errorf(tool.CodeInternal, "settings are not available here"))
	}
	if len(text) > settings.MaxInstructions {
		return InstructionsView{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "instructions", Message: "instructions are limited to 16 KiB"})
	}
	// One read-modify-write under the store's lock: a step limit saved at the same moment is kept.
	trimmed := strings.TrimSpace(text)
	if err := s.store.UpdateUser(func(u *settings.User) error { u.Instructions = trimmed; return nil }); err != nil {
		return InstructionsView{}, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	if _, err := s.set.Get(ws); err != nil {
		return InstructionsView{Files: []InstructionFile{}, User: trimmed, Skills: skills.Catalog{Skills: []skills.Skill{}}, Commands: []skills.Command{}}, nil
	}
	return s.Instructions(ws)
}
