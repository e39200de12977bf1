package app

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The window never receives a key: the provider list says whether there is one and where it comes from.
func TestProvidersViewHasNoKeys(t *testing.T) {
	svc := openServices(t)
	v, err := svc.Agent.SaveProvider(ProviderInput{ID: "or", Name: "OpenRouter", Kind: "openai-compatible", BaseURL: "https://openrouter.ai/api/v1/", APIKey: "sk-or-secret"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), "sk-or-secret") {
		t.Fatalf("the key reached the view: %s", b)
	}
	var or ProviderView
	for _, p := range v.Providers {
		if p.ID == "or" {
			or = p
		}
	}
	if !or.HasKey || or.KeySource != "settings" || or.BaseURL != "https://openrouter.ai/api/v1" {
		t.Errorf("view: %+v", or)
	}
	// Saving again without a key keeps the stored one; clear_key removes it.
	v, _ = svc.Agent.SaveProvider(ProviderInput{ID: "or", Kind: "openai-compatible", BaseURL: "https://openrouter.ai/api/v1", Model: "x"})
	if !v.Providers[1].HasKey {
		t.Error("an edit without a key dropped the stored key")
	}
	// The stored key does not follow the base URL to another host: it has to be entered again there.
	v, _ = svc.Agent.SaveProvider(ProviderInput{ID: "or", Kind: "openai-compatible", BaseURL: "https://collector.example/api/v1", Model: "x"})
	if v.Providers[1].HasKey {
		t.Error("the stored key followed the base URL to another host")
	}
	v, _ = svc.Agent.SaveProvider(ProviderInput{ID: "or", Kind: "openai-compatible", BaseURL: "https://openrouter.ai/api/v1", APIKey: "sk-or-secret"})
	v, _ = svc.Agent.SaveProvider(ProviderInput{ID: "or", Kind: "openai-compatible", BaseURL: "https://openrouter.ai/api/v1", ClearKey: true})
	if v.Providers[1].HasKey {
		t.Error("clear_key kept the key")
	}
	if _, err := svc.Agent.SaveProvider(ProviderInput{ID: "bad", Kind: "openai-compatible", BaseURL: "ftp://x"}); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("bad URL: %v", err)
	}
	// Removing the active provider makes the next one active.
	svc.Agent.SetActive("or", "")
	if v, err := svc.Agent.DeleteProvider("or"); err != nil || len(v.Providers) != 1 || v.Active != "ollama" {
		t.Errorf("delete the active provider: %+v, %v", v, err)
	}
	if _, err := svc.Agent.DeleteProvider("or"); err == nil || !strings.Contains(err.Error(), `"not_found"`) {
		t.Errorf("delete twice: %v", err)
	}
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "providers.json")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("providers file: %v %v", fi, err)
	}
}

// Fetch streams a provider's response to the window as numbered events, the end repeating the head.
func TestFetchStreamsEvents(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: %d %s\n\n", i, r.Header.Get("Authorization"))
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	svc := openServices(t)
	var mu sync.Mutex
	var got []LLMStream
	svc.Agent.emit = func(name string, data any) {
		if name == EventLLM {
			mu.Lock()
			got = append(got, data.(LLMStream))
			mu.Unlock()
		}
	}
	if _, err := svc.Agent.SaveProvider(ProviderInput{ID: "local", Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Agent.Fetch("r1", LLMRequest{Provider: "local", URL: srv.URL + "/v1/chat/completions", Method: "POST", Body: "{}"}); err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	for _, e := range got {
		if e.Data != "" {
			b, _ := base64.StdEncoding.DecodeString(e.Data)
			body.WriteString(string(b))
		}
	}
	last := got[len(got)-1]
	if got[0].Head == nil || got[0].Head.Status != 200 || !last.End || last.Head == nil || last.Seq != len(got)-2 || last.Error != "" {
		t.Errorf("events: %+v", got)
	}
	if body.String() != "data: 0 Bearer k\n\ndata: 1 Bearer k\n\ndata: 2 Bearer k\n\n" {
		t.Errorf("body: %q", body.String())
	}
	// Not an open proxy.
	err := svc.Agent.Fetch("r2", LLMRequest{Provider: "local", URL: "http://169.254.169.254/latest/meta-data"})
	if err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("other host: %v", err)
	}
}

func TestProjectSettingsScreen(t *testing.T) {
	dir := t.TempDir()
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Settings.Project(cur(t, svc))
	if err != nil || len(p.Allowlist) == 0 || p.SnapshotKeep != 500 || p.SnapshotMaxAgeDays != 30 {
		t.Fatalf("defaults: %+v, %v", p, err)
	}
	if _, err := svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: []string{"go", "/bin/sh"}}); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("a path in the allowlist: %v", err)
	}
	p, err = svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: []string{"go", " go ", "make"}, AutoApproveEdits: true, SnapshotKeep: 50})
	if err != nil || strings.Join(p.Allowlist, ",") != "go,make" || !p.AutoApproveEdits || p.SnapshotKeep != 50 {
		t.Fatalf("saved: %+v, %v", p, err)
	}
	// The allowlist saved here is the one exec_shell enforces.
	_, err = svc.Tools.Call(cur(t, svc), "exec_shell", `{"command":"ls"}`)
	if err == nil || !strings.Contains(err.Error(), `"command_not_allowed"`) {
		t.Errorf("ls after the allowlist became go, make: %v", err)
	}
	// An empty list means nothing runs, and stays empty (not the default).
	p, _ = svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: []string{}})
	if len(p.Allowlist) != 0 {
		t.Errorf("empty allowlist came back as %v", p.Allowlist)
	}
}

