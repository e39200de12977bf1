// Package ignore decides which project paths git would ignore, for every part of Rooted that asks: search and
// find, the index, list_directory's ignored flag and the watcher. It reads .gitignore files at every level,
// .git/info/exclude, the user's global excludes file (core.excludesFile, by default ~/.config/git/ignore), and
// .ignore files, which ripgrep and gocodewalker honour, taking precedence over .gitignore in the same directory;
// .git itself is always ignored. Project files are read through the project's *os.Root.
//
// Patterns are parsed and matched by boyter/gocodewalker's gitignore engine (the one its FileWalker uses), with
// git's precedence: the deepest ignore file with a matching pattern decides, within a file the last matching
// pattern does, nothing under an ignored directory can be re-included, and a symlink is never a directory. Where
// gocodewalker's matching departs from git, compile adapts the line (see adapt). Git is the judge: the tests
// compare every answer with git check-ignore and git ls-files on thousands of random trees (package ignoretest).
// Not covered: core.ignoreCase (matching is case-sensitive, as git's default on Linux) and submodules' own rules.
package ignore

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/boyter/gocodewalker/go-gitignore"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Matcher answers for one root. It reads each directory's .gitignore once; make a new Matcher to see edits.
type Matcher struct {
	root *os.Root

	mu     sync.Mutex
	rules  map[string]rules // by slash directory ("" is the root); nil when it has none
	global rules            // the user's excludes file, below every project file in precedence
}

// rules are the patterns that apply at one level, in order: a folder's .gitignore, then its .ignore (whose
// patterns come later, so they win). gocodewalker parses and matches each pattern; the last one matching decides.
type rules []pattern

// pattern is one parsed line. anchoredName marks "/name": it matches only in the ignore file's own folder.
type pattern struct {
	gitignore.Pattern
	anchoredName bool
}

// match returns the decision of the last pattern matching the slash path p (relative to the file's folder; a
// trailing "/" marks a directory), and whether any matched.
func (rs rules) match(p string) (ignored, matched bool) {
	isDir := strings.HasSuffix(p, "/")
	p = strings.TrimSuffix(p, "/")
	nested := strings.Contains(p, "/")
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].anchoredName && nested {
			continue
		}
		if rs[i].Match(p, isDir) {
			return rs[i].Ignore(), true
		}
	}
	return false, false
}

// compile parses an ignore file with gocodewalker's gitignore parser, each line first adapted where its matcher
// departs from git (the differential test against git finds these).
func compile(content string) rules {
	var b strings.Builder
	for _, l := range strings.Split(content, "\n") {
		b.WriteString(adapt(l))
		b.WriteByte('\n')
	}
	var rs rules
	for _, p := range gitignore.NewParser(strings.NewReader(b.String()), func(gitignore.Error) bool { return true }).Parse() {
		text := strings.TrimSuffix(strings.TrimPrefix(p.String(), "!"), "/")
		rs = append(rs, pattern{Pattern: p, anchoredName: strings.HasPrefix(text, "/") && !strings.Contains(text[1:], "/")})
	}
	return rs
}

// adapt rewrites a line where gocodewalker's matcher departs from git into one it matches as git does:
//   - Spaces inside a pattern are part of the name ("sub dir/"); gocodewalker's "**" patterns split at them, so
//     they are escaped. Trailing unescaped spaces are dropped, as git drops them.
//   - "x/**" matches everything inside x, but not x itself; gocodewalker lets the "**" match nothing, so it
//     becomes "x/*/**", which needs one more name.
//
// "/name" matching deeper paths ("*" crossing "/") is handled in match, by pattern.anchoredName.
func adapt(line string) string {
	line = strings.TrimSuffix(line, "\r")
	if strings.HasPrefix(line, "#") {
		return line
	}
	var b strings.Builder
	pending := 0 // unescaped spaces not yet known to be inside the pattern
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ':
			pending++
			continue
		case c == '\\' && i+1 < len(line):
			b.WriteString(strings.Repeat(`\ `, pending))
			pending = 0
			b.WriteString(line[i : i+2])
			i++
			continue
		}
		b.WriteString(strings.Repeat(`\ `, pending))
		pending = 0
		b.WriteByte(c)
	}
	line = b.String()
	core, dirOnly := strings.CutSuffix(line, "/")
	if strings.HasSuffix(core, "/**") && !strings.HasSuffix(core, `\/**`) {
		line = strings.TrimSuffix(core, "**") + "*/**"
		if dirOnly {
			line += "/"
		}
	}
	return line
}

// New returns a matcher for root, with the user's global excludes.
func New(root *os.Root) *Matcher { return newWith(root, globalRules()) }

// newWith returns a matcher with the given global excludes; tests pass none, as git judges them with none.
func newWith(root *os.Root, global rules) *Matcher {
	return &Matcher{root: root, rules: map[string]rules{}, global: global}
}

