package gitobj

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// bare makes an empty bare repository and its Store.
func bare(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	testtree.Git(t, dir, "init", "--bare", "-q", ".")
	s := New(dir)
	t.Cleanup(s.Close)
	return s, dir
}

// git runs git on the repository dir with stdin.
func git(t *testing.T, dir, stdin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(testtree.Env(), "GIT_DIR="+dir), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, stderr.String())
	}
	return out.String()
}

func name(sha [20]byte) string { return hex.EncodeToString(sha[:]) }

// Every blob Write stores is the object git would make of the same bytes, and git reads it back byte for byte:
// empty, text, binary with NULs and every byte value, and one larger than the reader's buffer.
func TestWrittenBlobsAreGits(t *testing.T) {
	s, dir := bare(t)
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	big := make([]byte, 3<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	for _, tc := range []struct {
		name    string
		content []byte
	}{
		{"empty", nil},
		{"text", []byte("hello\nworld\n")},
		{"no final newline", []byte("x")},
		{"every byte", every},
		{"3 MiB", big},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sha, err := s.Write("blob", tc.content)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSpace(git(t, dir, string(tc.content), nil, "hash-object", "--stdin")); name(sha) != want {
				t.Fatalf("Write named it %s, git %s", name(sha), want)
			}
			if kind := strings.TrimSpace(git(t, dir, "", nil, "cat-file", "-t", name(sha))); kind != "blob" {
				t.Fatalf("git cat-file -t: %s", kind)
			}
			if got := git(t, dir, "", nil, "cat-file", "blob", name(sha)); got != string(tc.content) {
				t.Fatalf("git cat-file gave %d bytes, want %d", len(got), len(tc.content))
			}
			// Written again: the same name, no error, and it is still whole.
			again, err := s.Write("blob", tc.content)
			if err != nil || again != sha {
				t.Fatalf("second Write: %s %v", name(again), err)
			}
			git(t, dir, "", nil, "fsck", "--strict", "--no-dangling")
			// And read back through Store's own reader.
			if b, err := s.Read(sha, "blob"); err != nil || !bytes.Equal(b, tc.content) {
				t.Fatalf("Read: %d bytes, %v", len(b), err)
			}
		})
	}
}

