package app

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// The window calls its bound methods from several goroutines at once: two provider edits at the same moment both
// land in providers.json, and a conversation saved while it is renamed keeps both the new body and the new title.
// Each store serialises its read-modify-write; on code that does not, an update is lost (and -race reports it).
func TestConcurrentWindowCallsLoseNoUpdate(t *testing.T) {
	svc := openServices(t)
	if _, err := svc.Projects.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := svc.Agent.SaveProvider(ProviderInput{ID: fmt.Sprintf("p%d", i), Kind: "openai-compatible", BaseURL: "http://localhost:8080/v1"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	v, err := svc.Agent.Providers()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Providers) != n+1 { // and the default Ollama
		t.Errorf("%d providers saved at once, %d kept", n, len(v.Providers)-1)
	}

	for i := range n {
		id := fmt.Sprintf("c%d", i)
		if _, err := svc.Agent.AppendConversation(openRoot(t, svc), id, `[{"t":"title","title":"first"},{"t":"state","state":{"v":0}}]`); err != nil {
			t.Fatal(err)
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := svc.Agent.AppendConversation(openRoot(t, svc), id, `[{"t":"state","state":{"v":1}}]`); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := svc.Agent.RenameConversation(cur(t, svc), id, "renamed"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	list, err := svc.Agent.Conversations(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, m := range list {
		body, err := svc.Agent.LoadConversation(cur(t, svc), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Title != "renamed" || !strings.Contains(body, `"v":1`) {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d conversations lost their rename or their new body", lost, n)
	}
}

// A settings save from the Settings screen while an approval card adds a rule: both are kept. The save changes
// only the fields it shows, in one read-modify-write with the rest.
func TestSettingsSaveKeepsARuleAddedMeanwhile(t *testing.T) {
	svc := openServices(t)
	if _, err := svc.Projects.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := svc.Permissions.AddRule(cur(t, svc), Rule{Action: "allow", Tool: "exec_shell", Command: fmt.Sprintf("go test ./p%d", i)}); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := svc.Settings.Save(cur(t, svc), ProjectSettingsInput{Allowlist: []string{"go", "git"}, Network: i%2 == 0}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	rules, err := svc.Permissions.Rules(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != n {
		t.Errorf("%d rules added while settings were saved, %d kept", n, len(rules))
	}
}
