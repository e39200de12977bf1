package diagnostics

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, out, base string
		want            []string
	}{
		{"go vet with a compile error", "# example.com/calc\n# [example.com/calc]\nvet: ./calc.go:4:9: undefined: x\n", ".", []string{"calc.go:4: undefined: x"}},
		{"the go compiler through vet, in a module below the root", "# example.com/m/pkg\npkg/a.go:10:2: declared and not used: y\npkg/a.go:11:2: missing return\n", "svc", []string{"svc/pkg/a.go:10: declared and not used: y", "svc/pkg/a.go:11: missing return"}},
		{"tsc", "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error.\n", "web", []string{"web/src/app.ts:3: error TS2322: Type 'string' is not assignable to type 'number'."}},
		{"cargo's short format", "src/main.rs:2:5: error[E0425]: cannot find value `x` in this scope\nerror: could not compile `demo`\n", "crate", []string{"crate/src/main.rs:2: error[E0425]: cannot find value `x` in this scope"}},
		{"a dependency outside the project is not the edit's", "../../go/pkg/mod/x@v1/x.go:3:1: bad\n/usr/lib/go/src/fmt/print.go:1:1: bad\n", ".", nil},
		{"prose is not a problem", "ok  \texample.com/calc\t0.01s\nerror: could not compile\n", ".", nil},
	} {
		var got []string
		for _, p := range Parse(c.out, c.base) {
			got = append(got, p.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFilter(t *testing.T) {
	p := func(file string, line int, msg string) Problem { return Problem{File: file, Line: line, Message: msg} }
	before := []Problem{p("old.go", 3, "unused x"), p("other.go", 9, "old problem")}
	for _, c := range []struct {
		name     string
		problems []Problem
		changed  []string
		before   []Problem
		want     []string
	}{
		{"a problem in the changed file is the edit's", []Problem{p("calc.go", 4, "undefined: y")}, []string{"calc.go"}, nil, []string{"calc.go:4: undefined: y"}},
		{"without an earlier check, problems elsewhere are left out", []Problem{p("calc.go", 4, "a"), p("main.go", 7, "not enough arguments in call to Add")}, []string{"calc.go"}, nil, []string{"calc.go:4: a"}},
		{"a new problem elsewhere was caused by the edit", []Problem{p("main.go", 7, "not enough arguments in call to Add")}, []string{"calc.go"}, before, []string{"main.go:7: not enough arguments in call to Add"}},
		{"a problem elsewhere that was there before is not", []Problem{p("other.go", 12, "old problem"), p("old.go", 3, "unused x")}, []string{"calc.go"}, before, []string{}},
		{"a problem in a changed file is reported even when it was there before", []Problem{p("old.go", 5, "unused x")}, []string{"old.go"}, before, []string{"old.go:5: unused x"}},
		{"duplicates once", []Problem{p("calc.go", 4, "a"), p("calc.go", 4, "a")}, []string{"calc.go"}, nil, []string{"calc.go:4: a"}},
	} {
		var got []string
		for _, x := range Filter(c.problems, c.changed, c.before) {
			got = append(got, x.String())
		}
		if got == nil {
			got = []string{}
		}
		if c.want == nil {
			c.want = []string{}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDetect(t *testing.T) {
	files := map[string]bool{"go.mod": true, "svc/go.mod": true, "web/tsconfig.json": true, "web/node_modules/.bin/tsc": true, "lib/tsconfig.json": true, "crate/Cargo.toml": true}
	exists := func(p string) bool { return files[p] }
	show := func(cs []Check) string {
		var s []string
		for _, c := range cs {
			s = append(s, strings.Join(c.Argv, " ")+" @"+c.Base)
		}
		return strings.Join(s, "; ")
	}
	for _, c := range []struct {
		changed []string
		cwd     string
		want    string
	}{
		{[]string{"calc.go", "pkg/a/a.go", "pkg/a/b.go"}, ".", "go -C . vet . ./pkg/a @."},
		{[]string{"svc/x/y.go"}, ".", "go -C svc vet ./x @svc"},
		{[]string{"svc/x/y.go"}, "pkg/a", "go -C ../../svc vet ./x @svc"},
		{[]string{"web/src/app.tsx"}, ".", "npx --no tsc --noEmit --pretty false -p web @."},
		{[]string{"lib/x.ts"}, ".", ""}, // no TypeScript installed: nothing to run offline
		{[]string{"crate/src/main.rs"}, ".", "cargo check --quiet --message-format short --manifest-path crate/Cargo.toml @crate"},
		{[]string{"README.md", "notes.txt"}, ".", ""},
	} {
		if got := show(Detect(c.changed, c.cwd, exists)); got != c.want {
			t.Errorf("Detect(%v from %s) = %q, want %q", c.changed, c.cwd, got, c.want)
		}
	}
}
