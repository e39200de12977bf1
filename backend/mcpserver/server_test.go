package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/session"
)

func TestMain(m *testing.M) {
	sandbox.RunHelperIfAsked()
	os.Exit(m.Run())
}

func project(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.txt"), []byte("outside"), 0o644)
	return dir
}

// connect runs s and returns a client session over in-memory transports; roots are the client's MCP roots.
func connect(t *testing.T, s *Server, roots ...string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	for _, r := range roots {
		//lint:ignore SA1019 the server still follows MCP roots for the clients that send them (SEP-2577's deprecation window)
		c.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String(), Name: "project"})
	}
	return dial(t, s, c, "")
}

// dial runs s and connects c to it over in-memory transports in the protocol version given ("" the latest); the
// session, the server and the project end with the test.
func dial(t *testing.T, s *Server, c *mcp.Client, version string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
		s.Close()
	})
	return cs
}

// call runs a tool and returns its result and fields: _meta's result fields for a success, {"error": {...}} from
// _meta for a failure, and under "text" the text block. No result has structuredContent (clients.go).
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: structuredContent %v: Claude Code and Codex would show the model that instead of the text", name, res.StructuredContent)
	}
	m := map[string]any{}
	if res.IsError {
		m["error"] = res.Meta[ErrorMeta]
	} else {
		b, _ := json.Marshal(res.Meta[ResultMeta])
		if err := json.Unmarshal(b, &m); err != nil || m == nil {
			t.Fatalf("%s: _meta's result is not an object: %s", name, b)
		}
	}
	m["text"] = res.Content[0].(*mcp.TextContent).Text
	return res, m
}

// serveProject serves a fresh project and returns the server, a connected client and the tools it lists.
func serveProject(t *testing.T) (*Server, *mcp.ClientSession, []*mcp.Tool) {
	t.Helper()
	s, err := New(Options{Root: project(t)})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, cs, list.Tools
}

func TestToolsFromTheRegistryWithAnnotations(t *testing.T) {
	_, _, tools := serveProject(t)
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	for _, name := range []string{"read_file", "write_file", "patch_file", "list_directory", "search_files", "find_files", "exec_shell", "change_working_directory", "get_working_directory", "list_snapshots", "diff_snapshot", "restore_snapshot"} {
		tl := byName[name]
		if tl == nil {
			t.Errorf("%s is not served", name)
			continue
		}
		if tl.Annotations == nil || tl.Annotations.DestructiveHint == nil || tl.Annotations.OpenWorldHint == nil {
			t.Errorf("%s: annotations %+v", name, tl.Annotations)
			continue
		}
		if !strings.Contains(tl.Description, "Example") {
			t.Errorf("%s: the description lost its example", name)
		}
		schema, _ := json.Marshal(tl.InputSchema)
		if !strings.Contains(string(schema), `"type":"object"`) {
			t.Errorf("%s: schema %s", name, schema)
		}
	}
	if a := byName["read_file"].Annotations; !a.ReadOnlyHint || *a.DestructiveHint || *a.OpenWorldHint {
		t.Errorf("read_file annotations: %+v", a)
	}
	if a := byName["write_file"].Annotations; a.ReadOnlyHint || !*a.DestructiveHint || !a.IdempotentHint {
		t.Errorf("write_file annotations: %+v", a)
	}
	if a := byName["exec_shell"].Annotations; !*a.OpenWorldHint {
		t.Errorf("exec_shell annotations: %+v", a)
	}
}

