// Package ignoretest generates random project trees with nested ignore files and asks git what it ignores in them,
// so that every part of Rooted that decides "is this ignored" can be checked against git itself, the judge.
//
// A tree is a pure function of its seed: a seed that ever exposed a disagreement is checked in as a regression
// case and reproduces the same tree forever. The generator favours the shapes that trip matchers: negations after
// directory patterns ("gen/*" then "!gen/keep.go"), "**" in every position, "?" and bracket classes, anchored and
// directory-only patterns, re-inclusion from a deeper file, names with spaces, and .git/info/exclude.
package ignoretest

import (
	"cmp"
	_ "embed"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Tree is a generated project: files (slash paths to content), directories (slash paths, possibly empty) and the
// content of .git/info/exclude ("" for none). Ignore files are among Files.
type Tree struct {
	Seed    uint64
	Files   map[string]string
	Dirs    []string
	Exclude string
	// Links are symlinks: path to target, relative to the link's folder. Git never treats a link as a directory,
	// whatever it points to, so "name/" patterns do not match one.
	Links map[string]string
	// LinkDirs are the links that point to a directory of the tree.
	LinkDirs map[string]bool
}

var (
	dirNames  = []string{"a", "b", "gen", "sub", "build", "src", "sub dir", "ab", "x.d", "node_modules"}
	fileNames = []string{
		"a.go", "b.go", "f.go", "keep.go", "ab.go", "main.c", "x.txt", "y.md", "a b.txt", "README",
		"z.log", "gen.go", "build", "c", "[x].go", "Keep.GO", ".env", "#note",
	}
	ignoreNames = []string{".gitignore", ".gitignore", ".gitignore", ".ignore"}
)

// Generate returns the tree of seed.
func Generate(seed uint64) Tree {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	t := Tree{Seed: seed, Files: map[string]string{}, Links: map[string]string{}, LinkDirs: map[string]bool{}}
	dirs := []string{""}
	var grow func(dir string, depth int)
	grow = func(dir string, depth int) {
		for range 1 + r.IntN(4) {
			t.Files[path.Join(dir, pick(r, fileNames))] = "x\n"
		}
		if depth >= 3 {
			return
		}
		for range r.IntN(4 - depth) {
			sub := path.Join(dir, pick(r, dirNames))
			if _, isFile := t.Files[sub]; isFile || slices.Contains(dirs, sub) {
				continue
			}
			dirs = append(dirs, sub)
			grow(sub, depth+1)
		}
	}
	grow("", 0)
	for _, d := range dirs {
		if d != "" {
			t.Dirs = append(t.Dirs, d)
		}
	}
	// Now and then a symlink, named like a folder or a file, to a folder or a file of the tree.
	for range r.IntN(3) / 2 * (1 + r.IntN(2)) {
		at := pick(r, dirs)
		name := path.Join(at, pick(r, append(slices.Clip(dirNames), fileNames...)))
		if _, taken := t.Files[name]; taken || slices.Contains(dirs, name) || t.Links[name] != "" {
			continue
		}
		var target string
		toDir := len(t.Dirs) > 0 && r.IntN(2) == 0
		if toDir {
			target = pick(r, t.Dirs)
		} else {
			files := slices.Sorted(maps.Keys(t.Files))
			target, toDir = pick(r, files), false
		}
		rel, err := filepath.Rel(filepath.FromSlash(cmp.Or(at, ".")), filepath.FromSlash(target))
		if err != nil {
			continue
		}
		t.Links[name] = filepath.ToSlash(rel)
		t.LinkDirs[name] = toDir
	}
	// Ignore files: the root usually has one, other folders sometimes.
	for i, d := range dirs {
		if (i == 0 && r.IntN(5) > 0) || (i > 0 && r.IntN(3) == 0) {
			name := path.Join(d, pick(r, ignoreNames))
			if _, isDir := t.Files[name]; !isDir {
				t.Files[name] = patterns(r, t, d, 1+r.IntN(5))
			}
		}
	}
	if r.IntN(4) == 0 {
		t.Exclude = patterns(r, t, "", 1+r.IntN(2))
	}
	return t
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// patterns writes n lines for an ignore file in dir, mostly built from names that exist below it so they match.
func patterns(r *rand.Rand, t Tree, dir string, n int) string {
	var below []string
	for p := range t.Files {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok || dir == "" {
			if dir == "" {
				rel = p
			}
			below = append(below, rel)
		}
	}
	for p := range t.Links {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok || dir == "" {
			if dir == "" {
				rel = p
			}
			below = append(below, rel, rel+"/")
		}
	}
	for _, p := range t.Dirs {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok || dir == "" {
			if dir == "" {
				rel = p
			}
			below = append(below, rel+"/")
		}
	}
	slices.Sort(below)
	var b strings.Builder
	for range n {
		line := pattern(r, below)
		if r.IntN(3) == 0 {
			// A negation right after a pattern on the same stem: the "dir/*" then "!dir/file" shape.
			b.WriteString(line + "\n")
			line = "!" + pattern(r, below)
		}
		b.WriteString(line + "\n")
	}
	if r.IntN(6) == 0 {
		b.WriteString("# a comment\n\n")
	}
	return b.String()
}

// pattern makes one line from a path that exists below the ignore file (or a bare name), mangled with wildcards.
func pattern(r *rand.Rand, below []string) string {
	var p string
	if len(below) > 0 && r.IntN(5) > 0 {
		p = pick(r, below)
	} else {
		p = pick(r, append(slices.Clip(fileNames), dirNames...))
	}
	isDir := strings.HasSuffix(p, "/")
	parts := strings.Split(strings.TrimSuffix(p, "/"), "/")
	// Often keep only the last one or two components, so unanchored basename matching is exercised.
	if len(parts) > 1 && r.IntN(2) == 0 {
		parts = parts[len(parts)-1-r.IntN(min(2, len(parts)-1)):]
	}
	for i, s := range parts {
		parts[i] = mangle(r, s)
	}
	line := strings.Join(parts, "/")
	switch r.IntN(12) {
	case 0:
		line = "**/" + line
	case 1:
		line += "/**"
	case 2:
		line += "/*"
	case 3:
		if len(parts) > 1 {
			line = parts[0] + "/**/" + strings.Join(parts[1:], "/")
		}
	case 4:
		line = "/" + line
	case 5:
		line = "*"
	case 6:
		line = "**"
	}
	if isDir && r.IntN(2) == 0 && !strings.HasSuffix(line, "*") {
		line += "/"
	}
	if r.IntN(5) == 0 {
		line = "!" + line
	}
	if strings.HasPrefix(line, "#") {
		line = `\` + line
	}
	return line
}

// mangle replaces parts of a name with wildcards that still match it (or nearly: a class may miss).
func mangle(r *rand.Rand, s string) string {
	if strings.ContainsAny(s, "[]") {
		if r.IntN(2) == 0 {
			return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
		}
		return strings.NewReplacer("[", "?", "]", "?").Replace(s)
	}
	switch r.IntN(9) {
	case 0:
		i := r.IntN(len(s))
		return s[:i] + "?" + s[i+1:]
	case 1:
		return "*" + s[r.IntN(len(s)):]
	case 2:
		return s[:r.IntN(len(s))] + "*"
	case 3:
		i := r.IntN(len(s))
		return s[:i] + "[" + string(s[i]) + "xyz]" + s[i+1:]
	case 4:
		i := r.IntN(len(s))
		return s[:i] + "[!q]" + s[i+1:]
	case 5:
		i := r.IntN(len(s))
		return s[:i] + "[a-z]" + s[i+1:]
	case 6:
		return strings.ToUpper(s[:1]) + s[1:] // case matters: usually a miss
	}
	return s
}

// Write creates the tree under dir, which must be empty, with .git initialised by git itself.
func (t Tree) Write(dir string) error {
	if _, err := git(dir, "", "init", "-q"); err != nil {
		return err
	}
	for _, d := range t.Dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	for p, c := range t.Files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(c), 0o644); err != nil {
			return err
		}
	}
	for p, target := range t.Links {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			return err
		}
	}
	if t.Exclude != "" {
		return os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte(t.Exclude), 0o644)
	}
	return nil
}

// Paths lists every file and directory of the tree (directories with a trailing "/"), sorted.
func (t Tree) Paths() []string {
	var ps []string
	for p := range t.Files {
		ps = append(ps, p)
	}
	for p := range t.Links {
		ps = append(ps, p)
	}
	for _, d := range t.Dirs {
		ps = append(ps, d+"/")
	}
	slices.Sort(ps)
	return ps
}

// String is the tree as a reader wants it in a failure: every ignore file's lines, then the paths.
func (t Tree) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d\n", t.Seed)
	for _, p := range t.Paths() {
		if c, ok := t.Files[p]; ok && (path.Base(p) == ".gitignore" || path.Base(p) == ".ignore") {
			fmt.Fprintf(&b, "  %s:\n    %s\n", p, strings.ReplaceAll(strings.TrimRight(c, "\n"), "\n", "\n    "))
		}
	}
	if t.Exclude != "" {
		fmt.Fprintf(&b, "  .git/info/exclude:\n    %s\n", strings.ReplaceAll(strings.TrimRight(t.Exclude, "\n"), "\n", "\n    "))
	}
	for _, p := range slices.Sorted(maps.Keys(t.Links)) {
		fmt.Fprintf(&b, "  link %s -> %s\n", p, t.Links[p])
	}
	fmt.Fprintf(&b, "  paths: %s\n", strings.Join(t.Paths(), ", "))
	return b.String()
}

// Truth is git's answer for a written tree.
type Truth struct {
	// Untracked is `git ls-files -o --exclude-standard`: the files a search must see (the tree has no commits).
	Untracked map[string]bool
	// Ignored is `git check-ignore` for every path of the tree (directories without their trailing "/").
	Ignored map[string]bool
}

// Git asks git about the tree written in dir. Files named .ignore are not git's: Rooted honours them as ripgrep
// does, after the same folder's .gitignore, so where there are any, git judges a copy of the tree in which each
// .ignore's lines follow that folder's .gitignore. Paths that exist only in that copy are left out of the answer.
func (t Tree) Git(dir string) (Truth, error) {
	judge := dir
	view := Tree{Seed: t.Seed, Files: maps.Clone(t.Files), Dirs: t.Dirs, Exclude: t.Exclude, Links: t.Links}
	for p, c := range t.Files {
		if path.Base(p) == ".ignore" {
			gi := path.Join(path.Dir(p), ".gitignore")
			view.Files[gi] = t.Files[gi] + "\n" + c
		}
	}
	if len(view.Files) != len(t.Files) || !maps.Equal(view.Files, t.Files) {
		var err error
		if judge, err = os.MkdirTemp("", "ignoretest-git-"); err != nil {
			return Truth{}, err
		}
		defer os.RemoveAll(judge)
		if err := view.Write(judge); err != nil {
			return Truth{}, err
		}
	}
	real := map[string]bool{}
	for _, p := range t.Paths() {
		real[strings.TrimSuffix(p, "/")] = true
	}
	keep := func(out string, into map[string]bool) {
		for _, p := range strings.Split(out, "\x00") {
			if real[p] {
				into[p] = true
			}
		}
	}
	truth := Truth{Untracked: map[string]bool{}, Ignored: map[string]bool{}}
	out, err := git(judge, "", "ls-files", "-z", "-o", "--exclude-standard")
	if err != nil {
		return Truth{}, err
	}
	keep(out, truth.Untracked)
	var paths []string
	for p := range real {
		paths = append(paths, p)
	}
	// check-ignore exits 1 when nothing is ignored; the output is what counts.
	out, _ = git(judge, strings.Join(paths, "\x00")+"\x00", "check-ignore", "-z", "--stdin")
	keep(out, truth.Ignored)
	return truth, nil
}

// git runs git in dir with only the tree's own files to judge by: no user or system config, no global excludes.
func git(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return out.String(), nil
}

//go:embed regression-seeds
var regressionSeeds string

// Seeds returns the checked-in regression seeds, then n seeds of fresh trees: ROOTED_DIFF_TREES=N asks for N
// instead (a few thousand, run by hand), and -short for a tenth.
func Seeds(n int) []uint64 {
	if v, err := strconv.Atoi(os.Getenv("ROOTED_DIFF_TREES")); err == nil && v > 0 {
		n = v
	} else if testing.Short() {
		n = max(1, n/10)
	}
	var seeds []uint64
	for _, l := range strings.Split(regressionSeeds, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			s, err := strconv.ParseUint(l, 10, 64)
			if err != nil {
				panic("ignoretest: regression-seeds: " + err.Error())
			}
			seeds = append(seeds, s)
		}
	}
	for i := range n {
		seeds = append(seeds, uint64(1000+i))
	}
	return seeds
}

// Judged writes the tree of seed into a fresh temporary folder and returns it with git's answer.
func Judged(tb testing.TB, seed uint64) (Tree, string, Truth) {
	tb.Helper()
	tree := Generate(seed)
	dir := tb.TempDir()
	if err := tree.Write(dir); err != nil {
		tb.Fatal(err)
	}
	truth, err := tree.Git(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return tree, dir, truth
}

// SearchedFiles is what a search must read: git's untracked files less the links to folders (which hold no text).
func (t Tree) SearchedFiles(truth Truth) map[string]bool {
	out := map[string]bool{}
	for p := range truth.Untracked {
		if !t.LinkDirs[p] {
			out[p] = true
		}
	}
	return out
}

// Diff lists how got differs from want, as lines naming each path, empty when they agree.
func Diff(what string, got, want map[string]bool) []string {
	var d []string
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if !got[p] {
			d = append(d, what+" misses "+p+", which git lists")
		}
	}
	for _, p := range slices.Sorted(maps.Keys(got)) {
		if !want[p] {
			d = append(d, what+" has "+p+", which git ignores")
		}
	}
	return d
}

// Isolate keeps the user's and the system's git configuration out of a test process, so that Rooted's matcher
// (which reads the global excludes file once per process) and git judge with the same rules. Call it from
// TestMain, before anything asks about ignored paths.
func Isolate() (cleanup func()) {
	dir, err := os.MkdirTemp("", "ignoretest-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("XDG_CONFIG_HOME", dir)
	return func() { os.RemoveAll(dir) }
}

// Check writes the tree of each seed, asks git about it, and hands it to check, which returns how the code under
// test disagrees with git (nothing when it agrees); a root is open on the tree for check and closed after it.
// Trees are checked a few at a time, in parallel subtests: most of the time goes to git processes and the disk,
// not to the CPU. The first five trees that disagree are reported whole, with check's lines sorted, then how many
// disagree in all. check may call t.Fatal for a failure of the machinery.
func Check(t *testing.T, seeds []uint64, check func(t *testing.T, tree Tree, root *os.Root, truth Truth) []string) {
	t.Helper()
	var mu sync.Mutex
	failed := 0
	workers := min(len(seeds), 2*runtime.GOMAXPROCS(0))
	t.Run("trees", func(t *testing.T) {
		for w := range workers {
			t.Run(strconv.Itoa(w), func(t *testing.T) {
				t.Parallel()
				for i := w; i < len(seeds); i += workers {
					tree, dir, truth := Judged(t, seeds[i])
					root, err := os.OpenRoot(dir)
					if err != nil {
						t.Fatal(err)
					}
					diffs := check(t, tree, root, truth)
					root.Close()
					if len(diffs) == 0 {
						continue
					}
					mu.Lock()
					failed++
					n := failed
					mu.Unlock()
					if n <= 5 {
						slices.Sort(diffs)
						t.Errorf("%s  %s", tree, strings.Join(diffs, "\n  "))
					}
				}
			})
		}
	})
	if failed > 0 {
		t.Errorf("%d of %d trees disagree with git", failed, len(seeds))
	}
}

// Main is a TestMain for a package whose tests judge by git: it runs the tests with the git configuration of the
// user and the system kept out (Isolate), and exits with their code.
func Main(m *testing.M) {
	cleanup := Isolate()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