// The sandbox's openings the user may add (unix sockets, environment variables) are saved from the screen and are
// what exec_shell gives a command; a relative socket path or a lone * is refused and changes nothing.
func TestSandboxOpeningsSetting(t *testing.T) {
	dir := t.TempDir()
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTED_TEST_GREETING", "hello from the user")
	t.Setenv("ROOTED_TEST_OTHER", "not asked for")
	p, err := svc.Settings.Project(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	in := ProjectSettingsInput{Allowlist: append(p.Allowlist, "env"), SnapshotKeep: p.SnapshotKeep, SnapshotMaxAgeDays: p.SnapshotMaxAgeDays}
	for _, bad := range []ProjectSettingsInput{
		{Allowlist: in.Allowlist, UnixSockets: []string{"run/docker.sock"}},
		{Allowlist: in.Allowlist, EnvAllow: []string{"*"}},
		{Allowlist: in.Allowlist, EnvAllow: []string{"MY VAR"}},
	} {
		if _, err := svc.Settings.Save(cur(t, svc), bad); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
			t.Errorf("%+v saved: %v", bad, err)
		}
	}
	if p, _ := svc.Settings.Project(cur(t, svc)); len(p.UnixSockets) != 0 || len(p.EnvAllow) != 0 || slices.Contains(p.Allowlist, "env") {
		t.Fatalf("a refused save changed the settings: %+v", p)
	}
	if _, err := svc.Settings.Save(cur(t, svc), in); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		out, err := svc.Tools.Call(cur(t, svc), "exec_shell", `{"command":"env"}`)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := run(); strings.Contains(out, "ROOTED_TEST_GREETING") {
		t.Fatalf("a variable nobody allowed reached the command: %s", out)
	}
	in.UnixSockets = []string{"/run/x/../docker.sock", "/run/docker.sock", " "}
	in.EnvAllow = []string{"ROOTED_TEST_GREETING", " ROOTED_TEST_GREETING "}
	p, err = svc.Settings.Save(cur(t, svc), in)
	if err != nil || !slices.Equal(p.UnixSockets, []string{"/run/docker.sock"}) || !slices.Equal(p.EnvAllow, []string{"ROOTED_TEST_GREETING"}) {
		t.Fatalf("saved: %+v, %v", p, err)
	}
	if out := run(); !strings.Contains(out, "hello from the user") || strings.Contains(out, "not asked for") {
		t.Errorf("the command's environment after allowing ROOTED_TEST_GREETING: %s", out)
	}
}

