package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/mcpclient/mcpfixture"
	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// A program server in an allow-list project is refused a host by its proxy (a real CONNECT, refused with a 403):
// the call's result tells the model which host and what the user can do, and the server's status records it
// once with a count and the last time, the window told as it happens. A listed name that resolves to a private
// address is recorded too, as no rule can allow it. Allowing the host with a network rule (what the window's
// Allow writes) lets the running server reach it at its next connection, with no restart, and its status
// stops listing it.
func TestRefusedHostsRecordedAndAllowedLive(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	resolve := mcpfixture.Names{"api.example.com": ap.Addr(), "inward.example.com": netip.MustParseAddr("10.9.8.7")}
	f := newFixture(t, eras[0], nil, nil)
	f.m.opts.Proxy = HTTPProxy(httpproxy.Options{Resolver: resolve, Exempt: []netip.AddrPort{ap}})
	var changes atomic.Int32
	f.m.opts.OnChange = func() { changes.Add(1) }
	f.allowList(t, "inward.example.com")
	fetch := func(url string) Result {
		t.Helper()
		args, _ := json.Marshal(mcpfixture.FetchIn{URL: url})
		out, e := f.call(t, "mcp__fx__fetch", string(args))
		if e != nil {
			t.Fatalf("fetch %s: %v", url, e)
		}
		var r Result
		if err := json.Unmarshal(out, &r); err != nil || len(r.Content) != 1 {
			t.Fatalf("fetch %s: %s", url, out)
		}
		return r
	}
	api := fmt.Sprintf("https://api.example.com:%d/", ap.Port())
	first := fetch(api)
	st := f.m.Status()
	if len(st) != 1 || st[0].Sandbox == nil || st[0].Sandbox.Proxy == "" {
		if len(st) == 1 && st[0].Sandbox != nil && st[0].Sandbox.NetworkNote != "" {
			t.Skipf("no network namespace can be made here: %s", st[0].Sandbox.NetworkNote)
		}
		t.Fatalf("the server's sandbox does not say allow-list mode held: %+v", st)
	}
	before := changes.Load()
	second := fetch(api)
	for i, r := range []Result{first, second} {
		if !strings.Contains(r.Content[0].Text, "Forbidden by Rooted: api.example.com") {
			t.Errorf("fetch %d was not refused by the proxy: %q", i+1, r.Content[0].Text)
		}
		if !slices.Equal(r.NetworkRefused, []string{"api.example.com"}) || !strings.Contains(r.ModelText(), "the MCP server fx was refused api.example.com") || !strings.Contains(r.Hint, "allow it") {
			t.Errorf("fetch %d: what the model reads does not name the refused host: %+v / %q", i+1, r, r.ModelText())
		}
	}
	if changes.Load() != before {
		t.Errorf("the same host refused again at once told the window %d more times", changes.Load()-before)
	}
	inward := fetch(fmt.Sprintf("https://inward.example.com:%d/", ap.Port()))
	if !slices.Equal(inward.NetworkRefused, []string{"inward.example.com"}) {
		t.Errorf("a private address: %+v", inward)
	}
	// A newly refused host is told at once, or at the end of the interval that bounds how often the window is told.
	for deadline := time.Now().Add(2 * refusedNotifyEvery); changes.Load() == before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if changes.Load() == before {
		t.Error("a newly refused host did not tell the window")
	}
	got := f.m.Status()[0].RefusedHosts
	if len(got) != 2 || got[0].Host != "inward.example.com" || got[0].Allowable || got[0].Count != 1 || !strings.Contains(got[0].Reason, "private") ||
		got[1].Host != "api.example.com" || !got[1].Allowable || got[1].Count != 2 || time.Since(got[1].Last) > time.Minute || !strings.Contains(got[1].Reason, "not on this project's list") {
		t.Fatalf("the status's refused hosts: %+v", got)
	}

	if err := f.store.UpdateProject(f.root, func(q *settings.Project) error {
		q.Rules = append(q.Rules, permissions.Rule{Action: permissions.Allow, Tool: permissions.Network, Domain: "api.example.com"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	pid := f.m.servers["fx"].conn.proc.Pid()
	reached := fetch(fmt.Sprintf("http://api.example.com:%d/", ap.Port()))
	if !strings.HasPrefix(reached.Content[0].Text, "200 OK") || !strings.Contains(reached.Content[0].Text, "hello from api.example.com") || len(reached.NetworkRefused) != 0 {
		t.Errorf("allowed by a rule while the server ran: %+v", reached)
	}
	if now := f.m.servers["fx"].conn.proc.Pid(); now != pid {
		t.Errorf("the server was started again (%d, then %d) to take the rule", pid, now)
	}
	got = f.m.Status()[0].RefusedHosts
	if len(got) != 1 || got[0].Host != "inward.example.com" {
		t.Errorf("after the rule, the status still lists: %+v", got)
	}
}

// A server that cannot start because its proxy refused what it downloads first (npx and a registry the project
// does not list) fails with the host named, and its status lists the host.
func TestRefusedAtStart(t *testing.T) {
	ap := mcpfixture.HelloServer(t)
	url := fmt.Sprintf("https://registry.example.com:%d/pkg.tgz", ap.Port())
	f := newFixture(t, eras[0], func(c *settings.MCPServer) { c.Env[mcpfixture.FetchFirstEnv] = url }, nil)
	f.m.opts.Proxy = HTTPProxy(httpproxy.Options{Resolver: mcpfixture.Names{"registry.example.com": ap.Addr()}, Exempt: []netip.AddrPort{ap}})
	f.allowList(t)
	f.m.Start()
	f.m.Wait(t.Context())
	st := f.m.Status()
	if len(st) == 1 && st[0].Sandbox != nil && st[0].Sandbox.Proxy == "" && st[0].Sandbox.NetworkNote != "" {
		t.Skipf("no network namespace can be made here: %s", st[0].Sandbox.NetworkNote)
	}
	if len(st) != 1 || st[0].State != "failed" || !strings.Contains(st[0].Error, "while it started, the MCP server fx was refused registry.example.com") {
		t.Fatalf("the failed start does not name the refused host: %+v", st)
	}
	if r := st[0].RefusedHosts; len(r) != 1 || r[0].Host != "registry.example.com" || !r[0].Allowable {
		t.Errorf("the status's refused hosts: %+v", r)
	}
	if _, e := f.call(t, "mcp__fx__add", `{"a": 1, "b": 2}`); e == nil || !strings.Contains(e.Message, "registry.example.com") {
		t.Errorf("a call of the server that cannot start: %v", e)
	}
}

// A server's record keeps each host once, counting its refusals, and at most MaxRefusedHosts of them, dropping
// the least recently refused; a call hears of the hosts refused during it alone, the most recent first.
func TestRefusalRecordBounded(t *testing.T) {
	var f refusals
	now := time.Unix(1_800_000_000, 0)
	at := func(i int) time.Time { return now.Add(time.Duration(i) * time.Second) }
	f.add(Refusal{Host: "h0.example.com", Allowable: true}, at(0))
	for i := 1; i <= MaxRefusedHosts+3; i++ {
		f.add(Refusal{Host: fmt.Sprintf("h%d.example.com", i), Allowable: true}, at(i))
		if i == MaxRefusedHosts-1 {
			f.add(Refusal{Host: "h0.example.com", Allowable: true}, at(i)) // h0 refused again: it stays
		}
	}
	mark := f.mark()
	f.add(Refusal{Host: "h2.example.com"}, at(100)) // dropped already: back, at the front
	f.add(Refusal{Host: "late.example.com"}, at(101))
	all := f.shown(nil, nil)
	if len(all) != MaxRefusedHosts {
		t.Fatalf("kept %d hosts, want %d", len(all), MaxRefusedHosts)
	}
	if all[0].Host != "late.example.com" || all[1].Host != "h2.example.com" || all[1].Count != 1 {
		t.Errorf("the most recent first: %+v", all[:2])
	}
	var h0 *RefusedHost
	for i := range all {
		if all[i].Host == "h0.example.com" {
			h0 = &all[i]
		}
		if all[i].Host == "h1.example.com" || all[i].Host == "h3.example.com" {
			t.Errorf("kept a host refused less recently than those dropped: %+v", all[i])
		}
	}
	if h0 == nil || h0.Count != 2 || !h0.Last.Equal(at(MaxRefusedHosts-1)) {
		t.Errorf("a host refused twice: %+v", h0)
	}
	since := f.since(mark)
	if len(since) != 2 || since[0].Host != "late.example.com" || since[1].Host != "h2.example.com" {
		t.Errorf("refused during the call: %+v", since)
	}
	if shown := f.shown([]string{"h0.example.com"}, nil); slices.ContainsFunc(shown, func(h RefusedHost) bool { return h.Host == "h0.example.com" }) {
		t.Error("a host the project allows now is still shown")
	}
	if shown := f.shown([]string{"*.example.com"}, []string{"h0.example.com"}); !slices.ContainsFunc(shown, func(h RefusedHost) bool { return h.Host == "h0.example.com" }) {
		t.Error("a host a rule denies is hidden as if allowed")
	}
}

// A call that fails while its server was refused a host says so in the failure the model reads, and names the
// host in its details.
func TestRefusedHostsInAFailure(t *testing.T) {
	s := &server{name: "docs"}
	mark := s.refused.mark()
	s.refused.add(Refusal{Host: "api.example.com", Allowable: true}, time.Now())
	_, err := s.withRefused(nil, &tool.Error{Code: tool.CodeToolFailed, Message: "fetch failed"}, mark)
	te, ok := err.(*tool.Error)
	if !ok || !strings.HasPrefix(te.Message, "fetch failed; while this call ran, the MCP server docs was refused api.example.com") || !slices.Equal(te.Details["network_refused"].([]string), []string{"api.example.com"}) {
		t.Errorf("the failure: %#v", err)
	}
	if _, err := s.withRefused(nil, &tool.Error{Code: tool.CodeToolFailed, Message: "other"}, s.refused.mark()); err.(*tool.Error).Message != "other" {
		t.Errorf("a later call that was refused nothing: %v", err)
	}
}

// A server refused host after host, each new (more than the record keeps, in turn), tells the window at most
// once an interval, and the last change is still told: 10 s of a refusal a millisecond is 10,000 refusals, and at
// most one notification per refusedNotifyEvery.
func TestRefusalNotificationsBounded(t *testing.T) {
	var f refusals
	start := time.Unix(1_800_000_000, 0)
	const n = 10_000
	told := 0
	var due time.Time
	lastTold := false
	for i := range n {
		at := start.Add(time.Duration(i) * time.Millisecond)
		if !due.IsZero() && !at.Before(due) {
			f.told(due)
			told++
			due = time.Time{}
		}
		now, later := f.add(Refusal{Host: fmt.Sprintf("h%d.example.com", i%(MaxRefusedHosts+1)), Allowable: true}, at)
		if now {
			told++
		}
		if later > 0 {
			due = at.Add(later)
		}
		lastTold = now || !due.IsZero()
	}
	if limit := int(n*time.Millisecond/refusedNotifyEvery) + 1; told > limit {
		t.Errorf("the window was told %d times in %v, want at most %d", told, n*time.Millisecond, limit)
	}
	if !lastTold {
		t.Error("the last refusal is never told: no notification is due after it")
	}

	// Through a server: the first refusal is told at once, the rest of the burst once more, after the interval.
	var changes atomic.Int32
	s := &server{name: "fx", m: &Manager{}}
	s.m.opts.OnChange = func() { changes.Add(1) }
	for i := range 100 {
		s.refusedRecord(Refusal{Host: fmt.Sprintf("r%d.example.com", i), Allowable: true})
	}
	if got := changes.Load(); got != 1 {
		t.Errorf("a burst of 100 new hosts told the window %d times at once, want 1", got)
	}
	for deadline := time.Now().Add(5 * refusedNotifyEvery); changes.Load() < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := changes.Load(); got != 2 {
		t.Errorf("after the interval the window was told %d times in all, want 2 (the burst's end told once)", got)
	}
}

// A server's proxy reads the project's lists at every connection; while settings.json cannot be read it allows
// no host, rather than the lists of the server's start, which would miss a deny rule added since.
func TestListsUnreadableAllowNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	store := settings.NewStore(path)
	root := t.TempDir()
	if err := store.SetProject(root, settings.Project{Network: settings.NetworkAllowlist, NetworkHosts: []string{"api.example.com"}}); err != nil {
		t.Fatal(err)
	}
	m := &Manager{}
	m.opts.Settings, m.opts.Root = store, root
	lists := m.lists("fx")
	if allow, _ := lists(); !slices.Contains(allow, "api.example.com") {
		t.Fatalf("the readable lists: %v", allow)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if allow, deny := lists(); len(allow) != 0 || len(deny) != 0 {
		t.Errorf("with settings.json unreadable the proxy allows %v (denies %v), want nothing", allow, deny)
	}
}
