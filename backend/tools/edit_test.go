package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

// editRegistry opens root with the rule a long-lived session has (read before edit) unless unread is set.
func editRegistry(t *testing.T, files map[string]string, unread bool) (*tool.Registry, string) {
	t.Helper()
	root := testtree.Dir(t, files)
	s, err := session.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return Registry(Deps{Session: s, EditUnread: unread}), root
}

func TestEditsRequireARead(t *testing.T) {
	edits := []struct{ name, args string }{
		{"write_file", `{"path": "f.txt", "content": "mine\n"}`},
		{"patch_file", `{"path": "f.txt", "search": "theirs", "replace": "mine"}`},
		{"write_file", `{"path": "f.txt", "content": "mine\n", "dry_run": true}`},
		{"patch_file", `{"path": "f.txt", "search": "theirs", "replace": "mine", "dry_run": true}`},
		{"write_file", `{"path": "link.txt", "content": "mine\n"}`}, // a symlink to it: the file it leads to counts
	}
	for _, e := range edits {
		reg, root := editRegistry(t, map[string]string{"f.txt": "theirs\n"}, false)
		os.Symlink("f.txt", filepath.Join(root, "link.txt"))
		_, terr := call[map[string]any](t, reg, e.name, e.args)
		if terr == nil || terr.Code != tool.CodeNotRead || !strings.Contains(terr.Message, "read_file") || !strings.HasSuffix(terr.Path, ".txt") {
			t.Errorf("%s %s unread: %+v, want not_read naming the file and read_file", e.name, e.args, terr)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != "theirs\n" {
			t.Fatalf("%s changed an unread file to %q", e.name, b)
		}
		// After a read, of the file or of the link to it, the same edit goes through.
		readPath := "f.txt"
		if strings.Contains(e.args, "link.txt") {
			readPath = "link.txt"
		}
		if _, terr := call[readFileOut](t, reg, "read_file", `{"path": "`+readPath+`"}`); terr != nil {
			t.Fatal(terr)
		}
		if _, terr := call[map[string]any](t, reg, e.name, e.args); terr != nil {
			t.Errorf("%s %s after a read: %+v", e.name, e.args, terr)
		}
	}

	// A new file needs no read, and writing it counts as having seen it.
	reg, _ := editRegistry(t, nil, false)
	if _, terr := call[writeFileOut](t, reg, "write_file", `{"path": "new.txt", "content": "a\n"}`); terr != nil {
		t.Fatalf("new file: %+v", terr)
	}
	if _, terr := call[patchFileOut](t, reg, "patch_file", `{"path": "new.txt", "search": "a", "replace": "b"}`); terr != nil {
		t.Errorf("patch of a file the session wrote: %+v", terr)
	}

	// A one-shot CLI session (EditUnread) and the user's own edits are exempt.
	reg, _ = editRegistry(t, map[string]string{"f.txt": "theirs\n"}, true)
	if _, terr := call[patchFileOut](t, reg, "patch_file", `{"path": "f.txt", "search": "theirs", "replace": "mine"}`); terr != nil {
		t.Errorf("CLI session: %+v", terr)
	}
	reg, _ = editRegistry(t, map[string]string{"f.txt": "theirs\n"}, false)
	if _, terr := reg.Call(tool.ByUser(context.Background()), "write_file", []byte(`{"path": "f.txt", "content": "x"}`)); terr != nil {
		t.Errorf("the user's edit: %+v", terr)
	}
	// The long-lived faces get the rule, the one-shot CLI does not.
	if UserDeps(session.New(), true).EditUnread || !UserDeps(session.New(), false).EditUnread {
		t.Error("UserDeps: read-before-edit must hold for live sessions only")
	}
}

func TestPatchFileWhitespaceFallback(t *testing.T) {
	src := "func a() {\n\tif x {\n\t\treturn 1\n\t}\n}\n\nfunc b() {\n\treturn 1\n}\n"
	reg, root := editRegistry(t, map[string]string{"m.go": src}, true)
	out, terr := call[patchFileOut](t, reg, "patch_file", `{"path": "m.go", "search": "    if x {\n        return 1\n    }", "replace": "    if x {\n        return 2\n    }"}`)
	if terr != nil {
		t.Fatal(terr)
	}
	want := strings.Replace(src, "\t\treturn 1", "\t\treturn 2", 1)
	if b, _ := os.ReadFile(filepath.Join(root, "m.go")); string(b) != want {
		t.Errorf("file = %q, want %q", b, want)
	}
	if !strings.Contains(out.Note, "line 2 only with whitespace ignored") || !strings.Contains(out.Diff, "+\t\treturn 2\n") {
		t.Errorf("result does not say what it did: %+v", out)
	}
	// Ambiguous with whitespace ignored: refused, with both places named, and nothing changed.
	os.WriteFile(filepath.Join(root, "x.go"), []byte("\treturn 1\n\t\treturn 1\n"), 0o644)
	_, terr = call[patchFileOut](t, reg, "patch_file", `{"path": "x.go", "search": "  return 1", "replace": "  return 3"}`)
	if terr == nil || terr.Code != tool.CodeNoMatch || !strings.Contains(terr.Message, "2 places (lines 1, 2)") {
		t.Errorf("ambiguous: %+v", terr)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "x.go")); string(b) != "\treturn 1\n\t\treturn 1\n" {
		t.Errorf("a refused patch changed the file: %q", b)
	}
}

