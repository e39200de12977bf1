package permissions

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// interpreters are programs that run whatever program they are handed, mapped to the short option letters and long
// options that hand it the code in the command's own words (node -e, python3 -c, bash -c). A rule or a session
// grant naming only such a program would allow any code at all, so neither is offered for it: a rule may name a
// script (node scripts/build.js), never the interpreter alone.
var interpreters = map[string]struct {
	letters string
	long    []string
}{
	"node":      {"ep", []string{"--eval", "--print"}},
	"nodejs":    {"ep", []string{"--eval", "--print"}},
	"bun":       {"ep", []string{"--eval", "--print"}},
	"deno":      {"", nil}, // deno eval, deno repl: see InlineCode
	"python":    {"c", nil},
	"pypy":      {"c", nil},
	"pypy3":     {"c", nil},
	"bash":      {"c", nil},
	"sh":        {"c", nil},
	"dash":      {"c", nil},
	"zsh":       {"c", nil},
	"ksh":       {"c", nil},
	"mksh":      {"c", nil},
	"ash":       {"c", nil},
	"fish":      {"c", []string{"--command"}},
	"perl":      {"eE", nil},
	"ruby":      {"e", nil},
	"php":       {"r", nil},
	"lua":       {"e", nil},
	"luajit":    {"e", nil},
	"Rscript":   {"e", nil},
	"osascript": {"e", nil},
	"pwsh":      {"c", []string{"-Command", "-command", "--command"}},
	"tclsh":     {"", nil},
	"awk":       {"", nil}, // the program is the first operand unless -f names a file
	"gawk":      {"", nil},
	"mawk":      {"", nil},
}

// runners are programs that run another program named in their arguments: a grant for them is a grant for every
// program.
var runners = []string{
	"env", "xargs", "timeout", "nice", "nohup", "stdbuf", "time", "command", "exec", "sudo", "doas", "su", "flock",
	"setsid", "watch", "strace", "ltrace", "unshare", "chroot", "ionice", "taskset", "chrt", "nsenter", "script",
}

// findRuns says find runs a program or deletes (-exec, -execdir, -ok, -okdir, -delete): a grant for find does not
// cover it.
func findRuns(argv []string) string {
	if len(argv) == 0 || path.Base(argv[0]) != "find" {
		return ""
	}
	for _, a := range argv[1:] {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			return "find " + a + " runs another program"
		case "-delete":
			return "find -delete deletes files"
		}
	}
	return ""
}

var pythonVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^python[0-9.]*$`) })

// interpreter returns argv's program as the interpreters table names it ("python3.12" is "python"), "" when it is
// not an interpreter.
func interpreter(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	prog := path.Base(argv[0])
	if pythonVersion().MatchString(prog) {
		return "python"
	}
	if _, ok := interpreters[prog]; ok {
		return prog
	}
	return ""
}

// InlineCode says how argv hands an interpreter code written into the command itself (node -e, python3 -c,
// bash -c, perl -e, deno eval, an awk program), or from its standard input; "" when it runs a script file or is
// not an interpreter. Such a command is sensitive: a grant or a rule for the interpreter does not cover it.
func InlineCode(argv []string) string {
	prog := interpreter(argv)
	if prog == "" {
		return ""
	}
	why := path.Base(argv[0]) + " runs the code written into the command"
	switch prog {
	case "deno":
		if len(argv) > 1 && (argv[1] == "eval" || argv[1] == "repl") {
			return why
		}
		return ""
	case "awk", "gawk", "mawk":
		if slices.ContainsFunc(argv[1:], func(a string) bool { return a == "-f" || strings.HasPrefix(a, "--file") }) {
			return ""
		}
		return why
	}
	if len(argv) == 1 || argv[1] == "-" {
		return path.Base(argv[0]) + " runs the code it reads from its input"
	}
	if !strings.HasPrefix(argv[1], "-") || prog == "python" && argv[1] == "-m" {
		return "" // a script (or a module) right after the interpreter: what follows is its arguments
	}
	// Options first: an option that takes code anywhere counts (Rooted does not know which options take a
	// value, so it cannot tell where the interpreter's own options end).
	t := interpreters[prog]
	for _, a := range argv[1:] {
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(t.long, name) {
			return why
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && t.letters != "" && strings.ContainsAny(a[1:], t.letters) {
			return why
		}
	}
	return ""
}

// ProgramGrant is the program "allow for this session" may cover for argv: its first word, or "" when a grant of
// the whole program would let it run any code (an interpreter, a program that runs others).
func ProgramGrant(argv []string) string {
	if len(argv) == 0 || interpreter(argv) != "" || slices.Contains(runners, path.Base(argv[0])) {
		return ""
	}
	return argv[0]
}

// suggestInterpreter is Suggest for an interpreter: the interpreter and the script it runs (node scripts/x.js,
// python3 -m pytest, deno run main.ts), never the interpreter alone; "" when it runs code written into the
// command or a script after options Rooted does not read.
func suggestInterpreter(argv []string) string {
	if InlineCode(argv) != "" {
		return ""
	}
	switch prog := interpreter(argv); {
	case prog == "deno":
		if len(argv) < 2 || strings.HasPrefix(argv[1], "-") {
			return ""
		}
		if argv[1] != "run" {
			return Join(argv[:2]) // deno test, deno fmt
		}
		if len(argv) > 2 && !strings.HasPrefix(argv[2], "-") {
			return Join(argv[:3])
		}
		return ""
	case prog == "python" && len(argv) > 2 && argv[1] == "-m":
		return Join(argv[:3])
	}
	if len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		return Join(argv[:2])
	}
	return ""
}
