package permissions

import (
	"path"
	"slices"
	"strings"
)

// Package runners run the program their arguments name: npx X, npm exec [--] X (npm x), pnpm exec X, pnpm dlx X
// (pnpx), yarn exec X, yarn dlx X, bun x X (bunx). What they run is read as a command of its own (runs), so a
// deny or ask rule for X covers it however it is started, and "allow npx" does not cover a program that destroys
// or publishes (git push, rm -r): the rule must name it (npx git push).

// runnerOptions are the options a runner takes before the program: flags, and options whose value is the next
// word. Any other option there may take the next word as its value, so each later word may be the program.
var runnerOptions = leading{
	flags: []string{
		"-y", "--yes", "--no", "-q", "--quiet", "--offline", "--prefer-offline", "--prefer-online", "-s",
		"--silent", "--ignore-scripts", "-ws", "--workspaces", "--include-workspace-root", "--if-present",
		"--shell-mode", "--silent", "-r", "--recursive", "--parallel", "--bun", "--no-install",
		"--quiet", "--verbose", "--json",
	},
	valued: []string{
		"-p", "--package", "--registry", "--cache", "--userconfig", "-w", "--workspace", "--prefix", "-C", "--dir",
		"-F", "--filter", "--cwd", "--reporter", "--loglevel",
	},
}

// runnerAt is where a runner's own options start in argv (after npx, after npm exec), or -1 when argv runs no
// program of its arguments.
func runnerAt(argv []string) int {
	switch path.Base(argv[0]) {
	case "npx", "bunx", "pnpx":
		return 1
	case "npm":
		for _, r := range optionReadings(argv, leadingOptions["npm"]) {
			if len(r) > 1 && r[1] == "exec" {
				// npm's options before exec are npm's; the runner's options follow exec.
				return slices.Index(argv, wordFor(argv, "exec")) + 1
			}
		}
	case "pnpm", "yarn":
		i := firstWord(argv)
		if i > 0 && (argv[i] == "exec" || argv[i] == "dlx") {
			return i + 1
		}
	case "bun":
		i := firstWord(argv)
		if i > 0 && argv[i] == "x" {
			return i + 1
		}
	}
	return -1
}

// wordFor is the word of argv that npm reads as command cmd (npm x, npm exe, npm exec).
func wordFor(argv []string, cmd string) string {
	for _, w := range argv[1:] {
		if !strings.HasPrefix(w, "-") && NpmCommand(w) == cmd {
			return w
		}
	}
	return ""
}

// firstWord is the index of argv's first word that is not an option (nor the value of a known one), or -1.
func firstWord(argv []string) int {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			if i+1 < len(argv) {
				return i + 1
			}
			return -1
		case slices.Contains(runnerOptions.valued, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// runs are the command lines a package runner may run (one per word that may be the program when an option
// before it may have taken a value; the shell line of npx -c / --call, split as a shell would), or nil.
func runs(argv []string, split Splitter) [][]string {
	at := runnerAt(argv)
	if at < 0 || at > len(argv) {
		return nil
	}
	var out [][]string
	uncertain := false
	for i := at; i < len(argv); i++ {
		a := argv[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--":
			if i+1 < len(argv) {
				out = append(out, argv[i+1:])
			}
			return out
		case name == "-c" || name == "--call":
			line := val
			if !hasVal && i+1 < len(argv) {
				i++
				line = argv[i]
			}
			words, err := split(line)
			if err != nil {
				words = strings.Fields(line)
			}
			if len(words) > 0 {
				out = append(out, words)
			}
		case hasVal && strings.HasPrefix(a, "-"), slices.Contains(runnerOptions.flags, a), strings.HasPrefix(a, "--no-"):
		case slices.Contains(runnerOptions.valued, a):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
			uncertain = true
		default:
			out = append(out, argv[i:])
			if !uncertain {
				return out
			}
		}
	}
	return out
}

// runsSensitive says how a program a runner runs destroys or publishes (npx git push), or "".
func runsSensitive(argv []string, split Splitter) string {
	for _, inner := range runs(argv, split) {
		if why := Sensitive(inner); why != "" {
			return path.Base(argv[0]) + " runs " + Join(inner) + ": " + why
		}
		if why := runsSensitive(inner, split); why != "" {
			return why
		}
	}
	return ""
}

// runsNamed says a rule's words name, through a package runner, a program and what it does (npx git push, npx
// rm -r), which a rule for the runner alone (npx, npm exec) does not.
func runsNamed(rule []string, split Splitter) bool {
	for _, inner := range runs(rule, split) {
		if len(inner) >= 2 && Sensitive(inner) != "" {
			return true
		}
	}
	return false
}
