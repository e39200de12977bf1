package permissions

import (
	"slices"
	"testing"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
)

func words(t *testing.T, line string) []string {
	t.Helper()
	w, err := cmdpolicy.Split(line)
	if err != nil {
		t.Fatalf("split %q: %v", line, err)
	}
	return w
}

func TestDecideCommand(t *testing.T) {
	t.Parallel()
	allowGit := []Rule{{Action: Allow, Tool: "exec_shell", Command: "git"}}
	cases := []struct {
		name    string
		rules   []Rule
		command string
		want    Action
		ruled   bool // decided by a rule, not the default
	}{
		{"no rule: a command asks", nil, "go test ./...", Ask, false},
		{"no rule: git status reads", nil, "git status", Allow, false},
		{"no rule: git log with options reads", nil, "git log --oneline -5", Allow, false},
		{"no rule: git diff writing a file does not just read", nil, "git diff --output=x.patch", Ask, false},
		{"no rule: git branch listing reads", nil, "git branch -a", Allow, false},
		{"no rule: git branch NAME creates", nil, "git branch feature", Ask, false},
		{"no rule: git -C dir status reads", nil, "git -C sub status", Allow, false},
		{"prefix allows", []Rule{{Action: Allow, Tool: "exec_shell", Command: "go test"}}, "go test ./...", Allow, true},
		{"prefix is whole words", []Rule{{Action: Allow, Tool: "exec_shell", Command: "go test"}}, "go testx", Ask, false},
		{"prefix is not a suffix", []Rule{{Action: Allow, Tool: "exec_shell", Command: "go test"}}, "go vet test", Ask, false},
		{"quoting does not dodge a rule", []Rule{{Action: Deny, Tool: "exec_shell", Command: "npm run build"}}, `npm 'run' "build" --prod`, Deny, true},
		{"spacing does not dodge a rule", []Rule{{Action: Deny, Tool: "exec_shell", Command: "npm   run build"}}, "npm run  build", Deny, true},
		{"quoted words stay one word", []Rule{{Action: Allow, Tool: "exec_shell", Command: "go test"}}, `"go test" ./...`, Ask, false},
		{"deny wins over a longer allow", []Rule{{Action: Deny, Tool: "exec_shell", Command: "npm"}, {Action: Allow, Tool: "exec_shell", Command: "npm test"}}, "npm test", Deny, true},
		{"deny wins over allow of the same prefix", []Rule{{Action: Allow, Tool: "exec_shell", Command: "go test"}, {Action: Deny, Tool: "exec_shell", Command: "go test"}}, "go test", Deny, true},
		{"deny of every command", []Rule{{Action: Deny, Tool: "exec_shell"}}, "git status", Deny, true},
		{"the longer rule decides", []Rule{{Action: Allow, Tool: "exec_shell", Command: "npm"}, {Action: Ask, Tool: "exec_shell", Command: "npm publish"}}, "npm publish", Ask, true},
		{"ask over allow at the same length", []Rule{{Action: Allow, Tool: "exec_shell", Command: "make"}, {Action: Ask, Tool: "exec_shell", Command: "make"}}, "make all", Ask, true},
		{"an ask rule makes a read ask", []Rule{{Action: Ask, Tool: "exec_shell", Command: "git status"}}, "git status", Ask, true},
		{"rules of other tools do not apply", []Rule{{Action: Deny, Tool: "write_file"}}, "go test", Ask, false},
		{"allow git runs git add", allowGit, "git add -A", Allow, true},
		{"allow git runs git commit", allowGit, "git commit -m 'fix'", Allow, true},
		{"allow git asks for push", allowGit, "git push origin main", Ask, true},
		{"allow git asks for push after -C", allowGit, "git -C . push", Ask, true},
		{"allow git asks for reset --hard", allowGit, "git reset --hard HEAD~1", Ask, true},
		{"allow git runs reset of the index", allowGit, "git reset HEAD file.go", Allow, true},
		{"allow git asks for clean", allowGit, "git clean -fdx", Ask, true},
		{"allow git runs a dry-run clean", allowGit, "git clean -n", Allow, true},
		{"allow git asks for checkout --", allowGit, "git checkout -- .", Ask, true},
		{"allow git asks for checkout of a path", allowGit, "git checkout HEAD main.go", Ask, true},
		{"allow git runs checkout -b", allowGit, "git checkout -b feature", Allow, true},
		{"allow git asks for restore", allowGit, "git restore main.go", Ask, true},
		{"allow git runs restore --staged", allowGit, "git restore --staged main.go", Allow, true},
		{"allow git asks for rebase", allowGit, "git rebase -i HEAD~3", Ask, true},
		{"allow git asks for commit --amend", allowGit, "git commit --amend --no-edit", Ask, true},
		{"allow git asks for branch -D", allowGit, "git branch -D old", Ask, true},
		{"allow git asks for branch -d --force", allowGit, "git branch -d --force old", Ask, true},
		{"allow git asks for branch -df", allowGit, "git branch -df old", Ask, true},
		{"allow git runs branch -d", allowGit, "git branch -d merged", Allow, true},
		{"allow git asks for stash drop", allowGit, "git stash drop", Ask, true},
		{"allow git asks for stash clear", allowGit, "git stash clear", Ask, true},
		{"allow git runs stash push", allowGit, "git stash", Allow, true},
		{"allow git asks for gc --prune", allowGit, "git gc --prune=now", Ask, true},
		{"allow git asks for an unknown subcommand", allowGit, "git co -- .", Ask, true},
		{"allow git asks for an unknown global option", allowGit, "git --weird status", Ask, true},
		{"a rule naming push allows it", append([]Rule{{Action: Allow, Tool: "exec_shell", Command: "git push"}}, allowGit...), "git push", Allow, true},
		{"a rule naming push does not allow reset --hard", []Rule{{Action: Allow, Tool: "exec_shell", Command: "git push"}, allowGit[0]}, "git reset --hard", Ask, true},
		{"allow rm asks for rm -r", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -rf build", Ask, true},
		{"allow rm asks for rm -R", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -v -R build", Ask, true},
		{"allow rm asks for rm --recursive", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm --recursive build", Ask, true},
		{"allow rm runs rm of a file", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -f a.txt", Allow, true},
		{"a rule naming rm -r covers -fr", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm -r"}}, "rm -fr build", Allow, true},
		{"rm -- -r is a file", []Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -- -r", Allow, true},
		{"go -C dir test is go test", []Rule{{Action: Deny, Tool: "exec_shell", Command: "go test"}}, "go -C sub test ./...", Deny, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := DecideCommand(words(t, c.command), c.rules, cmdpolicy.Split)
			if d.Action != c.want || (d.Rule != nil) != c.ruled {
				t.Errorf("%q under %+v: %+v, want %s (by a rule: %v)", c.command, c.rules, d, c.want, c.ruled)
			}
			if d.Sensitive && d.Why == "" {
				t.Errorf("sensitive without a reason: %+v", d)
			}
		})
	}
}

// Every listed git subcommand either reads or changes in a way Rooted knows; none is both.
func TestGitTablesDisjoint(t *testing.T) {
	t.Parallel()
	for _, sub := range gitReadOnly {
		for _, c := range gitChanges {
			if sub == c {
				t.Errorf("%s is listed as reading and as changing", sub)
			}
		}
		if why := Sensitive([]string{"git", sub}); why != "" {
			t.Errorf("git %s reads but is sensitive: %s", sub, why)
		}
	}
}

func TestDecideTool(t *testing.T) {
	t.Parallel()
	rules := []Rule{{Action: Allow, Tool: "restore_snapshot"}, {Action: Deny, Tool: "write_file"}, {Action: Allow, Tool: "write_file"}}
	if d := DecideTool("restore_snapshot", rules); d.Action != Allow {
		t.Errorf("restore_snapshot: %+v", d)
	}
	if d := DecideTool("write_file", rules); d.Action != Deny {
		t.Errorf("deny wins: %+v", d)
	}
	if d := DecideTool("patch_file", rules); d.Action != "" || d.Rule != nil {
		t.Errorf("no rule: %+v", d)
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ command, want string }{
		{"go test ./...", "go test"},
		{"go test -run TestX ./pkg", "go test"},
		{"npm run build -- --prod", "npm run build"},
		{"npm test", "npm test"},
		{"git status --short", "git status"},
		{"git -C sub log", "git log"},
		{"make", "make"},
		{"make all", "make all"},
		{"ls -la", "ls"},
		{"rm -rf build", "rm -r"},
		{"cargo build --release", "cargo build"},
		{"node scripts/x.js", "node scripts/x.js"},
		{"python3 -m pytest", "python3 -m pytest"},
		{"npx 'my tool' x", "npx 'my tool'"},
	} {
		if got := Suggest(words(t, c.command)); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.command, got, c.want)
		}
		// The suggestion, as a rule, covers the command it was made for.
		r, err := Normalize(Rule{Action: Allow, Command: Suggest(words(t, c.command))}, cmdpolicy.Split)
		if err != nil {
			t.Fatalf("%q: %v", c.command, err)
		}
		if d := DecideCommand(words(t, c.command), []Rule{r}, cmdpolicy.Split); d.Rule == nil {
			t.Errorf("the rule %q does not cover %q: %+v", r.Command, c.command, d)
		}
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	r, err := Normalize(Rule{Action: Allow, Command: `  npm   run "build"  `}, cmdpolicy.Split)
	if err != nil || r.Command != "npm run build" || r.Tool != "exec_shell" {
		t.Errorf("normalised: %+v, %v", r, err)
	}
	bad := []Rule{
		{Action: "maybe", Tool: "exec_shell", Command: "go"},
		{Action: Allow, Tool: "exec_shell"}, // every command: the allowlist's job
		{Action: Allow, Tool: "exec_shell", Command: "ls | wc"},
		{Action: Allow, Tool: "exec_shell", Command: "'unterminated"},
		{Action: Deny, Tool: "write_file", Command: "x"},
	}
	for _, b := range bad {
		if _, err := Normalize(b, cmdpolicy.Split); err == nil {
			t.Errorf("%+v was accepted", b)
		}
	}
	if got := Join([]string{"npx", "my tool", "it's"}); got != `npx 'my tool' 'it'\''s'` {
		t.Errorf("Join: %s", got)
	}
}

// A web_fetch rule covers its domain (or, with *., its subdomains) and nothing else; deny wins; a domain rule
// never decides a call of the tool as a whole, and a malformed domain is refused.
func TestDecideDomain(t *testing.T) {
	rules := []Rule{
		{Action: Allow, Tool: WebFetch, Domain: "docs.python.org"},
		{Action: Allow, Tool: WebFetch, Domain: "*.go.dev"},
		{Action: Deny, Tool: WebFetch, Domain: "bad.go.dev"},
	}
	for host, want := range map[string]Action{
		"docs.python.org": Allow, "python.org": "", "evil-docs.python.org": "", "docs.python.org.evil.com": "",
		"pkg.go.dev": Allow, "go.dev": "", "bad.go.dev": Deny, "x.bad.go.dev": Allow,
	} {
		if got := DecideDomain(host, rules).Action; got != want {
			t.Errorf("DecideDomain(%s) = %q, want %q", host, got, want)
		}
	}
	if d := DecideTool(WebFetch, rules); d.Action != "" {
		t.Errorf("a domain rule decided the whole tool: %+v", d)
	}
	if d := DecideDomain("any.example", append(rules, Rule{Action: Deny, Tool: WebFetch})); d.Action != Deny {
		t.Errorf("deny web_fetch does not cover every domain: %+v", d)
	}
	for _, r := range []Rule{
		{Action: Allow, Tool: WebFetch},
		{Action: Allow, Tool: WebFetch, Domain: "https://docs.python.org/"},
		{Action: Allow, Tool: WebFetch, Domain: "docs.python.org:443"},
		{Action: Allow, Tool: WebFetch, Domain: "*"},
		{Action: Allow, Tool: WebFetch, Domain: "com"},
		{Action: Allow, Tool: "exec_shell", Domain: "docs.python.org"},
	} {
		if got, err := Normalize(r, nil); err == nil {
			t.Errorf("Normalize(%+v) accepted: %+v", r, got)
		}
	}
	if got, err := Normalize(Rule{Action: Allow, Tool: " web_fetch ", Domain: " Docs.Python.org. "}, nil); err != nil || got.Domain != "docs.python.org" {
		t.Errorf("Normalize: %+v %v", got, err)
	}
}

// Network rules name a host (never a command, never none); their allows and denies are the proxy's additions to
// the project's host list and its exceptions.
func TestNetworkRules(t *testing.T) {
	split := cmdpolicy.Split
	r, err := Normalize(Rule{Action: Allow, Tool: Network, Domain: " PyPI.org. "}, split)
	if err != nil || r.Domain != "pypi.org" {
		t.Errorf("Normalize = %+v, %v", r, err)
	}
	for _, bad := range []Rule{
		{Action: Allow, Tool: Network},
		{Action: Deny, Tool: Network},
		{Action: Allow, Tool: Network, Domain: "pypi.org", Command: "pip"},
		{Action: Allow, Tool: Network, Domain: "https://pypi.org"},
	} {
		if _, err := Normalize(bad, split); err == nil {
			t.Errorf("Normalize(%+v) accepted", bad)
		}
	}
	allow, deny := NetworkHosts([]Rule{
		{Action: Allow, Tool: Network, Domain: "a.example.org"},
		{Action: Deny, Tool: Network, Domain: "*.bad.example"},
		{Action: Allow, Tool: WebFetch, Domain: "docs.example.org"},
		{Action: Ask, Tool: Network, Domain: "c.example.org"},
	})
	if !slices.Equal(allow, []string{"a.example.org"}) || !slices.Equal(deny, []string{"*.bad.example"}) {
		t.Errorf("NetworkHosts = %v, %v", allow, deny)
	}
	if DecideDomain("a.example.org", []Rule{{Action: Allow, Tool: Network, Domain: "a.example.org"}}).Action != "" {
		t.Error("a network rule decided a web_fetch")
	}
}
