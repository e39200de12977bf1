package conversations

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/configfile"
)

// A day's conversation: a request, then tool calls with their results and answers. resultBytes is the size of
// each tool result; every result differs (a file read, a command's output).
func buildDay(b *testing.B, s *Store, items, resultBytes int) {
	b.Helper()
	batch := []Event{}
	msgs := 0
	for i := range items {
		var it []byte
		switch {
		case i%10 == 0:
			it, _ = json.Marshal(map[string]any{"kind": "user", "id": fmt.Sprintf("u%d", i), "text": fmt.Sprintf("request %d: look at the parser again", i)})
		case i%2 == 1:
			out := fmt.Sprintf("result %d\n", i) + strings.Repeat(fmt.Sprintf("line %d of a file the agent read\n", i), resultBytes/32)
			it, _ = json.Marshal(map[string]any{"kind": "tool", "id": fmt.Sprintf("t%d", i), "name": "read_file", "input": map[string]any{"path": fmt.Sprintf("src/f%d.go", i)}, "state": "done", "output": map[string]any{"content": out}})
			msg, _ := json.Marshal(map[string]any{"role": "tool", "content": []any{map[string]any{"type": "tool-result", "toolCallId": fmt.Sprintf("t%d", i), "output": map[string]any{"type": "json", "value": map[string]any{"content": out}}}}})
			batch = append(batch, Event{T: "messages", From: msgs, Messages: []json.RawMessage{msg}})
			msgs++
		default:
			it, _ = json.Marshal(map[string]any{"kind": "assistant", "id": fmt.Sprintf("a%d", i), "text": strings.Repeat("The parser stops at line 40 because the token is not consumed. ", 8)})
		}
		batch = append(batch, Event{T: "item", I: i, Item: it})
		if len(batch) >= 64 {
			if _, err := s.Append("day", batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := s.Append("day", batch); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReopen is what opening a conversation costs the backend: reading its log and handing the window its
// body (results as references). The 2,000-item case carries about 150 MB of tool results (each in an item and in
// a model message, stored once).
func BenchmarkReopen(b *testing.B) {
	for _, n := range []int{200, 2000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := ForProject(b.TempDir(), "/bench")
			buildDay(b, s, n, 150_000)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				c, err := ForProject(filepath.Dir(filepath.Dir(s.dir)), "/bench").Load("day")
				if err != nil || len(c.Body.Items) != n {
					b.Fatal(err, len(c.Body.Items))
				}
				flat, err := c.Body.Flat()
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(flat)))
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MiB/op")
			info, _ := os.Stat(filepath.Join(s.dir, "day.log"))
			b.ReportMetric(float64(info.Size())/(1<<20), "log-MiB")
		})
	}
}

// BenchmarkSaveEvent is what saving one change costs in a conversation of n items: appending the event (a
// streamed answer growing by a sentence) against rewriting the whole conversation as one JSON file, as the
// window did before the log (with every tool result inline, 15 MB at 200 items).
func BenchmarkSaveEvent(b *testing.B) {
	for _, n := range []int{200, 2000} {
		answer := func(i int) json.RawMessage {
			it, _ := json.Marshal(map[string]any{"kind": "assistant", "id": "streamed", "text": strings.Repeat("More of the answer. ", 10+i%50)})
			return it
		}
		b.Run(fmt.Sprintf("append/%d", n), func(b *testing.B) {
			s := ForProject(b.TempDir(), "/bench")
			s.CompactAfter = 1 << 40 // the cost of the append itself; compaction is measured apart
			buildDay(b, s, n, 150_000)
			path := filepath.Join(s.dir, "day.log")
			start, _ := os.Stat(path)
			i := 0
			for b.Loop() {
				if _, err := s.Append("day", []Event{{T: "item", I: n, Item: answer(i)}}); err != nil {
					b.Fatal(err)
				}
				i++
			}
			end, _ := os.Stat(path)
			b.ReportMetric(float64(end.Size()-start.Size())/float64(b.N), "written-B/op")
		})
		b.Run(fmt.Sprintf("rewrite/%d", n), func(b *testing.B) {
			s := ForProject(b.TempDir(), "/bench")
			buildDay(b, s, n, 150_000)
			c, _ := s.Load("day")
			body, err := s.Inline(c)
			if err != nil {
				b.Fatal(err)
			}
			body.Items = append(body.Items, nil)
			path := filepath.Join(b.TempDir(), "day.json")
			written := 0
			i := 0
			for b.Loop() {
				body.Items[n] = answer(i)
				flat, err := body.Flat()
				if err != nil {
					b.Fatal(err)
				}
				doc, err := json.Marshal(map[string]any{"id": "day", "title": "t", "body": json.RawMessage(flat)})
				if err != nil {
					b.Fatal(err)
				}
				if err := configfile.Write(path, doc); err != nil {
					b.Fatal(err)
				}
				written += len(doc)
				i++
			}
			b.ReportMetric(float64(written)/float64(b.N), "written-B/op")
		})
	}
}

// BenchmarkCompact is one rewrite of a 2,000-item log as a snapshot: what an append pays now and then.
func BenchmarkCompact(b *testing.B) {
	s := ForProject(b.TempDir(), "/bench")
	buildDay(b, s, 2000, 150_000)
	f, _ := s.files("day")
	for b.Loop() {
		s.mu.Lock()
		st, err := s.open("day", f)
		if err == nil {
			err = s.compact("day", f, st)
		}
		s.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}
