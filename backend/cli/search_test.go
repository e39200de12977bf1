package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

func searchProject(t *testing.T) string {
	t.Helper()
	return testtree.Dir(t, map[string]string{
		".gitignore":       "build/\n",
		"main.go":          "package main\n\nfunc main() {\n\tgreet()\n}\n",
		"greet.go":         "package main\n\nfunc greet() { println(\"Hello\") }\n",
		"build/out.go":     "func greet() {}\n",
		"docs/notes.md":    "greet people kindly\n",
		"docs/deep/a.txt":  "nothing\n",
		"docs/deep/b.test": "x\n",
	})
}

func TestSearchAndFind(t *testing.T) {
	t.Parallel()
	root := searchProject(t)
	tests := []struct {
		name      string
		args      []string
		code      int
		want, not []string
	}{
		{"literal, grep-like lines, ignored skipped", []string{"search", "greet", "--root", root}, ExitOK, []string{"main.go:4:\tgreet()", "greet.go:3:func greet()", "docs/notes.md:1:greet people"}, []string{"build/"}},
		{"ignored on request", []string{"search", "greet", "--ignored", "--root", root}, ExitOK, []string{"build/out.go:1:"}, nil},
		{"glob and path", []string{"search", "greet", "docs", "--glob", "*.md", "--root", root}, ExitOK, []string{"docs/notes.md:1:"}, []string{"main.go"}},
		{"case and regex", []string{"search", "-i", "--regex", `hel+o`, "--root", root}, ExitOK, []string{`greet.go:3:`}, nil},
		{"context", []string{"search", "greet()", "main.go", "--context", "1", "--root", root}, ExitOK, []string{"main.go-3-func main() {", "main.go:4:", "main.go-5-}"}, nil},
		{"files", []string{"search", "greet", "--files", "--root", root}, ExitOK, []string{"greet.go:1", "main.go:1"}, []string{"println"}},
		{"no match is not an error", []string{"search", "zebra", "--root", root}, ExitOK, nil, []string{":"}},
		{"bad regex", []string{"search", "(", "--regex", "--root", root}, ExitToolError, nil, nil},
		{"escape", []string{"search", "x", "..", "--root", root}, ExitToolError, nil, nil},
		{"no pattern", []string{"search", "--root", root}, ExitUsage, nil, nil},
		{"find", []string{"find", "**/*.go", "--root", root}, ExitOK, []string{"main.go", "greet.go"}, []string{"build/out.go"}},
		{"find in a dir", []string{"find", "*.txt", "--path", "docs", "--root", root}, ExitOK, []string{"docs/deep/a.txt"}, []string{"b.test"}},
		{"find with --cwd", []string{"find", "*", "--cwd", "docs/deep", "--root", root}, ExitOK, []string{"a.txt", "b.test"}, []string{"main.go"}},
		{"find without a glob", []string{"find", "--root", root}, ExitUsage, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tt.code, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("stdout has %q:\n%s", n, out)
				}
			}
			if code == ExitToolError && !strings.Contains(errOut, "rooted search: ") {
				t.Errorf("a tool error names the command and code on stderr: %q", errOut)
			}
		})
	}
	// A capped listing says so on stderr, keeping stdout for results.
	for _, args := range [][]string{{"search", "greet", "--limit", "1"}, {"find", "**", "--limit", "1"}} {
		code, out, errOut := run(t, "", append(args, "--root", root)...)
		if code != ExitOK || strings.Count(out, "\n") != 1 || !strings.Contains(errOut, "(first 1 of ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// --json prints the tool's own result.
	code, out, _ := run(t, "", "search", "greet", "--json", "--root", root)
	var res struct {
		Total int `json:"total"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &res) != nil || res.Total != 3 {
		t.Errorf("--json: exit %d, %s", code, out)
	}
}

// Every subcommand documents itself with --help and exits 0.
func TestEveryCommandHasHelp(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		code, _, errOut := run(t, "", c.name, "--help")
		if code != ExitOK || !strings.Contains(errOut, "Usage: rooted "+c.name) {
			t.Errorf("%s --help: exit %d, %q", c.name, code, errOut)
		}
	}
}

// rooted mcp checks its flags before it looks for the server, so a typo reads as any other command's.
func TestMCPUsage(t *testing.T) {
	t.Parallel()
	code, _, errOut := run(t, "", "mcp", "extra")
	if code != ExitUsage || !strings.Contains(errOut, `unexpected argument "extra"`) || !strings.Contains(errOut, "Usage: rooted mcp") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// rooted mcp sign-in checks its arguments before it hands the sign-in to rooted-mcp.
func TestMCPSignInUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "sign-in", "--help"}, ExitOK, "Usage: rooted mcp sign-in NAME [--root DIR]"},
		{[]string{"mcp", "sign-in"}, ExitUsage, "rooted mcp sign-in: name the server to sign in to"},
		{[]string{"mcp", "sign-in", "docs", "more"}, ExitUsage, `unexpected argument "more"`},
		{[]string{"mcp", "sign-in", "docs", "--bogus"}, ExitUsage, "flag provided but not defined: -bogus"},
	} {
		code, _, errOut := run(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errOut)
		}
	}
	f, code, ok := ParseSignIn(IO{}, []string{"--root", "/p", "docs"})
	if !ok || code != ExitOK || f != (SignInFlags{Name: "docs", Root: "/p"}) {
		t.Errorf("ParseSignIn = %+v, %d, %v", f, code, ok)
	}
}

// A listing cut at --limit says so on stderr only, with the counts, so a pipe gets nothing but results; diff and
// restore want exactly one snapshot id and say so.
func TestCappedListingsAndSnapshotUsage(t *testing.T) {
	t.Parallel()
	root := searchProject(t)
	const usage = "\nUsage:"
	for _, c := range []struct {
		name      string
		args      []string
		code      int
		lines     int    // lines on stdout
		errPrefix string // what stderr starts with
	}{
		// how many matches a search counts before it stops depends on the walk: the note's counts are search's own
		{"search cut", []string{"search", "greet", "--limit", "1", "--root", root}, ExitOK, 1, "(first 1 of "},
		{"find cut", []string{"find", "**/*.go", "--limit", "1", "--root", root}, ExitOK, 1, "(first 1 of 2 shown; --limit for more)\n"},
		{"find whole", []string{"find", "**/*.go", "--root", root}, ExitOK, 2, ""},
		{"diff without an id", []string{"diff", "--root", root}, ExitUsage, 0, "rooted diff: want one snapshot id\n"},
		{"restore with two ids", []string{"restore", "a", "b", "--root", root}, ExitUsage, 0, "rooted restore: want one snapshot id\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, "", c.args...)
			if code != c.code || strings.Count(out, "\n") != c.lines || !strings.HasPrefix(errOut, c.errPrefix) || (c.errPrefix == "" && errOut != "") {
				t.Errorf("exit %d, want %d; stdout %q; stderr %q, want it to start %q", code, c.code, out, errOut, c.errPrefix)
			}
			if strings.HasPrefix(c.errPrefix, "(") && !strings.HasSuffix(errOut, " shown; --limit for more)\n") {
				t.Errorf("the note: %q", errOut)
			}
			if c.code == ExitUsage && !strings.Contains(errOut, usage) {
				t.Errorf("no usage after the error: %q", errOut)
			}
		})
	}
}