// Ignored reports whether the root-relative path (OS or slash separators) is ignored, isDir saying whether it is a
// directory (directory-only patterns like "build/" match only those).
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	rel = strings.Trim(filepath.ToSlash(filepath.Clean(rel)), "/")
	if rel == "." || rel == "" {
		return false
	}
	parts := strings.Split(rel, "/")
	if parts[0] == ".git" {
		return true
	}
	// A path is ignored if any directory above it is: git does not descend into ignored directories.
	for i := 1; i < len(parts); i++ {
		if m.decide(parts[:i], true) {
			return true
		}
	}
	return m.decide(parts, isDir)
}

// decide applies the rules that can see the path, deepest first; the first file with a matching pattern decides,
// and within a file the last matching pattern does.
func (m *Matcher) decide(parts []string, isDir bool) bool {
	for depth := len(parts) - 1; depth >= 0; depth-- {
		dir := strings.Join(parts[:depth], "/")
		sub := strings.Join(parts[depth:], "/")
		if isDir {
			sub += "/"
		}
		if ignored, matched := m.load(dir).match(sub); matched {
			return ignored
		}
	}
	p := strings.Join(parts, "/")
	if isDir {
		p += "/"
	}
	if ignored, matched := m.load(".git/info").match(p); matched {
		return ignored
	}
	ignored, _ := m.global.match(p)
	return ignored
}

// load compiles dir's .gitignore (or, for ".git/info", the exclude file), caching the answer. The files are read
// without holding the lock (smallfile: never blocking, at most 1 MiB), so one slow disk does not stall the others.
func (m *Matcher) load(dir string) rules {
	m.mu.Lock()
	rs, ok := m.rules[dir]
	m.mu.Unlock()
	if ok {
		return rs
	}
	read := func(n string) ([]byte, error) { return smallfile.ReadIn(m.root, filepath.FromSlash(path.Join(dir, n))) }
	if dir == ".git/info" {
		if b, err := read("exclude"); err == nil {
			rs = compile(string(b))
		}
	} else {
		rs = readDirRules(read)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if known, ok := m.rules[dir]; ok {
		return known // another call read it meanwhile: keep one answer
	}
	m.rules[dir] = rs
	return rs
}

// readDirRules reads a directory's .gitignore and then its .ignore, whose patterns win (they come later). A file
// over smallfile.Limit is skipped, whatever read it came through.
func readDirRules(read func(name string) ([]byte, error)) rules {
	var rs rules
	for _, name := range []string{".gitignore", ".ignore"} {
		if b, err := read(name); err == nil && len(b) <= smallfile.Limit {
			rs = append(rs, compile(string(b))...)
		}
	}
	return rs
}

// Dir answers for the entries of one directory, with the rules that apply there gathered once. Callers walking a
// tree use it for directories they reached without passing an ignored one.
type Dir struct {
	levels  []level // deepest first
	exclude rules   // the global excludes, then .git/info/exclude (which wins)
	path    string  // the directory's slash path from the root, with a trailing "/" unless it is the root
}

// level is one ignore file seen from the directory: prefix is the directory's path relative to the file's.
type level struct {
	rules  rules
	prefix string
}

// Dir returns the matcher for the entries of the root-relative slash directory rel.
func (m *Matcher) Dir(rel string) *Dir {
	rel = strings.Trim(rel, "/")
	var parts []string
	if rel != "" && rel != "." {
		parts = strings.Split(rel, "/")
	}
	d := &Dir{exclude: append(append(rules(nil), m.global...), m.load(".git/info")...)}
	if len(parts) > 0 {
		d.path = strings.Join(parts, "/") + "/"
	}
	for depth := len(parts); depth >= 0; depth-- {
		rs := m.load(strings.Join(parts[:depth], "/"))
		if len(rs) == 0 {
			continue
		}
		prefix := strings.Join(parts[depth:], "/")
		if prefix != "" {
			prefix += "/"
		}
		d.levels = append(d.levels, level{rules: rs, prefix: prefix})
	}
	return d
}

// Ignored reports whether the entry name of this directory is ignored.
func (d *Dir) Ignored(name string, isDir bool) bool {
	if name == ".git" && d.path == "" {
		return true
	}
	if len(d.levels) == 0 && len(d.exclude) == 0 {
		return false
	}
	suffix := ""
	if isDir {
		suffix = "/"
	}
	for _, l := range d.levels {
		if ignored, matched := l.rules.match(l.prefix + name + suffix); matched {
			return ignored
		}
	}
	ignored, _ := d.exclude.match(d.path + name + suffix)
	return ignored
}

// DirWith is Dir for a walker that holds the directory open: read reads a file of the directory, so its own
// .gitignore costs one open instead of a walk from the project root.
func (m *Matcher) DirWith(rel string, read func(name string) ([]byte, error)) *Dir {
	rel = strings.Trim(rel, "/")
	if rel == "." {
		rel = ""
	}
	m.mu.Lock()
	_, known := m.rules[rel]
	m.mu.Unlock()
	if !known {
		rs := readDirRules(read)
		m.mu.Lock()
		m.rules[rel] = rs
		m.mu.Unlock()
	}
	return m.Dir(rel)
}
