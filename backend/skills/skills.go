// Package skills finds the Agent Skills a project and its user keep (a folder holding a SKILL.md whose front
// matter gives the skill's name and description, and whose body says how to do the task) and reads them, as
// Codex, Claude Code and Gemini read the same files. Skills are looked for in .agents/skills/*/SKILL.md and
// .claude/skills/*/SKILL.md in every folder from the working directory up to the project root, then in the user's
// folders (Rooted's own under its config folder, ~/.agents/skills, ~/.claude/skills). When two skills share a
// name the first found wins: the nearest folder, the project before the user, .agents before .claude.
//
// Guarantees: every file is read through an *os.Root (the project's, or one opened on the user's skills folder),
// so a link out of the project, or out of the user's skills folder, is never followed; and through package
// smallfile, so a pipe or a device named SKILL.md is skipped without blocking and a file over 1 MiB is skipped.
// A skill's files are only ever read, never run: its scripts run, if at all, through exec_shell and its rules.
package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Limits on what one catalog reads.
const (
	// MaxDescription is the longest description kept (the Agent Skills format's limit), in bytes.
	MaxDescription = 1024
	// MaxPerFolder is how many skill folders one skills folder is read for; the rest are reported as a problem.
	MaxPerFolder = 256
	// MaxBody is how much of a SKILL.md body, or of another file of a skill, use_skill returns, in bytes.
	MaxBody = 64 << 10
	// MaxFiles is how many of a skill's other files are listed.
	MaxFiles = 100
)

// Scopes say whose a skill is.
const (
	ScopeProject = "project"
	ScopeUser    = "user"
)

// ErrUnknown is the error for a name no skill has.
var ErrUnknown = errors.New("no such skill")

// Skill is what the system prompt lists of a skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Scope       string `json:"scope"` // project or user
	// Path is the SKILL.md: a slash path from the project root for a project skill, an absolute path for a user's.
	Path string `json:"path"`
	in   string // the SKILL.md inside its folder's root
}

// Problem is a SKILL.md that is not listed, and why.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Catalog is every skill found, in precedence order, and the files left out.
type Catalog struct {
	Skills   []Skill   `json:"skills"`
	Problems []Problem `json:"problems,omitempty"`
}

// Places are where skills are looked for.
type Places struct {
	Project *os.Root // the open project; nil: none
	Cwd     string   // the working directory, a slash path from the project root ("" is the root)
	User    []string // the user's skills folders, absolute, in precedence order
	// UserCommands are the user's commands folders (UserCommandDirs), for Commands.
	UserCommands []string
}

// UserDirs are the user's skills folders, in precedence order: Rooted's own, then those other agents share.
// A folder whose base cannot be found is left out.
func UserDirs() []string {
	var out []string
	if dir, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(dir, "rooted", "skills"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, ".agents", "skills"), filepath.Join(home, ".claude", "skills"))
	}
	return out
}

// folder is one skills folder: dir inside root.
type folder struct {
	root  *os.Root
	dir   string // slash path inside root
	scope string
	base  string // what a path inside root is shown from: "" for the project, the user folder's absolute path
}

func (f folder) show(p string) string {
	if f.base == "" {
		return p
	}
	return filepath.Join(f.base, filepath.FromSlash(p))
}

// folders opens the skills folders in precedence order; close releases the user folders' roots.
func (p Places) folders() (out []folder, closeAll func()) {
	return p.open("skills", p.User)
}

// open lists the project's .agents/kind and .claude/kind folders from the working directory up, then the user's
// folders (one of those that cannot be opened is left out: most users have none), in precedence order; closeAll
// releases the user folders' roots.
func (p Places) open(kind string, user []string) (out []folder, closeAll func()) {
	var opened []*os.Root
	if p.Project != nil {
		for _, d := range upward(p.Cwd) {
			for _, s := range []string{".agents/", ".claude/"} {
				out = append(out, folder{root: p.Project, dir: path.Join(d, s+kind), scope: ScopeProject})
			}
		}
	}
	for _, d := range user {
		r, err := os.OpenRoot(d)
		if err != nil {
			continue
		}
		opened = append(opened, r)
		out = append(out, folder{root: r, dir: ".", scope: ScopeUser, base: d})
	}
	return out, func() {
		for _, r := range opened {
			r.Close()
		}
	}
}

