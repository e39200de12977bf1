// Package gitargv reads git's command line the way git reads it, for every part of Rooted that judges a git
// command: the options before the subcommand (which of them take a value, and that git accepts them only spelled
// out), the subcommand and what it stands for (git stage is git add, git send-pack pushes), and the long options
// after it, which git's option parser accepts abbreviated to any unique prefix (git reset --har is --hard). The
// refusals (backend/shell) and the permission rules (backend/permissions) both call Parse, so they cannot
// disagree about where the subcommand is. It also holds the allow-list of configuration keys a command may set
// (CommandMaySet), which the copy of the user's configuration that commands get is built from too.
//
// Guarantees: an option before the subcommand that this package does not know is an error (ErrUnknownOption), never
// skipped, so a new value-taking option cannot make its value read as the subcommand; Parse never fails open.
package gitargv

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrUnknownOption says an option before the subcommand is not one git is known to take.
var ErrUnknownOption = errors.New("unknown git option before the subcommand")

// ErrNoSubcommand says the command line names no subcommand (git, git -C dir, git --version).
var ErrNoSubcommand = errors.New("no git subcommand")

// Global is one option before the subcommand, with its value ("" for a flag).
type Global struct {
	Name  string // "-C", "--git-dir", "-c", "--no-pager", ...
	Value string
}

// Command is a git command line read as git reads it.
type Command struct {
	Globals []Global
	// Sub is the subcommand as written; Meaning is what it stands for (Meanings): the porcelain command a synonym
	// or a plumbing command does the work of, else Sub.
	Sub, Meaning string
	// Index is Sub's index in the argv Parse was given.
	Index int
	// Args are the words after the subcommand.
	Args []string
}

// globalWithValue take a value, as the next word or after "=" (git.c's handle_options).
var globalWithValue = []string{"--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source"}

// globalNextWord take the next word as their value, and only that way.
var globalNextWord = []string{"-C", "-c"}

// globalAttached take a value only after "=" (--exec-path alone prints the path).
var globalAttached = []string{"--exec-path", "--list-cmds"}

// globalFlags take no value.
var globalFlags = []string{
	"-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks",
	"--no-advice", "--bare", "--literal-pathspecs", "--no-literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs",
	"--icase-pathspecs", "--html-path", "--man-path", "--info-path", "--exec-path",
}

// globalEnd are the options that end git's option parsing and stand for a subcommand (git --help is git help).
var globalEnd = map[string]string{"-h": "help", "--help": "help", "-v": "version", "--version": "version"}

// Parse reads argv (argv[0] is git). It fails with ErrUnknownOption for an option before the subcommand git is not
// known to take (including "-cname=value", which git refuses too), and with ErrNoSubcommand when none follows.
func Parse(argv []string) (Command, error) {
	var c Command
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			c.Sub, c.Index, c.Args = a, i, argv[i+1:]
			c.Meaning = Meaning(a)
			return c, nil
		case globalEnd[a] != "":
			c.Sub, c.Index, c.Args = a, i, argv[i+1:]
			c.Meaning = globalEnd[a]
			return c, nil
		case slices.Contains(globalNextWord, a), slices.Contains(globalWithValue, a):
			if i+1 >= len(argv) {
				return c, fmt.Errorf("%w: %s needs a value", ErrUnknownOption, a)
			}
			c.Globals = append(c.Globals, Global{a, argv[i+1]})
			i++
		case hasVal && (slices.Contains(globalWithValue, name) || slices.Contains(globalAttached, name)):
			c.Globals = append(c.Globals, Global{name, val})
		case slices.Contains(globalFlags, a):
			c.Globals = append(c.Globals, Global{Name: a})
		default:
			return c, fmt.Errorf("%w: %s", ErrUnknownOption, a)
		}
	}
	return c, ErrNoSubcommand
}

// meanings are git's synonyms and the plumbing commands that do a porcelain command's work: a rule about push is
// a rule about send-pack too.
var meanings = map[string]string{
	"stage": "add", "send-pack": "push", "http-push": "push", "fetch-pack": "fetch", "init-db": "init",
	"pickaxe": "blame", "fsck-objects": "fsck", "repo-config": "config", "merge-recursive": "merge",
	"merge-ort": "merge", "merge-subtree": "merge", "merge-recursive-ours": "merge", "merge-recursive-theirs": "merge",
}

// nestedMeanings are subcommands whose own subcommand does another command's work: git subtree push, git lfs push
// (and its pre-push hook), git svn dcommit and set-tree, git p4 submit and git annex sync, push and assist publish
// commits (or their files) to another repository as git push does. Under "" is the work of the subcommand itself,
// whatever follows it: git review (Gerrit's) pushes the branch for review.
var nestedMeanings = map[string]map[string]string{
	"subtree": {"push": "push"},
	"lfs":     {"push": "push", "pre-push": "push"},
	"svn":     {"dcommit": "push", "set-tree": "push"},
	"p4":      {"submit": "push"},
	"annex":   {"sync": "push", "push": "push", "assist": "push"},
	"review":  {"": "push"},
}

// Does is the command c does the work of through a subcommand of its own (git subtree push is a push), with the
// words after that nested subcommand; ok is false when c does nothing else than its Meaning. The nested word is
// looked for among all the words before "--" that are not options, not only the first: git subtree reads its
// options anywhere (git subtree -P dir push), and taking an option's value for the nested word (git subtree add
// -P push) only asks or refuses more.
func Does(c Command) (meaning string, args []string, ok bool) {
	nested, found := nestedMeanings[c.Meaning]
	if !found {
		return "", nil, false
	}
	if m, found := nested[""]; found {
		return m, c.Args, true
	}
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if m, found := nested[a]; found {
			return m, c.Args[i+1:], true
		}
	}
	return "", nil, false
}

// Meaning is the command a subcommand stands for: its porcelain equivalent, or itself.
func Meaning(sub string) string {
	if m, ok := meanings[sub]; ok {
		return m
	}
	return sub
}

// Abbrev reports whether arg (a word after the subcommand; "--name=value" counts by its name) is the long option
// full ("--hard") or an abbreviation git's option parser would read as it: a prefix of at least one letter.
// Whether the prefix is unique among the subcommand's options is not checked: an ambiguous one is refused by
// git, so reading it as full only ever asks or refuses more.
func Abbrev(arg, full string) bool {
	name, _, _ := strings.Cut(arg, "=")
	return strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(full, name)
}

// Options are the words of args before "--" that git's parser may read as options (a value that looks like an
// option counts too, which only refuses or asks more).
func Options(args []string) []string {
	var out []string
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			out = append(out, a)
		}
	}
	return out
}

// HasLong reports whether args (before "--") hold one of the long options, spelled out or abbreviated, and which
// one.
func HasLong(args []string, full ...string) (string, bool) {
	for _, o := range Options(args) {
		for _, f := range full {
			if Abbrev(o, f) {
				return f, true
			}
		}
	}
	return "", false
}

// HasShort reports whether args (before "--") hold a cluster of short options with one of the letters ("-fdx"
// holds f, d and x).
func HasShort(args []string, letters string) bool {
	for _, o := range Options(args) {
		if !strings.HasPrefix(o, "--") && strings.ContainsAny(o[1:], letters) {
			return true
		}
	}
	return false
}
