package tools

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/files"
)

// The structured form read_file encodes itself (MCP's structuredContent) is its JSON without the content, which the
// text block carries: every other field as AppendJSON has it, whatever the path holds and whether a limit was asked.
func TestReadFileStructured(t *testing.T) {
	t.Parallel()
	for _, out := range []readFileOut{
		{Path: "dir/ä \"q\" <&>.txt", Exists: true, Content: files.Content{
			Text: "a\n\"b\"\n", Size: 6, TotalLines: 2, StartLine: 1, EndLine: 2, LineEnding: "lf",
			ModTime: time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC),
		}},
		{Path: "x", Exists: true, Limit: 5000, Content: files.Content{Text: "\x00\xff", Size: 2, TotalLines: 9, TotalLinesKnown: true, StartLine: 3, EndLine: 4, Truncated: true}},
	} {
		var whole, structured map[string]any
		if err := json.Unmarshal(out.AppendJSON(nil), &whole); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out.AppendStructured(nil), &structured); err != nil {
			t.Fatalf("%s: %v", out.AppendStructured(nil), err)
		}
		if _, ok := whole["content"]; !ok {
			t.Fatalf("AppendJSON without content: %v", whole)
		}
		delete(whole, "content")
		if !reflect.DeepEqual(structured, whole) {
			t.Errorf("structured %v\nwant       %v", structured, whole)
		}
	}
}
