package permissions

import (
	"slices"
	"strings"
	"unicode"

	"github.com/rooted-dev/rooted/backend/gitargv"
)

// Rules are matched on what a command means, not on how it is spelled: each program's argv is brought to one form
// first (Readings), and a deny or ask rule also matches a long option the program would accept abbreviated.
//
//   - git: the options before the subcommand left out, synonyms and plumbing read as the porcelain command they
//     stand for (gitargv); long options abbreviated as git's parser accepts them (--amen is --amend).
//   - npm: its aliases and abbreviations of commands resolved as npm resolves them (npm pub is npm publish, npm i
//     is npm install, npm rm is npm uninstall, npm runScript is npm run); the options before the command moved
//     after it. When an option before the command may take the next word as its value, which word is the command
//     is not known: every reading is tried against deny rules, and the command asks whatever allow rules say.
//   - rm: the recursive option first, however it is spelled (-fr, -R, --recursive, --rec).

// npmCommands and npmAliases are npm's (lib/utils/cmd-list.js): a command is named in full, by an alias, or by an
// unambiguous prefix of either.
var npmCommands = []string{
	"access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe",
	"deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor", "edit", "exec", "explain", "explore",
	"find-dupes", "fund", "get", "help", "help-search", "hook", "init", "install", "install-ci-test",
	"install-scripts", "install-test", "link", "ll", "login", "logout", "ls", "org", "outdated", "owner", "pack",
	"ping", "pkg", "prefix", "profile", "prune", "publish", "query", "rebuild", "repo", "restart", "root", "run",
	"sbom", "search", "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team", "test", "token", "trust",
	"undeprecate", "uninstall", "unpublish", "unstar", "update", "version", "view", "whoami",
}

var npmAliases = map[string]string{
	"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
	"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
	"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
	"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config", "s": "search",
	"se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view", "run-script": "run",
	"clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec", "why": "explain", "la": "ll",
	"verison": "version", "ic": "ci", "innit": "init", "in": "install", "ins": "install", "inst": "install",
	"insta": "install", "instal": "install", "isnt": "install", "isnta": "install", "isntal": "install",
	"isntall": "install", "install-clean": "ci", "isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag",
	"upgrade": "update", "udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
	"add-user": "adduser",
}

// NpmCommand is the npm command a word names, as npm's own lookup finds it (camelCase read as kebab-case, then the
// exact name, an alias, or an unambiguous prefix of a name or an alias), or "" when it names none.
func NpmCommand(w string) string {
	if strings.ContainsFunc(w, unicode.IsUpper) {
		var b strings.Builder
		for _, r := range w {
			if unicode.IsUpper(r) {
				b.WriteString("-" + string(unicode.ToLower(r)))
				continue
			}
			b.WriteRune(r)
		}
		w = b.String()
	}
	if slices.Contains(npmCommands, w) {
		return w
	}
	if a, ok := npmAliases[w]; ok {
		return a
	}
	if w == "" {
		return ""
	}
	found := ""
	for _, name := range npmCommands {
		if strings.HasPrefix(name, w) {
			if found != "" && found != name {
				return ""
			}
			found = name
		}
	}
	for name, to := range npmAliases {
		if strings.HasPrefix(name, w) {
			if found != "" && found != to {
				return "" // ambiguous between two commands
			}
			found = to
		}
	}
	return found
}

// leading describes the options a program takes before its command word: flags (no value), options whose value
// is the next word, and how a command word is resolved (npm's aliases). Any other bare option there might take the
// next word as its value, so which word is the command is not known.
type leading struct {
	flags, valued []string
	plus          bool // words starting with "+" are options too (cargo +nightly)
	word          func(string) string
	// dashCommand says the word after a "--" before the command is the command (npm -- publish is npm publish).
	dashCommand bool
}

