package permissions

import (
	"slices"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitargv"
)

// gitCommand reads git's argv with gitargv (the parser the refusals use too); ok is false when an option before the
// subcommand is one git is not known to take, or no subcommand follows (then nothing about the command is
// assumed).
func gitCommand(argv []string) (gitargv.Command, bool) {
	c, err := gitargv.Parse(argv)
	return c, err == nil
}

// Canonical is argv as rules see it: git and go without the global options before their subcommand (git -C dir
// push is git push), rm with its recursive option first and its short options one per word (rm -fr x is
// rm -r -f x). Other commands are unchanged.
func Canonical(argv []string) []string {
	if len(argv) == 0 {
		return argv
	}
	switch argv[0] {
	case "git":
		if c, ok := gitCommand(argv); ok {
			return append([]string{"git", c.Meaning}, gitOptionForm(c.Meaning, c.Args).words...)
		}
	case "go":
		if len(argv) > 2 && argv[1] == "-C" {
			return append([]string{"go"}, argv[3:]...)
		}
		if len(argv) > 1 && strings.HasPrefix(argv[1], "-C=") {
			return append([]string{"go"}, argv[2:]...)
		}
	case "rm":
		return canonicalRm(argv)
	}
	return argv
}

func canonicalRm(argv []string) []string {
	words := canonicalOptions(argv[1:], rmOptions, nil).words
	var rest []string
	recursive := false
	for i, w := range words {
		if w == "--" {
			rest = append(rest, words[i:]...)
			break
		}
		if w == "-r" {
			recursive = true
			continue
		}
		rest = append(rest, w)
	}
	out := []string{"rm"}
	if recursive {
		out = append(out, "-r")
	}
	return append(out, rest...)
}

// gitReadOnly are subcommands that only read (with the exceptions readOnlyGit checks: options that write a file or
// run a program).
var gitReadOnly = []string{
	"status", "diff", "log", "show", "rev-parse", "blame", "shortlog", "describe", "ls-files", "ls-tree", "cat-file",
	"rev-list", "grep", "show-ref", "merge-base", "name-rev", "whatchanged", "count-objects", "version", "diff-tree",
	"diff-files", "diff-index", "for-each-ref", "check-ignore", "check-attr", "var", "help", "annotate", "range-diff",
}

// gitChanges are subcommands that change the repository or the files in ways a snapshot or git itself can undo,
// and that lose nothing: under an allow rule for git they run; with no rule they ask.
var gitChanges = []string{
	"add", "commit", "switch", "merge", "fetch", "pull", "init", "mv", "rm", "tag", "cherry-pick", "revert",
	"apply", "am", "stash", "worktree", "notes", "submodule", "config", "remote", "bisect", "restore", "reset",
	"checkout", "branch", "clone", "format-patch", "archive", "sparse-checkout", "lfs", "mergetool", "difftool",
}

// ReadOnly says argv only reads: ls, find, grep (without deleting or running anything), and git's reading
// subcommands, including the listing forms of branch, tag, stash, remote and config.
func ReadOnly(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch argv[0] {
	case "git":
		return readOnlyGit(argv)
	}
	return false
}

func readOnlyGit(argv []string) bool {
	c, ok := gitCommand(argv)
	if !ok {
		return false
	}
	sub, args := c.Meaning, c.Args
	for _, a := range args {
		// Writing the output to a file or running an external diff or text conversion program is not reading.
		if strings.HasPrefix(a, "--output") || a == "--ext-diff" || a == "--textconv" || a == "-o" {
			return false
		}
	}
	switch sub {
	case "branch":
		return onlyOptions(args, "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--list", "-l", "--show-current", "--no-color", "--merged", "--no-merged", "--contains", "--no-contains", "--sort", "--format", "--points-at", "--column", "--no-column")
	case "tag":
		return len(args) == 0 || slices.Contains(args, "-l") || slices.Contains(args, "--list")
	case "stash":
		return len(args) > 0 && (args[0] == "list" || args[0] == "show")
	case "remote":
		return len(args) == 0 || len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose") || len(args) >= 1 && args[0] == "get-url"
	case "config":
		for _, a := range args {
			if a == "--get" || a == "--get-all" || a == "--list" || a == "-l" || a == "--get-regexp" || a == "get" || a == "list" {
				return true
			}
		}
		return false
	case "reflog":
		return len(args) == 0 || args[0] == "show" || strings.HasPrefix(args[0], "-")
	case "worktree":
		return len(args) > 0 && args[0] == "list"
	}
	return slices.Contains(gitReadOnly, sub)
}

