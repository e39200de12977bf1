package tool

import (
	"strconv"
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
