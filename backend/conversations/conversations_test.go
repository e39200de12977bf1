package conversations

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func item(i int, text string) Event {
	b, _ := json.Marshal(map[string]any{"kind": "assistant", "id": fmt.Sprintf("a%d", i), "text": text})
	return Event{T: "item", I: i, Item: b}
}

func toolItem(i int, output string) Event {
	b, _ := json.Marshal(map[string]any{"kind": "tool", "id": fmt.Sprintf("t%d", i), "name": "read_file", "input": map[string]any{"path": "big.txt"}, "state": "done", "output": map[string]any{"content": output}})
	return Event{T: "item", I: i, Item: b}
}

func texts(t *testing.T, items []json.RawMessage) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, r := range items {
		var it struct{ Text string }
		if err := json.Unmarshal(r, &it); err != nil {
			t.Fatal(err)
		}
		out[i] = it.Text
	}
	return out
}

func newStore(t *testing.T) *Store {
	t.Helper()
	s := ForProject(t.TempDir(), "/home/me/shop")
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	return s
}

// reopened is a new store on s's data folder for the same project, as Rooted opened again has.
func reopened(s *Store) *Store {
	return ForProject(filepath.Dir(filepath.Dir(s.dir)), "/home/me/shop")
}

// holdsItems fails the test unless conversation id, loaded by a store opened again, has n items.
func holdsItems(t *testing.T, s *Store, id string, n int) {
	t.Helper()
	c, err := reopened(s).Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Body.Items) != n {
		t.Errorf("items: %d", len(c.Body.Items))
	}
}