var leadingOptions = map[string]leading{
	"npm": {flags: []string{
		"-g", "--global", "-D", "--save-dev", "-S", "--save", "-O", "--save-optional", "-E", "--save-exact", "-f",
		"--force", "--dry-run", "--json", "-s", "--silent", "-q", "--quiet", "-d", "--verbose", "-y", "--yes",
		"--ignore-scripts", "--offline", "--prefer-offline", "--prefer-online", "--production", "--no-save", "-ws",
		"--workspaces", "--include-workspace-root", "--if-present", "--legacy-peer-deps", "--no-audit", "--no-fund",
	}, valued: []string{
		"--registry", "--tag", "--prefix", "-C", "-w", "--workspace", "--userconfig", "--globalconfig", "--cache",
		"--otp", "--access", "--loglevel",
	}, word: npmWord, dashCommand: true},
	"npx":   {flags: []string{"-y", "--yes", "--no", "-q", "--quiet"}, valued: []string{"-p", "--package", "-c", "--call"}},
	"cargo": {flags: []string{"-v", "-vv", "--verbose", "-q", "--quiet", "--frozen", "--locked", "--offline", "-V", "--version", "-h", "--help", "--list"}, valued: []string{"--color", "--config", "-Z", "-C", "--explain"}, plus: true},
	"pnpm":  {flags: []string{"-r", "--recursive", "-w", "--workspace-root", "-s", "--silent", "--offline", "--prefer-offline"}, valued: []string{"-F", "--filter", "-C", "--dir", "--reporter"}},
	"yarn":  {flags: []string{"-s", "--silent", "--verbose", "--offline", "--frozen-lockfile", "--immutable"}, valued: []string{"--cwd"}},
}

// optionReadings are the forms of a command line whose program takes options before its command (npm, npx,
// cargo, pnpm, yarn): the program, the command, then the other words in order. One reading when the command
// is certain; one per candidate word when an option before it may have taken a value (npm --registry X publish).
func optionReadings(argv []string, l leading) [][]string {
	word := l.word
	if word == nil {
		word = func(w string) string { return w }
	}
	uncertain := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			if !l.dashCommand || i+1 >= len(argv) || strings.HasPrefix(argv[i+1], "-") {
				break
			}
			// The command follows, whatever it looks like; the "--" itself is gone once npm has read it.
			out := []string{argv[0], word(argv[i+1])}
			out = append(out, argv[1:i]...)
			return [][]string{append(out, argv[i+2:]...)}
		}
		switch {
		case l.plus && strings.HasPrefix(a, "+"):
			continue
		case strings.HasPrefix(a, "-") && a != "-":
			switch {
			case strings.Contains(a, "=") || slices.Contains(l.flags, a) || strings.HasPrefix(a, "--no-"):
			case slices.Contains(l.valued, a):
				i++ // its value
			default:
				uncertain = true
			}
			continue
		}
		form := func(j int) []string {
			out := []string{argv[0], word(argv[j])}
			for k := 1; k < len(argv); k++ {
				if k != j {
					out = append(out, argv[k])
				}
			}
			return out
		}
		if !uncertain {
			return [][]string{form(i)}
		}
		// Each word from here on could be the command (it is the first that is not an option's value).
		var out [][]string
		for j := i; j < len(argv) && argv[j] != "--"; j++ {
			if !strings.HasPrefix(argv[j], "-") || argv[j] == "-" {
				out = append(out, form(j))
			}
		}
		return out
	}
	return [][]string{argv}
}

// npmWord is the command a word names, or the word when it names none.
func npmWord(w string) string {
	if c := NpmCommand(w); c != "" {
		return c
	}
	return w
}

// Readings are the forms argv may mean, each canonical (Canonical): one for almost every command; several when the
// program's own parsing depends on what Rooted cannot know (which of an option before the command takes a value).
func Readings(argv []string) [][]string {
	if len(argv) > 1 {
		if l, ok := leadingOptions[argv[0]]; ok {
			rs := optionReadings(argv, l)
			if argv[0] == "npm" {
				for i := range rs {
					rs[i] = canonicalNpm(rs[i])
				}
			}
			return rs
		}
	}
	return [][]string{Canonical(argv)}
}

