// Package permissions decides whether a call may run without asking the user: the user's rules for a project
// (allow, ask or deny, by tool and by command prefix) and what Rooted knows about git and rm. Commands are matched
// on their argv, the words the program receives, never on the raw text: quoting and spacing cannot dodge a rule.
//
// Guarantees: a deny rule that matches wins over every allow rule; a command that destroys or publishes (git push,
// reset --hard, clean, rm -r, ... see Sensitive) asks even under an allow rule for its program, unless a rule
// names it (git push, rm -r) rather than just the program; a git subcommand Rooted does not know (an alias, a
// new command) counts as one that destroys, and so does code written into a command for an interpreter (node -e).
// Neither "always allow" (Suggest) nor a grant for the session (ProgramGrant) is ever offered for an interpreter
// or a program that runs others on its own: it would allow any code.
//
// Not guaranteed: rules say when to ask, not what a program can do once it runs; that is the sandbox's and the
// allowlist's job (backend/shell).
package permissions

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Action is what a rule (or a default) decides.
type Action string

// Actions, from the most to the least permissive; deny always wins.
const (
	Allow Action = "allow"
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Rule is one of the user's decisions for a project. Tool is a tool's name (exec_shell for commands); Command,
// for exec_shell, is a prefix of the argv as the user would type it ("go test", "npm run build"), split with
// shell quoting; an empty Command covers every call of the tool.
type Rule struct {
	Action  Action `json:"action"`
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
	// Domain, for web_fetch, is the host a rule covers (docs.python.org, or *.python.org for its subdomains);
	// DecideDomain applies it.
	Domain string `json:"domain,omitempty"`
}

// Decision is what applies to one call.
type Decision struct {
	// Action is allow, ask or deny.
	Action Action `json:"action"`
	// Rule is the rule that decided, nil for Rooted's default.
	Rule *Rule `json:"rule,omitempty"`
	// Sensitive says the command destroys or publishes (Why says how): a grant for its whole program does not
	// cover it.
	Sensitive bool `json:"sensitive,omitempty"`
	// ReadOnly says the command only reads (git status, git log): it runs without asking by default.
	ReadOnly bool   `json:"read_only,omitempty"`
	Why      string `json:"why,omitempty"`
}

// Splitter turns a rule's command text into words (shell.Split).
type Splitter func(string) ([]string, error)

// Normalize checks a rule and returns it with its command in canonical spacing. A rule for exec_shell without a
// command is refused when it allows: allowing every command at once is what the allowlist is for.
func Normalize(r Rule, split Splitter) (Rule, error) {
	switch r.Action {
	case Allow, Ask, Deny:
	default:
		return r, fmt.Errorf("a rule's action is allow, ask or deny, not %q", r.Action)
	}
	r.Tool = strings.TrimSpace(r.Tool)
	if r.Tool == "" {
		r.Tool = "exec_shell"
	}
	r.Command = strings.TrimSpace(r.Command)
	if r.Tool == WebFetch || r.Tool == Network || r.Domain != "" {
		return normalizeDomain(r)
	}
	if r.Tool != "exec_shell" {
		if r.Command != "" {
			return r, fmt.Errorf("only exec_shell rules name a command (%s has none)", r.Tool)
		}
		return r, nil
	}
	if r.Command == "" {
		if r.Action == Allow {
			return r, fmt.Errorf("an allow rule for exec_shell names a command (go test, npm run build); the allowlist says which programs may run at all")
		}
		return r, nil
	}
	words, err := split(r.Command)
	if err != nil {
		return r, fmt.Errorf("rule %q: %v", r.Command, err)
	}
	if len(words) == 0 {
		return r, fmt.Errorf("rule %q names no program", r.Command)
	}
	r.Command = Join(words)
	return r, nil
}

// Join writes argv as a command line that splits back into the same words.
func Join(argv []string) string {
	parts := make([]string, len(argv))
	for i, w := range argv {
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`|&;<>()*?[]{}#~") {
			parts[i] = w
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}

// DecideTool is the decision for a call of a tool other than exec_shell: deny over ask over allow among the
// rules for it; "" when no rule names the tool (the caller's default applies).
func DecideTool(name string, rules []Rule) Decision {
	var best Decision
	for i := range rules {
		r := &rules[i]
		if !toolMatches(r.Tool, name) || r.Command != "" || r.Domain != "" {
			continue
		}
		if best.Action == "" || rank(r.Action) > rank(best.Action) {
			best = Decision{Action: r.Action, Rule: r}
		}
	}
	return best
}

func rank(a Action) int {
	switch a {
	case Deny:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// DecideCommand is the decision for running argv. The command is read for its meaning first (Readings: git's
// global options left out, synonyms, plumbing and npm's aliases resolved). A deny rule matches when its leading
// words are the command's and its other words are among the command's, long options also abbreviated
// (matchesLoosely), in any reading of the command or of what it does through another (alsoReadings: git subtree
// push is a push, git submodule foreach CMD is CMD too); deny wins. Then the most specific rule (the longest prefix; ask
// over allow at the same length): an ask rule matches as loosely as a deny rule, an allow rule only as an exact
// prefix of the command's one reading. A sensitive command asks unless the deciding rule names more than its
// program; a command with an option that runs another program (go test -exec) asks unless the rule names the
// option. With no rule, read-only commands are allowed and everything else asks.
func DecideCommand(argv []string, rules []Rule, split Splitter) Decision {
	readings := Readings(argv)
	words := readings[0]
	// Deny and ask rules also see what the command does through another (git subtree push is a push).
	covers := append(slices.Clone(readings), alsoReadings(argv, split)...)
	why := Sensitive(argv)
	nestedWhy := runsSensitive(argv, split) // npx git push: what a package runner runs
	unknown := unknownForm(argv)
	readOnly := why == "" && nestedWhy == "" && unknown == "" && len(readings) == 1 && ReadOnly(argv)
	var best *Rule
	bestLen := -1
	var bestPrefix []string
	for i := range rules {
		r := &rules[i]
		if r.Tool != "exec_shell" && r.Tool != "" {
			continue
		}
		prefix := []string{}
		if r.Command != "" {
			p, err := split(r.Command)
			if err != nil || len(p) == 0 {
				continue
			}
			prefix = Readings(p)[0]
		}
		matched := false
		switch r.Action {
		case Deny, Ask:
			matched = slices.ContainsFunc(covers, func(w []string) bool { return matchesLoosely(w, prefix) })
		default:
			matched = len(readings) == 1 && hasPrefix(words, prefix)
		}
		if !matched {
			continue
		}
		if r.Action == Deny {
			return Decision{Action: Deny, Rule: r, Sensitive: why != "", Why: why}
		}
		if len(prefix) > bestLen || len(prefix) == bestLen && rank(r.Action) > rank(best.Action) {
			best, bestLen, bestPrefix = r, len(prefix), prefix
		}
	}
	other := RunsOther(argv)
	if len(readings) > 1 && why == "" {
		why = "which word is the command depends on whether an option before it takes a value; put options after the command"
	}
	d := Decision{Sensitive: why != "", ReadOnly: readOnly, Why: why}
	switch {
	case best == nil && readOnly:
		d.Action = Allow
	case best == nil:
		d.Action = Ask
	case best.Action == Allow && why != "" && bestLen < 2:
		// "allow git" does not cover git push: the rule must name it.
		d.Action, d.Rule = Ask, best
	case best.Action == Allow && nestedWhy != "" && !runsNamed(bestPrefix, split):
		// "allow npx" does not cover npx git push: the rule must name what it runs.
		d.Action, d.Rule, d.Sensitive, d.Why = Ask, best, true, nestedWhy
	case best.Action == Allow && unknown != "":
		d.Action, d.Rule, d.Sensitive = Ask, best, true
		d.Why = "Rooted does not know what " + unknown + " means to " + Join(words[:min(2, len(words))]) + ", so no rule allows it"
	case best.Action == Allow && other != "" && RunsOther(bestPrefix) == "":
		// "allow go test" does not cover go test -exec PROGRAM: the rule must name the option.
		d.Action, d.Rule = Ask, best
		d.Sensitive, d.Why = true, other+" runs a program the command names, which a rule for "+Join(bestPrefix)+" does not cover"
	default:
		d.Action, d.Rule = best.Action, best
	}
	return d
}

func hasPrefix(words, prefix []string) bool {
	return len(prefix) <= len(words) && slices.Equal(words[:len(prefix)], prefix)
}

// Suggest is the rule "always allow" offers for argv: the program and its subcommand (go test, npm run build,
// git status), never a file or a flag, so the rule covers the same command with other arguments (but not with an
// option that runs another program: RunsOther). For an interpreter it is the interpreter and its script (node
// scripts/x.js), none for code written into the command (node -e); none for a program that runs others (env,
// xargs, timeout): "allow node" would allow any code.
func Suggest(argv []string) string {
	readings := Readings(argv)
	if len(readings) > 1 {
		return "" // which word is the command is not known: no rule would allow it (DecideCommand)
	}
	words := readings[0]
	if len(words) == 0 || slices.Contains(runners, path.Base(words[0])) {
		return ""
	}
	if interpreter(words) != "" {
		return suggestInterpreter(words)
	}
	n := 1
	switch words[0] {
	case "npm", "pnpm", "yarn", "bun":
		// npm run build, npm test
		n = 2
		if len(words) > 1 && (words[1] == "run" || words[1] == "run-script" || words[1] == "exec") {
			n = 3
		}
	case "go", "cargo", "git", "make", "npx", "docker":
		n = 2
	case "rm":
		if Sensitive(argv) != "" {
			return "rm -r"
		}
	}
	for n > 1 && (n > len(words) || strings.HasPrefix(words[n-1], "-") || strings.ContainsAny(words[n-1], "/.=")) {
		n--
	}
	if words[0] == "rm" && n == 1 && Sensitive(argv) != "" {
		return "rm -r"
	}
	return Join(words[:n])
}
