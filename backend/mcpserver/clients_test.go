package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectAs is connect with the client named name, as the agent CLIs name themselves in clientInfo.
func connectAs(t *testing.T, s *Server, name string) *mcp.ClientSession {
	t.Helper()
	return dial(t, s, mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil), "")
}

// bigProject is a project whose whole-file read, unbounded search and chatty command each come to hundreds of KB.
func bigProject(t *testing.T) string {
	t.Helper()
	dir := project(t)
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "// line %d: the needle is here, with some words around it to make the line longer\n", i)
	}
	os.WriteFile(filepath.Join(dir, "big.go"), []byte(b.String()), 0o644)
	return dir
}

// Every text result fits the client's cap (the budget for its name), cut where the model can go on from: a read at
// a whole line with the offset to read on from (and that offset does go on), a search at a whole match with how to
// narrow it, a command's output as its head and tail with the exit code after them.
func TestResultsFitTheClientsCap(t *testing.T) {
	for _, client := range []string{"codex-mcp-client", "gemini-cli-mcp-client", "claude-code", "opencode", "qwen-cli-mcp-client-rooted", "some-new-agent"} {
		t.Run(client, func(t *testing.T) {
			s, err := New(Options{Root: bigProject(t)})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectAs(t, s, client)
			budget := budgetFor(&mcp.Implementation{Name: client}, 0)
			fits := func(what, text string) {
				t.Helper()
				if len(text) > budget.bytes {
					t.Errorf("%s: %d bytes for a client that takes %d", what, len(text), budget.bytes)
				}
				if n := strings.Count(text, "\n") + 1; budget.lines > 0 && n > budget.lines {
					t.Errorf("%s: %d lines for a client that takes %d", what, n, budget.lines)
				}
			}

			_, got := call(t, cs, "read_file", map[string]any{"path": "big.go"})
			text := got["text"].(string)
			fits("read", text)
			last := text[strings.LastIndexByte(text, '\n')+1:]
			_, after, ok := strings.Cut(last, "read on with offset ")
			next, _ := strconv.Atoi(strings.TrimRight(strings.SplitN(after, ";", 2)[0], ")"))
			if !ok || next < 2 || !strings.Contains(text, fmt.Sprintf("%d\t// line %d:", next-1, next-1)) {
				t.Fatalf("read's last line %q", last)
			}
			_, got = call(t, cs, "read_file", map[string]any{"path": "big.go", "offset": next, "limit": 1})
			if text := got["text"].(string); !strings.HasPrefix(text, fmt.Sprintf("%d\t// line %d:", next, next)) {
				t.Errorf("reading on from offset %d: %.80q", next, text)
			}

			for _, context := range []int{0, 20} { // with context, a match is a block of 41 lines, kept whole or left out
				_, got = call(t, cs, "search_files", map[string]any{"query": "needle", "limit": 10000, "context": context})
				text = got["text"].(string)
				fits("search", text)
				if !strings.Contains(text, "(3000 matches") || !strings.Contains(text, "narrow the search") {
					t.Errorf("search's last line: %q", text[strings.LastIndexByte(text, '\n')+1:])
				}
			}

			script := `for (let i = 1; i <= 5000; i++) console.log('output line ' + i + ' of a chatty build'); console.error('FAIL: the verdict at the end')`
			_, got = call(t, cs, "exec_shell", map[string]any{"command": "node", "args": []string{"-e", script}})
			text = got["text"].(string)
			fits("exec_shell", text)
			for _, want := range []string{"output line 1 of", "output line 5000 of", "left out here", "FAIL: the verdict at the end", "exit code 0", "output cut"} {
				if !strings.Contains(text, want) {
					t.Errorf("exec_shell's text lacks %q: %.600s … %s", want, text, text[max(0, len(text)-600):])
				}
			}
		})
	}
}

// Gemini CLI adds wait_for_previous to every tool and passes it on: it is dropped, while a field no client injects
// is still refused with its name, so a model's typo is not silently ignored.
func TestInjectedArgumentsAreIgnored(t *testing.T) {
	_, cs, _ := serveProject(t)
	res, got := call(t, cs, "read_file", map[string]any{"path": "src/main.go", "wait_for_previous": true})
	if res.IsError || !strings.Contains(got["text"].(string), "package main") {
		t.Errorf("read with wait_for_previous: %v", got)
	}
	res, got = call(t, cs, "read_file", map[string]any{"path": "src/main.go", "pathh": "x"})
	if e, _ := got["error"].(map[string]any); !res.IsError || e["code"] != "invalid_argument" || e["field"] != "pathh" {
		t.Errorf("read with a typo: %v", got)
	}
	// A glob given as one string, as models do, though the schema says a list.
	res, got = call(t, cs, "find_files", map[string]any{"glob": "*.go"})
	if res.IsError || !strings.Contains(got["text"].(string), "src/main.go") {
		t.Errorf("find with one glob string: %v", got)
	}
}
