// Package gitconfig reads git's configuration files. List asks git itself, run hardened, which keys a file sets:
// what decides whether a command changed what git runs. Parse is a small reader for files Rooted only reads for
// itself (the global excludes file); it does not follow include directives, expand values, or apply git's type
// conversions, and nothing that guards a boundary may rely on it.
package gitconfig

import (
	"bufio"
	"bytes"
	"strings"
)

// Parse returns every key the file sets, as git names them ("core.hookspath", "remote.origin.url",
// `includeif.gitdir:~/work/.path`: section and key in lower case, a quoted subsection as written, as git does),
// with the values in
// the order they appear. A value loses its surrounding space, a trailing comment and its quotes; a key without
// "=" (git's true) has the value "".
func Parse(b []byte) map[string][]string {
	out := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, sub, hasSub := strings.Cut(head, " ")
			section = strings.ToLower(name) // [section.sub], the old form, is lower case whole, as git reads it
			if hasSub {
				section += "." + strings.Trim(strings.TrimSpace(sub), `"`)
			}
			if line = strings.TrimSpace(line[end+1:]); line == "" {
				continue
			}
			// a key on the header's line
		}
		key, val, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "" {
			continue
		}
		if section != "" {
			key = section + "." + key
		}
		out[key] = append(out[key], value(val))
	}
	return out
}

// value is a raw value without its comment and quotes.
func value(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, `"`) {
		if end := strings.IndexByte(v[1:], '"'); end >= 0 {
			return v[1 : end+1]
		}
		return v[1:]
	}
	if i := strings.IndexAny(v, "#;"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// Includes reports whether a parsed file includes others (include.path, includeIf.<condition>.path).
func Includes(keys map[string][]string) bool {
	for k := range keys {
		if strings.HasPrefix(k, "include.") || strings.HasPrefix(k, "includeif.") {
			return true
		}
	}
	return false
}

// Last is a key's last value (the one git uses for a single-valued key), or "".
func Last(keys map[string][]string, key string) string {
	if v := keys[key]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}
