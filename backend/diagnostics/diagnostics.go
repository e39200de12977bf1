// Package diagnostics finds the project's check for the files an edit changed (go vet for Go packages, tsc for
// TypeScript, cargo check for Rust), reads the problems it prints, and keeps those the edit is answerable for:
// every problem in a changed file, and a problem elsewhere only when the previous check of the project did not
// report it (a caller the edit broke).
//
// Not guaranteed: a problem elsewhere that the previous check also reported is left out even if the edit made it
// worse; a check that prints problems in a format not recognised here reports nothing.
package diagnostics

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Problem is one diagnostic, at a root-relative slash path.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message) }

// key identifies a problem across runs; the line is left out, since an edit above a problem moves it.
func (p Problem) key() string { return p.File + "\x00" + p.Message }

// Check is one command to run: Argv from the session's working directory, and Base, the root-relative folder the
// paths it prints are relative to.
type Check struct {
	Name string
	Argv []string
	Base string
}

// Exists says whether a root-relative slash path names a file.
type Exists func(rel string) bool

// Detect returns the checks for the changed root-relative slash paths, run from cwd (root-relative): one per
// Go module (go vet of the changed packages), TypeScript project (tsc --noEmit) or Cargo package (cargo check).
func Detect(changed []string, cwd string, exists Exists) []Check {
	var checks []Check
	seen := map[string]bool{}
	add := func(c Check) {
		k := strings.Join(c.Argv, "\x00")
		if !seen[k] {
			seen[k] = true
			checks = append(checks, c)
		}
	}
	goPkgs := map[string][]string{} // module dir -> package dirs relative to it
	var goMods []string
	for _, f := range changed {
		switch ext := path.Ext(f); ext {
		case ".go":
			mod, ok := upward(path.Dir(f), "go.mod", exists)
			if !ok {
				continue
			}
			if _, ok := goPkgs[mod]; !ok {
				goMods = append(goMods, mod)
			}
			pkg := "./" + rel(mod, path.Dir(f))
			if pkg == "./." {
				pkg = "."
			}
			if !slices.Contains(goPkgs[mod], pkg) {
				goPkgs[mod] = append(goPkgs[mod], pkg)
			}
		case ".ts", ".tsx", ".mts", ".cts":
			dir, ok := upward(path.Dir(f), "tsconfig.json", exists)
			if !ok || !exists(path.Join(dir, "node_modules/.bin/tsc")) && !exists("node_modules/.bin/tsc") {
				continue
			}
			// --no: never fetch TypeScript; the project's own is used, offline.
			add(Check{Name: "tsc", Argv: []string{"npx", "--no", "tsc", "--noEmit", "--pretty", "false", "-p", fromCwd(cwd, dir)}, Base: cwd})
		case ".rs":
			dir, ok := upward(path.Dir(f), "Cargo.toml", exists)
			if !ok {
				continue
			}
			add(Check{Name: "cargo check", Argv: []string{"cargo", "check", "--quiet", "--message-format", "short", "--manifest-path", fromCwd(cwd, path.Join(dir, "Cargo.toml"))}, Base: dir})
		}
	}
	for _, mod := range goMods {
		pkgs := goPkgs[mod]
		slices.Sort(pkgs)
		add(Check{Name: "go vet", Argv: append([]string{"go", "-C", fromCwd(cwd, mod), "vet"}, pkgs...), Base: mod})
	}
	return checks
}

// upward finds the nearest folder from dir up to the root that holds name.
func upward(dir, name string, exists Exists) (string, bool) {
	for {
		if exists(path.Join(dir, name)) {
			return dir, true
		}
		if dir == "." || dir == "/" || dir == "" {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// rel is target relative to base, both root-relative slash paths, base an ancestor of target (or the same).
func rel(base, target string) string {
	if base == "." {
		return target
	}
	if target == base {
		return "."
	}
	return strings.TrimPrefix(target, base+"/")
}

// fromCwd is the root-relative path p as seen from cwd.
func fromCwd(cwd, p string) string {
	if cwd == "" {
		cwd = "."
	}
	up := 0
	for cwd != "." && p != cwd && !strings.HasPrefix(p+"/", cwd+"/") {
		cwd = path.Dir(cwd)
		up++
	}
	out := strings.Repeat("../", up) + rel(cwd, p)
	if out == "" {
		return "."
	}
	return path.Clean(out)
}

// lineFormats are the ways checks print a problem: "file:line:col: message" (go vet, the Go compiler, cargo's
// short format) and "file(line,col): message" (tsc).
var lineFormats = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:vet: )?([^\s:()]+\.[A-Za-z0-9]+):(\d+)(?::(\d+))?: (.+)$`),
		regexp.MustCompile(`^([^\s()]+\.[A-Za-z0-9]+)\((\d+),(\d+)\): (.+)$`),
	}
})

// Parse reads the problems a check printed; paths are made root-relative from base.
func Parse(out, base string) []Problem {
	var ps []Problem
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, re := range lineFormats() {
			m := re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			f := path.Clean(path.Join(base, m[1]))
			if strings.HasPrefix(f, "../") || path.IsAbs(m[1]) {
				break // outside the project: a dependency's problem, not the edit's
			}
			ps = append(ps, Problem{File: f, Line: n, Col: c, Message: strings.TrimSpace(m[4])})
			break
		}
	}
	return ps
}

// Filter keeps the problems the edit of changed is answerable for: those in a changed file, and those elsewhere
// that before (the previous check's problems) did not have.
func Filter(problems []Problem, changed []string, before []Problem) []Problem {
	old := map[string]bool{}
	for _, p := range before {
		old[p.key()] = true
	}
	out := []Problem{}
	seen := map[string]bool{}
	for _, p := range problems {
		k := p.String()
		if seen[k] {
			continue
		}
		if slices.Contains(changed, p.File) || before != nil && !old[p.key()] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}