// A tree written from entries of every mode, put in TreeOrder from any order, is the tree git mktree makes of
// the same entries (git sorts them itself), and git ls-tree lists it as written.
func TestWrittenTreesAreGits(t *testing.T) {
	s, dir := bare(t)
	blob, _ := s.Write("blob", []byte("content\n"))
	sub, _ := s.WriteTree([]Entry{{Mode: "100644", Name: "inner", SHA: blob}})
	commit, err := s.WriteCommit(name(sub), "sub\n", 1700000000)
	if err != nil {
		t.Fatal(err)
	}
	link, _ := Hex(commit)
	entries := []Entry{
		{Mode: "100644", Name: "a.txt", SHA: blob},
		{Mode: "100755", Name: "run.sh", SHA: blob},
		{Mode: "120000", Name: "link", SHA: blob},
		{Mode: "40000", Name: "a", SHA: sub}, // sorts as "a/": after "a.txt" and "a-b"
		{Mode: "100644", Name: "a-b", SHA: blob},
		{Mode: "40000", Name: "a0", SHA: sub},
		{Mode: "160000", Name: "nested", SHA: link},
		{Mode: "100644", Name: "Z", SHA: blob},
		{Mode: "100644", Name: "é", SHA: blob},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 5 {
		es := slices.Clone(entries)
		rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		slices.SortFunc(es, TreeOrder)
		sha, err := s.WriteTree(es)
		if err != nil {
			t.Fatal(err)
		}
		var mk strings.Builder
		for _, e := range entries { // in the original, unsorted order: mktree sorts
			kind := map[string]string{"40000": "tree", "160000": "commit"}[e.Mode]
			if kind == "" {
				kind = "blob"
			}
			fmt.Fprintf(&mk, "%06s %s %s\t%s\n", e.Mode, kind, name(e.SHA), e.Name)
		}
		want := strings.TrimSpace(git(t, dir, mk.String(), nil, "mktree", "--missing"))
		if name(sha) != want {
			t.Fatalf("round %d: WriteTree named it %s, git mktree %s", round, name(sha), want)
		}
		if ls := git(t, dir, "", nil, "-c", "core.quotePath=false", "ls-tree", name(sha)); ls != mk.String() && !sameLines(ls, mk.String()) {
			t.Fatalf("git ls-tree:\n%s\nwant (in any order) the lines\n%s", ls, mk.String())
		}
		// ReadTree gives back the entries as written, in order, whether from its cache or from git.
		for _, fresh := range []bool{false, true} {
			r := s
			if fresh {
				r = New(dir)
				defer r.Close()
			}
			got, err := r.ReadTree(sha)
			if err != nil || !slices.Equal(got, es) {
				t.Fatalf("ReadTree (fresh store %v): %v %v, want %v", fresh, got, err, es)
			}
		}
	}
}

func sameLines(a, b string) bool {
	la, lb := strings.Split(strings.TrimSpace(a), "\n"), strings.Split(strings.TrimSpace(b), "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// A commit WriteCommit stores is the one git commit-tree makes with the same tree, parents, message, identity
// and time.
func TestWrittenCommitsAreGits(t *testing.T) {
	s, dir := bare(t)
	tree, _ := s.WriteTree(nil)
	when := int64(1700000000)
	env := []string{
		"GIT_AUTHOR_NAME=Rooted", "GIT_AUTHOR_EMAIL=snapshots@rooted.invalid", fmt.Sprintf("GIT_AUTHOR_DATE=@%d +0000", when),
		"GIT_COMMITTER_NAME=Rooted", "GIT_COMMITTER_EMAIL=snapshots@rooted.invalid", fmt.Sprintf("GIT_COMMITTER_DATE=@%d +0000", when),
	}
	first, err := s.WriteCommit(name(tree), "First\n", when)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(git(t, dir, "First\n", env, "commit-tree", "-F", "-", name(tree))); first != want {
		t.Fatalf("root commit %s, git commit-tree %s", first, want)
	}
	other, err := s.WriteCommit(name(tree), "Other\n", when)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.WriteCommit(name(tree), "Second\n\nwith a body\n", when+1, first, other)
	if err != nil {
		t.Fatal(err)
	}
	env2 := slices.Clone(env)
	env2[2], env2[5] = fmt.Sprintf("GIT_AUTHOR_DATE=@%d +0000", when+1), fmt.Sprintf("GIT_COMMITTER_DATE=@%d +0000", when+1)
	if want := strings.TrimSpace(git(t, dir, "Second\n\nwith a body\n", env2, "commit-tree", "-F", "-", "-p", first, "-p", other, name(tree))); second != want {
		t.Fatalf("commit with parents %s, git commit-tree %s", second, want)
	}
	if log := git(t, dir, "", nil, "log", "--format=%s %P", second); log != "Second "+first+" "+other+"\nFirst \nOther \n" && log != "Second "+first+" "+other+"\nOther \nFirst \n" {
		t.Fatalf("git log: %q", log)
	}
}

// Objects git wrote, loose and packed, are read back; the wrong kind, a missing object and a bad name are errors,
// and the reader goes on answering after them.
func TestReadsWhatGitWrote(t *testing.T) {
	s, dir := bare(t)
	loose := strings.TrimSpace(git(t, dir, "loose\n", nil, "hash-object", "-w", "--stdin"))
	packed := strings.TrimSpace(git(t, dir, "packed\n", nil, "hash-object", "-w", "--stdin"))
	tree := strings.TrimSpace(git(t, dir, "100644 blob "+packed+"\tp\n", nil, "mktree"))
	commit := strings.TrimSpace(git(t, dir, "", nil, "commit-tree", "-m", "c", tree))
	git(t, dir, "", nil, "update-ref", "refs/heads/main", commit)
	git(t, dir, "", nil, "repack", "-a", "-d", "-q")
	if _, err := os.Stat(filepath.Join(dir, "objects", packed[:2], packed[2:])); err == nil {
		t.Fatal("the object was not packed")
	}
	git(t, dir, "loose\n", nil, "hash-object", "-w", "--stdin") // loose again after the repack took it
	missing := strings.Repeat("ab", 20)
	for _, tc := range []struct {
		name, sha, kind, want string
		ok                    bool
	}{
		{"loose blob", loose, "blob", "loose\n", true},
		{"packed blob", packed, "blob", "packed\n", true},
		{"blob read as a tree", packed, "tree", "", false},
		{"missing", missing, "blob", "", false},
		{"packed blob after errors", packed, "blob", "packed\n", true},
	} {
		sha, err := Hex(tc.sha)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Read(sha, tc.kind)
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("%s: %q %v", tc.name, got, err)
		}
	}
	es, err := s.ReadTree(mustHex(t, tree))
	if err != nil || len(es) != 1 || es[0].Name != "p" || name(es[0].SHA) != packed {
		t.Fatalf("ReadTree of git's tree: %v %v", es, err)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("g", 40), strings.Repeat("a", 41)} {
		if _, err := Hex(bad); err == nil {
			t.Errorf("Hex(%q) accepted", bad)
		}
	}
	if _, err := ParseTree([]byte("100644 name-without-sha\x00abc")); err == nil {
		t.Error("ParseTree accepted a truncated entry")
	}
}

func mustHex(t *testing.T, s string) [20]byte {
	t.Helper()
	sha, err := Hex(s)
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

// BenchmarkWrite stores distinct small blobs, as a snapshot of an edit does; its B/op is what each object costs the
// garbage collector.
func BenchmarkWrite(b *testing.B) {
	s := &Store{Dir: b.TempDir()}
	content := bytes.Repeat([]byte("package main\n"), 200)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Write("blob", append(content, strconv.Itoa(i)...)); err != nil {
			b.Fatal(err)
		}
	}
}

// Objects written while git removes empty fan-out folders (git prune-packed does, inside the repack that stops a
// shadow repository borrowing the project's objects, which may run beside an edit's snapshot) are all stored: a
// folder gone between its creation and the temporary file is made again.
func TestWritesBesideRemovedFolders(t *testing.T) {
	s, dir := bare(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 300; i++ { // each removes the folders that are empty at that moment, as rmdir does
			entries, _ := os.ReadDir(filepath.Join(dir, "objects"))
			for _, e := range entries {
				if len(e.Name()) == 2 {
					os.Remove(filepath.Join(dir, "objects", e.Name()))
				}
			}
		}
	}()
	var failed []string
	written := 0
	for i := 0; ; i++ {
		select {
		case <-done:
			if failed != nil {
				t.Errorf("%d of %d writes failed, first: %s", len(failed), written, failed[0])
			}
			return
		default:
		}
		if _, err := s.Write("blob", []byte("object "+strconv.Itoa(i))); err != nil {
			failed = append(failed, err.Error())
		}
		written++
	}
}
