package tools

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// quotedName is a file name or path as the text forms write it: as it is, unless it holds a line break or another
// control character, is not valid UTF-8, or starts with a double quote; then quoted as Go quotes a string
// ("a\nb.txt"). A name cannot forge a line of a listing, a match of a search or a count: a model reads one line
// per entry, whatever the names hold.
func quotedName(s string) string {
	if !utf8.ValidString(s) || strings.HasPrefix(s, `"`) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
