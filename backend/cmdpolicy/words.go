package cmdpolicy

import (
	"errors"
	"fmt"
	"strings"
)

// ErrShellSyntax says a command used shell syntax that Rooted does not interpret: each call runs one program.
var ErrShellSyntax = errors.New("shell syntax is not supported")

// SyntaxError names the construct found.
type SyntaxError struct {
	Construct string // "|", "&&", ";", ">", "$(", "`", "$VAR", ...
	Hint      string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%q is shell syntax, and commands run without a shell: %s", e.Construct, e.Hint)
}

func (e *SyntaxError) Unwrap() error { return ErrShellSyntax }

// Split splits a command line into words by POSIX shell rules for quoting: whitespace separates words, single
// quotes keep everything literally, double quotes keep everything but \" \\ \$ \` escapes, a backslash outside
// quotes escapes the next character. Anything a shell would interpret (pipes, lists, redirections,
// substitutions, variables, globs are not: they pass through as text) is refused with a *SyntaxError.
func Split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch d := line[i]; {
				case d == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0:
					i++
					cur.WriteByte(line[i])
				case d == '`':
					return nil, &SyntaxError{"`", "command substitution is not run; run the inner command as its own call"}
				case d == '$' && i+1 < len(line) && (line[i+1] == '(' || line[i+1] == '{' || isNameStart(line[i+1])):
					return nil, variableError(line[i:])
				default:
					cur.WriteByte(d)
				}
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unterminated double quote in %q", line)
			}
		case c == '\\':
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
				inWord = true
			}
		default:
			if e := operator(line[i:]); e != nil {
				return nil, e
			}
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, nil
}

func operator(s string) *SyntaxError {
	switch {
	case strings.HasPrefix(s, "&&"), strings.HasPrefix(s, "||"):
		return &SyntaxError{s[:2], "run each program as its own call, one after the other"}
	case s[0] == ';':
		return &SyntaxError{";", "run each program as its own call, one after the other"}
	case s[0] == '|':
		return &SyntaxError{"|", "pipes are not run; run the first program, then work on its output (or use search_files)"}
	case s[0] == '&':
		return &SyntaxError{"&", "background jobs are not run; each call runs one program to completion"}
	case s[0] == '>' || s[0] == '<':
		return &SyntaxError{s[:1], "redirections are not run; output comes back in the result, and write_file writes files"}
	case s[0] == '`':
		return &SyntaxError{"`", "command substitution is not run; run the inner command as its own call"}
	case s[0] == '$' && len(s) > 1 && (s[1] == '(' || s[1] == '{' || isNameStart(s[1])):
		return variableError(s)
	case s[0] == '(' || s[0] == ')':
		return &SyntaxError{s[:1], "subshells are not run; quote the parenthesis if it is an argument"}
	}
	return nil
}

func variableError(s string) *SyntaxError {
	if strings.HasPrefix(s, "$(") {
		return &SyntaxError{"$(", "command substitution is not run; run the inner command as its own call"}
	}
	end := 1
	for end < len(s) && (isNameStart(s[end]) || (s[end] >= '0' && s[end] <= '9') || s[end] == '{' || s[end] == '}') {
		end++
	}
	return &SyntaxError{s[:end], "variables are not expanded; write the value itself, or quote it with single quotes if it is literal text"}
}

func isNameStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
