package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/settings"
)

// BenchmarkReadFileCall is the backend's side of one read_file as the window's agent makes it (Tools.CallIn, as
// the Wails binding calls it, on a live workspace: watcher, index and snapshots running), for one conversation
// alone and for four conversations of the project calling at once. ns/op is per call in both: what four at once
// cost beyond one alone is what the calls share (locks, the session's records, JSON).
//
// The user's settings file is one of a user of many projects (40, each with its allowlist, rules, hosts and an MCP
// server): every call reads its project's settings.
func BenchmarkReadFileCall(b *testing.B) {
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("src/f%d.go", i)] = strings.Repeat(fmt.Sprintf("// line of file %d, long enough to be a line of code\n", i), 300)
	}
	svc, p := openProject(b, files)
	busyUser(b, svc.settings.Path()) // read by every call, from the first
	w, err := open(svc.workspaces, p.ID)
	if err != nil {
		b.Fatal(err)
	}
	<-w.Ready() // the first snapshot and the index, done before the clock starts
	call := func(conv int) {
		args, _ := json.Marshal(map[string]any{"path": fmt.Sprintf("src/f%d.go", conv)})
		if _, err := svc.Tools.CallIn(p.ID, fmt.Sprintf("conv-%d", conv), "read_file", string(args)); err != nil {
			b.Fatal(err)
		}
	}
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("conversations=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var wg sync.WaitGroup
				for c := range n {
					wg.Go(func() { call(c) })
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
	}
}

// busyUser writes a settings file of 40 projects, each set up as a user who works in it sets it up.
func busyUser(b *testing.B, path string) {
	projects := map[string]settings.Project{}
	for i := range 40 {
		projects[fmt.Sprintf("/home/me/src/project-%d", i)] = settings.Project{
			Allowlist:    []string{"go", "git", "make", "npm", "node", "ls", "cat", "grep", "sed", "rg", "python3", "cargo"},
			Network:      settings.NetworkAllowlist,
			NetworkHosts: []string{"proxy.golang.org", "registry.npmjs.org", "*.pkg.dev", "crates.io"},
			Rules: []permissions.Rule{
				{Action: permissions.Allow, Tool: "exec_shell", Command: "go test"},
				{Action: permissions.Allow, Tool: "exec_shell", Command: "npm run build"},
				{Action: permissions.Deny, Tool: "exec_shell", Command: "npm publish"},
			},
			WorktreeSetup: []string{"npm", "ci"},
			MCPServers:    map[string]settings.MCPServer{"docs": {Command: "npx", Args: []string{"-y", "docs-server", "--port", "0"}, Env: map[string]string{"DOCS_MODE": "local"}}},
		}
	}
	data, err := json.Marshal(map[string]any{"projects": projects})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
}
