package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Commands are prompt files the user runs by name in the request box (/review src/api): a Markdown file in
// .agents/commands (or .claude/commands) from the working directory up to the project root, or in the user's
// commands folders, whose body is the request, with $ARGUMENTS standing for what follows the name. Front matter
// is optional: description and argument-hint show in the completion list. They are found and read as skills are
// (the nearest first, the project before the user; through an os.Root and the small-file reader).

// Command is a prompt file as the completion list shows it.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argument_hint,omitempty"`
	Scope        string `json:"scope"`
	Path         string `json:"path"` // shown as a skill's Path is
	in           string
}

// UserCommandDirs are the user's commands folders, in precedence order, as UserDirs.
func UserCommandDirs() []string {
	var out []string
	for _, d := range UserDirs() {
		out = append(out, filepath.Join(filepath.Dir(d), "commands"))
	}
	return out
}

// commandFolders opens the commands folders in precedence order.
func (p Places) commandFolders() (out []folder, closeAll func()) {
	return p.open("commands", p.UserCommands)
}

// Commands lists the commands of the places, in precedence order (a name found again later is left out).
func (p Places) Commands() []Command {
	folders, closeAll := p.commandFolders()
	defer closeAll()
	out := []Command{}
	seen := map[string]bool{}
	for _, f := range folders {
		for _, c := range f.commands() {
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// ErrUnknownCommand is the error for a name no command has.
var ErrUnknownCommand = errors.New("no such command")

// CommandBody returns the command called name and its body (the file less its front matter), cut at MaxBody.
func (p Places) CommandBody(name string) (Command, string, error) {
	folders, closeAll := p.commandFolders()
	defer closeAll()
	for _, f := range folders {
		for _, c := range f.commands() {
			if c.Name != name {
				continue
			}
			b, err := smallfile.ReadIn(f.root, c.in)
			if err != nil {
				return c, "", err
			}
			_, body, _ := frontMatter(string(b))
			return c, cutUTF8(strings.TrimLeft(body, "\n"), MaxBody), nil
		}
	}
	return Command{}, "", fmt.Errorf("%w: %q", ErrUnknownCommand, name)
}

// commands lists the *.md files of one commands folder that read as text, sorted by name.
func (f folder) commands() []Command {
	entries, err := readDir(f.root, f.dir)
	if err != nil {
		return nil
	}
	var out []Command
	for i, e := range entries {
		name, isMD := strings.CutSuffix(e.Name(), ".md")
		if i == MaxPerFolder {
			break
		}
		if !isMD || e.Type()&fs.ModeDir != 0 || !validName().MatchString(name) {
			continue
		}
		rel := path.Join(f.dir, e.Name())
		b, err := smallfile.ReadIn(f.root, rel) // a link out, a pipe or a large file is skipped
		if err != nil || !utf8.Valid(b) {
			continue
		}
		fields, body, _ := frontMatter(string(b))
		c := Command{Name: name, Scope: f.scope, Path: f.show(rel), in: rel, ArgumentHint: strings.TrimSpace(fields["argument-hint"])}
		c.Description = strings.Join(strings.Fields(fields["description"]), " ")
		if c.Description == "" {
			c.Description = firstLine(body)
		}
		c.Description = cutUTF8(c.Description, 200)
		out = append(out, c)
	}
	return out
}

// firstLine is a body's first line of text, without a Markdown heading's #s.
func firstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "# ")); l != "" {
			return l
		}
	}
	return ""
}