// A dry run changes no byte (nor the mtime), returns the diff the real call then returns, and refuses exactly what
// the real call refuses.
func TestDryRun(t *testing.T) {
	src := "alpha\nbeta\ngamma\nbeta\ndelta\n"
	cases := []struct {
		name, tool, args string
		code             string // the refusal, "" when the edit applies
	}{
		{"patch", "patch_file", `{"path": "f.txt", "search": "alpha", "replace": "ALPHA"}`, ""},
		{"replace_all", "patch_file", `{"path": "f.txt", "search": "beta", "replace": "BETA", "replace_all": true}`, ""},
		{"several edits", "patch_file", `{"path": "f.txt", "edits": [{"search": "alpha", "replace": "A"}, {"search": "delta", "replace": "D"}]}`, ""},
		{"whitespace fallback", "patch_file", `{"path": "f.txt", "search": "  gamma  ", "replace": "GAMMA"}`, ""},
		{"write", "write_file", `{"path": "f.txt", "content": "alpha\nnew\n"}`, ""},
		{"create", "write_file", `{"path": "sub/new.txt", "content": "fresh\n"}`, ""},
		{"no match", "patch_file", `{"path": "f.txt", "search": "omega", "replace": "x"}`, tool.CodeNoMatch},
		{"multiple matches", "patch_file", `{"path": "f.txt", "search": "beta", "replace": "x"}`, tool.CodeMultipleMatches},
		{"directory", "write_file", `{"path": "sub", "content": "x"}`, tool.CodeIsADirectory},
		{"inside .git", "write_file", `{"path": ".git/config", "content": "x"}`, tool.CodePermissionDenied},
		{"outside", "patch_file", `{"path": "../f.txt", "search": "a", "replace": "b"}`, tool.CodeOutsideRoot},
		{"not read", "patch_file", `{"path": "unread.txt", "search": "u", "replace": "v"}`, tool.CodeNotRead},
		{"stale", "write_file", `{"path": "f.txt", "content": "x"}`, tool.CodeStaleFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg, root := editRegistry(t, map[string]string{"f.txt": src, "unread.txt": "u\n", "sub/keep": ""}, false)
			os.Mkdir(filepath.Join(root, ".git"), 0o755)
			if _, terr := call[readFileOut](t, reg, "read_file", `{"path": "f.txt"}`); terr != nil {
				t.Fatal(terr)
			}
			if c.code == tool.CodeStaleFile {
				os.WriteFile(filepath.Join(root, "f.txt"), []byte("edited by someone else\n"), 0o644)
				later := time.Now().Add(time.Hour)
				os.Chtimes(filepath.Join(root, "f.txt"), later, later)
			}
			before := snapshotTree(t, root)
			dry := strings.Replace(c.args, "{", `{"dry_run": true, `, 1)
			dryOut, dryErr := call[map[string]any](t, reg, c.tool, dry)
			if after := snapshotTree(t, root); after != before {
				t.Fatalf("the dry run changed the tree:\n%s\nwas:\n%s", after, before)
			}
			realOut, realErr := call[map[string]any](t, reg, c.tool, c.args)
			if c.code != "" {
				if dryErr == nil || realErr == nil || dryErr.Code != c.code || string(dryErr.JSON()) != string(realErr.JSON()) {
					t.Fatalf("refusals differ or are wrong:\ndry:  %+v\nreal: %+v\nwant %s", dryErr, realErr, c.code)
				}
				return
			}
			if dryErr != nil || realErr != nil {
				t.Fatalf("dry %+v, real %+v", dryErr, realErr)
			}
			if dryOut["dry_run"] != true || realOut["dry_run"] != nil {
				t.Errorf("dry_run flags: dry %v, real %v", dryOut["dry_run"], realOut["dry_run"])
			}
			d, _ := dryOut["diff"].(string)
			if d == "" || d != realOut["diff"] {
				t.Errorf("dry run diff:\n%s\nreal diff:\n%v", d, realOut["diff"])
			}
			if snapshotTree(t, root) == before {
				t.Error("the real call changed nothing")
			}
		})
	}
}

// snapshotTree describes every file under root by path, mode, mtime and content.
func snapshotTree(t *testing.T, root string) string {
	t.Helper()
	var sb strings.Builder
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		sb.WriteString(p + " " + fi.Mode().String() + " " + fi.ModTime().String())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sb.WriteString(" " + string(b))
		}
		sb.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}