// onlyOptions says every argument is one of the allowed options (their values attached with = or following a
// value-taking listing option), so a git branch NAME that creates a branch is not taken for a listing.
func onlyOptions(args []string, allowed ...string) bool {
	for i := 0; i < len(args); i++ {
		name, _, _ := strings.Cut(args[i], "=")
		if !slices.Contains(allowed, name) {
			return false
		}
		if (name == "--contains" || name == "--no-contains" || name == "--merged" || name == "--no-merged" || name == "--points-at" || name == "--sort" || name == "--format") && !strings.Contains(args[i], "=") && i+1 < len(args) {
			i++
		}
	}
	return true
}

// Sensitive says how argv destroys what a snapshot cannot bring back or publishes the project, or "": git push,
// subtree push, lfs push, svn dcommit and p4 submit (which push), submodule foreach and bisect run (which run
// any command), reset --hard, clean, checkout of paths or with --force, restore of the working tree, rebase, commit --amend,
// branch -D, stash drop and clear, gc --prune, prune, reflog expire and delete, filter-branch, update-ref -d, any
// git subcommand Rooted does not know (an alias could be any of these), rm -r, find -exec or -delete, and code
// written into the command for an interpreter (node -e, python3 -c, bash -c: see InlineCode), which could do any
// of these.
func Sensitive(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	if why := InlineCode(argv); why != "" {
		return why
	}
	if why := findRuns(argv); why != "" {
		return why
	}
	switch argv[0] {
	case "rm":
		c := canonicalRm(argv)
		if len(c) > 1 && c[1] == "-r" {
			return "rm -r deletes whole folders"
		}
	case "git":
		return sensitiveGit(argv)
	}
	return ""
}

// sensitiveGit says why a git command line destroys work or publishes it (its subcommand as git reads it, its
// options, and what it runs through), "" when it does neither.
func sensitiveGit(argv []string) string {
	c, ok := gitCommand(argv)
	if !ok {
		return "git with an option before its subcommand that Rooted does not know"
	}
	if why := runsThrough(c); why != "" {
		return why
	}
	if rule, ok := gitSensitive[c.Meaning]; ok {
		return rule(c.Meaning, gitOpts(c.Args))
	}
	if !slices.Contains(gitReadOnly, c.Meaning) && !slices.Contains(gitChanges, c.Meaning) {
		return "git " + c.Meaning + " is not a subcommand Rooted knows (an alias can run anything)"
	}
	return ""
}

// gitOpts are a git subcommand's arguments, read as git reads them (package gitargv).
type gitOpts []string

// has says one of the options is given: a short one as written, a long one spelled out or abbreviated as git
// accepts it (--har is --hard). It is for options that make a command destroy; those that make it safe
// (--dry-run, --staged) are matched as written (exact), so an abbreviation asks rather than passes.
func (a gitOpts) has(opts ...string) bool {
	for _, arg := range gitargv.Options(a) {
		name, _, _ := strings.Cut(arg, "=")
		for _, o := range opts {
			if name == o || strings.HasPrefix(o, "--") && gitargv.Abbrev(arg, o) {
				return true
			}
		}
	}
	return false
}

// exact says one of the options is given as written.
func (a gitOpts) exact(opts ...string) bool {
	for _, arg := range gitargv.Options(a) {
		name, _, _ := strings.Cut(arg, "=")
		if slices.Contains(opts, name) {
			return true
		}
	}
	return false
}

