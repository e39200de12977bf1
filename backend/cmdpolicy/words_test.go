package cmdpolicy

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"go test ./...", []string{"go", "test", "./..."}},
		{"  git   status  ", []string{"git", "status"}},
		{`git commit -m "fix: the \"quoted\" bug"`, []string{"git", "commit", "-m", `fix: the "quoted" bug`}},
		{`grep -r 'a|b; $HOME' src`, []string{"grep", "-r", "a|b; $HOME", "src"}},
		{`echo a\ b`, []string{"echo", "a b"}},
		{`grep 'foo$' x`, []string{"grep", "foo$", "x"}},
		{`grep "end$" x`, []string{"grep", "end$", "x"}},
		{`ls *.go`, []string{"ls", "*.go"}}, // globs are not expanded
		{`node -e 'console.log(1)'`, []string{"node", "-e", "console.log(1)"}},
		{`x ""`, []string{"x", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitRefusesShellSyntax(t *testing.T) {
	tests := []struct{ in, construct, hint string }{
		{"go test | grep FAIL", "|", "pipes"},
		{"make && make install", "&&", "one after the other"},
		{"a || b", "||", "one after the other"},
		{"cd x; ls", ";", "one after the other"},
		{"go test > out.txt", ">", "redirections"},
		{"sort < in", "<", "redirections"},
		{"sleep 10 &", "&", "background"},
		{"echo $(whoami)", "$(", "substitution"},
		{"echo `whoami`", "`", "substitution"},
		{"echo $HOME", "$HOME", "variables"},
		{`echo "$HOME/x"`, "$HOME", "variables"},
		{`echo "${PATH}"`, "${PATH}", "variables"},
		{"(cd x && ls)", "(", "subshells"},
	}
	for _, tt := range tests {
		_, err := Split(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrShellSyntax) || se.Construct != tt.construct || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("Split(%q) = %v; want %q with %q", tt.in, err, tt.construct, tt.hint)
		}
	}
	for _, in := range []string{`echo 'open`, `echo "open`} {
		if _, err := Split(in); err == nil || !strings.Contains(err.Error(), "unterminated") {
			t.Errorf("Split(%q) = %v", in, err)
		}
	}
}