func TestReadPatchSearchAndEscape(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	res, got := call(t, cs, "read_file", map[string]any{"path": "src/main.go"})
	if res.IsError || !strings.Contains(got["text"].(string), "3\tfunc main() { println(\"hello\") }") || got["content"] != nil {
		t.Fatalf("read: %v", got)
	}
	res, got = call(t, cs, "patch_file", map[string]any{"path": "src/main.go", "search": `"hello"`, "replace": `"hello, MCP"`})
	if res.IsError || got["replaced"] != 1.0 {
		t.Fatalf("patch: %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go")); !strings.Contains(string(b), "hello, MCP") {
		t.Errorf("on disk: %s", b)
	}
	res, got = call(t, cs, "search_files", map[string]any{"query": "hello, MCP"})
	if res.IsError || got["total"] != 1.0 {
		t.Fatalf("search: %v", got)
	}
	// Escapes are tool errors with the same code as every face, and touch nothing.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "../secret.txt"}},
		{"read_file", map[string]any{"path": filepath.Join(filepath.Dir(dir), "secret.txt")}},
		{"write_file", map[string]any{"path": "../secret.txt", "content": "pwned"}},
	} {
		res, got := call(t, cs, c.tool, c.args)
		e, _ := got["error"].(map[string]any)
		if !res.IsError || e["code"] != "outside_root" {
			t.Errorf("%s %v: %v", c.tool, c.args, got)
		}
		if text := got["text"].(string); !strings.HasPrefix(text, "error outside_root: ") {
			t.Errorf("the text block of a failure: %s", text)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(dir), "secret.txt")); string(b) != "outside" {
		t.Errorf("the file outside was changed: %q", b)
	}
	// Bad arguments are a tool error the model can act on; an unknown tool is a protocol error.
	res, got = call(t, cs, "read_file", map[string]any{"file": "x"})
	if e, _ := got["error"].(map[string]any); !res.IsError || e["code"] != "invalid_argument" {
		t.Errorf("bad arguments: %v", got)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Error("an unknown tool did not fail as a protocol error")
	}
}

// Without --root, the client's roots choose the project; without either, tools say how to get one.
func TestRootsChooseTheProject(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, dir)
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, got := call(t, cs, "get_working_directory", map[string]any{})
		if !res.IsError {
			if real, _ := filepath.EvalSymlinks(dir); got["root"] != dir && got["root"] != real {
				t.Errorf("root from the client's roots: %v", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no root after initialisation: %v", got)
		}
		time.Sleep(10 * time.Millisecond)
	}

	bare, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs2 := connect(t, bare)
	res, got := call(t, cs2, "read_file", map[string]any{"path": "src/main.go"})
	e, _ := got["error"].(map[string]any)
	if !res.IsError || e["code"] != "no_project" || !strings.Contains(e["message"].(string), "--root") {
		t.Errorf("without a root: %v", got)
	}
}

func TestFixedRootMustOpen(t *testing.T) {
	if _, err := New(Options{Root: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing --root was accepted")
	}
}

// Cursor names the workspace in WORKSPACE_FOLDER_PATHS instead of answering roots/list.
func TestWorkspaceFromCursorsEnvironment(t *testing.T) {
	dir := project(t)
	t.Setenv("WORKSPACE_FOLDER_PATHS", dir+",/somewhere/else")
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	res, got := call(t, cs, "read_file", map[string]any{"path": "src/main.go"})
	if res.IsError || !strings.Contains(got["text"].(string), "hello") {
		t.Errorf("read in the workspace from the environment: %v", got)
	}
}

// A command's output reaches a client that asked for progress as it happens; the result still has all of it.
func TestExecStreamsProgress(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	go s.Run(ctx, st)
	defer s.Close()
	progress := make(chan string, 100)
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		},
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "exec_shell", Arguments: map[string]any{"command": `node -e "console.log('first'); setTimeout(() => console.log('second'), 300)"`}}
	params.SetProgressToken("run-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	// Notifications travel apart from the result: collect them until both lines came (the deadline bounds a hang).
	var streamed strings.Builder
	deadline := time.After(5 * time.Second)
	for !strings.Contains(streamed.String(), "second") {
		select {
		case m := <-progress:
			streamed.WriteString(m)
		case <-deadline:
			t.Fatalf("progress messages: %q", streamed.String())
		}
	}
	if !strings.Contains(streamed.String(), "first") {
		t.Errorf("progress messages: %q", streamed.String())
	}
	if out := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(out, "exit code 0") || !strings.Contains(out, "second") {
		t.Errorf("result: %s", out)
	}
}

// initialize does not wait for the project to be prepared (its index, watcher and first snapshot take seconds on a
// large tree: the preparation begins once initialize is answered); reads answer meanwhile, and a change waits for
// the preparation and then goes ahead.
func TestInitializeDoesNotWaitForPrepare(t *testing.T) {
	dir := project(t)
	release := make(chan struct{})
	started := make(chan struct{})
	s, err := New(Options{Root: dir, prepare: func(session.Info) {
		close(started)
		<-release
	}})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s) // connect sends initialize and waits for its answer
	<-started           // the preparation is under way, and stays so until released
	if res, got := call(t, cs, "read_file", map[string]any{"path": "src/main.go"}); res.IsError {
		t.Fatalf("a read while the project is prepared: %v", got)
	}
	wrote := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "new.txt", "content": "x"}})
		wrote <- res
	}()
	close(release)
	if res := <-wrote; res == nil || res.IsError {
		t.Fatalf("a write after the preparation: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "new.txt")); err != nil || string(b) != "x" {
		t.Errorf("new.txt: %q %v", b, err)
	}
}

