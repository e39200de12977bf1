package worktree

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

// gone stands for a file removed, in a side's edits.
const gone = "\x00gone"

// edits writes files into dir, removing those marked gone.
func edits(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	write := map[string]string{}
	for rel, content := range files {
		if content != gone {
			write[rel] = content
			continue
		}
		if err := os.Remove(filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
	testtree.Write(t, dir, write)
}

// TestApplyMerges drives Apply over real repositories where both the main checkout and the worktree changed the
// same files since the worktree's base: clean line merges land, everything else is a conflict naming the file
// (and its hunks where the lines clash) with nothing written on either side.
func TestApplyMerges(t *testing.T) {
	eight := "1\n2\n3\n4\n5\n6\n7\n8\n"
	for _, tc := range []struct {
		name           string
		base           map[string]string
		main, worktree map[string]string
		want           map[string]string // the main checkout's files after Apply (those named)
		merged         []string
		conflicts      map[string][]Hunk // path: its hunks (nil: a conflict without lines to name)
		reason         string            // a word every conflict's reason has
	}{
		{
			name:     "disjoint hunks merge",
			base:     map[string]string{"f.txt": eight},
			main:     map[string]string{"f.txt": "1\ntwo\n3\n4\n5\n6\n7\n8\n"},
			worktree: map[string]string{"f.txt": "1\n2\n3\n4\n5\n6\nseven\n8\n", "new.txt": "new\n"},
			want:     map[string]string{"f.txt": "1\ntwo\n3\n4\n5\n6\nseven\n8\n", "new.txt": "new\n"},
			merged:   []string{"f.txt"},
		},
		{
			name:     "the same change on both sides beside another merges",
			base:     map[string]string{"f.txt": eight},
			main:     map[string]string{"f.txt": "one\n2\n3\n4\n5\n6\n7\n8\n"},
			worktree: map[string]string{"f.txt": "one\n2\n3\n4\n5\n6\n7\neight\n"},
			want:     map[string]string{"f.txt": "one\n2\n3\n4\n5\n6\n7\neight\n"},
			merged:   []string{"f.txt"},
		},
		{
			name: "the same line edited both ways conflicts, at its line on each side",
			base: map[string]string{"f.txt": eight, "other.txt": "o\n"},
			// The main checkout drops line 2 and the worktree adds two lines on top: line 4 of the base is line 3
			// of the one and line 6 of the other.
			main:      map[string]string{"f.txt": "1\n3\n4 main\n5\n6\n7\n8\n"},
			worktree:  map[string]string{"f.txt": "0a\n0b\n1\n2\n3\n4 worktree\n5\n6\n7\n8\n", "other.txt": "changed\n"},
			conflicts: map[string][]Hunk{"f.txt": {{Base: Lines{4, 1}, Main: Lines{3, 1}, Worktree: Lines{6, 1}}}},
			reason:    "line 3 in the main checkout against line 6 in the worktree",
		},
		{
			name:      "neighbouring lines conflict, as git merges",
			base:      map[string]string{"f.txt": eight},
			main:      map[string]string{"f.txt": "1\n2\nthree\n4\n5\n6\n7\n8\n"},
			worktree:  map[string]string{"f.txt": "1\n2\n3\nfour\nfour and a half\n5\n6\n7\n8\n"},
			conflicts: map[string][]Hunk{"f.txt": {{Base: Lines{3, 2}, Main: Lines{3, 2}, Worktree: Lines{3, 3}}}},
		},
		{
			name:      "add/add differently conflicts over the whole file",
			base:      map[string]string{"keep.txt": "k\n"},
			main:      map[string]string{"n.txt": "mine\nmine 2\n"},
			worktree:  map[string]string{"n.txt": "theirs\n"},
			conflicts: map[string][]Hunk{"n.txt": {{Base: Lines{1, 0}, Main: Lines{1, 2}, Worktree: Lines{1, 1}}}},
			reason:    "created on both sides",
		},
		{
			name:      "deleted in the worktree, modified in the main checkout",
			base:      map[string]string{"f.txt": eight},
			main:      map[string]string{"f.txt": "1\n"},
			worktree:  map[string]string{"f.txt": gone},
			conflicts: map[string][]Hunk{"f.txt": nil},
			reason:    "deleted",
		},
		{
			name:      "deleted in the main checkout, modified in the worktree",
			base:      map[string]string{"f.txt": eight},
			main:      map[string]string{"f.txt": gone},
			worktree:  map[string]string{"f.txt": "1\n"},
			conflicts: map[string][]Hunk{"f.txt": nil},
			reason:    "deleted",
		},
		{
			name:      "renamed in the worktree, modified in the main checkout",
			base:      map[string]string{"f.txt": eight},
			main:      map[string]string{"f.txt": eight + "9\n"},
			worktree:  map[string]string{"f.txt": gone, "g.txt": eight},
			conflicts: map[string][]Hunk{"f.txt": nil},
			reason:    "renamed",
		},
		{
			name:      "binary",
			base:      map[string]string{"b.bin": "a\x00b\nc\nd\ne\n"},
			main:      map[string]string{"b.bin": "A\x00b\nc\nd\ne\n"},
			worktree:  map[string]string{"b.bin": "a\x00b\nc\nd\nE\n"},
			conflicts: map[string][]Hunk{"b.bin": nil},
			reason:    "binary",
		},
		{
			name:     "CRLF lines merge and stay CRLF",
			base:     map[string]string{"w.txt": "1\r\n2\r\n3\r\n4\r\n5\r\n"},
			main:     map[string]string{"w.txt": "one\r\n2\r\n3\r\n4\r\n5\r\n"},
			worktree: map[string]string{"w.txt": "1\r\n2\r\n3\r\n4\r\nfive\r\n"},
			want:     map[string]string{"w.txt": "one\r\n2\r\n3\r\n4\r\nfive\r\n"},
			merged:   []string{"w.txt"},
		},
		{
			name:      "CRLF lines edited both ways conflict",
			base:      map[string]string{"w.txt": "1\r\n2\r\n3\r\n"},
			main:      map[string]string{"w.txt": "1\r\nmain\r\n3\r\n"},
			worktree:  map[string]string{"w.txt": "1\r\nworktree\r\n3\r\n"},
			conflicts: map[string][]Hunk{"w.txt": {{Base: Lines{2, 1}, Main: Lines{2, 1}, Worktree: Lines{2, 1}}}},
		},
		{
			name:     "no newline at the end",
			base:     map[string]string{"f.txt": "a\nb\nc\nd\ne"},
			main:     map[string]string{"f.txt": "A\nb\nc\nd\ne"},
			worktree: map[string]string{"f.txt": "a\nb\nc\nd\nE"},
			want:     map[string]string{"f.txt": "A\nb\nc\nd\nE"},
			merged:   []string{"f.txt"},
		},
		{
			name:     "made executable in the main checkout, edited in the worktree",
			base:     map[string]string{"run.sh": "#!/bin/sh\n\necho a\n\necho b\n"},
			main:     map[string]string{"run.sh (0o755)": "#!/bin/sh\n\necho A\n\necho b\n"},
			worktree: map[string]string{"run.sh": "#!/bin/sh\n\necho a\n\necho B\n"},
			want:     map[string]string{"run.sh": "+x #!/bin/sh\n\necho A\n\necho B\n"},
			merged:   []string{"run.sh"},
		},
		{
			name:      "a symbolic link retargeted both ways",
			base:      map[string]string{"a": "a\n", "b": "b\n", "c": "c\n", "l => a": ""},
			main:      map[string]string{"l": gone, "l => b": ""},
			worktree:  map[string]string{"l": gone, "l => c": ""},
			conflicts: map[string][]Hunk{"l": nil},
			reason:    "symbolic link",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			main := testtree.Repo(t, tc.base)
			m := manager(t)
			w, err := m.New(ctx, main, NewOptions{Name: "merge"})
			if err != nil {
				t.Fatal(err)
			}
			edits(t, w.Path, tc.worktree)
			edits(t, main, tc.main)
			before, wtBefore := files(t, main), files(t, w.Path)

			applied, err := m.Apply(ctx, main, w.Name)
			if tc.conflicts == nil {
				if err != nil {
					t.Fatal(err)
				}
				got := files(t, main)
				for rel, want := range tc.want {
					if got[rel] != want {
						t.Errorf("after Apply %s holds %q, want %q", rel, got[rel], want)
					}
				}
				if !slices.Equal(applied.Merged, tc.merged) {
					t.Errorf("Merged = %v, want %v", applied.Merged, tc.merged)
				}
				return
			}
			var te *tool.Error
			if !errors.As(err, &te) || te.Code != tool.CodeConflict {
				t.Fatalf("Apply = %+v, %v; want %s", applied, err, tool.CodeConflict)
			}
			got := map[string][]Hunk{}
			for _, c := range te.Details["conflicts"].([]Conflict) {
				got[c.Path] = c.Hunks
				if !strings.Contains(c.Reason, tc.reason) || !strings.Contains(te.Message, c.Path) {
					t.Errorf("conflict %s: %q (message %q), want it to say %q", c.Path, c.Reason, te.Message, tc.reason)
				}
			}
			if !maps.EqualFunc(got, tc.conflicts, slices.Equal) {
				t.Errorf("conflicts %+v, want %+v", got, tc.conflicts)
			}
			if got := files(t, main); !maps.Equal(got, before) {
				t.Errorf("a refused Apply changed the main checkout: %q, want %q", got, before)
			}
			if got := files(t, w.Path); !maps.Equal(got, wtBefore) {
				t.Errorf("a refused Apply changed the worktree")
			}
		})
	}
}

// An Apply that merged is one change like any other: restoring the snapshot it took first puts the main
// checkout's own edit back, byte for byte.
func TestMergedApplyIsUndoable(t *testing.T) {
	ctx := context.Background()
	main := testtree.Repo(t, map[string]string{"f.txt": "1\n2\n3\n4\n5\n"})
	m := manager(t)
	w, err := m.New(ctx, main, NewOptions{Name: "undo"})
	if err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, w.Path, map[string]string{"f.txt": "1\n2\n3\n4\nfive\n"})
	testtree.Write(t, main, map[string]string{"f.txt": "one\n2\n3\n4\n5\n"})
	before := files(t, main)
	applied, err := m.Apply(ctx, main, w.Name)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(t, main)["f.txt"]; got != "one\n2\n3\n4\nfive\n" {
		t.Fatalf("merged to %q", got)
	}
	restore(t, main, m.CacheDir, applied.Snapshot)
	if got := files(t, main); !maps.Equal(got, before) {
		t.Fatalf("restoring the snapshot left %q, want %q", got, before)
	}
}

// restore puts the main checkout back as the snapshot id holds it.
func restore(t *testing.T, main, cache, id string) {
	t.Helper()
	root, err := os.OpenRoot(main)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	repo, err := snapshot.Open(root, main, cache, snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Stop()
	if _, err := repo.Restore(context.Background(), id, nil); err != nil {
		t.Fatal(err)
	}
}
