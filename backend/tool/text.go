package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A result has two forms: its JSON, which the window's cards, the CLI and programs read, and a text form, which is
// what a model reads (numbered lines, path:line:text, one line an entry) without JSON's quoting and repeated keys.
// A result type gives its text form by implementing Texter; any other result gets the generic form of Generic.

// Texter is implemented by results that have a text form of their own.
type Texter interface {
	ModelText() string
}

// ModelText is the text form of an error: "error <code>: <message>", then its path, field and details one a line.
func (e *Error) ModelText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "error %s: %s", e.Code, e.Message)
	if e.Path != "" {
		b.WriteString("\npath: " + e.Path)
	}
	if e.Field != "" {
		b.WriteString("\nfield: " + e.Field)
	}
	keys := make([]string, 0, len(e.Details))
	for k := range e.Details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := json.Marshal(e.Details[k])
		if err != nil {
			v = []byte(fmt.Sprint(e.Details[k]))
		}
		writeField(&b, k, v)
	}
	return b.String()
}

// Generic is the text form of any JSON object: one field a line in the object's order, "name: value"; a string
// of several lines follows its name on lines of its own; an empty or false field is left out, as an absent one.
func Generic(obj []byte) string {
	var b strings.Builder
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return string(obj)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return string(obj)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return string(obj)
		}
		writeField(&b, k.(string), v)
	}
	return strings.TrimPrefix(b.String(), "\n")
}

// writeField writes "\nname: value" for a JSON value, leaving out empty ones.
func writeField(b *strings.Builder, name string, v json.RawMessage) {
	switch string(v) {
	case `""`, "null", "false", "[]", "{}":
		return
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if strings.Contains(s, "\n") {
				b.WriteString("\n" + name + ":\n" + strings.TrimSuffix(s, "\n"))
				return
			}
			b.WriteString("\n" + name + ": " + s)
			return
		}
	}
	b.WriteString("\n" + name + ": " + string(v))
}

// Plural is "1 line", "2 lines": n and the noun, with an s unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
