package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Commands typed in the request box (/name arguments) expand a prompt file of .agents/commands, or a skill, into
// the request the model gets; backend/skills finds both.

// CommandView is what /name expands: a prompt file's body, or a skill's instructions.
type CommandView struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // command or skill
	Path string `json:"path"`
	Body string `json:"body"`
}

func (s *Settings) places(ws string) (skills.Places, error) {
	p := skills.Places{User: s.skillDirs, UserCommands: s.commandDirs}
	w, err := open(s.set, ws)
	if err != nil {
		return p, err
	}
	info, err := w.Session().Info()
	if err != nil {
		return p, rejectErr(err)
	}
	t, err := w.Session().Resolve(info.Root)
	if err != nil {
		return p, rejectErr(err)
	}
	p.Project, p.Cwd = t.Root, info.CwdRel
	return p, nil
}

// Command returns what /name expands in project ws: the prompt file called name, else the skill.
func (s *Settings) Command(ws, name string) (CommandView, error) {
	p, err := s.places(ws)
	if err != nil {
		return CommandView{}, err
	}
	c, body, err := p.CommandBody(name)
	if err == nil {
		return CommandView{Name: c.Name, Kind: "command", Path: c.Path, Body: body}, nil
	}
	if !errors.Is(err, skills.ErrUnknownCommand) {
		return CommandView{}, rejectErr(err)
	}
	l, err := p.Load(name, "")
	if errors.Is(err, skills.ErrUnknown) {
		var names []string
		for _, c := range p.Commands() {
			names = append(names, "/"+c.Name)
		}
		for _, sk := range p.Find().Skills {
			names = append(names, "/"+sk.Name)
		}
		known := "there are none: add one as .agents/commands/NAME.md"
		if len(names) > 0 {
			known = "the commands are " + strings.Join(names, ", ")
		}
		return CommandView{}, reject(&tool.Error{Code: tool.CodeNotFound, Field: "name", Message: fmt.Sprintf("no command or skill is called %q; %s", name, known)})
	}
	if err != nil {
		return CommandView{}, rejectErr(err)
	}
	return CommandView{Name: l.Name, Kind: "skill", Path: l.Path, Body: l.Content}, nil
}
