package mcpclient

import (
	"regexp"
	"strings"
	"testing"
)

var modelToolName = regexp.MustCompile(`^mcp__[A-Za-z0-9_-]+$`)

// FuzzToolName: whatever a server calls itself and its tools, the name every model API takes (letters, digits, _
// and -, at most 64), under the prefix that permission rules and the CLI's hand-over recognise.
func FuzzToolName(f *testing.F) {
	for _, s := range [][2]string{{"fs", "read_file"}, {"a b", "c.d"}, {"x", strings.Repeat("y", 100)}, {"ü", "工具"}, {"", ""}, {"a__b", "c"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, server, name string) {
		got := ToolName(server, name)
		if len(got) > maxName || !modelToolName.MatchString(got) {
			t.Errorf("ToolName(%q, %q) = %q", server, name, got)
		}
	})
}
