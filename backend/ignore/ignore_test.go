package ignore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// gitIgnored asks git itself, the reference, whether each path is ignored.
func gitIgnored(t *testing.T, dir string, paths []string) map[string]bool {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required: the matcher is tested against git check-ignore")
	}
	testtree.Git(t, dir, "init", "-q")
	cmd := exec.Command("git", "check-ignore", "--no-index", "--stdin")
	cmd.Dir = dir
	cmd.Env = testtree.Env() // no user or global excludes: only the tree's own files judge
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, _ := cmd.Output() // exit 1 when nothing is ignored
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			got[strings.TrimSuffix(l, "/")] = true
		}
	}
	return got
}

// agreesWithGit checks that m judges each path (a file or a folder, as it is on disk under dir) as git did in want.
func agreesWithGit(t *testing.T, m *Matcher, dir string, paths []string, want map[string]bool) {
	t.Helper()
	for _, p := range paths {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Ignored(p, fi.IsDir()); got != want[p] {
			t.Errorf("%s: Ignored = %v, git check-ignore says %v", p, got, want[p])
		}
	}
}

func TestMatchesGitCheckIgnore(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".gitignore":              "*.log\n/build/\nnode_modules/\n!important.log\ntmp\n*.o\ndocs/**/*.pdf\n",
		"app.log":                 "",
		"important.log":           "",
		"sub/app.log":             "",
		"sub/important.log":       "",
		"build/out.bin":           "",
		"sub/build/keep.go":       "", // /build/ is anchored: not this one
		"node_modules/x/index.js": "",
		"sub/node_modules/y.js":   "",
		"tmp":                     "", // file named tmp
		"sub/tmp/":                "", // dir named tmp
		"main.o":                  "",
		"docs/a/b/c.pdf":          "",
		"docs/c.pdf":              "",
		"src/.gitignore":          "generated/\n!*.keep\n*.gen.go\n",
		"src/generated/x.go":      "",
		"src/a.gen.go":            "",
		"src/b.go":                "",
		"src/x.keep":              "",
		"src/deep/.gitignore":     "!a.gen.go\n",
		"src/deep/a.gen.go":       "", // re-included by the deeper file
		"src/deep/b.gen.go":       "",
		"logs/":                   "",
		"logs/.gitignore":         "*\n!.gitignore\n",
		"logs/today.txt":          "",
		"nested/build/out.bin":    "",
		".git/info/exclude":       "secret.env\n",
		"secret.env":              "",
		"sub/secret.env":          "",
		"negated-dir/":            "",
	}
	r, dir := testtree.Root(t, files)
	var paths []string
	for name := range files {
		if strings.HasPrefix(name, ".git/") {
			continue
		}
		paths = append(paths, strings.TrimSuffix(name, "/"))
	}
	// the exclude file must exist before git runs; it was written by layout
	want := gitIgnored(t, dir, paths)
	m := New(r)
	m.global = nil // git runs with GIT_CONFIG_GLOBAL=/dev/null here
	agreesWithGit(t, m, dir, paths, want)
	if !m.Ignored(".git", true) || !m.Ignored(".git/config", false) {
		t.Error(".git must always be ignored")
	}
}

// Dir gives the same answers as Ignored for the entries of directories that are not themselves ignored.
func TestDirAgreesWithIgnored(t *testing.T) {
	t.Parallel()
	r, dir := testtree.Root(t, map[string]string{
		".gitignore":         "*.log\n/build/\n!keep.log\n",
		"src/.gitignore":     "gen/\n!x.log\n",
		"src/deep/a.log":     "",
		"src/x.log":          "",
		"src/y.log":          "",
		"src/gen/z.go":       "",
		"build/o":            "",
		"keep.log":           "",
		"src/build/ok.go":    "",
		".git/info/exclude":  "secret\n",
		"src/deep/secret":    "",
		"src/deep/plain.txt": "",
	})
	m := New(r)
	for _, d := range []string{"", "src", "src/deep", "src/build"} {
		entries, _ := os.ReadDir(filepath.Join(dir, d))
		dm := m.Dir(d)
		for _, e := range entries {
			rel := e.Name()
			if d != "" {
				rel = d + "/" + e.Name()
			}
			if got, want := dm.Ignored(e.Name(), e.IsDir()), m.Ignored(rel, e.IsDir()); got != want {
				t.Errorf("%s: Dir says %v, Ignored says %v", rel, got, want)
			}
		}
	}
}

// The user's global excludes apply below the project's own files, as git applies them.
func TestGlobalExcludesAgreeWithGit(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, ".config", "git", "ignore"), []byte("*.swp\n.DS_Store\nscratch/\n"), 0o644)
	r, dir := testtree.Root(t, map[string]string{
		".gitignore":      "!keep.swp\n",
		"a.swp":           "",
		"keep.swp":        "", // the project re-includes what the user's file ignores
		"src/.DS_Store":   "",
		"scratch/x.txt":   "",
		"src/main.go":     "",
		".git/info/x.txt": "",
	})
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=", "GIT_CONFIG_NOSYSTEM=1"}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	paths := []string{"a.swp", "keep.swp", "src/.DS_Store", "scratch/x.txt", "src/main.go"}
	cmd = exec.Command("git", "check-ignore", "--no-index", "--stdin")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, _ := cmd.Output()
	want := map[string]bool{}
	for _, l := range strings.Fields(string(out)) {
		want[l] = true
	}
	if !want["a.swp"] || want["keep.swp"] {
		t.Fatalf("git did not pick up the global file as expected: %q", out)
	}
	m := New(r)
	b, _ := os.ReadFile(filepath.Join(home, ".config", "git", "ignore"))
	m.global = compile(string(b)) // the process-wide file is the developer's own; use the test's
	for _, p := range paths {
		if got := m.Ignored(p, false); got != want[p] {
			t.Errorf("%s: Ignored = %v, git says %v", p, got, want[p])
		}
	}
}

