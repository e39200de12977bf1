package mcpserver

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listed is the set of tools the server declares now: the registry's offered tools (tool.Def.Offered), which
// the user's settings decide (web_search is offered only with a search endpoint). Each change reaches the SDK as
// AddTool or RemoveTools, which tell every connected client notifications/tools/list_changed (the capability
// declares listChanged), and the client lists again.
type listed struct {
	mu    sync.Mutex
	names map[string]bool
}

// syncTools makes the declared tools the registry's offered ones now. It is cheap (the settings file is read
// once, the schemas are made once per process), so it also runs before every tools/list: the list a client
// receives is right even when the settings changed where no watch sees it (a settings.json that is a link to a
// file elsewhere) or before the watch reported it.
func (s *Server) syncTools() {
	s.listed.mu.Lock()
	defer s.listed.mu.Unlock()
	now := make(map[string]bool, len(s.listed.names))
	var added, gone []string
	for _, spec := range s.registry.Specs() {
		now[spec.Name] = true
		if !s.listed.names[spec.Name] {
			s.mcp.AddTool(toMCP(spec), s.handler(spec.Name, spec.ReadOnly, true))
			added = append(added, spec.Name)
		}
	}
	for name := range s.listed.names {
		if !now[name] {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
	}
	if s.listed.names != nil && len(added)+len(gone) > 0 {
		s.log.Info("the tool list follows the user's settings", "added", added, "removed", gone)
	}
	s.listed.names = now
}

// isListed reports whether the named tool is declared now.
func (s *Server) isListed(name string) bool {
	s.listed.mu.Lock()
	defer s.listed.mu.Unlock()
	return s.listed.names[name]
}

// followSettings is the receiving middleware that keeps tools/list current (syncTools), and answers a call to
// a tool of the registry that is not declared now (it left the list, and the client has not listed again, or
// kept an old list) with the tool's own error, as the window and the CLI do: web_search without an endpoint is
// not_configured naming the setting, not the protocol's "unknown tool". Such a call runs the same handler as a
// declared tool's, approvals included, without asking the client for its roots: a tool that is not offered has
// nothing to do in a project yet, and its error says what the user must set.
func (s *Server) followSettings(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			s.syncTools()
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil || s.isListed(call.Params.Name) {
				break
			}
			s.syncTools() // it may have come into the list since the last change was seen
			if t, known := s.registry.Lookup(call.Params.Name); known && !s.isListed(call.Params.Name) {
				return s.handler(call.Params.Name, t.Spec().ReadOnly, false)(ctx, call)
			}
		}
		return next(ctx, method, req)
	}
}

// watchSettings runs syncTools after each change to the settings file at path until the returned stop is
// called. It watches the file's folder rather than the file: a save replaces the file by a rename
// (configfile.Write), which a watch on the file itself would not survive. Before anything was ever saved the
// folder does not exist: the nearest folder that does is watched until the way down is made. Without inotify
// (its limits reached), the list is still made current at every tools/list.
func (s *Server) watchSettings(path string) (stop func()) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.log.Warn("the user's settings are not watched; the tool list follows them at each tools/list", "err", err)
		return func() {}
	}
	fw := &fileWatch{w: w, path: path, dir: filepath.Dir(path), log: s.log}
	fw.arm()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if fw.concerns(ev) {
					if ev.Name == fw.watched && ev.Has(fsnotify.Remove|fsnotify.Rename) {
						_ = w.Remove(fw.watched) // a folder moved away keeps its watch; a removed one has lost it
						fw.watched = ""
					}
					fw.arm()
					s.syncTools()
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				// An overflowed queue lost events: the file may have changed among them.
				s.log.Warn("watching the user's settings", "err", err)
				fw.arm()
				s.syncTools()
			}
		}
	}()
	return func() {
		_ = w.Close()
		<-done
	}
}

// fileWatch is the watch of one file's folder, or of the nearest existing folder above it while the folder does
// not exist. Only the watching goroutine uses it after arm's first call.
type fileWatch struct {
	w         *fsnotify.Watcher
	path, dir string
	watched   string // the folder watched now; "" when none could be
	log       *slog.Logger
}

// arm watches the deepest existing folder on the way to the file's, in place of the one watched so far. A
// folder made below the one it is about to watch, between its look and the watch, made its event before the
// watch and is never reported: it looks again after each watch it adds, until the deepest folder is the one
// watched. (The file itself may have been saved before its folder was watched: the caller reads it after arm.)
func (f *fileWatch) arm() {
	for {
		d := f.dir
		for {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				break
			}
			up := filepath.Dir(d)
			if up == d {
				return
			}
			d = up
		}
		if d == f.watched {
			return
		}
		if err := f.w.Add(d); err != nil {
			f.log.Warn("watching the user's settings", "dir", d, "err", err)
			return
		}
		if f.watched != "" {
			_ = f.w.Remove(f.watched) // gone already when the folder was removed
		}
		f.watched = d
	}
}

// concerns reports whether ev may change the file: an event on the file itself, on a folder on its way (made,
// removed, renamed), or on the watched folder itself (removed: the watch has ended).
func (f *fileWatch) concerns(ev fsnotify.Event) bool {
	sep := string(filepath.Separator)
	return ev.Name == f.path || ev.Name == f.watched || strings.HasPrefix(f.dir+sep, ev.Name+sep)
}
