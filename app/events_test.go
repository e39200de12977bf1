package app

import (
	"os"
	"regexp"
	"testing"
)

// Both sides name events with constants; they must be the same strings.
func TestEventNamesMatchFrontend(t *testing.T) {
	b, err := os.ReadFile("../frontend/src/bridge/events.ts")
	if err != nil {
		t.Fatal(err)
	}
	ts := map[string]string{}
	for _, m := range regexp.MustCompile(`export const (\w+) = '([^']+)'`).FindAllStringSubmatch(string(b), -1) {
		ts[m[1]] = m[2]
	}
	goSide := map[string]string{"EventToolOutput": EventToolOutput, "EventSnapshot": EventSnapshot, "EventFsChanges": EventFsChanges, "EventLLM": EventLLM, "EventJobs": EventJobs, "EventMCPServers": EventMCPServers}
	if len(ts) != len(goSide) {
		t.Errorf("frontend has %d event names, Go %d: %v vs %v", len(ts), len(goSide), ts, goSide)
	}
	for name, v := range goSide {
		if ts[name] != v {
			t.Errorf("%s: Go %q, frontend %q", name, v, ts[name])
		}
	}
}

func TestStreamerBatchesAndCaps(t *testing.T) {
	var got []ToolOutput
	s := newStreamer("c1", func(o ToolOutput) { got = append(got, o) })
	s.write("stdout", []byte("a"))
	s.write("stdout", []byte("b"))
	s.write("stderr", []byte("e"))
	s.close()
	if len(got) != 2 || got[0] != (ToolOutput{ID: "c1", Stream: "stdout", Data: "ab"}) || got[1] != (ToolOutput{ID: "c1", Stream: "stderr", Data: "e"}) {
		t.Fatalf("batched: %+v", got)
	}
	got = nil
	s = newStreamer("c2", func(o ToolOutput) { got = append(got, o) })
	big := make([]byte, streamLimit/2+1)
	for range 4 {
		s.write("stdout", big)
	}
	s.close()
	total := 0
	for _, o := range got {
		total += len(o.Data)
	}
	if total > streamLimit+200 {
		t.Errorf("streamed %d bytes past the %d limit", total, streamLimit)
	}
}
