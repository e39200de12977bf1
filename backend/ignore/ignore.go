// Package ignore decides which project paths git would ignore, for listing, search and watching: .gitignore files
// at every level, .git/info/exclude, the user's global excludes file (core.excludesFile, by default
// ~/.config/git/ignore), and .git itself; also .ignore files, which ripgrep and other tools honour, taking
// precedence over .gitignore in the same directory. Project files are read through the project's *os.Root.
//
// It follows git's rules where sabhiram/go-gitignore alone does not: a deeper .gitignore overrides a shallower one,
// the last matching pattern of a file decides (so "!keep" re-includes), and nothing under an ignored directory can
// be re-included. Tests compare it with git check-ignore.
package ignore

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	gitignore "github.com/sabhiram/go-gitignore"
)

// Matcher answers for one root. It reads each directory's .gitignore once; make a new Matcher to see edits.
type Matcher struct {
	root *os.Root

	mu     sync.Mutex
	rules  map[string]rules // by slash directory ("" is the root); nil when it has none
	global rules            // the user's excludes file, below every project file in precedence
}

// rules are one ignore file's patterns in order. Each is compiled alone, without its "!", because
// go-gitignore drops a negation that follows no positive match in the same file, while git lets it decide (a
// deeper "!x" re-includes what a shallower file ignores).
type rules []rule

type rule struct {
	pattern *gitignore.GitIgnore
	negate  bool
}

// match returns the decision of the last pattern matching p, and whether any matched.
func (rs rules) match(p string) (ignored, matched bool) {
	for _, r := range rs {
		if r.pattern.MatchesPath(p) {
			ignored, matched = !r.negate, true
		}
	}
	return ignored, matched
}

func compile(content string) rules {
	var rs rules
	for _, line := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(line, " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		negate := strings.HasPrefix(line, "!")
		if negate {
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:] // an escaped leading "!" or "#" is literal
		}
		rs = append(rs, rule{pattern: gitignore.CompileIgnoreLines(line), negate: negate})
	}
	return rs
}

// New returns a matcher for root, with the user's global excludes.
func New(root *os.Root) *Matcher {
	return &Matcher{root: root, rules: map[string]rules{}, global: globalRules()}
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

// load compiles dir's .gitignore (or, for ".git/info", the exclude file), caching the answer.
func (m *Matcher) load(dir string) rules {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rs, ok := m.rules[dir]; ok {
		return rs
	}
	name := path.Join(dir, ".gitignore")
	if dir == ".git/info" {
		name = ".git/info/exclude"
	}
	read := func(n string) ([]byte, error) { return m.root.ReadFile(filepath.FromSlash(path.Join(dir, n))) }
	var rs rules
	if dir == ".git/info" {
		if b, err := m.root.ReadFile(filepath.FromSlash(name)); err == nil {
			rs = compile(string(b))
		}
	} else {
		rs = readDirRules(read)
	}
	m.rules[dir] = rs
	return rs
}

// readDirRules reads a directory's .gitignore and then its .ignore, whose patterns win (they come later).
func readDirRules(read func(name string) ([]byte, error)) rules {
	var rs rules
	for _, name := range []string{".gitignore", ".ignore"} {
		if b, err := read(name); err == nil {
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
