package tool

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSONAppender is implemented by results that encode themselves. The registry uses it instead of encoding/json,
// which for a result holding a megabyte of text spends most of a call escaping it byte by byte; an implementation
// must produce what encoding/json would decode to the same value (a test per implementation checks that).
type JSONAppender interface {
	AppendJSON(dst []byte) []byte
}

// AppendString appends s as a JSON string, as encoding/json would decode it back: invalid UTF-8 becomes U+FFFD and
// U+2028/U+2029 are escaped. Runs of plain bytes are copied in bulk.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			switch r {
			case utf8.RuneError:
				dst = append(dst, `\ufffd`...)
			case '\u2028':
				dst = append(dst, `\u2028`...)
			default:
				dst = append(dst, `\u2029`...)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hex = "0123456789abcdef"

// AppendField appends `"name":` with a leading comma unless first.
func AppendField(dst []byte, name string, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// AppendInt and AppendBool append JSON scalars.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// StructuredAppender is implemented by JSONAppender results that also encode themselves without the fields their
// tool's Def.TextCarries names, so that the structured form never touches the text those fields hold; an
// implementation must produce what omitting those fields from AppendJSON's object would (a test per
// implementation checks that).
type StructuredAppender interface {
	AppendStructured(dst []byte) []byte
}

// omitFields returns the JSON object obj without its top-level members named in names, every other member copied
// as it is, in its order. obj is an encoder's output (valid JSON); anything else is returned unchanged.
func omitFields(obj []byte, names []string) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return obj
	}
	out := make([]byte, 0, 256)
	out = append(out, '{')
	first := true
	for i := 1; ; {
		i = skipSpace(obj, i)
		if i >= len(obj) {
			return obj
		}
		if obj[i] == '}' {
			return append(out, '}')
		}
		if obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
		if i >= len(obj) || obj[i] != '"' {
			return obj
		}
		keyEnd := stringEnd(obj, i+1)
		if keyEnd < 0 {
			return obj
		}
		key := obj[i : keyEnd+1]
		v := skipSpace(obj, keyEnd+1)
		if v >= len(obj) || obj[v] != ':' {
			return obj
		}
		v = skipSpace(obj, v+1)
		end := valueEnd(obj, v)
		if end < 0 {
			return obj
		}
		var name string
		if json.Unmarshal(key, &name) != nil {
			return obj
		}
		if !slices.Contains(names, name) {
			if !first {
				out = append(out, ',')
			}
			out = append(out, key...)
			out = append(out, ':')
			out = append(out, obj[v:end]...)
			first = false
		}
		i = end
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd is the index just past the JSON value that starts at i, or -1: strings are skipped whole (so brackets
// inside them do not count), objects and arrays to their matching close.
func valueEnd(b []byte, i int) int {
	if i < len(b) && b[i] != '"' && b[i] != '{' && b[i] != '[' { // a number, true, false or null
		j := i
		for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			e := stringEnd(b, i+1)
			if e < 0 {
				return -1
			}
			i = e + 1
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}
