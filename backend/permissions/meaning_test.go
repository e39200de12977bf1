package permissions

import (
	"testing"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
)

// Rules hold by what a command means: each row is a spelling the program itself accepts for the command a rule
// names (git's global options and plumbing, abbreviated long options, npm's aliases), or an option that makes an
// allowed command run another program.
func TestRuleSpellings(t *testing.T) {
	t.Parallel()
	rule := func(a Action, cmd string) []Rule { return []Rule{{Action: a, Tool: "exec_shell", Command: cmd}} }
	allowGit := rule(Allow, "git")
	cases := []struct {
		rules   []Rule
		command string
		want    Action
	}{
		// deny rules: every spelling of the command they name
		{rule(Deny, "git push"), "git --no-literal-pathspecs push", Deny},
		{rule(Deny, "git push"), "git --attr-source HEAD push origin", Deny},
		{rule(Deny, "git push"), "git -C . --no-pager push", Deny},
		{rule(Deny, "git push"), "git send-pack ../remote main", Deny},
		{rule(Deny, "git push"), "git http-push https://example.com/x main", Deny},
		// commands that push through a subcommand of their own, or run the command they are given
		{rule(Deny, "git push"), "git subtree push --prefix=lib origin main", Deny},
		{rule(Deny, "git push"), "git subtree -P lib push origin main", Deny},
		{rule(Deny, "git push"), "git -C . lfs push origin main", Deny},
		{rule(Deny, "git push"), "git svn dcommit", Deny},
		{rule(Deny, "git push"), "git p4 submit", Deny},
		{rule(Deny, "git push"), "git svn set-tree HEAD", Deny},
		{rule(Deny, "git push"), "git annex sync", Deny},
		{rule(Deny, "git push"), "git review", Deny},
		{rule(Deny, "git push"), "git submodule foreach -- git push", Deny},
		{rule(Deny, "git push"), "git submodule foreach git push", Deny},
		{rule(Deny, "git push"), "git submodule --quiet foreach --recursive 'git -C . push origin'", Deny},
		{rule(Deny, "git push"), "git submodule foreach 'git push && echo done'", Deny},
		{rule(Deny, "git push"), "git submodule foreach git subtree push -P x origin main", Deny},
		{rule(Deny, "git push"), "git bisect run git send-pack ../r main", Deny},
		{rule(Deny, "rm -r"), "git submodule foreach rm -fr build", Deny},
		{rule(Deny, "git subtree"), "git subtree push --prefix=lib origin main", Deny},
		{rule(Deny, "git push"), "git subtree split --prefix=lib --rejoin", Ask},
		{rule(Deny, "git push"), "git submodule foreach git status", Ask},
		{rule(Deny, "git push"), "git lfs pull", Ask},
		{rule(Allow, "git subtree push"), "git subtree push --prefix=lib origin main", Allow},
		{rule(Deny, "git push --force"), "git push origin main --forc", Deny},
		{rule(Deny, "git push --force"), "git push origin main", Ask},
		{rule(Deny, "git commit --amend"), "git commit -m x --amen", Deny},
		{rule(Deny, "git add"), "git stage x.go", Deny},
		{rule(Deny, "rm -r"), "rm --rec build", Deny},
		{rule(Deny, "rm -r"), "rm --r build", Deny},
		{rule(Deny, "rm -r"), "rm -vR build", Deny},
		{rule(Deny, "npm publish"), "npm pub", Deny},
		{rule(Deny, "npm publish"), "npm publ --tag beta", Deny},
		{rule(Deny, "npm publish"), "npm --tag=beta publish", Deny},
		{rule(Deny, "npm publish"), "npm --registry https://r.example publish", Deny},
		{rule(Deny, "npm install"), "npm i left-pad", Deny},
		{rule(Deny, "npm install"), "npm add left-pad", Deny},
		{rule(Deny, "npm install"), "npm isntall left-pad", Deny},
		{rule(Deny, "npm uninstall"), "npm rm left-pad", Deny},
		{rule(Deny, "npm run"), "npm run-script build", Deny},
		{rule(Deny, "npm run"), "npm runScript build", Deny},
		{rule(Deny, "npm test"), "npm t", Deny},
		{rule(Deny, "cargo publish"), "cargo +nightly publish", Deny},
		{rule(Deny, "cargo publish"), "cargo --locked -Z unstable-options publish", Deny},
		{rule(Deny, "cargo publish"), "cargo --unknown x publish", Deny},
		{rule(Deny, "npx evil"), "npx --yes evil", Deny},
		{rule(Deny, "npx evil"), "npx -p other evil", Deny},
		{rule(Deny, "pnpm publish"), "pnpm --filter pkg publish", Deny},
		{rule(Deny, "pnpm publish"), "pnpm -r publish", Deny},
		{rule(Deny, "yarn publish"), "yarn --cwd sub publish", Deny},
		{rule(Allow, "cargo build"), "cargo --locked build", Allow},
		{rule(Allow, "cargo build"), "cargo --unknown x build", Ask},
		// the always-ask table under "allow git"
		{allowGit, "git reset --har HEAD~1", Ask},
		{allowGit, "git reset --merg", Ask},
		{allowGit, "git commit --amen --no-edit", Ask},
		{allowGit, "git --no-literal-pathspecs push", Ask},
		{allowGit, "git send-pack ../remote main", Ask},
		{allowGit, "git --weird status", Ask},
		{allowGit, "git clean --dry", Ask}, // a safe option abbreviated is not taken for safe
		{allowGit, "git restore --stag x", Ask},
		{allowGit, "git subtree push --prefix=lib origin main", Ask},
		{allowGit, "git lfs push origin main", Ask},
		{allowGit, "git submodule foreach git status", Ask},
		{allowGit, "git bisect run make test", Ask},
		{allowGit, "git lfs pull", Allow},
		{allowGit, "git submodule update --init", Allow},
		{allowGit, "git reset --soft HEAD~1", Allow},
		{allowGit, "git stage x.go", Allow},
		// options that run another program are not covered by a rule for the command
		{rule(Allow, "go test"), "go test ./...", Allow},
		{rule(Allow, "go test"), "go test -exec ./x ./...", Ask},
		{rule(Allow, "go test"), "go test -toolexec=./x ./...", Ask},
		{rule(Allow, "go test"), "go test --exec ./x", Ask},
		{rule(Allow, "go test -exec"), "go test -exec ./x", Allow},
		{rule(Allow, "go run"), "go run -exec ./x .", Ask},
		{rule(Allow, "go vet"), "go vet -vettool=./x", Ask},
		{rule(Allow, "npm run build"), "npm run build", Allow},
		{rule(Allow, "npm run build"), "npm run build --script-shell ./x", Ask},
		{rule(Allow, "npm run build"), "npm run build --script-sh=./x", Ask},
		{rule(Allow, "npm install"), "npm install --prefix x", Ask},
		{rule(Allow, "npm install"), "npm --prefix x install", Ask}, // which word is the command is not known
		{rule(Allow, "npm install"), "npm i left-pad", Allow},
		{rule(Allow, "make"), "make all", Allow},
		{rule(Allow, "make"), "make -f other.mk", Ask},
		{rule(Allow, "make"), "make -kf other.mk", Ask},
		{rule(Allow, "make"), "make --eval=x", Ask},
		{rule(Allow, "make"), "make --ev x", Ask},
		{rule(Allow, "make"), "make SHELL=./x", Ask},
		{rule(Allow, "make"), "make -C sub", Ask},
		{rule(Allow, "cargo build"), "cargo build --config target.x.runner=./x", Ask},
		{rule(Allow, "git status"), "git -c core.fsmonitor=./x status", Ask},
		{rule(Allow, "git fetch"), "git fetch --upload-pack=./x origin", Ask},
		// reading needs no rule, in any spelling git accepts
		{nil, "git --no-literal-pathspecs status", Allow},
		{nil, "git --attr-source HEAD log", Allow},
	}
	for _, c := range cases {
		t.Run(c.command, func(t *testing.T) {
			d := DecideCommand(words(t, c.command), c.rules, cmdpolicy.Split)
			if d.Action != c.want {
				t.Errorf("%q under %+v: %+v, want %s", c.command, c.rules, d, c.want)
			}
			if d.Action == Ask && d.Rule != nil && d.Why == "" {
				t.Errorf("%q asks under an allow rule without saying why: %+v", c.command, d)
			}
		})
	}
}

