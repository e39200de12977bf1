package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/websearch/searchtest"
)

// The window's face of web_search: off until Settings names an endpoint (a bad one refused with a field error and
// nothing saved), then in the bound tool list, before a project opens and in one, with the declaration the other
// faces have; a call searches; the approval check leaves it to the window to ask; clearing the setting turns it
// off again.
func TestWebSearchSetting(t *testing.T) {
	sx := searchtest.New(t, searchtest.Result{URL: "https://go.dev/doc/", Title: "Documentation", Content: "The Go docs."})
	dir := t.TempDir()
	svc := openServices(t)
	proj, err := svc.Projects.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := func(id string) (ToolSpec, bool) {
		t.Helper()
		specs, err := svc.Tools.Specs(id)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(specs, func(s ToolSpec) bool { return s.Name == "web_search" })
		if i < 0 {
			return ToolSpec{}, false
		}
		return specs[i], true
	}
	if e, err := svc.Settings.SearchEndpoint(); e != "" || err != nil {
		t.Fatalf("default: %q, %v", e, err)
	}
	if _, ok := listed(proj.ID); ok {
		t.Error("web_search is listed before an endpoint is set")
	}
	if _, err := svc.Settings.SaveSearchEndpoint("ftp://searx.example.org"); err == nil || !strings.Contains(err.Error(), `"invalid_argument"`) || !strings.Contains(err.Error(), "search_endpoint") {
		t.Errorf("a bad endpoint: %v", err)
	}
	if e, _ := svc.Settings.SearchEndpoint(); e != "" {
		t.Errorf("a refused endpoint was saved: %q", e)
	}
	if e, err := svc.Settings.SaveSearchEndpoint(" " + sx.URL + " "); err != nil || e != sx.URL {
		t.Fatalf("save: %q, %v", e, err)
	}
	b, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "settings.json"))
	var file struct {
		User struct {
			SearchEndpoint string `json:"search_endpoint"`
		} `json:"user"`
	}
	if json.Unmarshal(b, &file) != nil || file.User.SearchEndpoint != sx.URL {
		t.Errorf("settings.json: %s", b)
	}
	inProject, ok := listed(proj.ID)
	before, ok2 := listed("")
	if !ok || !ok2 || inProject != before || inProject.ReadOnly {
		t.Fatalf("listed in the project %v, before one %v: %+v / %+v", ok, ok2, inProject, before)
	}
	if c := svc.Permissions.Check(proj.ID, "web_search", `{"query": "go"}`); c.Action != "" || c.Error != "" || c.ReadOnly {
		t.Errorf("check with no rule (the window asks): %+v", c)
	}
	out, err := svc.Tools.Call(proj.ID, "web_search", `{"query": "go docs"}`)
	if err != nil || !strings.Contains(out, `"url":"https://go.dev/doc/"`) {
		t.Errorf("call: %s, %v", out, err)
	}
	if _, err := svc.Settings.SaveSearchEndpoint(""); err != nil {
		t.Fatal(err)
	}
	if _, ok := listed(proj.ID); ok {
		t.Error("web_search is still listed once the endpoint is cleared")
	}
	if _, err := svc.Tools.Call(proj.ID, "web_search", `{"query": "go docs"}`); err == nil || !strings.Contains(err.Error(), "not_configured") {
		t.Errorf("a call once cleared: %v", err)
	}
}