// The search memory budget is shown with what search holds, saved, and in force at once in the open project.
func TestSearchMemorySetting(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat("needle\n", 1000)), 0o644)
	svc := openServices(t)
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tools.Call(cur(t, svc), "search_files", `{"query":"needle"}`); err != nil {
		t.Fatal(err)
	}
	// The index takes the file text in the background (searches never wait for it): poll, with a deadline.
	var p ProjectSettings
	var err error
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		p, err = svc.Settings.Project(cur(t, svc))
		if err != nil || p.Search.CachedMiB != 0 || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || p.SearchMemoryMiB != 0 || p.Search.BudgetMiB != 128 || p.Search.CachedMiB == 0 {
		t.Fatalf("defaults after a search: %+v, %v", p.Search, err)
	}
	if _, err := svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: p.Allowlist, SearchMemoryMiB: -1}); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("a negative budget: %v", err)
	}
	p, err = svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: p.Allowlist, SearchMemoryMiB: 512})
	if err != nil || p.SearchMemoryMiB != 512 || p.Search.BudgetMiB != 512 {
		t.Fatalf("saved: %+v, %v", p, err)
	}
	w, err := svc.workspaces.Get(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	root, err := w.Session().Resolve(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, budget, _, ok := w.Indexes().Memory(root.Root); !ok || budget != 512<<20 {
		t.Errorf("the open index's budget is %d (%v), not 512 MiB", budget, ok)
	}
}

// Conversations belong to the open project: saved, listed, renamed and deleted through the bound methods.
func TestConversationsPerProject(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	svc := openServices(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	if _, err := svc.Agent.Conversations(cur(t, svc)); err == nil || !strings.Contains(err.Error(), `"no_project"`) {
		t.Errorf("without a project: %v", err)
	}
	svc.Agent.dataDir = filepath.Join(os.Getenv("XDG_DATA_HOME"), "rooted")
	svc.Projects.Open(a)
	if _, err := svc.Agent.AppendConversation(openRoot(t, svc), "c1", `[{"t":"title","title":"Fix the build"},{"t":"item","i":0,"item":{"kind":"user","text":"fix it"}}]`); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Agent.AppendConversation(openRoot(t, svc), "../c2", `[{"t":"title","title":"x"}]`); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("an id naming another file: %v", err)
	}
	if _, err := svc.Agent.AppendConversation(openRoot(t, svc), "c1", `[{"t":"item","i":5,"item":{}}]`); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("an item past the end: %v", err)
	}
	if _, err := svc.Agent.AppendConversation(openRoot(t, svc), "c1", `[{"t":"item","what":1}]`); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("an unknown field: %v", err)
	}
	if md, err := svc.Agent.ExportConversation(cur(t, svc), "c1", "markdown"); err != nil || !strings.Contains(md, "## You\n\nfix it\n") {
		t.Errorf("export: %q, %v", md, err)
	}
	if m, err := svc.Agent.RenameConversation(cur(t, svc), "c1", "Fix CI"); err != nil || m.Title != "Fix CI" {
		t.Errorf("rename: %+v, %v", m, err)
	}
	body, err := svc.Agent.LoadConversation(cur(t, svc), "c1")
	if err != nil || !strings.Contains(body, "fix it") {
		t.Errorf("load: %s, %v", body, err)
	}
	rootA := openRoot(t, svc)
	svc.Projects.Open(b)
	if list, _ := svc.Agent.Conversations(cur(t, svc)); len(list) != 0 {
		t.Errorf("project b sees a's conversations: %+v", list)
	}
	// The window moved to b while a's conversation had a last change to save: it goes to a.
	if _, err := svc.Agent.AppendConversation(rootA, "c1", `[{"t":"item","i":1,"item":{"kind":"assistant","text":"late"}}]`); err != nil {
		t.Fatal(err)
	}
	if list, _ := svc.Agent.Conversations(cur(t, svc)); len(list) != 0 {
		t.Errorf("a's late change landed in b: %+v", list)
	}
	if _, err := svc.Agent.AppendConversation("/never/opened", "c1", `[]`); err == nil || !strings.Contains(err.Error(), `"no_project"`) {
		t.Errorf("a project never opened: %v", err)
	}
	svc.Projects.Open(a)
	if list, _ := svc.Agent.Conversations(cur(t, svc)); len(list) != 1 || list[0].Title != "Fix CI" {
		t.Errorf("back in a: %+v", list)
	}
	if body, _ := svc.Agent.LoadConversation(cur(t, svc), "c1"); !strings.Contains(body, "late") {
		t.Errorf("a's late change is not in a: %s", body)
	}
	if err := svc.Agent.DeleteConversation(cur(t, svc), "c1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Agent.DeleteConversation(cur(t, svc), "c1"); err == nil || !strings.Contains(err.Error(), `"not_found"`) {
		t.Errorf("deleting twice: %v", err)
	}
}