// matchesLoosely says a deny or ask rule's words cover a command's: the rule's leading words (its program and
// subcommand) are the command's, and each later word of the rule appears among the command's words before "--",
// in any order, a long option also abbreviated (the rule git push --force covers git push origin --forc). Meant
// for the rules that refuse or ask, where covering more is the safe side.
func matchesLoosely(words, rule []string) bool {
	lead := min(1, len(rule)) // the program leads, whatever it is called
	for lead < len(rule) && !strings.HasPrefix(rule[lead], "-") {
		lead++
	}
	if !hasPrefix(words, rule[:lead]) {
		return false
	}
	rest, opts := words[lead:], words[lead:]
	if i := slices.Index(rest, "--"); i >= 0 {
		opts = rest[:i]
	}
	ended := false // after the rule's own "--", its words are not options
	for _, r := range rule[lead:] {
		ended = ended || r == "--"
		in := rest // a word that is not an option may stand after "--" too
		if !ended && strings.HasPrefix(r, "-") && r != "-" {
			in = opts
		}
		if !slices.ContainsFunc(in, func(w string) bool { return sameWord(w, r) }) {
			return false
		}
	}
	return true
}

// sameWord says a command's word w is the rule's word r: the same, or a long option the program would read as r
// (an abbreviation, or r with a value attached).
func sameWord(w, r string) bool {
	if w == r {
		return true
	}
	if !strings.HasPrefix(r, "--") || !strings.HasPrefix(w, "--") {
		return false
	}
	name, _, _ := strings.Cut(w, "=")
	rname, _, _ := strings.Cut(r, "=")
	return len(name) > 2 && strings.HasPrefix(rname, name) && (rname == r || w == r)
}

// runsOther are the options by which an allowlisted program runs a program its arguments name, or reads its
// instructions from elsewhere: a rule for the program (always allow go test) does not cover them unless it names
// them. Long options match abbreviated too. npm's --prefix counts: npm reads its global configuration (which can
// set script-shell) from under the prefix.
var runsOther = map[string][]string{
	"go":    {"-exec", "--exec", "-toolexec", "--toolexec", "-vettool", "--vettool"},
	"npm":   {"--script-shell", "--shell", "--call", "-c", "--node-options", "--git", "--editor", "--browser", "--viewer", "--userconfig", "--globalconfig", "--prefix", "--node-gyp"},
	"npx":   {"--script-shell", "--shell", "--call", "-c", "--package", "-p", "--node-options"},
	"pnpm":  {"--script-shell", "--shell-emulator", "--config"},
	"yarn":  {"--script-shell"},
	"make":  {"-f", "--file", "--makefile", "-E", "--eval", "-C", "--directory", "-I", "--include-dir"},
	"cargo": {"--config", "-Z"},
	"git":   {"--upload-pack", "--receive-pack", "--exec", "--template", "--config"},
}

// RunsOther returns the option by which argv would run a program its words name (go test -exec, npm run
// --script-shell, make -f, a make variable that replaces a recipe's command), or "".
func RunsOther(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	opts, args := runsOther[argv[0]], argv[1:]
	if argv[0] == "git" {
		c, err := gitargv.Parse(argv)
		for _, g := range c.Globals {
			if g.Name == "-c" || g.Name == "--config-env" || g.Name == "--exec-path" && g.Value != "" {
				return g.Name
			}
		}
		if err != nil {
			return ""
		}
		args = c.Args
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if argv[0] == "make" && !strings.HasPrefix(a, "-") && strings.Contains(a, "=") {
			return a // SHELL=..., CC=...: a variable on make's command line overrides the Makefile's
		}
		name, _, _ := strings.Cut(a, "=")
		short := len(a) > 1 && a[0] == '-' && a[1] != '-'
		for _, o := range opts {
			switch {
			case name == o:
				return a
			case strings.HasPrefix(o, "--") && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(o, name):
				return a // an abbreviation the program accepts (git, GNU getopt, npm's nopt)
			case len(o) == 2 && o[0] == '-' && o[1] != '-' && short && strings.IndexByte(a[1:], o[1]) >= 0:
				return a // in a cluster of short options (-kf FILE), or with its value attached (-fFILE)
			}
		}
	}
	return ""
}
