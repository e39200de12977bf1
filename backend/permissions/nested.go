package permissions

import (
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitargv"
)

// A git command can do another command's work through a subcommand of its own: git subtree push, git lfs push,
// git svn dcommit and git p4 submit publish as git push does (gitargv.Does), and git submodule foreach and git
// bisect run run any command they are given (git submodule foreach git push). A deny or ask rule is matched
// against what the command does as well as against how it is written (alsoReadings), so "deny git push" refuses
// all of these; Sensitive asks about them under a rule for git alone. (The argv check of backend/shell refuses
// submodule foreach and bisect run outright; the rules hold by themselves all the same.)

// maxNesting bounds how deep commands inside commands are read (git submodule foreach git submodule foreach ...).
const maxNesting = 4

// alsoReadings are the forms of what argv does through another command: the push a git subtree push does, and
// the command a git submodule foreach or git bisect run runs (each with its own readings, and theirs in turn).
func alsoReadings(argv []string, split Splitter) [][]string {
	return nestedReadings(argv, split, maxNesting)
}

func nestedReadings(argv []string, split Splitter, depth int) [][]string {
	if depth == 0 || len(argv) == 0 {
		return nil
	}
	if argv[0] != "git" {
		var out [][]string
		for _, inner := range runs(argv, split) {
			out = append(out, Readings(inner)...)
			out = append(out, nestedReadings(inner, split, depth-1)...)
		}
		return out
	}
	c, ok := gitCommand(argv)
	if !ok {
		return nil
	}
	if m, args, ok := gitargv.Does(c); ok {
		return [][]string{append([]string{"git", m}, args...)}
	}
	inner := runsCommand(c, split)
	if len(inner) == 0 {
		return nil
	}
	out := slices.Clone(Readings(inner))
	return append(out, nestedReadings(inner, split, depth-1)...)
}

// runsCommand is the command line a git subcommand runs as given (git submodule foreach CMD, git bisect run CMD),
// as words, or nil. git hands it to a shell; a line Split refuses is read by its blanks, which still shows a rule
// the program and subcommand at its start.
func runsCommand(c gitargv.Command, split Splitter) []string {
	var rest []string
	switch c.Meaning {
	case "submodule":
		i := slices.Index(c.Args, "foreach")
		if i < 0 {
			return nil
		}
		rest = c.Args[i+1:]
		for len(rest) > 0 && (rest[0] == "--recursive" || rest[0] == "-q" || rest[0] == "--quiet" || rest[0] == "--") {
			rest = rest[1:]
		}
	case "bisect":
		if len(c.Args) == 0 || c.Args[0] != "run" {
			return nil
		}
		rest = c.Args[1:]
	default:
		return nil
	}
	line := strings.Join(rest, " ")
	if words, err := split(line); err == nil {
		return words
	}
	return strings.Fields(line)
}

// runsThrough says how a git command does another command's work, or "".
func runsThrough(c gitargv.Command) string {
	if m, _, ok := gitargv.Does(c); ok && m == "push" {
		return "git " + c.Sub + " publishes commits to another repository, as git push does"
	}
	switch c.Meaning {
	case "submodule":
		if slices.Contains(c.Args, "foreach") {
			return "git submodule foreach runs the command it is given in each submodule"
		}
	case "bisect":
		if len(c.Args) > 0 && c.Args[0] == "run" {
			return "git bisect run runs the command it is given at each step"
		}
	}
	return ""
}
