package permissions

import (
	"slices"
	"strings"
)

// Options are matched by meaning too: for the commands rules commonly name (git's push, branch, clean, checkout,
// switch, reset, commit, rebase, tag, stash and restore, rm, npm) every option is brought to one name before
// matching, in the rule and in the command alike, so a rule written with either spelling covers both:
//
//   - a short option becomes its long name, a cluster one word per option (git push -uf is git push
//     --set-upstream --force); a letter that stands for two options becomes both (git branch -D is --delete
//     --force);
//   - a long option abbreviated to a unique prefix of a name in the table becomes the name (--forc is --force): a
//     prefix git reads differently is one git refuses as ambiguous;
//   - what an option or an argument also means is added (implied): git push --force-with-lease, --mirror and a
//     +refspec force; a :refspec and --prune delete; git switch --force is --discard-changes.
//
// A short option the table does not know makes the form unknown (optionForm.unknown): the command then asks
// whatever allow rules say, since Rooted cannot tell what it means.

// valueKind says how an option takes its value.
type valueKind int

const (
	noValue  valueKind = iota
	needed             // the rest of the cluster, or the next word (git commit -m MSG, -mMSG)
	attached           // only the rest of the cluster (git commit -uno, git tag -n5)
)

// shortOpt is what one letter stands for: its long names (or the letter itself when it has none) and its value.
type shortOpt struct {
	names []string
	value valueKind
}

// optTable is one command's options.
type optTable struct {
	short map[byte]shortOpt
	// long are the long options, each with how it takes a value (needed: "=" or the next word).
	long map[string]valueKind
	// implies are the options an option also means.
	implies map[string][]string
	// arg are the options a positional word also means (git push +main forces).
	arg func(word string) []string
	// replace says an option with implications is replaced by them where it stands (rm --force is rm -f).
	replace bool
}

func s(names ...string) shortOpt { return shortOpt{names: names} }
func sv(name string) shortOpt    { return shortOpt{names: []string{name}, value: needed} }
func sa(name string) shortOpt    { return shortOpt{names: []string{name}, value: attached} }

// flags builds a long-option map of options that take no value, plus the valued ones.
func flags(valued []string, names ...string) map[string]valueKind {
	m := map[string]valueKind{}
	for _, n := range names {
		m[n] = noValue
	}
	for _, n := range valued {
		m[n] = needed
	}
	return m
}