// .ignore files (honoured by ripgrep and others) take precedence over .gitignore in the same directory.
func TestDotIgnore(t *testing.T) {
	t.Parallel()
	r, _ := testtree.Root(t, map[string]string{
		".gitignore":     "*.gen\n",
		".ignore":        "!wanted.gen\nbig-fixtures/\n",
		"a.gen":          "",
		"wanted.gen":     "",
		"big-fixtures/f": "",
	})
	m := New(r)
	m.global = nil
	for p, want := range map[string]bool{"a.gen": true, "wanted.gen": false, "big-fixtures/f": true} {
		if got := m.Ignored(p, false); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

// Shapes users met where Rooted once disagreed with git, each judged by git check-ignore on its own small tree.
func TestShapesGitAgreesOn(t *testing.T) {
	t.Parallel()
	cases := map[string]map[string]string{
		"single-character wildcard in a nested file": {"s/.gitignore": "?.go\n", "s/f.go": "", "s/ff.go": ""},
		"dir/* then !dir/file re-includes the file": {
			"sub/.gitignore": "gen/*\n!gen/keep.go\n", "sub/gen/keep.go": "", "sub/gen/other.go": "",
		},
		"b/** at the root, !* in b/.gitignore": {".gitignore": "b/**\n", "b/.gitignore": "!*\n", "b/a/x.go": "", "b/y.go": ""},
		"x/** does not match x itself":         {".gitignore": "x/**\n!x/keep\n", "x/keep": "", "x/y": ""},
		"spaces inside a pattern":              {".gitignore": "**/sub dir/\na b.txt  \n", "sub dir/a.go": "", "a b.txt": "", "x/a b.txt": ""},
		"/name stays in its own folder":        {".gitignore": "/*xt\n", "a.txt": "", "b/a.txt": ""},
		"bracket classes":                      {".gitignore": "[!a]*.go\n[a-c].md\n", "a.go": "", "b.go": "", "c.md": "", "d.md": ""},
		"escaped leading # and !":              {".gitignore": "\\#note\n\\!bang\n", "#note": "", "!bang": ""},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			r, dir := testtree.Root(t, files)
			var paths []string
			for p := range files {
				for d := p; d != "."; d = filepath.Dir(d) {
					paths = append(paths, d)
				}
			}
			want := gitIgnored(t, dir, paths)
			agreesWithGit(t, newWith(r, nil), dir, paths, want)
		})
	}
}

// Rooted reads core.excludesFile from the global git config itself (no git process per search); git is the judge
// of what each configuration means.
func TestGlobalExcludesFileAgreesWithGit(t *testing.T) {
	cases := map[string]struct{ xdg, home string }{
		"none":                         {},
		"in ~/.gitconfig":              {home: "[core]\n\texcludesFile = ~/my-ignores\n"},
		"in the XDG file":              {xdg: "[core]\n  excludesfile = /etc/ignores-xdg\n"},
		"both: ~/.gitconfig wins":      {xdg: "[core]\nexcludesFile=/a\n", home: "[core]\nexcludesFile=/b\n"},
		"quoted, comment after":        {home: "[core]\n\texcludesFile = \"/q/ignores\"\n[user]\n\tname = x # me\n"},
		"other sections, same key":     {home: "[other]\nexcludesFile = /no\n[core]\nautocrlf = false\n"},
		"set twice: the last wins":     {home: "[core]\nexcludesFile = /first\n[core]\nexcludesFile = /second\n"},
		"section case and comments":    {home: "; c\n# c\n[CORE]\n\tExcludesFile = /upper ; trailing\n"},
		"includes are left to git":     {home: "[include]\n\tpath = ~/more.gitconfig\n"},
		"conditional includes too":     {home: "[includeIf \"gitdir:~/w/\"]\n\tpath = ~/w.gitconfig\n[core]\nexcludesFile = /x\n"},
		"key on the section line, too": {home: "[core] excludesFile = /inline\n"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755)
			if c.home != "" {
				os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(c.home), 0o644)
			}
			if c.xdg != "" {
				os.WriteFile(filepath.Join(home, ".config", "git", "config"), []byte(c.xdg), 0o644)
			}
			os.WriteFile(filepath.Join(home, "more.gitconfig"), []byte("[core]\nexcludesFile = /from-include\n"), 0o644)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			os.Unsetenv("XDG_CONFIG_HOME")
			t.Setenv("GIT_CONFIG_GLOBAL", "") // restored when the test ends, unlike a bare Unsetenv
			os.Unsetenv("GIT_CONFIG_GLOBAL")
			want := filepath.Join(home, ".config", "git", "ignore")
			if out, err := exec.Command("git", "config", "--global", "--path", "--get", "core.excludesFile").Output(); err == nil {
				want = strings.TrimSpace(string(out))
			}
			if got := globalExcludesFile(); got != want {
				t.Errorf("excludes file %q, git says %q", got, want)
			}
		})
	}
}
