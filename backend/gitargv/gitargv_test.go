package gitargv

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line, sub, meaning string
		args               []string
		err                error
	}{
		{"git status", "status", "status", nil, nil},
		{"git -C sub --no-pager log -1", "log", "log", []string{"-1"}, nil},
		{"git --attr-source HEAD rebase --exec x", "rebase", "rebase", []string{"--exec", "x"}, nil},
		{"git --attr-source=HEAD rebase", "rebase", "rebase", nil, nil},
		{"git --no-literal-pathspecs push", "push", "push", nil, nil},
		{"git --git-dir x --work-tree y status", "status", "status", nil, nil},
		{"git -c a.b=c status", "status", "status", nil, nil},
		{"git send-pack ../x main", "send-pack", "push", []string{"../x", "main"}, nil},
		{"git stage x", "stage", "add", []string{"x"}, nil},
		{"git --version", "--version", "version", nil, nil},
		{"git --help", "--help", "help", nil, nil},
		{"git --shallow-file x rebase", "", "", nil, ErrUnknownOption},
		{"git -cuser.name=x status", "", "", nil, ErrUnknownOption},
		{"git --git-dir", "", "", nil, ErrUnknownOption},
		{"git -C .", "", "", nil, ErrNoSubcommand},
		{"git", "", "", nil, ErrNoSubcommand},
	}
	for _, c := range cases {
		c0, err := Parse(strings.Fields(c.line))
		if !errors.Is(err, c.err) || err == nil && (c0.Sub != c.sub || c0.Meaning != c.meaning || !slices.Equal(c0.Args, c.args)) {
			t.Errorf("Parse(%q) = %+v, %v; want %s (%s) %q, %v", c.line, c0, err, c.sub, c.meaning, c.args, c.err)
		}
	}
}

func TestAbbrev(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		arg, full string
		want      bool
	}{
		{"--har", "--hard", true},
		{"--hard", "--hard", true},
		{"--h", "--hard", true},
		{"--amen", "--amend", true},
		{"--exe=x", "--exec", true},
		{"--", "--hard", false},
		{"--hardx", "--hard", false},
		{"-h", "--hard", false},
	} {
		if got := Abbrev(c.arg, c.full); got != c.want {
			t.Errorf("Abbrev(%q, %q) = %v", c.arg, c.full, got)
		}
	}
}

// FuzzParse: a parse that succeeds names a subcommand at Index that does not start with "-" unless git reads it as
// one (--help, --version), and every word before it is a global option or an option's value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"git --attr-source HEAD rebase --exec x", "git -C a -c b status", "git --no-pager", "git --exec-path=x log"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv := append([]string{"git"}, strings.Fields(line)...)
		c, err := Parse(argv)
		if err != nil {
			return
		}
		if argv[c.Index] != c.Sub || strings.HasPrefix(c.Sub, "-") && globalEnd[c.Sub] == "" {
			t.Fatalf("%q: subcommand %q at %d", argv, c.Sub, c.Index)
		}
		n := 1
		for _, g := range c.Globals {
			n++
			if g.Value != "" && !strings.Contains(argv[n-1], "=") {
				n++
			}
		}
		if n != c.Index && !slices.ContainsFunc(c.Globals, func(g Global) bool {
			return g.Value == "" && (slices.Contains(globalNextWord, g.Name) || slices.Contains(globalWithValue, g.Name))
		}) {
			t.Fatalf("%q: globals %+v do not account for the words before %d", argv, c.Globals, c.Index)
		}
	})
}

// Subcommands that publish through a subcommand of their own are read as the push they do, wherever git subtree
// takes its options.
func TestDoes(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		"git subtree push --prefix=lib origin main": "push --prefix=lib origin main",
		"git subtree -P lib push origin main":       "push origin main",
		"git lfs push origin main":                  "push origin main",
		"git svn dcommit":                           "push",
		"git p4 submit":                             "push",
		"git subtree split --prefix=lib --rejoin":   "",
		"git subtree add -- push":                   "",
		"git push subtree":                          "",
		"git lfs pull":                              "",
		"git annex sync --content":                  "push --content",
		"git review -R":                             "push -R",
		"git annex get x":                           "",
	} {
		c, err := Parse(strings.Fields(line))
		if err != nil {
			t.Fatal(err)
		}
		m, args, ok := Does(c)
		got := strings.TrimSpace(m + " " + strings.Join(args, " "))
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("Does(%q) = %q, want %q", line, got, want)
		}
	}
}
