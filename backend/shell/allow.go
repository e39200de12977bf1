package shell

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultAllowlist is what the agent may run unless the user changes it for a project.
var DefaultAllowlist = []string{"git", "cargo", "npm", "yarn", "pnpm", "node", "bun", "go", "ls", "find", "grep", "mkdir", "rm", "mv", "cp", "touch"}

// ErrNotAllowed says a program is not on the allowlist.
var ErrNotAllowed = errors.New("command not allowed")

// NotAllowedError names the program and the allowlist in force.
type NotAllowedError struct {
	Program   string
	Allowlist []string
}

func (e *NotAllowedError) Error() string {
	why := "it is not on this project's allowlist"
	if strings.ContainsAny(e.Program, `/\`) {
		why = "programs are named, not given by path, and must be on this project's allowlist"
	}
	return fmt.Sprintf("command not allowed: %s: %s (%s); the user can change the allowlist in Rooted's settings file (settings.json in the user's config directory)",
		e.Program, why, strings.Join(e.Allowlist, ", "))
}

func (e *NotAllowedError) Unwrap() error { return ErrNotAllowed }

// Allowed checks argv[0] against list: a bare program name on the list.
func Allowed(program string, list []string) error {
	if program == "" || strings.ContainsAny(program, `/\`) || !slices.Contains(list, program) {
		return &NotAllowedError{Program: program, Allowlist: list}
	}
	return nil
}

// fileCommands are the allowlisted programs whose arguments name files; those must resolve inside the root before
// the program runs. (The sandbox is the boundary for writes by any program; this also keeps reads and deletes by
// these commands inside.)
var fileCommands = map[string]bool{"rm": true, "mv": true, "cp": true, "mkdir": true, "touch": true, "ls": true, "find": true, "grep": true}

// PathArgs returns the arguments of argv that name files, for the file commands; nil for other programs.
func PathArgs(argv []string) []string {
	if len(argv) == 0 || !fileCommands[argv[0]] {
		return nil
	}
	args := argv[1:]
	switch argv[0] {
	case "find":
		// find PATH... EXPRESSION: the paths come first, before anything that starts an expression.
		var out []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" {
				break
			}
			out = append(out, a)
		}
		return out
	case "grep":
		return grepPaths(args)
	}
	var out []string
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && (a == "-t" || a == "--target-directory") && i+1 < len(args):
			out = append(out, args[i+1])
			i++
		case opts && strings.HasPrefix(a, "--target-directory="):
			out = append(out, strings.TrimPrefix(a, "--target-directory="))
		case opts && strings.HasPrefix(a, "-") && a != "-":
		default:
			out = append(out, a)
		}
	}
	return out
}

// grepPaths skips grep's options (and their values) and its pattern; what is left are files.
func grepPaths(args []string) []string {
	withValue := map[string]bool{"-e": true, "-f": true, "-m": true, "-A": true, "-B": true, "-C": true, "--regexp": true, "--file": true, "--max-count": true, "--include": true, "--exclude": true, "--exclude-dir": true}
	var out []string
	pattern := false // given with -e or -f
	opts := true
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && withValue[a] && i+1 < len(args):
			if a == "-e" || a == "--regexp" {
				pattern = true
			}
			if a == "-f" || a == "--file" {
				pattern = true
				out = append(out, args[i+1]) // a file of patterns is read too
			}
			i++
		case opts && (strings.HasPrefix(a, "--regexp=") || strings.HasPrefix(a, "-e") && len(a) > 2):
			pattern = true
		case opts && strings.HasPrefix(a, "--file="):
			pattern = true
			out = append(out, strings.TrimPrefix(a, "--file="))
		case opts && strings.HasPrefix(a, "-") && a != "-":
		default:
			rest = append(rest, a)
		}
	}
	if !pattern && len(rest) > 0 {
		rest = rest[1:]
	}
	return append(out, rest...)
}

// FollowsLinks returns the option by which a file command would follow symlinks while it recurses (and so could
// leave the project through a link inside it), or "".
func FollowsLinks(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	for _, a := range argv[1:] {
		switch argv[0] {
		case "grep":
			if a == "--dereference-recursive" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R")) {
				return a
			}
		case "find":
			if a == "-L" || a == "-follow" {
				return a
			}
		case "cp", "ls":
			if a == "-L" || a == "--dereference" {
				return a
			}
		}
		if a == "--" {
			break
		}
	}
	return ""
}