// upward lists cwd and each folder above it up to the root ("."), nearest first.
func upward(cwd string) []string {
	rel := path.Clean(strings.Trim(cwd, "/"))
	if rel == "" || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return []string{"."}
	}
	var out []string
	for d := rel; d != "."; d = path.Dir(d) {
		out = append(out, d)
	}
	return append(out, ".")
}

var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// Find lists the skills of the places, in precedence order.
func (p Places) Find() Catalog {
	c := Catalog{Skills: []Skill{}}
	folders, closeAll := p.folders()
	defer closeAll()
	seen := map[string]string{}
	for _, f := range folders {
		for _, s := range f.read(&c.Problems) {
			if first, dup := seen[s.Name]; dup {
				c.Problems = append(c.Problems, Problem{Path: s.Path, Reason: fmt.Sprintf("the skill %q is also at %s, which comes first", s.Name, first)})
				continue
			}
			seen[s.Name] = s.Path
			c.Skills = append(c.Skills, s)
		}
	}
	return c
}

// read lists the skills of one skills folder, sorted by folder name, noting the SKILL.md files it cannot use.
func (f folder) read(problems *[]Problem) []Skill {
	entries, err := readDir(f.root, f.dir)
	if err != nil {
		return nil // no such folder, or a link out of the root
	}
	var out []Skill
	for i, e := range entries {
		if i == MaxPerFolder {
			*problems = append(*problems, Problem{Path: f.show(f.dir), Reason: fmt.Sprintf("only the first %d of %d skill folders are read", MaxPerFolder, len(entries))})
			break
		}
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		rel := path.Join(f.dir, e.Name(), "SKILL.md")
		b, err := smallfile.ReadIn(f.root, rel)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				*problems = append(*problems, Problem{Path: f.show(rel), Reason: reason(err)})
			}
			continue
		}
		s, why := parse(b, e.Name())
		if why != "" {
			*problems = append(*problems, Problem{Path: f.show(rel), Reason: why})
			continue
		}
		s.Scope, s.Path, s.in = f.scope, f.show(rel), rel
		out = append(out, s)
	}
	return out
}

// reason says in a few words why a SKILL.md could not be read.
func reason(err error) string {
	var se *smallfile.Error
	switch {
	case errors.As(err, &se):
		return se.Error()
	case strings.Contains(err.Error(), "path escapes"):
		return "a link out of the folder, which is never followed"
	}
	return err.Error()
}

// parse reads a SKILL.md's name and description; why says what is wrong with it. A missing name is the folder's.
func parse(b []byte, dirName string) (s Skill, why string) {
	if !utf8.Valid(b) {
		return s, "not UTF-8 text"
	}
	fields, _, ok := frontMatter(string(b))
	if !ok {
		return s, "no front matter (--- name: ... description: ... ---)"
	}
	s.Name = strings.TrimSpace(fields["name"])
	if s.Name == "" {
		s.Name = dirName
	}
	if !validName().MatchString(s.Name) {
		return s, fmt.Sprintf("the name %q is not a skill name (letters, digits, '.', '_' and '-', up to 64)", s.Name)
	}
	s.Description = strings.Join(strings.Fields(fields["description"]), " ")
	if s.Description == "" {
		return s, "no description: the model could not tell when to use it"
	}
	if len(s.Description) > MaxDescription {
		s.Description = cutUTF8(s.Description, MaxDescription)
	}
	return s, ""
}

// readDir lists dir inside root, sorted by name.
func readDir(root *os.Root, dir string) ([]fs.DirEntry, error) {
	d, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// cutUTF8 cuts s to at most n bytes, not mid-character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	b := []byte(s[:n])
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b)
}