// short says a cluster of short options (-fdx) holds one of the letters.
func (a gitOpts) short(letters string) bool { return gitargv.HasShort(a, letters) }

// first is the first argument (a stash's or a reflog's own subcommand), "" when there is none.
func (a gitOpts) first() string {
	if len(a) == 0 {
		return ""
	}
	return a[0]
}

// gitSensitive says, for each subcommand (as gitargv reads it: plumbing that equals a porcelain command is that
// command) that can destroy work or publish it, why it would with these options; "" when they make it safe.
var gitSensitive = map[string]func(sub string, a gitOpts) string{
	"push":   always("git push publishes commits to another repository"),
	"rebase": always("git rebase rewrites history"),
	"reset": func(_ string, a gitOpts) string {
		return when(a.has("--hard", "--merge", "--keep"), "git reset --hard discards uncommitted changes")
	},
	"clean": func(_ string, a gitOpts) string {
		return when(!a.exact("-n", "--dry-run") && !a.short("n"), "git clean deletes untracked files, ignored ones with -x, which snapshots do not keep")
	},
	"checkout": sensitiveCheckout,
	"restore": func(_ string, a gitOpts) string {
		return when(!a.exact("--staged", "-S") || a.has("--worktree", "-W"), "git restore discards changes to files")
	},
	"switch": func(_ string, a gitOpts) string {
		return when(a.has("--discard-changes", "-f", "--force", "-C", "--force-create"), "git switch --discard-changes discards changes to files")
	},
	"commit": func(_ string, a gitOpts) string {
		return when(a.has("--amend"), "git commit --amend rewrites the last commit")
	},
	"branch": func(_ string, a gitOpts) string {
		return when(a.has("-D", "-M", "-C", "-f", "--force") || a.short("DMCf") || a.has("-d", "--delete") && a.short("f"),
			"git branch -D deletes a branch whether or not it was merged")
	},
	"stash": func(_ string, a gitOpts) string {
		return when(a.first() == "drop" || a.first() == "clear", "git stash "+a.first()+" deletes stashed changes")
	},
	"gc": func(_ string, a gitOpts) string {
		return when(a.has("--prune", "--aggressive"), "git gc --prune deletes unreachable commits")
	},
	"prune": rewrites, "filter-branch": rewrites, "filter-repo": rewrites, "replace": rewrites, "update-ref": rewrites, "symbolic-ref": rewrites,
	"reflog": func(_ string, a gitOpts) string {
		return when(a.first() == "expire" || a.first() == "delete", "git reflog "+a.first()+" deletes the record of earlier commits")
	},
	"worktree": func(_ string, a gitOpts) string {
		return when(a.first() == "remove" || a.first() == "prune", "git worktree "+a.first()+" deletes a working tree")
	},
	"submodule": func(_ string, a gitOpts) string {
		return when(a.first() == "deinit", "git submodule deinit deletes a submodule's working tree")
	},
}

// sensitiveCheckout: git checkout of paths, or forced, discards changes; of one name it does when the name is a
// file rather than a branch, which git decides, so it asks.
func sensitiveCheckout(_ string, a gitOpts) string {
	switch {
	case slices.Contains(a, "--") || a.has("-f", "--force", "-p", "--patch", "--ours", "--theirs") || a.short("f"):
		return "git checkout of paths or with --force discards changes to files"
	case a.exact("-b", "-B", "--orphan"):
		return ""
	case len(nonOptions(a)) != 1:
		return "git checkout of paths discards changes to files"
	default:
		return "git checkout NAME discards the changes to NAME when it is a file rather than a branch"
	}
}

func rewrites(sub string, _ gitOpts) string { return "git " + sub + " rewrites or deletes history" }

func always(why string) func(string, gitOpts) string {
	return func(string, gitOpts) string { return why }
}

// when is why if cond holds, else "".
func when(cond bool, why string) string {
	if cond {
		return why
	}
	return ""
}

// nonOptions are the arguments that do not start with "-".
func nonOptions(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}
