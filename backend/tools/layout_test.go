package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// A layout is written in os/root_test.go's notation: "d/" is a directory, "a => b" a symlink, anything else a file.
// Paths starting with "../" lie beside the root, outside it, and hold outsideMarker; files inside hold their name.

const outsideMarker = "OUTSIDE-THE-ROOT"

type layoutCase struct {
	name   string
	layout []string
	path   string // the argument every path-taking tool gets
	// want is the outcome for reading tools: "ok" or an error code.
	want string
}

// escapeCases is the shared table of path-scoping layouts. Every path-taking tool runs every case; none may read,
// create or modify anything outside the root, whatever its outcome.
var escapeCases = []layoutCase{
	{"plain file", []string{"a/", "a/f"}, "a/f", "ok"},
	{"dot dot inside", []string{"a/", "b/", "b/f"}, "a/../b/f", "ok"},
	{"dot dot out", []string{"../secret"}, "../secret", tool.CodeOutsideRoot},
	{"dot dot chain out", []string{"a/", "a/b/", "../secret"}, "a/b/../../../secret", tool.CodeOutsideRoot},
	{"absolute outside", []string{"../secret"}, "/etc/passwd", tool.CodeOutsideRoot},
	{"absolute inside", []string{"a/", "a/f"}, "{root}/a/f", "ok"},
	{"absolute sibling prefix", []string{"../secret"}, "{root}x/secret", tool.CodeOutsideRoot},
	{"symlink inside", []string{"a/", "a/f", "l => a/f"}, "l", "ok"},
	{"symlink out", []string{"../secret", "l => ../secret"}, "l", tool.CodeOutsideRoot},
	{"symlink out absolute", []string{"../secret", "l => {base}/secret"}, "l", tool.CodeOutsideRoot},
	{"symlinked dir out", []string{"../outdir/", "../outdir/secret", "d => ../outdir"}, "d/secret", tool.CodeOutsideRoot},
	{"symlink chain out", []string{"../secret", "l1 => l2", "l2 => l3", "l3 => ../secret"}, "l1", tool.CodeOutsideRoot},
	{"symlink chain inside", []string{"f", "l1 => l2", "l2 => f"}, "l1", "ok"},
	{"dangling symlink", []string{"l => nowhere"}, "l", tool.CodeNotFound},
	{"symlink loop", []string{"l => l"}, "l", tool.CodeInvalidArgument},
	{"symlink to dir then up", []string{"a/", "a/b/", "up => a/b", "../secret"}, "up/../../../secret", tool.CodeOutsideRoot},
	{"backslashes", []string{`a\..\..\secret`}, `a\..\..\secret`, "ok"}, // one file name on Unix
	{"very long name", []string{"../secret"}, strings.Repeat("x", 300), tool.CodeInvalidArgument},
	{"write through dir symlink out", []string{"../outdir/", "d => ../outdir"}, "d/new.txt", tool.CodeOutsideRoot},
	{"create beside via dot dot", []string{"a/"}, "a/../../new.txt", tool.CodeOutsideRoot},
	{"home", []string{"../secret"}, "~/.bashrc", tool.CodeOutsideRoot},
	{"missing", []string{"a/"}, "a/nope", tool.CodeNotFound},
}

// makeLayout builds a layout under base/root and returns the root.
func makeLayout(t *testing.T, layout []string) (base, root string) {
	t.Helper()
	base = t.TempDir()
	root = filepath.Join(base, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, entry := range layout {
		entry = strings.ReplaceAll(entry, "{base}", base)
		if name, target, ok := strings.Cut(entry, " => "); ok {
			if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := filepath.Join(root, entry)
		if strings.HasSuffix(entry, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		content := "inside:" + filepath.Base(entry)
		if strings.HasPrefix(entry, "../") {
			content = outsideMarker
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}

// projectDeps opens a project laid out as makeLayout lays out layout, whose settings are p in a settings file of
// the test's: the session and settings every face gives the tools. The session closes when t ends.
func projectDeps(t *testing.T, p settings.Project, layout ...string) (Deps, string) {
	t.Helper()
	s, root := openLayout(t, layout...)
	store := settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	if err := store.SetProject(root, p); err != nil {
		t.Fatal(err)
	}
	return Deps{Session: s, Settings: store}, root
}

// openLayout makes the layout (makeLayout) and opens a session on its root, closed when the test ends.
func openLayout(t *testing.T, layout ...string) (*session.Session, string) {
	t.Helper()
	_, root := makeLayout(t, layout)
	s, err := session.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root
}

// snapshotOutside records every path beside the root with its content, to prove nothing outside changed.
func snapshotOutside(t *testing.T, base string) map[string]string {
	t.Helper()
	seen := map[string]string{}
	err := filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p == filepath.Join(base, "root") {
			return filepath.SkipDir
		}
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			seen[p] = string(b)
		} else {
			seen[p] = info.Mode().Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return seen
}

// pathTools are the tools that take a path, with the arguments each gets for a case's path. Later tools add rows.
var pathTools = []struct {
	name string
	args func(p string) map[string]any
	// reads is true when the tool's "ok" outcome means it read the file (so the content must be inside).
	reads bool
}{
	{"read_file", func(p string) map[string]any { return map[string]any{"path": p} }, true},
	{"list_directory", func(p string) map[string]any { return map[string]any{"path": p} }, false},
	{"change_working_directory", func(p string) map[string]any { return map[string]any{"path": p} }, false},
	{"write_file", func(p string) map[string]any { return map[string]any{"path": p, "content": "written"} }, false},
	{"patch_file", func(p string) map[string]any {
		return map[string]any{"path": p, "search": "inside:", "replace": "patched:"}
	}, false},
}

func TestEscapeTableAgainstEveryTool(t *testing.T) {
	for _, tc := range escapeCases {
		for i, pt := range pathTools {
			t.Run(fmt.Sprintf("%s/%s#%d", tc.name, pt.name, i), func(t *testing.T) {
				base, root := makeLayout(t, tc.layout)
				before := snapshotOutside(t, base)
				s, err := session.Open(root)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				reg := Registry(Deps{Session: s})
				path := strings.ReplaceAll(tc.path, "{root}", root)
				args, _ := json.Marshal(pt.args(path))
				out, e := reg.Call(context.Background(), pt.name, args)

				if strings.Contains(string(out), outsideMarker) {
					t.Errorf("result holds content from outside the root: %s", out)
				}
				if pt.reads {
					got := "ok"
					if e != nil {
						got = e.Code
					}
					if got != tc.want {
						t.Errorf("%s(%q) = %s %s, want %s", pt.name, path, got, e, tc.want)
					}
				}
				// Tools that are not about files (cd, ls) must fail exactly where reading fails for scoping reasons.
				if !pt.reads && tc.want == tool.CodeOutsideRoot && (e == nil || e.Code != tool.CodeOutsideRoot) {
					t.Errorf("%s(%q) = %s, %v; want outside_root", pt.name, path, out, e)
				}
				if e != nil && e.Message == "" {
					t.Errorf("error without a message: %+v", e)
				}
				after := snapshotOutside(t, base)
				if len(after) != len(before) {
					t.Fatalf("outside the root changed: before %v, after %v", before, after)
				}
				for p, v := range before {
					if after[p] != v {
						t.Errorf("outside the root changed at %s", p)
					}
				}
			})
		}
	}
}
