package cmdpolicy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultAllowlist is what the agent may run unless the user changes it for a project.
var DefaultAllowlist = []string{"git", "cargo", "npm", "npx", "yarn", "pnpm", "node", "bun", "go", "make", "python3", "ls", "find", "grep", "mkdir", "rm", "mv", "cp", "touch"}

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

// PathArgs returns the arguments of argv that name files, for the file commands; nil for other programs. Options
// are parsed as the programs parse them: clustered short options ("-ie." is -i -e "."), values attached or
// following ("-t DIR", "-tDIR", "--target-directory=DIR" and its prefixes "--target=DIR"), find's leading -H -L -P
// -D -O options before its paths.
func PathArgs(argv []string) []string {
	if len(argv) == 0 || !fileCommands[argv[0]] {
		return nil
	}
	args := argv[1:]
	switch argv[0] {
	case "find":
		written, _ := findActions(args)
		return append(findPaths(args), written...)
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
		case opts && strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if len(name) >= 2 && strings.HasPrefix("target-directory", name) {
				if hasVal {
					out = append(out, val)
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
			}
		case opts && strings.HasPrefix(a, "-") && a != "-":
			// A cluster of short options; for cp and mv, t takes the rest of the cluster or the next argument.
			if argv[0] == "cp" || argv[0] == "mv" {
				if j := strings.IndexByte(a, 't'); j > 0 {
					if j+1 < len(a) {
						out = append(out, a[j+1:])
					} else if i+1 < len(args) {
						out = append(out, args[i+1])
						i++
					}
				}
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// findPaths returns find's starting points: after the options -H, -L, -P, -D LIST, -Olevel, before the expression.
func findPaths(args []string) []string {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O"):
			i++
		case a == "-D" && i+1 < len(args):
			i += 2
		default:
			goto paths
		}
	}
paths:
	var out []string
	for _, a := range args[i:] {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" {
			break
		}
		out = append(out, a)
	}
	return out
}

// findActions returns the files find's expression writes (-fprint FILE, -fprint0 FILE, -fprintf FILE FORMAT,
// -fls FILE) and whether it deletes what it finds (-delete).
func findActions(args []string) (written []string, deletes bool) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				written = append(written, args[i+1])
				i++
			}
		case "-delete":
			deletes = true
		}
	}
	return written, deletes
}

// ChangedPaths returns the arguments of argv that name files the command removes, moves or overwrites: every
// file argument of rm, mv, cp, touch and mkdir; for find, the files its expression writes and, with -delete, its
// starting points ("." when it names none). A path that holds a repository's history may not be among them.
func ChangedPaths(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	if ChangesFiles[argv[0]] {
		return PathArgs(argv)
	}
	if argv[0] != "find" {
		return nil
	}
	written, deletes := findActions(argv[1:])
	if deletes {
		starts := findPaths(argv[1:])
		if len(starts) == 0 {
			starts = []string{"."}
		}
		written = append(written, starts...)
	}
	return written
}

// grepPaths skips grep's options (and their values) and its pattern; what is left are files. Short options
// cluster ("-rie PATTERN", "-ie."); e, f, m, A, B, C and d, D take a value, attached or next.
func grepPaths(args []string) []string {
	longWithValue := map[string]bool{"regexp": true, "file": true, "max-count": true, "include": true, "exclude": true, "exclude-dir": true, "exclude-from": true, "after-context": true, "before-context": true, "context": true, "directories": true, "devices": true, "label": true, "binary-files": true, "color": false, "colour": false}
	const shortWithValue = "efmABCdD"
	var out []string
	pattern := false // given with -e or -f
	opts := true
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full := ""
			for long := range longWithValue {
				if strings.HasPrefix(long, name) && len(name) >= 3 || long == name {
					full = long
				}
			}
			if !longWithValue[full] {
				continue
			}
			if !hasVal && i+1 < len(args) {
				val = args[i+1]
				i++
			}
			switch full {
			case "regexp":
				pattern = true
			case "file", "exclude-from":
				pattern = pattern || full == "file"
				out = append(out, val) // a file of patterns (or of exclusions) is read too
			}
		case opts && strings.HasPrefix(a, "-") && a != "-":
			for j := 1; j < len(a); j++ {
				c := a[j]
				if !strings.ContainsRune(shortWithValue, rune(c)) {
					continue
				}
				val := a[j+1:]
				if val == "" && i+1 < len(args) {
					val = args[i+1]
					i++
				}
				switch c {
				case 'e':
					pattern = true
				case 'f':
					pattern = true
					out = append(out, val)
				}
				break
			}
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
// leave the project through a link inside it), or "". Short options are read in clusters ("-rL", "-lR").
func FollowsLinks(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		long := strings.HasPrefix(a, "--")
		short := !long && strings.HasPrefix(a, "-") && len(a) > 1
		switch argv[0] {
		case "grep":
			if long && len(a) > 3 && strings.HasPrefix("--dereference-recursive", a) || short && strings.Contains(a, "R") {
				return a
			}
		case "find":
			if a == "-L" || a == "-follow" {
				return a
			}
		case "cp", "ls":
			if long && len(a) > 4 && strings.HasPrefix("--dereference", a) || short && strings.Contains(a, "L") {
				return a
			}
		}
	}
	return ""
}

// RunsPrograms returns why argv would make an allowlisted program run another program the allowlist does not
// name, or "": find's -exec, -execdir, -ok and -okdir; git's -c and --config-env (an alias "!cmd", core.pager,
// core.sshCommand, core.fsmonitor and the like run commands), and git config setting a key that names a program or
// a hook.
func RunsPrograms(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	switch argv[0] {
	case "find":
		for _, a := range argv[1:] {
			switch a {
			case "-exec", "-execdir", "-ok", "-okdir":
				return "find " + a + " runs other programs"
			}
		}
	case "git":
		return gitRunsPrograms(argv)
	}
	return ""
}

// ChangesFiles are the allowlisted programs that remove, move or overwrite what their arguments name (see
// ChangedPaths for find).
var ChangesFiles = map[string]bool{"rm": true, "mv": true, "cp": true, "touch": true, "mkdir": true}