// A context window set for a model is kept per model: it follows the model chosen, and 0 returns to automatic.
func TestContextWindowPerModel(t *testing.T) {
	svc := openServices(t)
	if _, err := svc.Agent.SaveProvider(ProviderInput{ID: "l", Kind: "openai-compatible", BaseURL: "http://localhost:8080/v1", Model: "small", ContextWindow: -5}); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("a negative window: %v", err)
	}
	v, err := svc.Agent.SaveProvider(ProviderInput{ID: "l", Kind: "openai-compatible", BaseURL: "http://localhost:8080/v1", Model: "small", ContextWindow: 8192})
	if err != nil || v.Providers[1].ContextWindow != 8192 {
		t.Fatalf("saved: %+v %v", v, err)
	}
	v, _ = svc.Agent.SetActive("l", "big")
	if v.Providers[1].ContextWindow != 0 {
		t.Errorf("another model inherited the window: %+v", v.Providers[1])
	}
	v, _ = svc.Agent.SetActive("l", "small")
	if v.Providers[1].ContextWindow != 8192 {
		t.Errorf("the window of small was lost: %+v", v.Providers[1])
	}
	v, _ = svc.Agent.SaveProvider(ProviderInput{ID: "l", Kind: "openai-compatible", BaseURL: "http://localhost:8080/v1", Model: "small"})
	if v.Providers[1].ContextWindow != 0 {
		t.Errorf("0 did not return to automatic: %+v", v.Providers[1])
	}
}

// Test connection works before a provider is saved: the window gets the models or the problem in words, and the
// providers file is not written.
func TestTestProviderBeforeSaving(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer k" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"data":[{"id":"m1"}]}`))
	}))
	defer srv.Close()
	svc := openServices(t)
	before, _ := svc.Agent.Providers()
	r, err := svc.Agent.TestProvider(ProviderInput{Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "k"})
	if err != nil || !r.OK || !slices.Equal(r.Models, []string{"m1"}) {
		t.Fatalf("test: %+v, %v", r, err)
	}
	if r, err := svc.Agent.TestProvider(ProviderInput{Kind: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "wrong"}); err != nil || r.OK || r.Status != 401 || !strings.Contains(r.Problem, "refused the API key") {
		t.Errorf("wrong key: %+v, %v", r, err)
	}
	if _, err := svc.Agent.TestProvider(ProviderInput{Kind: "openai-compatible", BaseURL: "ftp://x"}); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) {
		t.Errorf("a bad URL: %v", err)
	}
	after, _ := svc.Agent.Providers()
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("testing changed the providers: %+v -> %+v", before, after)
	}
}

// openRoot is the open project's root, as the window knows it.
func openRoot(t *testing.T, svc *services) string {
	t.Helper()
	p, err := svc.Projects.Current()
	if err != nil || p == nil {
		t.Fatalf("no open project: %v", err)
	}
	return p.Root
}

// cur is the id of the project the window shows (the one opened last), or "" when none is open: the tests act on
// it as the window does.
func cur(t *testing.T, svc *services) string {
	t.Helper()
	p, err := svc.Projects.Current()
	if err != nil {
		t.Fatal(err)
	}
	if p == nil {
		return ""
	}
	return p.ID
}

// The list says what each conversation cost after a restart too: the cost the window saved with the conversation's
// usage comes back from the store of a new run, which has loaded no conversation.
func TestConversationCostOutlivesTheRun(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	data := filepath.Join(os.Getenv("XDG_DATA_HOME"), "rooted")
	first := openServices(t)
	first.Agent.dataDir = data
	if _, err := first.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{
		`[{"t":"title","title":"Priced"},{"t":"item","i":0,"item":{"kind":"user","text":"go"}},{"t":"state","state":{"usage":{"input":1200,"output":80,"cost":0.0042,"costUnknown":1}}}]`,
		`[{"t":"item","i":1,"item":{"kind":"assistant","text":"done"}},{"t":"state","state":{"usage":{"input":2400,"output":160,"cost":0.0091,"costUnknown":1}}}]`,
	} {
		if _, err := first.Agent.AppendConversation(openRoot(t, first), "priced", ev); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := first.Agent.AppendConversation(openRoot(t, first), "unpriced", `[{"t":"item","i":0,"item":{"kind":"user","text":"hi"}},{"t":"state","state":{"usage":{"input":10,"output":2,"costUnknown":1}}}]`); err != nil {
		t.Fatal(err)
	}
	first.workspaces.CloseAll()

	again := openServices(t)
	again.Agent.dataDir = data
	if _, err := again.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	list, err := again.Agent.Conversations(cur(t, again))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range list {
		b, _ := json.Marshal(m)
		got[m.ID] = string(b)
	}
	for id, want := range map[string]string{"priced": `"cost":0.0091,"cost_unknown":1`, "unpriced": `"cost_unknown":1`} {
		if !strings.Contains(got[id], want) {
			t.Errorf("after a restart %s is listed as %s, want %s", id, got[id], want)
		}
	}
	if strings.Contains(got["unpriced"], `"cost":`) {
		t.Errorf("a conversation with no known cost is listed with one: %s", got["unpriced"])
	}
}
