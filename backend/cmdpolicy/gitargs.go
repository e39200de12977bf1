package cmdpolicy

import (
	"errors"
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitargv"
)

// git is on the default allowlist, and many of its options run another program: one the model names (rebase
// --exec, bisect run, submodule foreach, --upload-pack), a program git picks (difftool, send-email, instaweb, the
// manual viewer of --help), or git's own helpers from a folder the model names (--exec-path). The allowlist is a
// boundary only if those are refused like find -exec; gitRunsPrograms lists them. Options are matched as git's
// parser reads them: a long option by any prefix ("--up=x" is --upload-pack), a value attached or following, short
// options in clusters.

// gitRefused are subcommands whose purpose is to run other programs.
var gitRefused = map[string]string{
	"filter-branch": "git filter-branch runs the shell commands it is given",
	"send-email":    "git send-email runs a mail program",
	"instaweb":      "git instaweb runs a web server and a browser",
	"web--browse":   "git web--browse runs a browser",
	"difftool":      "git difftool runs an external diff program",
	"mergetool":     "git mergetool runs an external merge program",
	"help":          "git help runs a manual viewer (use -h for usage)",
	"daemon":        "git daemon serves repositories and runs hooks for clients",
}

// gitProgramOptions are the long options (and their short forms) of each subcommand whose value is a program.
var gitProgramOptions = map[string]struct {
	long  []string
	short string
}{
	"rebase":    {[]string{"exec"}, "x"},
	"clone":     {[]string{"upload-pack", "template", "config"}, "uc"},
	"fetch":     {[]string{"upload-pack", "exec"}, ""},
	"pull":      {[]string{"upload-pack"}, ""},
	"ls-remote": {[]string{"upload-pack", "exec"}, "u"},
	"archive":   {[]string{"exec"}, ""},
	"push":      {[]string{"receive-pack", "exec"}, ""},
	"grep":      {[]string{"open-files-in-pager"}, "O"},
	"init":      {[]string{"template"}, ""},
}

// gitStrategies are the merge strategies built into git; another name runs git-merge-NAME found on PATH.
var gitStrategies = []string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}

// gitRunsPrograms returns why git's arguments would run a program the allowlist does not name, or "". The
// command line is read by gitargv, as the permission rules read it: an option before the subcommand that git is
// not known to take is refused rather than skipped, so its value can never pass for the subcommand.
func gitRunsPrograms(argv []string) string {
	c, err := gitargv.Parse(argv)
	for _, g := range c.Globals {
		switch g.Name {
		case "-c", "--config-env":
			return "git " + g.Name + " sets configuration that can run programs (aliases with !, core.pager, core.sshCommand, core.fsmonitor, ...)"
		case "--exec-path":
			if g.Value != "" {
				return "git --exec-path=DIR runs git's helper programs from DIR"
			}
		}
	}
	switch {
	case errors.Is(err, gitargv.ErrNoSubcommand):
		return ""
	case err != nil:
		return err.Error() + ": refused, since Rooted cannot tell which subcommand it would run"
	case c.Sub == "--help":
		return "git --help runs a manual viewer (use -h for usage)"
	}
	return gitSubcommandRunsPrograms(c.Meaning, c.Args)
}

func gitSubcommandRunsPrograms(sub string, args []string) string {
	if why, ok := gitRefused[sub]; ok {
		return why
	}
	opts := gitargv.Options(args)
	if _, ok := gitargv.HasLong(args, "--help"); ok {
		return "git " + sub + " --help runs a manual viewer (use -h for usage)"
	}
	switch sub {
	case "config":
		return gitConfigRunsPrograms(args)
	case "bisect":
		if len(args) > 0 && args[0] == "run" {
			return "git bisect run runs the program it is given"
		}
	case "submodule":
		if slices.Contains(args, "foreach") {
			return "git submodule foreach runs the shell command it is given"
		}
	}
	if p, ok := gitProgramOptions[sub]; ok {
		for _, o := range opts {
			if name, isLong := strings.CutPrefix(o, "--"); isLong {
				name, _, _ = strings.Cut(name, "=")
				for _, l := range p.long {
					if name != "" && strings.HasPrefix(l, name) {
						return "git " + sub + " --" + l + " runs the program it names, or sets up what git runs later"
					}
				}
			} else if p.short != "" && strings.ContainsAny(strings.TrimPrefix(o, "-"), p.short) {
				return "git " + sub + " " + o + " runs the program it names, or sets up what git runs later"
			}
		}
	}
	switch sub {
	case "merge", "pull", "rebase", "cherry-pick", "revert":
		for j := 0; j < len(args) && args[j] != "--"; j++ {
			a, s := args[j], ""
			name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			switch {
			case gitargv.Abbrev(a, "--strategy") && len(name) >= 3: // "--s" could be --squash
				if hasVal {
					s = val
				} else if j+1 < len(args) {
					s, j = args[j+1], j+1
				}
			case strings.HasPrefix(a, "-s") && !strings.HasPrefix(a, "--"):
				if len(a) > 2 {
					s = a[2:]
				} else if j+1 < len(args) {
					s, j = args[j+1], j+1
				}
			}
			if s != "" && !slices.Contains(gitStrategies, s) {
				return "git " + sub + " with the merge strategy " + s + " runs git-merge-" + s + ", a program found on PATH"
			}
		}
	}
	return ""
}

// gitConfigValueOptions are git config's options that take a value (the value is not a key).
var gitConfigValueOptions = []string{"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "-t"}

// gitConfigRunsPrograms returns why git config would set a key that is not on the allow-list of what commands may
// change (gitargv.CommandMaySet), edit the file in an editor, or turn a section into one git runs; "" for
// reading, removing, and the keys on the list. -f/--file FILE does not hide
// the key: FILE is the option's value, not the key.
func gitConfigRunsPrograms(args []string) string {
	var pos []string
	reading := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--edit" || a == "edit":
			return "git config --edit runs an editor"
		case a == "--rename-section" || a == "rename-section":
			return "git config --rename-section can turn any section into one whose settings git runs"
		case a == "--unset" || a == "--unset-all" || a == "--remove-section" || a == "remove-section":
			return "" // removing a setting brings back git's default
		case a == "--get" || a == "--get-all" || a == "--list" || a == "-l" || a == "--get-regexp" || a == "--get-urlmatch" || a == "--get-color" || a == "--get-colorbool" || a == "get" || a == "list":
			reading = true
		case strings.HasPrefix(a, "-") && slices.Contains(gitConfigValueOptions, name) && !hasVal:
			i++ // the option's value
		case strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "--") && len(a) > 2:
			// -fFILE
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if reading {
		return ""
	}
	if len(pos) > 0 && (pos[0] == "set" || pos[0] == "unset") { // git config set KEY VALUE (git 2.46)
		if pos[0] == "unset" {
			return ""
		}
		pos = pos[1:]
	}
	if len(pos) < 2 && !(len(pos) == 1 && strings.Contains(pos[0], "=")) {
		return "" // git config KEY reads it
	}
	if key := pos[0]; !gitargv.CommandMaySet(key) {
		return "git config " + key + ": commands may set only keys known to be harmless (user.name, user.email, core.autocrlf, branch.NAME.*, remote.NAME.url and .fetch, pull.rebase, ...); this one can name a program or a hook git would run later, outside the sandbox, or is not one Rooted knows"
	}
	return ""
}