func TestAppendListRenameDelete(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	if list, err := s.List(); err != nil || len(list) != 0 {
		t.Fatalf("empty store: %v, %v", list, err)
	}
	if _, err := s.Append("c1", []Event{{T: "title", Title: "Fix the build"}, item(0, "first")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append("c2", []Event{item(0, "other")}); err != nil {
		t.Fatal(err)
	}
	// An item that grows (a streamed answer) is the same index again; messages are added from their count.
	m, err := s.Append("c1", []Event{
		item(0, "first, longer"), item(1, "second"),
		{T: "messages", From: 0, Messages: []json.RawMessage{json.RawMessage(`{"role":"user","content":"hi"}`)}},
		{T: "state", State: map[string]json.RawMessage{"usage": json.RawMessage(`{"input":3,"output":4}`)}},
	})
	if err != nil || m.Title != "Fix the build" || !m.Created.Before(m.Updated) || m.Count != 2 {
		t.Fatalf("append: %+v, %v", m, err)
	}
	list, _ := s.List()
	if len(list) != 2 || list[0].ID != "c1" || list[1].Title != "New conversation" {
		t.Fatalf("list: %+v", list)
	}
	c, err := s.Load("c1")
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(t, c.Body.Items); strings.Join(got, "|") != "first, longer|second" {
		t.Errorf("items: %q", got)
	}
	flat, _ := c.Body.Flat()
	if !bytes.Contains(flat, []byte(`"usage":{"input":3,"output":4}`)) || !bytes.Contains(flat, []byte(`"content":"hi"`)) {
		t.Errorf("flat body: %s", flat)
	}
	if _, err := s.Rename("c2", "  Add a test  "); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Load("c2"); c.Title != "Add a test" {
		t.Errorf("renamed: %+v", c.Meta)
	}
	if l, _ := s.List(); !slices.ContainsFunc(l, func(m Meta) bool { return m.ID == "c2" && m.Title == "Add a test" }) {
		t.Errorf("list after rename: %+v", l)
	}
	if err := s.Delete("c2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("c2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if err := s.Delete("c2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if l, _ := ForProject(filepath.Dir(filepath.Dir(s.dir)), "/home/me/other").List(); len(l) != 0 {
		t.Errorf("other project sees %v", l)
	}
}

// A rewind cuts items and messages; what it cut is kept.
func TestRewindEvents(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	msgs := []json.RawMessage{json.RawMessage(`1`), json.RawMessage(`2`), json.RawMessage(`3`)}
	if _, err := s.Append("c", []Event{item(0, "a"), item(1, "b"), item(2, "c"), {T: "messages", Messages: msgs}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append("c", []Event{{T: "items", N: 1}, {T: "messages", From: 1}, {T: "rewound", Rewound: json.RawMessage(`{"items":["b","c"]}`)}, item(1, "d")}); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Load("c")
	if got := strings.Join(texts(t, c.Body.Items), ""); got != "ad" || len(c.Body.Messages) != 1 || len(c.Body.Rewound) != 1 {
		t.Errorf("after rewind: %q, %d messages, %d rewound", got, len(c.Body.Messages), len(c.Body.Rewound))
	}
}

// A batch with one event that does not apply writes nothing.
func TestBadEventsWriteNothing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	if _, err := s.Append("c", []Event{item(0, "a")}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(s.dir, "c.log"))
	for name, ev := range map[string]Event{
		"item past the end": item(5, "x"),
		"not an object":     {T: "item", I: 1, Item: json.RawMessage(`"x"`)},
		"keep more":         {T: "items", N: 3},
		"messages gap":      {T: "messages", From: 2},
		"reserved state":    {T: "state", State: map[string]json.RawMessage{"items": json.RawMessage(`[]`)}},
		"unknown":           {T: "shout"},
		"empty title":       {T: "title"},
		"missing blob":      {T: "item", I: 1, Item: json.RawMessage(`{"output":{"$blob":"` + strings.Repeat("a", 64) + `","bytes":3}}`)},
		"blob path":         {T: "item", I: 1, Item: json.RawMessage(`{"output":{"$blob":"../../x","bytes":3}}`)},
	} {
		if _, err := s.Append("c", []Event{item(1, "fine"), ev}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	after, _ := os.ReadFile(filepath.Join(s.dir, "c.log"))
	if !bytes.Equal(before, after) {
		t.Error("a refused batch changed the log")
	}
	for _, id := range []string{"../x", "a/b", "", "..", "a.json"} {
		if _, err := s.Append(id, []Event{item(0, "x")}); !errors.Is(err, ErrBadID) {
			t.Errorf("append %q: %v", id, err)
		}
	}
}

// Long strings are kept once, by hash, outside the log; the open returns references, Inline the content.
func TestLongStringsAreBlobs(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	big := strings.Repeat("line of a large file <&>\n", 2000) // 50 KB
	ev := toolItem(0, big)
	msg, _ := json.Marshal(map[string]any{"role": "tool", "content": []any{map[string]any{"type": "tool-result", "output": map[string]any{"content": big}}}})
	if _, err := s.Append("c", []Event{ev, {T: "messages", Messages: []json.RawMessage{msg}}}); err != nil {
		t.Fatal(err)
	}
	logBytes, _ := os.ReadFile(filepath.Join(s.dir, "c.log"))
	if len(logBytes) > 4096 || bytes.Contains(logBytes, []byte("line of a large file")) {
		t.Errorf("the log holds the content: %d bytes", len(logBytes))
	}
	blobs, _ := os.ReadDir(filepath.Join(s.dir, "c.blobs"))
	if len(blobs) != 1 {
		t.Fatalf("want the content stored once, got %d files", len(blobs))
	}
	c, _ := s.Load("c")
	if !bytes.Contains(c.Body.Items[0], []byte(`"$blob":"`+blobs[0].Name()+`"`)) {
		t.Errorf("item holds no reference: %s", c.Body.Items[0])
	}
	got, err := s.Blob("c", blobs[0].Name())
	if err != nil || string(got) != big {
		t.Errorf("blob: %d bytes, %v", len(got), err)
	}
	full, err := s.Inline(c)
	if err != nil || !bytes.Contains(full.Items[0], []byte(`line of a large file <&>\n`)) || !bytes.Contains(full.Messages[0], []byte("line of a large file")) {
		t.Errorf("inline: %v", err)
	}
	// The window sends references back (a compaction of its messages): they are accepted as they are.
	if _, err := s.Append("c", []Event{{T: "messages", From: 0, Messages: []json.RawMessage{c.Body.Items[0]}}}); err != nil {
		t.Errorf("a reference sent back: %v", err)
	}
	if hashes, _ := s.BlobsContaining("c", "LARGE FILE <&>"); len(hashes) != 1 {
		t.Errorf("search in contents: %v", hashes)
	}
	if hashes, _ := s.BlobsContaining("c", "absent words"); len(hashes) != 0 {
		t.Errorf("search in contents: %v", hashes)
	}
}

// A kill while a record is written leaves it short; the open drops it and the next append goes where it began.
func TestTornRecordIsDropped(t *testing.T) {
	t.Parallel()
	for _, tail := range []struct {
		name string
		b    []byte
	}{
		{"half a header", []byte{9, 0, 0}},
		{"short payload", frame(nil, []byte(`{"t":"item","i":2,"item":{"text":"torn"}}`))[:20]},
		{"zeros", make([]byte, 64)},
		{"bad checksum", func() []byte { b := frame(nil, []byte(`{"t":"title","title":"x"}`)); b[len(b)-2] ^= 1; return b }()},
	} {
		t.Run(tail.name, func(t *testing.T) {
			s := newStore(t)
			if _, err := s.Append("c", []Event{item(0, "a"), item(1, "b")}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(s.dir, "c.log")
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write(tail.b)
			f.Close()
			s2 := reopened(s)
			c, err := s2.Load("c")
			if err != nil || strings.Join(texts(t, c.Body.Items), "") != "ab" {
				t.Fatalf("after a torn record: %v, %+v", err, c.Body.Items)
			}
			if _, err := s2.Append("c", []Event{item(2, "c")}); err != nil {
				t.Fatal(err)
			}
			c, _ = reopened(s).Load("c")
			if got := strings.Join(texts(t, c.Body.Items), ""); got != "abc" {
				t.Errorf("after the next append: %q", got)
			}
		})
	}
}

// Damage in the middle of a log (not a tear: records follow it) is kept aside before the log is cut.
func TestDamageIsKeptAside(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Append("c", []Event{item(0, "a"), item(1, "b"), item(2, "c")})
	path := filepath.Join(s.dir, "c.log")
	b, _ := os.ReadFile(path)
	i := bytes.Index(b, []byte(`"text":"b"`))
	b[i+9] = 'X'
	os.WriteFile(path, b, 0o600)
	s2 := reopened(s)
	if _, err := s2.Append("c", []Event{item(1, "B")}); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(path + ".damaged-*")
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	if kept, _ := os.ReadFile(aside[0]); !bytes.Contains(kept, []byte(`"text":"c"`)) {
		t.Errorf("aside: %q", kept)
	}
}

// A conversation saved by an earlier Rooted (one JSON file) opens, and moves to a log on its first change.
func TestOldFormatOpensAndMigrates(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	os.MkdirAll(s.dir, 0o700)
	big := strings.Repeat("x", 3*BlobMin)
	old := `{"id":"old","title":"Old work","created":"2026-11-01T09:00:00Z","updated":"2026-11-01T10:00:00Z","body":{"items":[{"kind":"user","id":"u","text":"hello"},{"kind":"tool","id":"t","name":"read_file","output":"` + big + `"}],"messages":[{"role":"user","content":"hello"}],"usage":{"input":1,"output":2},"planMode":true}}`
	os.WriteFile(filepath.Join(s.dir, "old.json"), []byte(old), 0o600)
	list, _ := s.List()
	if len(list) != 1 || list[0].Title != "Old work" {
		t.Fatalf("list: %+v", list)
	}
	c, err := s.Load("old")
	if err != nil || len(c.Body.Items) != 2 || string(c.Body.State["planMode"]) != "true" {
		t.Fatalf("load: %+v, %v", c, err)
	}
	if _, err := s.Append("old", []Event{item(2, "answer")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "old.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old file is still there: %v", err)
	}
	c, _ = reopened(s).Load("old")
	if c.Title != "Old work" || len(c.Body.Items) != 3 || len(c.Body.Messages) != 1 || !c.Created.Equal(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("migrated: %+v", c.Meta)
	}
	full, _ := s.Inline(c)
	if !bytes.Contains(full.Items[1], []byte(big)) {
		t.Error("the large output did not survive the move")
	}
}

// A save that fails (the folder cannot be made: a file is where it should be, which stops root too) writes
// nothing and says so; once the folder can be made, the same events are saved whole.
func TestFailedSaveLosesNothing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	if err := os.MkdirAll(filepath.Dir(s.dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.dir, []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	batch := []Event{item(0, "a"), toolItem(1, strings.Repeat("y", 2*BlobMin))}
	if _, err := s.Append("c", batch); err == nil {
		t.Fatal("append into a file succeeded")
	}
	os.Remove(s.dir)
	if _, err := s.Append("c", batch); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append("c", []Event{item(2, "c")}); err != nil {
		t.Fatal(err)
	}
	holdsItems(t, s, "c", 3)
}

// A log past CompactAfter is rewritten as one snapshot; nothing is lost, and it keeps taking events.
func TestCompaction(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.CompactAfter = 16 << 10
	text := ""
	for i := range 400 {
		text += fmt.Sprintf("word%d ", i) // a streamed answer, sent again as it grows
		if _, err := s.Append("c", []Event{item(0, text), {T: "state", State: map[string]json.RawMessage{"n": json.RawMessage(fmt.Sprint(i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	info, _ := os.Stat(filepath.Join(s.dir, "c.log"))
	if info.Size() > 3*(16<<10) {
		t.Errorf("the log was not compacted: %d bytes", info.Size())
	}
	c, _ := reopened(s).Load("c")
	if texts(t, c.Body.Items)[0] != text || string(c.Body.State["n"]) != "399" || c.Title != "New conversation" || c.Created.IsZero() {
		t.Errorf("after compaction: %+v %s", c.Meta, c.Body.State["n"])
	}
}

func TestExport(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	user, _ := json.Marshal(map[string]any{"kind": "user", "id": "u", "text": "Read big.txt"})
	big := strings.Repeat("```inner fence``` ", BlobMin/10)
	s.Append("c", []Event{{T: "title", Title: "Reading"}, {T: "item", I: 0, Item: user}, toolItem(1, big), item(2, "It says hello.")})
	var md bytes.Buffer
	if err := s.Export(&md, "c", Markdown); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Reading\n", "## You\n\nRead big.txt\n", "### Tool `read_file` (done)", big, "## Agent\n\nIt says hello.\n", "\n````json\n"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %.60q:\n%.600s", want, md.String())
		}
	}
	var js bytes.Buffer
	if err := s.Export(&js, "c", JSON); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Title string
		Body  struct{ Items []map[string]any }
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || out.Title != "Reading" || len(out.Body.Items) != 3 {
		t.Fatalf("json: %v %+v", err, out)
	}
	if out.Body.Items[1]["output"].(map[string]any)["content"] != big {
		t.Error("json export holds a reference, not the content")
	}
	if err := s.Export(&js, "c", "pdf"); err == nil {
		t.Error("exported as pdf")
	}
}

// A data folder made read-only (permission bits stop only an ordinary user, so root skips this: the test above
// covers root, and scripts/test-unprivileged.sh runs this one as nobody): the save fails, nothing is half
// written, and the same events are saved whole once the folder is writable again.
func TestReadOnlyDataFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through permission bits")
	}
	t.Parallel()
	s := newStore(t)
	if _, err := s.Append("c", []Event{item(0, "a")}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(s.dir, "c.log"), 0o400); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.dir, 0o500); err != nil {
		t.Fatal(err)
	}
	batch := []Event{item(1, "b"), toolItem(2, strings.Repeat("q", 2*BlobMin))}
	if _, err := s.Append("c", batch); err == nil {
		t.Fatal("append to a read-only folder succeeded")
	}
	if _, err := s.Append("d", []Event{item(0, "new")}); err == nil {
		t.Fatal("a new conversation in a read-only folder succeeded")
	}
	os.Chmod(s.dir, 0o700)
	os.Chmod(filepath.Join(s.dir, "c.log"), 0o600)
	if _, err := s.Append("c", batch); err != nil {
		t.Fatal(err)
	}
	holdsItems(t, s, "c", 3)
}

// A streamed answer past BlobMin is stored again at every save; compaction removes what no record names any
// more, and keeps what one does (a rewound item's result included).
func TestCompactionRemovesUnnamedContents(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.CompactAfter = 64 << 10
	if _, err := s.Append("c", []Event{toolItem(0, strings.Repeat("kept by a rewind ", BlobMin/8))}); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Load("c")
	if _, err := s.Append("c", []Event{{T: "items", N: 0}, {T: "rewound", Rewound: json.RawMessage(`{"items":[` + string(c.Body.Items[0]) + `]}`)}}); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("a long answer. ", BlobMin/15)
	for i := range 300 {
		text += fmt.Sprintf("sentence %d. ", i)
		if _, err := s.Append("c", []Event{item(0, text)}); err != nil {
			t.Fatal(err)
		}
	}
	blobs, _ := os.ReadDir(filepath.Join(s.dir, "c.blobs"))
	if len(blobs) > 50 {
		t.Errorf("%d stored contents after compaction; want the live ones and those since", len(blobs))
	}
	c, _ = reopened(s).Load("c")
	full, err := s.Inline(c)
	if err != nil {
		t.Fatalf("a live content was removed: %v", err)
	}
	if texts(t, full.Items)[0] != text || !bytes.Contains(full.Rewound[0], []byte("kept by a rewind")) {
		t.Error("the conversation changed")
	}
}

// The list says what each conversation cost, as its saved usage says, for conversations no window has open: from
// the meta file, also after a compaction, and from the log once for a meta file written before costs were kept.
func TestListShowsCost(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	usage := func(u string) Event {
		return Event{T: "state", State: map[string]json.RawMessage{"usage": json.RawMessage(u)}}
	}
	for _, batch := range []struct {
		id string
		ev []Event
	}{
		{"paid", []Event{item(0, "a"), usage(`{"input":10,"output":2,"cost":0.012,"costUnknown":1}`)}},
		{"paid", []Event{item(1, "b"), usage(`{"input":30,"output":5,"cost":0.0305,"costUnknown":1}`)}},
		{"free", []Event{item(0, "a"), usage(`{"input":10,"output":2,"cost":0}`)}},
		{"unpriced", []Event{item(0, "a"), usage(`{"input":10,"output":2,"costUnknown":3}`)}},
		{"none", []Event{item(0, "a")}},
	} {
		if _, err := s.Append(batch.id, batch.ev); err != nil {
			t.Fatal(err)
		}
	}
	type spent struct {
		cost    string
		unknown int
	}
	want := map[string]spent{"paid": {"0.0305", 1}, "free": {"0", 0}, "unpriced": {"none", 3}, "none": {"none", 0}}
	check := func(when string) {
		t.Helper()
		// A store made again is another run of the window: it knows only what is on disk.
		list, err := reopened(s).List()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]spent{}
		for _, m := range list {
			c := "none"
			if m.Cost != nil {
				c = fmt.Sprint(*m.Cost)
			}
			got[m.ID] = spent{c, m.CostUnknown}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: list costs %v, want %v", when, got, want)
		}
	}
	check("saved")
	meta := filepath.Join(s.dir, "paid.meta")
	if b, _ := os.ReadFile(meta); !bytes.Contains(b, []byte(`"cost":0.0305`)) {
		t.Errorf("the meta file does not keep the cost: %s", b)
	}

	// A meta file from before costs were kept: the list reads the log, and writes the meta file again.
	if err := os.WriteFile(meta, []byte(`{"id":"paid","title":"New conversation","created":"2026-11-22T10:01:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	check("old meta file")
	if b, _ := os.ReadFile(meta); !bytes.Contains(b, []byte(`"cost":0.0305`)) || !bytes.Contains(b, []byte(`"v":1`)) {
		t.Errorf("the old meta file was not written again: %s", b)
	}

	// A compaction rewrites the log as one snapshot: the cost stays.
	s.CompactAfter = 1
	if _, err := s.Append("paid", []Event{item(2, strings.Repeat("long ", 100))}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	check("compacted, no meta file")
	// A usage put back to nothing (a conversation cleared) costs nothing known.
	if _, err := s.Append("paid", []Event{usage(`null`)}); err != nil {
		t.Fatal(err)
	}
	want["paid"] = spent{"none", 0}
	check("usage removed")
}