func TestNpmCommand(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]string{
		"pub": "publish", "publish": "publish", "i": "install", "install": "install", "rm": "uninstall", "r": "uninstall",
		"run-script": "run", "runScript": "run", "x": "exec", "isntall": "install", "install-cl": "ci", "t": "test",
		"unp": "unpublish", "p": "", "in": "install", "left-pad": "",
	} {
		if got := NpmCommand(w); got != want {
			t.Errorf("NpmCommand(%q) = %q, want %q", w, got, want)
		}
	}
}

// FuzzReadings: every reading of any command starts with its program, a deny rule for a command's first reading
// always matches the command, and nothing panics.
func FuzzReadings(f *testing.F) {
	for _, s := range []string{
		"git --attr-source HEAD rebase --exec x", "git --no-literal-pathspecs push", "git send-pack x", "rm --rec x",
		"npm pub", "npm --registry x publish", "git reset --har", "git commit --amen", "go test -exec x", "make -f x",
		"npm --", "git -C", "git", "npm", "cargo +nightly publish", "npx --yes x", "pnpm --filter a publish",
		"git subtree push -P x origin main", "git submodule foreach git push", "git bisect run git bisect run x",
		"git push -uf origin +main", "git push origin :main -- x", "git branch -Dq x", "git commit -mfix -a",
		"git commit -m", "git checkout -b", "git stash", "git stash save -u", "git clean -fdxe x", "git rebase -xmake",
		"git tag -n5", "rm -fR --verb x", "rm -f-r x", "rm --", "npm -- publish", "npm --", "npm i -gD x",
		"npm -ws publish", "npx -c 'git push'", "npx --weird git push", "npm x -- npm pub", "pnpm exec", "bunx",
		"yarn dlx -- git push", "bun x git push -f", "npx npx npx git push", "npx -c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv, err := cmdpolicy.Split(line)
		if err != nil || len(argv) == 0 {
			return
		}
		rs := Readings(argv)
		if len(rs) == 0 {
			t.Fatalf("%q: no reading", argv)
		}
		for _, r := range rs {
			if len(r) == 0 || r[0] != argv[0] {
				t.Fatalf("%q: reading %q lost the program", argv, r)
			}
		}
		r := Rule{Action: Deny, Tool: "exec_shell", Command: Join(rs[0])}
		if d := DecideCommand(argv, []Rule{r}, cmdpolicy.Split); d.Action != Deny {
			t.Fatalf("%q: the rule %q does not deny it: %+v", argv, r.Command, d)
		}
	})
}
