package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/rooted-dev/rooted/backend/skills"
	"github.com/rooted-dev/rooted/backend/smallfile"
	"github.com/rooted-dev/rooted/backend/tool"
)

//go:embed use_skill.md
var useSkillDoc string

type useSkillIn struct {
	Name string `json:"name,omitempty" jsonschema:"the skill's name, as the list of skills gives it; leave out to list the skills"`
	File string `json:"file,omitempty" jsonschema:"one of the skill's other files to read instead of its instructions, as files lists it (references/forms.md)"`
}

type useSkillOut struct {
	skills.Loaded
	// Skills is the list of skills, when no name was given.
	Skills []skills.Skill `json:"skills,omitempty"`
}

// skillPlaces are where the session's skills are looked for: the open project from its working directory up,
// then the user's folders. Without a project, only the user's.
func (d Deps) skillPlaces() skills.Places {
	p := skills.Places{User: d.SkillDirs}
	if info, err := d.Session.Info(); err == nil {
		if t, err := d.Session.Resolve(info.Root); err == nil {
			p.Project, p.Cwd = t.Root, info.CwdRel
		}
	}
	return p
}

// Skills lists the skills of the session's project and its user, for a face's system prompt.
func (d Deps) Skills() skills.Catalog { return d.skillPlaces().Find() }

func useSkill(d Deps) *tool.Tool {
	return tool.New(tool.Def{
		Name: "use_skill", Title: "Use skill", Description: useSkillDoc, ReadOnly: true, Idempotent: true,
		Examples: []string{`{"name": "review"}`, `{"name": "pdf", "file": "references/forms.md"}`, `{}`},
	}, func(ctx context.Context, in useSkillIn) (useSkillOut, error) {
		p := d.skillPlaces()
		if in.Name == "" {
			if in.File != "" {
				return useSkillOut{}, &tool.Error{Code: tool.CodeInvalidArgument, Field: "name", Message: "name the skill whose file to read"}
			}
			return useSkillOut{Loaded: skills.Loaded{Files: []string{}}, Skills: p.Find().Skills}, nil
		}
		l, err := p.Load(in.Name, in.File)
		if err != nil {
			return useSkillOut{}, skillError(p, in, err)
		}
		return useSkillOut{Loaded: l}, nil
	})
}

// skillError names what went wrong in use_skill's terms: an unknown skill lists the known ones.
func skillError(p skills.Places, in useSkillIn, err error) error {
	var se *smallfile.Error
	switch {
	case errors.Is(err, skills.ErrUnknown):
		var names []string
		for _, s := range p.Find().Skills {
			names = append(names, s.Name)
		}
		known := "there are none"
		if len(names) > 0 {
			known = "the skills are: " + strings.Join(names, ", ")
		}
		return &tool.Error{Code: tool.CodeNotFound, Field: "name", Message: fmt.Sprintf("no skill is called %q; %s", in.Name, known)}
	case errors.Is(err, skills.ErrBadFile):
		return &tool.Error{Code: tool.CodeInvalidArgument, Field: "file", Message: err.Error()}
	case errors.Is(err, skills.ErrBinary):
		return &tool.Error{Code: tool.CodeBinaryFile, Field: "file", Message: err.Error() + "; only text files of a skill can be read"}
	case errors.As(err, &se) && errors.Is(err, smallfile.ErrTooLarge):
		return &tool.Error{Code: tool.CodeTooLarge, Field: "file", Message: err.Error()}
	case errors.As(err, &se):
		return &tool.Error{Code: tool.CodeInvalidArgument, Field: "file", Message: err.Error()}
	case errors.Is(err, fs.ErrNotExist):
		return &tool.Error{Code: tool.CodeNotFound, Field: "file", Message: fmt.Sprintf("the skill %s has no file %s; its files are listed by {\"name\": %q}", in.Name, in.File, in.Name)}
	case strings.Contains(err.Error(), "path escapes"):
		return &tool.Error{Code: tool.CodeOutsideRoot, Field: "file", Message: fmt.Sprintf("%s of the skill %s is a link out of its folder, which is never followed", in.File, in.Name)}
	}
	return err
}

// ModelText is the skill's instructions (or the file asked for) as they are, then where the skill's files are and
// how to use them; or the list of skills.
func (r useSkillOut) ModelText() string {
	var b strings.Builder
	if r.Name == "" {
		if len(r.Skills) == 0 {
			return "(no skills: none in .agents/skills or .claude/skills from the working directory up, nor in the user's skills folders)"
		}
		for _, s := range r.Skills {
			fmt.Fprintf(&b, "%s: %s (%s)\n", s.Name, s.Description, s.Scope)
		}
		fmt.Fprintf(&b, "(%d skills: read one with use_skill {\"name\": ...})", len(r.Skills))
		return b.String()
	}
	b.WriteString(r.Content)
	if !strings.HasSuffix(r.Content, "\n") {
		b.WriteByte('\n')
	}
	if r.Truncated {
		fmt.Fprintf(&b, "(cut at %d bytes)\n", skills.MaxBody)
	}
	fmt.Fprintf(&b, "(skill %s, %s, folder %s", r.Name, r.File, r.Dir)
	if len(r.Files) > 0 {
		fmt.Fprintf(&b, "; its other files: %s", strings.Join(r.Files, ", "))
		if r.More > 0 {
			fmt.Fprintf(&b, " and %d more", r.More)
		}
		b.WriteString("; read one with use_skill {\"name\": \"" + r.Name + "\", \"file\": ...}")
		if r.Scope == skills.ScopeProject {
			b.WriteString("; run a script with exec_shell from the project, as any command")
		}
	}
	b.WriteString(")")
	return b.String()
}