// gitOptions are the options of git's porcelain commands that rules commonly name (git's Documentation/git-*.txt).
var gitOptions = map[string]optTable{
	"push": {
		short: map[byte]shortOpt{
			'v': s("--verbose"), 'q': s("--quiet"), 'd': s("--delete"), 'n': s("--dry-run"), 'f': s("--force"),
			'u': s("--set-upstream"), 'o': sv("--push-option"), '4': s("--ipv4"), '6': s("--ipv6"), 'h': s("--help"),
		},
		long: flags([]string{"--repo", "--push-option", "--receive-pack", "--exec", "--recurse-submodules"},
			"--verbose", "--quiet", "--all", "--branches", "--mirror", "--delete", "--tags", "--dry-run", "--porcelain",
			"--force", "--force-with-lease", "--force-if-includes", "--thin", "--no-thin", "--set-upstream",
			"--progress", "--no-progress", "--prune", "--no-verify", "--verify", "--follow-tags", "--no-follow-tags",
			"--signed", "--no-signed", "--atomic", "--no-atomic", "--ipv4", "--ipv6", "--help",
			"--no-force-with-lease", "--no-recurse-submodules"),
		implies: map[string][]string{
			"--force-with-lease": {"--force"}, "--mirror": {"--force", "--delete"}, "--prune": {"--delete"},
		},
		arg: func(w string) []string {
			switch {
			case strings.HasPrefix(w, "+"):
				return []string{"--force"} // a refspec forced: git push origin +main
			case strings.HasPrefix(w, ":"):
				return []string{"--delete"} // nothing pushed to it: git push origin :main deletes main
			}
			return nil
		},
	},
	"branch": {
		short: map[byte]shortOpt{
			'd': s("--delete"), 'D': s("--delete", "--force"), 'f': s("--force"), 'm': s("--move"),
			'M': s("--move", "--force"), 'c': s("--copy"), 'C': s("--copy", "--force"), 'i': s("--ignore-case"),
			'r': s("--remotes"), 'a': s("--all"), 'l': s("--list"), 'v': s("--verbose"), 'q': s("--quiet"),
			't': s("--track"), 'u': sv("--set-upstream-to"), 'h': s("--help"),
		},
		long: flags([]string{"--set-upstream-to", "--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--points-at", "--format"},
			"--delete", "--create-reflog", "--force", "--move", "--copy", "--color", "--no-color", "--ignore-case",
			"--omit-empty", "--column", "--no-column", "--remotes", "--all", "--list", "--show-current", "--verbose",
			"--quiet", "--abbrev", "--no-abbrev", "--track", "--no-track", "--recurse-submodules", "--unset-upstream",
			"--edit-description", "--help"),
	},
	"clean": {
		short: map[byte]shortOpt{
			'd': s("-d"), 'f': s("--force"), 'i': s("--interactive"), 'n': s("--dry-run"), 'q': s("--quiet"),
			'e': sv("--exclude"), 'x': s("-x"), 'X': s("-X"), 'h': s("--help"),
		},
		long: flags([]string{"--exclude"}, "--force", "--interactive", "--dry-run", "--quiet", "--help"),
	},
	"checkout": {
		short: map[byte]shortOpt{
			'q': s("--quiet"), 'f': s("--force"), 'b': sv("-b"), 'B': sv("-B"), 't': s("--track"), 'l': s("-l"),
			'd': s("--detach"), 'm': s("--merge"), 'p': s("--patch"), 'h': s("--help"),
		},
		long: flags([]string{"--orphan", "--conflict", "--pathspec-from-file"},
			"--quiet", "--progress", "--no-progress", "--force", "--ours", "--theirs", "--track", "--no-track",
			"--guess", "--no-guess", "--detach", "--ignore-skip-worktree-bits", "--merge", "--patch",
			"--ignore-other-worktrees", "--overwrite-ignore", "--no-overwrite-ignore", "--recurse-submodules",
			"--no-recurse-submodules", "--overlay", "--no-overlay", "--pathspec-file-nul", "--help"),
	},
	"switch": {
		short: map[byte]shortOpt{
			'c': sv("--create"), 'C': sv("--force-create"), 'd': s("--detach"), 'f': s("--force"), 'm': s("--merge"),
			'q': s("--quiet"), 't': s("--track"), 'h': s("--help"),
		},
		long: flags([]string{"--create", "--force-create", "--orphan", "--conflict"},
			"--detach", "--guess", "--no-guess", "--force", "--discard-changes", "--merge", "--quiet", "--progress",
			"--no-progress", "--track", "--no-track", "--ignore-other-worktrees", "--recurse-submodules",
			"--no-recurse-submodules", "--help"),
		implies: map[string][]string{
			"--force": {"--discard-changes"}, "--discard-changes": {"--force"}, "--force-create": {"--force"},
		},
	},
	"reset": {
		short: map[byte]shortOpt{'q': s("--quiet"), 'p': s("--patch"), 'N': s("--intent-to-add"), 'h': s("--help")},
		long: flags([]string{"--pathspec-from-file"}, "--quiet", "--soft", "--mixed", "--hard", "--merge", "--keep",
			"--recurse-submodules", "--no-recurse-submodules", "--patch", "--intent-to-add", "--pathspec-file-nul",
			"--no-refresh", "--refresh", "--help"),
	},
	"commit": {
		short: map[byte]shortOpt{
			'a': s("--all"), 'p': s("--patch"), 'C': sv("--reuse-message"), 'c': sv("--reedit-message"),
			'z': s("--null"), 'F': sv("--file"), 'm': sv("--message"), 't': sv("--template"), 's': s("--signoff"),
			'n': s("--no-verify"), 'e': s("--edit"), 'i': s("--include"), 'o': s("--only"),
			'u': sa("--untracked-files"), 'v': s("--verbose"), 'q': s("--quiet"), 'S': sa("--gpg-sign"),
			'h': s("--help"),
		},
		long: flags([]string{"--reuse-message", "--reedit-message", "--fixup", "--squash", "--file", "--author", "--date", "--message", "--template", "--trailer", "--cleanup", "--pathspec-from-file"},
			"--all", "--patch", "--reset-author", "--short", "--branch", "--porcelain", "--long", "--null", "--signoff",
			"--no-signoff", "--no-verify", "--verify", "--allow-empty", "--allow-empty-message", "--edit", "--no-edit",
			"--amend", "--no-post-rewrite", "--include", "--only", "--pathspec-file-nul", "--untracked-files",
			"--verbose", "--quiet", "--dry-run", "--status", "--no-status", "--gpg-sign", "--no-gpg-sign", "--help"),
	},
	"rebase": {
		short: map[byte]shortOpt{
			'i': s("--interactive"), 'm': s("--merge"), 's': sv("--strategy"), 'X': sv("--strategy-option"),
			'S': sa("--gpg-sign"), 'q': s("--quiet"), 'v': s("--verbose"), 'n': s("--no-stat"), 'C': sa("-C"),
			'f': s("--force-rebase"), 'r': s("--rebase-merges"), 'x': sv("--exec"), 'k': s("--keep-empty"),
			'h': s("--help"),
		},
		long: flags([]string{"--onto", "--strategy", "--strategy-option", "--exec", "--whitespace", "--empty"},
			"--interactive", "--keep-base", "--continue", "--abort", "--quit", "--skip", "--edit-todo",
			"--show-current-patch", "--merge", "--gpg-sign", "--no-gpg-sign", "--quiet", "--verbose", "--stat",
			"--no-stat", "--no-verify", "--verify", "--force-rebase", "--no-ff", "--fork-point", "--no-fork-point",
			"--ignore-whitespace", "--committer-date-is-author-date", "--ignore-date", "--reset-author-date",
			"--signoff", "--rebase-merges", "--no-rebase-merges", "--root", "--autosquash", "--no-autosquash",
			"--autostash", "--no-autostash", "--reschedule-failed-exec", "--no-reschedule-failed-exec",
			"--update-refs", "--no-update-refs", "--apply", "--keep-empty", "--no-keep-empty",
			"--allow-empty-message", "--help"),
		implies: map[string][]string{"--no-ff": {"--force-rebase"}, "--force-rebase": {"--no-ff"}},
	},
	"tag": {
		short: map[byte]shortOpt{
			'a': s("--annotate"), 's': s("--sign"), 'u': sv("--local-user"), 'f': s("--force"), 'd': s("--delete"),
			'v': s("--verify"), 'n': sa("-n"), 'l': s("--list"), 'i': s("--ignore-case"), 'm': sv("--message"),
			'F': sv("--file"), 'e': s("--edit"), 'h': s("--help"),
		},
		long: flags([]string{"--local-user", "--sort", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--message", "--file", "--trailer", "--cleanup", "--format"},
			"--annotate", "--sign", "--no-sign", "--force", "--delete", "--verify", "--list", "--color", "--no-color",
			"--ignore-case", "--omit-empty", "--column", "--no-column", "--edit", "--no-edit", "--create-reflog",
			"--help"),
	},
	"stash": {
		short: map[byte]shortOpt{
			'p': s("--patch"), 'S': s("--staged"), 'k': s("--keep-index"), 'u': s("--include-untracked"),
			'a': s("--all"), 'q': s("--quiet"), 'm': sv("--message"), 'h': s("--help"),
		},
		long: flags([]string{"--message", "--pathspec-from-file"}, "--patch", "--staged", "--keep-index",
			"--no-keep-index", "--include-untracked", "--no-include-untracked", "--only-untracked", "--all",
			"--quiet", "--index", "--pathspec-file-nul", "--stat", "--help"),
	},
	"restore": {
		short: map[byte]shortOpt{
			's': sv("--source"), 'p': s("--patch"), 'W': s("--worktree"), 'S': s("--staged"), 'q': s("--quiet"),
			'm': s("--merge"), 'h': s("--help"),
		},
		long: flags([]string{"--source", "--conflict", "--pathspec-from-file"}, "--patch", "--worktree", "--staged",
			"--quiet", "--progress", "--no-progress", "--ours", "--theirs", "--merge", "--ignore-unmerged",
			"--ignore-skip-worktree-bits", "--recurse-submodules", "--no-recurse-submodules", "--overlay",
			"--no-overlay", "--pathspec-file-nul", "--help"),
	},
}

// rmOptions are GNU rm's; its canonical names are the short ones (rules say rm -r), --recursive is -r.
var rmOptions = optTable{
	short: map[byte]shortOpt{
		'f': s("-f"), 'i': s("-i"), 'I': s("-I"), 'r': s("-r"), 'R': s("-r"), 'd': s("-d"), 'v': s("-v"),
	},
	long: flags([]string{"--interactive"}, "--force", "--one-file-system", "--no-preserve-root", "--preserve-root",
		"--recursive", "--dir", "--verbose", "--help", "--version"),
	implies: map[string][]string{"--force": {"-f"}, "--recursive": {"-r"}, "--dir": {"-d"}, "--verbose": {"-v"}},
	replace: true,
}

// npmOptions are npm's short forms (its config definitions' "short" and shorthands) and the options whose value is
// the next word; npm's long options are its whole configuration, so an unknown long one is not an unknown form.
var npmOptions = optTable{
	short: map[byte]shortOpt{
		'a': s("--all"), 'c': sv("--call"), 'C': sv("--prefix"), 'D': s("--save-dev"), 'E': s("--save-exact"),
		'f': s("--force"), 'g': s("--global"), 'l': s("--long"), 'O': s("--save-optional"), 'p': s("--parseable"),
		'P': s("--save-prod"), 'S': s("--save"), 'B': s("--save-bundle"), 'w': sv("--workspace"), 'y': s("--yes"),
		'v': s("--version"), 'h': s("--usage"), 'H': s("--usage"), 's': s("--silent"), 'q': s("--quiet"),
		'd': s("--loglevel=info"), '?': s("--usage"),
	},
	long: flags([]string{"--call", "--prefix", "--workspace", "--registry", "--tag", "--otp", "--access", "--userconfig", "--globalconfig", "--cache", "--script-shell", "--loglevel", "--node-options"},
		"--all", "--save-dev", "--save-exact", "--force", "--global", "--long", "--save-optional", "--parseable",
		"--save-prod", "--save", "--save-bundle", "--workspaces", "--yes", "--version", "--usage", "--silent",
		"--quiet", "--dry-run", "--json", "--ignore-scripts", "--include-workspace-root", "--if-present"),
}

// npmShorthands are npm's multi-letter single-dash words, read whole before letter by letter.
var npmShorthands = map[string][]string{
	"-ws": {"--workspaces"}, "-dd": {"--loglevel=verbose"}, "-ddd": {"--loglevel=silly"}, "-iwr": {"--include-workspace-root"},
	"-reg": {"--registry"}, "-desc": {"--description"},
}

// optionForm is a command's words with its options canonical, and the first option whose meaning the table does
// not know ("" when none).
type optionForm struct {
	words   []string
	unknown string
}

// canonicalOptions rewrites args (the words after a command) with t: options by their one name, what they imply
// added before "--" (or at the end).
func canonicalOptions(args []string, t optTable, shorthands map[string][]string) optionForm {
	var out, implied []string
	var f optionForm
	imply := func(names ...string) {
		for _, n := range names {
			implied = append(implied, t.implies[n]...)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "--end-of-options":
			out = append(out, implied...)
			implied = nil
			f.words = append(out, args[i:]...)
			return f
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a, "=")
			full := longName(name, t.long)
			kind, known := t.long[full]
			w := full
			if hasVal {
				w += "=" + val
			}
			if rep, ok := t.implies[full]; ok && t.replace {
				out = append(out, rep...)
			} else {
				out = append(out, w)
				imply(full)
			}
			if known && kind == needed && !hasVal && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		case len(a) > 1 && a[0] == '-' && strings.Contains(a[1:], "-"):
			out = append(out, a) // not a cluster of letters: the program refuses it
			if f.unknown == "" {
				f.unknown = a
			}
		case len(a) > 1 && a[0] == '-':
			if sh, ok := shorthands[a]; ok {
				out = append(out, sh...)
				imply(sh...)
				if sh[0] == "--registry" && i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
				continue
			}
		cluster:
			for j := 1; j < len(a); j++ {
				o, ok := t.short[a[j]]
				if !ok {
					if f.unknown == "" {
						f.unknown = a
					}
					out = append(out, "-"+a[j:j+1])
					continue
				}
				out = append(out, o.names...)
				imply(o.names...)
				if o.value == noValue {
					continue
				}
				// The rest of the cluster is the value; for a needed value with none left, the next word.
				last := len(out) - 1
				switch {
				case j+1 < len(a) && strings.HasPrefix(o.names[0], "--"):
					out[last] += "=" + a[j+1:]
				case j+1 < len(a):
					out = append(out, a[j+1:])
				case o.value == needed && i+1 < len(args):
					i++
					out = append(out, args[i])
				}
				break cluster
			}
		default:
			out = append(out, a)
			if t.arg != nil {
				implied = append(implied, t.arg(a)...)
			}
		}
	}
	f.words = append(out, implied...)
	return f
}

