package search

import (
	"fmt"
	"regexp"
	"strings"
)

// Glob filters slash paths relative to the project root. A pattern without "/" matches a file name at any depth
// ("*.go"); one with "/" matches the whole path ("src/**/*.ts"). "**" spans directories, "*" and "?" do not,
// "{a,b}" is either, "[...]" a class. A pattern starting with "!" excludes. A path passes when it matches at
// least one including pattern (or there are none) and no excluding one.
type Glob struct {
	include, exclude []*regexp.Regexp
}

// CompileGlobs compiles patterns; an empty list matches everything.
func CompileGlobs(patterns []string) (*Glob, error) {
	g := &Glob{}
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		re, err := globRegexp(p)
		if err != nil {
			return nil, fmt.Errorf("glob %q: %w", p, err)
		}
		if neg {
			g.exclude = append(g.exclude, re)
		} else {
			g.include = append(g.include, re)
		}
	}
	return g, nil
}

// Match reports whether rel passes the globs.
func (g *Glob) Match(rel string) bool {
	if g == nil {
		return true
	}
	for _, re := range g.exclude {
		if re.MatchString(rel) {
			return false
		}
	}
	if len(g.include) == 0 {
		return true
	}
	for _, re := range g.include {
		if re.MatchString(rel) {
			return true
		}
	}
	return false
}

// Empty reports whether the globs filter nothing.
func (g *Glob) Empty() bool { return g == nil || len(g.include)+len(g.exclude) == 0 }

func globRegexp(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	p = strings.TrimSuffix(p, "/") // "src/" names a directory: everything below it matches, as for "src"
	if strings.Contains(p, "/") {
		b.WriteString("^")
		p = strings.TrimPrefix(p, "/")
	} else {
		b.WriteString("(^|/)") // a bare name matches at any depth
	}
	braces := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString("(.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '{':
			braces++
			b.WriteString("(")
		case c == '}' && braces > 0:
			braces--
			b.WriteString(")")
		case c == ',' && braces > 0:
			b.WriteString("|")
		case c == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			class := p[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(string(p[i])))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if braces != 0 {
		return nil, fmt.Errorf("unclosed {")
	}
	// A pattern naming a directory matches everything below it ("src/**" and "src/" alike).
	b.WriteString("(/.*)?$")
	return regexp.Compile(b.String())
}
