package skills

import (
	"strconv"
	"strings"
)

// frontMatter splits a SKILL.md into its YAML front matter's top-level scalar fields and the body after it. It
// reads the subset of YAML that skill files use for their fields: "key: value", a quoted value ('...' or "..."),
// a block scalar (| or >) and a plain value continued on indented lines. Nested maps (metadata:) and lists
// (allowed-tools:) are skipped: only top-level scalars are kept. ok is false when the file has no front matter.
func frontMatter(src string) (fields map[string]string, body string, ok bool) {
	src = strings.TrimPrefix(src, "\ufeff")
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if !strings.HasPrefix(src, "---\n") {
		return nil, src, false
	}
	rest := src[len("---\n"):]
	var head string
	switch {
	case strings.HasPrefix(rest, "---\n") || rest == "---":
		head, body = "", strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n")
	default:
		i := strings.Index(rest, "\n---\n")
		if i < 0 {
			if !strings.HasSuffix(rest, "\n---") {
				return nil, src, false
			}
			i = len(rest) - len("\n---")
			head, body = rest[:i], ""
		} else {
			head, body = rest[:i], rest[i+len("\n---\n"):]
		}
	}
	return parseFields(head), body, true
}

// parseFields reads the top-level "key: value" entries of a YAML mapping, as frontMatter describes.
func parseFields(head string) map[string]string {
	fields := map[string]string{}
	lines := strings.Split(head, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue // a continuation of a field we skip, a comment or a blank line
		}
		key, value, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		// The lines indented under this key belong to it.
		var more []string
		for i+1 < len(lines) && (lines[i+1] == "" || lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			more = append(more, lines[i])
		}
		switch {
		case value == "" && len(more) > 0 && isNested(more):
			continue // a map or a list: not a scalar
		case strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">"):
			fields[key] = blockScalar(value[0] == '>', more)
		case strings.HasPrefix(value, `"`):
			fields[key] = doubleQuoted(joinFolded(value, more))
		case strings.HasPrefix(value, `'`):
			fields[key] = singleQuoted(joinFolded(value, more))
		default:
			fields[key] = stripComment(joinFolded(value, more))
		}
	}
	return fields
}

// isNested tells a nested map or list from a scalar continued on the next lines.
func isNested(more []string) bool {
	for _, l := range more {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "- ") || t == "-" {
			return true
		}
		k, _, found := strings.Cut(t, ":")
		return found && !strings.ContainsAny(k, " \t")
	}
	return false
}

// joinFolded joins a plain or quoted value continued on indented lines, as YAML folds them: with single spaces.
func joinFolded(first string, more []string) string {
	parts := []string{first}
	for _, l := range more {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// blockScalar reads a | (literal) or > (folded) block: its lines less their common indentation.
func blockScalar(folded bool, more []string) string {
	indent := -1
	for _, l := range more {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	var out []string
	for _, l := range more {
		if len(l) >= indent && indent >= 0 {
			l = l[indent:]
		} else {
			l = strings.TrimSpace(l)
		}
		out = append(out, l)
	}
	text := strings.TrimRight(strings.Join(out, "\n"), "\n ")
	if folded {
		// Lines of a paragraph join with spaces; blank lines stay paragraph breaks.
		var paras []string
		for _, p := range strings.Split(text, "\n\n") {
			paras = append(paras, strings.Join(strings.Fields(p), " "))
		}
		text = strings.Join(paras, "\n")
	}
	return text
}

// doubleQuoted reads a "..." value with YAML's escapes (those strconv knows); a malformed one is kept as written.
func doubleQuoted(v string) string {
	if end := strings.LastIndex(v, `"`); end > 0 {
		v = v[:end+1]
	}
	if s, err := strconv.Unquote(v); err == nil {
		return s
	}
	return strings.Trim(v, `"`)
}

// stripComment drops a trailing " # comment" from a plain value.
func stripComment(v string) string {
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// singleQuoted reads a '...' value, where ” stands for one quote; what follows the closing quote is dropped.
func singleQuoted(v string) string {
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		if v[i] == '\'' {
			if i+1 < len(v) && v[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			break
		}
		b.WriteByte(v[i])
	}
	return b.String()
}
