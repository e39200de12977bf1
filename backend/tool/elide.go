package tool

import "bytes"

// elideAbove is the length from which a string value is elided before schema validation.
const elideAbove = 4096

// elideLongStrings returns raw with every string longer than elideAbove bytes replaced by a short non-empty
// placeholder, so validation decodes kilobytes instead of the megabytes of a file's content. It is sound for
// Rooted's schemas, which constrain strings only by type, non-emptiness and the absence of NUL: a long string
// stays a non-empty string, and one containing an escaped NUL is kept whole. Keys are never that long. Invalid
// JSON may come out differently invalid; the typed decode of the original that follows reports it.
func elideLongStrings(raw []byte) []byte {
	if len(raw) < elideAbove {
		return raw
	}
	var out []byte // allocated on the first elision
	last := 0
	for i := 0; i < len(raw); {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end := stringEnd(raw, start+1)
		if end < 0 {
			break
		}
		if end-start-1 > elideAbove && !bytes.Contains(raw[start:end], []byte(`\u0000`)) {
			if out == nil {
				out = make([]byte, 0, 64<<10)
			}
			out = append(out, raw[last:start]...)
			out = append(out, `"…"`...)
			last = end + 1
		}
		i = end + 1
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// stringEnd returns the index of the quote closing the JSON string whose content starts at i, or -1.
func stringEnd(raw []byte, i int) int {
	for i < len(raw) {
		j := bytes.IndexAny(raw[i:], `"\`)
		if j < 0 {
			return -1
		}
		i += j
		if raw[i] == '"' {
			return i
		}
		i += 2 // a backslash escapes the next byte; \uXXXX's hex digits are ordinary bytes
	}
	return -1
}