// longName is the option a long word names: itself when known or unknown, the one name it is a unique prefix of.
func longName(name string, long map[string]valueKind) string {
	if _, ok := long[name]; ok || len(name) < 3 {
		return name
	}
	found := ""
	for full := range long {
		if strings.HasPrefix(full, name) {
			if found != "" {
				return name // ambiguous: git refuses it
			}
			found = full
		}
	}
	if found == "" {
		return name
	}
	return found
}

// gitOptionForm is args (after git's subcommand sub) canonical, for the subcommands in the table; others as given.
func gitOptionForm(sub string, args []string) optionForm {
	t, ok := gitOptions[sub]
	if !ok {
		return optionForm{words: args}
	}
	if sub == "stash" {
		// git stash with options (or nothing) is git stash push; save is push's older spelling.
		switch {
		case len(args) == 0 || strings.HasPrefix(args[0], "-"):
			args = append([]string{"push"}, args...)
		case args[0] == "save":
			args = append([]string{"push"}, args[1:]...)
		}
	}
	return canonicalOptions(args, t, nil)
}

// unknownForm is the first option of argv that Rooted does not know the meaning of, for a command whose options it
// reads (git's porcelain commands in the table, rm, npm), or "".
func unknownForm(argv []string) string {
	if len(argv) < 2 {
		return ""
	}
	switch argv[0] {
	case "git":
		c, ok := gitCommand(argv)
		if !ok {
			return ""
		}
		return gitOptionForm(c.Meaning, c.Args).unknown
	case "rm":
		return canonicalOptions(argv[1:], rmOptions, nil).unknown
	case "npm":
		for _, r := range optionReadings(argv, leadingOptions["npm"]) {
			if len(r) < 3 {
				continue
			}
			if u := canonicalOptions(r[2:], npmOptions, npmShorthands).unknown; u != "" {
				return u
			}
		}
	}
	return ""
}

// canonicalNpm is a reading of npm (npm, its command, the other words) with its options canonical.
func canonicalNpm(reading []string) []string {
	if len(reading) < 3 {
		return reading
	}
	f := canonicalOptions(reading[2:], npmOptions, npmShorthands)
	return append(slices.Clone(reading[:2]), f.words...)
}
