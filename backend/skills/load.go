package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Loaded is a skill read for use: its body, or one of its other files, and the list of those files.
type Loaded struct {
	Skill
	// Dir is the skill's folder, shown as Path is.
	Dir string `json:"dir"`
	// File is the file read, from Dir ("SKILL.md" for the body).
	File string `json:"file"`
	// Content is the body of SKILL.md (its front matter left out), or the file asked for, cut at MaxBody.
	Content   string `json:"content"`
	Truncated bool   `json:"truncated,omitempty"`
	// Files are the skill's other files, from Dir (folders end in /), at most MaxFiles; More counts the rest.
	Files []string `json:"files"`
	More  int      `json:"more,omitempty"`
}

// ErrBadFile refuses a file name that is not a relative path inside the skill's folder.
var ErrBadFile = errors.New("not a file of the skill")

// ErrBinary refuses a file that is not UTF-8 text.
var ErrBinary = errors.New("not UTF-8 text")

// Load reads the skill called name: its SKILL.md body, or file (a slash path inside the skill's folder) when not
// empty. A name no skill has is ErrUnknown.
func (p Places) Load(name, file string) (Loaded, error) {
	folders, closeAll := p.folders()
	defer closeAll()
	for _, f := range folders {
		var none []Problem
		for _, s := range f.read(&none) {
			if s.Name == name {
				return f.load(s, file)
			}
		}
	}
	return Loaded{}, fmt.Errorf("%w: %q", ErrUnknown, name)
}

func (f folder) load(s Skill, file string) (Loaded, error) {
	dirIn := path.Dir(s.in) // the skill's folder inside f.root
	l := Loaded{Skill: s, Dir: f.show(dirIn), File: "SKILL.md", Files: []string{}}
	want := "SKILL.md"
	if file != "" {
		clean := path.Clean(file)
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == "." {
			return l, fmt.Errorf("%w: %q (give a path inside the skill's folder, as files lists it)", ErrBadFile, file)
		}
		want, l.File = clean, clean
	}
	b, err := smallfile.ReadIn(f.root, path.Join(dirIn, want))
	if err != nil {
		return l, err
	}
	if !utf8.Valid(b) {
		return l, fmt.Errorf("%s: %w", f.show(path.Join(dirIn, want)), ErrBinary)
	}
	text := string(b)
	if want == "SKILL.md" {
		_, text, _ = frontMatter(text)
		text = strings.TrimLeft(text, "\n")
	}
	if len(text) > MaxBody {
		text, l.Truncated = cutUTF8(text, MaxBody), true
	}
	l.Content = text
	l.Files, l.More = f.list(dirIn)
	return l, nil
}

// list walks a skill's folder (links are listed, never followed), breadth first, for at most MaxFiles entries.
func (f folder) list(dir string) (files []string, more int) {
	files = []string{}
	queue := []string{""}
	for len(queue) > 0 {
		sub := queue[0]
		queue = queue[1:]
		entries, err := readDir(f.root, path.Join(dir, sub))
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := path.Join(sub, e.Name())
			if strings.HasPrefix(e.Name(), ".") || name == "SKILL.md" {
				continue
			}
			if e.Type()&fs.ModeDir != 0 {
				queue = append(queue, name)
				name += "/"
			}
			if len(files) == MaxFiles {
				more++
				continue
			}
			files = append(files, name)
		}
	}
	return files, more
}