// A change made as the server starts (before its first snapshot is done) never reaches the snapshot that records the
// project as it was opened: restoring "Project opened" undoes it.
func TestChangeAtStartIsNotInProjectOpened(t *testing.T) {
	dir := project(t)
	s, err := New(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	call(t, cs, "read_file", map[string]any{"path": "src/main.go"})
	if res, got := call(t, cs, "write_file", map[string]any{"path": "src/main.go", "content": "changed\n"}); res.IsError {
		t.Fatalf("write at start: %v", got)
	}
	var opened string
	for deadline := time.Now().Add(time.Minute); opened == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// The log names it even when it is the snapshot before it, unchanged.
		_, got := call(t, cs, "list_snapshots", map[string]any{"log": true})
		for _, line := range strings.Split(got["text"].(string), "\n") {
			var log []struct{ ID, Reason string }
			if list, ok := strings.CutPrefix(line, "log: "); ok && json.Unmarshal([]byte(list), &log) == nil {
				for _, e := range log {
					if strings.HasPrefix(e.Reason, "Project opened") {
						opened = e.ID
					}
				}
			}
		}
	}
	if opened == "" {
		_, got := call(t, cs, "list_snapshots", map[string]any{"log": true})
		t.Fatalf("no Project opened snapshot within a minute: %s", got["text"])
	}
	if res, got := call(t, cs, "restore_snapshot", map[string]any{"id": opened}); res.IsError {
		t.Fatalf("restore %s: %v", opened, got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "main.go")); !strings.Contains(string(b), "hello") {
		t.Errorf("after restoring Project opened: %q", b)
	}
}

// The project's preparation (a large tree's index and git index, read from disk) waits for the handshake, which it
// slowed: it begins once initialize is answered, and Options.Started is told then, once. A 2026-07-28 client has no
// handshake: its first request, a change that needs the preparation, begins it rather than waiting on it. A server
// no client speaks to begins after holdAtMost.
func TestPreparationWaitsForTheHandshake(t *testing.T) {
	waitPrepared := func(t *testing.T, prepared chan struct{}, after string) {
		t.Helper()
		select {
		case <-prepared:
		case <-time.After(20 * time.Second):
			t.Fatalf("not prepared %s", after)
		}
	}
	t.Run("initialize", func(t *testing.T) {
		prepared := make(chan struct{}, 1)
		var started atomic.Int32
		s, err := New(Options{
			Root: project(t), holdAtMost: time.Hour, Started: func() { started.Add(1) },
			prepare: func(session.Info) { prepared <- struct{}{} },
		})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // a preparation not held would be under way by now
		if len(prepared) != 0 || started.Load() != 0 {
			t.Fatalf("before any request: prepared %d, started %d", len(prepared), started.Load())
		}
		cs := connect(t, s)
		waitPrepared(t, prepared, "after initialize was answered")
		call(t, cs, "list_directory", map[string]any{"path": "."})
		if n := started.Load(); n != 1 {
			t.Errorf("Started told %d times, want once", n)
		}
	})
	t.Run("a change first", func(t *testing.T) {
		prepared := make(chan struct{}, 1)
		c := serveStdio(t, Options{Root: goModule(t), holdAtMost: time.Hour, prepare: func(session.Info) { prepared <- struct{}{} }})
		answered := make(chan []byte, 1)
		go func() {
			line, _ := c.out.ReadBytes('\n')
			answered <- line
		}()
		c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"new.txt","content":"x"},"_meta":`+meta2026("claude-code", `{}`)+`}}`)
		select {
		case line := <-answered:
			if a := decode(t, line); a.Result.IsError {
				t.Errorf("write_file: %+v", a.Result)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a change sent first waits for a preparation that waits for an answer")
		}
		waitPrepared(t, prepared, "after a change")
	})
	t.Run("no client", func(t *testing.T) {
		prepared := make(chan struct{}, 1)
		s, err := New(Options{Root: project(t), holdAtMost: 10 * time.Millisecond, prepare: func(session.Info) { prepared <- struct{}{} }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		waitPrepared(t, prepared, "after holdAtMost")
	})
}
