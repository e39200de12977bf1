package permissions

import (
	"testing"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
)

// Deny rules hold by what options mean, not how they are spelled: short and long twins, clusters, value forms
// that mean the same (git push origin +main forces), and programs started through a package runner (npx git
// push is git push). Each row pairs the deny rule with an allow rule for the program, so a miss shows as allow.
func TestRuleOptionMeanings(t *testing.T) {
	t.Parallel()
	rules := func(deny, allow string) []Rule {
		return []Rule{{Action: Deny, Tool: "exec_shell", Command: deny}, {Action: Allow, Tool: "exec_shell", Command: allow}}
	}
	cases := []struct {
		rules   []Rule
		command string
		want    Action
	}{
		// short ↔ long, clusters, and letters that stand for two options
		{rules("git push --force", "git push"), "git push -f origin main", Deny},
		{rules("git push --force", "git push"), "git push -uf origin main", Deny},
		{rules("git push --force", "git push"), "git push origin main --forc", Deny},
		{rules("git push -f", "git push"), "git push --force origin main", Deny},
		{rules("git push --delete", "git push"), "git push -d origin main", Deny},
		{rules("git push -d", "git push"), "git push --delete origin main", Deny},
		{rules("git branch -D", "git branch"), "git branch -df x", Deny},
		{rules("git branch -D", "git branch"), "git branch --delete --force x", Deny},
		{rules("git branch -D", "git branch"), "git branch -d -f x", Deny},
		{rules("git branch -D", "git branch"), "git branch -d x", Allow},
		{rules("git branch --delete", "git branch"), "git branch -D x", Deny},
		{rules("git branch -M", "git branch"), "git branch --move --force a b", Deny},
		{rules("git clean -f", "git clean"), "git clean --force -d", Deny},
		{rules("git clean --force", "git clean"), "git clean -xdf", Deny},
		{rules("git clean -f", "git clean"), "git clean -n", Allow},
		{rules("git checkout --force", "git checkout"), "git checkout -f main", Deny},
		{rules("git checkout -f", "git checkout"), "git checkout --forc main", Deny},
		{rules("git switch --discard-changes", "git switch"), "git switch -f main", Deny},
		{rules("git switch --force", "git switch"), "git switch --discard-changes main", Deny},
		{rules("git reset --hard", "git reset"), "git reset --ha HEAD~1", Deny},
		{rules("git reset --hard", "git reset"), "git reset -q --hard", Deny},
		{rules("git commit --amend", "git commit"), "git commit -am x --amen", Deny},
		{rules("git commit --no-verify", "git commit"), "git commit -nm x", Deny},
		{rules("git commit --all", "git commit"), "git commit -am x", Deny},
		{rules("git commit --no-verify", "git commit"), "git commit -m -n", Allow}, // -n is -m's value
		{rules("git rebase --exec", "git rebase"), "git rebase -x make main", Deny},
		{rules("git rebase --interactive", "git rebase"), "git rebase -i HEAD~3", Deny},
		{rules("git tag --delete", "git tag"), "git tag -d v1", Deny},
		{rules("git tag -f", "git tag"), "git tag --force v1", Deny},
		{rules("git stash push --include-untracked", "git stash"), "git stash -u", Deny},
		{rules("git stash push", "git stash"), "git stash", Deny},
		{rules("git stash push", "git stash"), "git stash save wip", Deny},
		{rules("git stash drop", "git stash"), "git stash -u", Allow},
		{rules("git restore --worktree", "git restore"), "git restore -W x", Deny},
		{rules("git restore --source", "git restore"), "git restore -sHEAD x", Deny},
		// value forms that mean the same
		{rules("git push --force", "git push"), "git push origin +main", Deny},
		{rules("git push --force", "git push"), "git push origin +main:main", Deny},
		{rules("git push --force", "git push"), "git push --force-with-lease origin main", Deny},
		{rules("git push --force", "git push"), "git push --force-with-lease=main:abc origin main", Deny},
		{rules("git push --force", "git push"), "git push --mirror origin", Deny},
		{rules("git push --force", "git push"), "git push --mirr origin", Deny},
		{rules("git push --delete", "git push"), "git push origin :main", Deny},
		{rules("git push --delete", "git push"), "git push --prune origin", Deny},
		{rules("git push --force", "git push"), "git push -o ci.skip origin main", Allow},
		{rules("git push --force", "git push"), "git push origin main", Allow},
		{rules("git push --delete", "git push"), "git push origin main:main", Allow},
		// rm
		{rules("rm -f", "rm"), "rm --force x", Deny},
		{rules("rm --force", "rm"), "rm -rf x", Deny},
		{rules("rm -r", "rm"), "rm --recursive x", Deny},
		{rules("rm -r", "rm"), "rm -dr x", Deny},
		{rules("rm -r", "rm"), "rm -- -r", Allow}, // a file named -r
		// npm
		{rules("npm publish", "npm"), "npm -- publish", Deny},
		{rules("npm install --global", "npm install"), "npm i -g x", Deny},
		{rules("npm install -g", "npm install"), "npm install --global x", Deny},
		{rules("npm publish --workspaces", "npm"), "npm publish -ws", Deny},
		{rules("npm install --force", "npm install"), "npm install -f", Deny},
		// package runners run the program they name
		{rules("git push", "npx"), "npx git push origin main", Deny},
		{rules("git push", "npx"), "npx --offline git push", Deny},
		{rules("git push", "npx"), "npx -y -- git push", Deny},
		{rules("git push", "npx"), "npx -c 'git push origin'", Deny},
		{rules("git push", "npx"), "npx --registry https://r.example git push", Deny},
		{rules("git push", "npx"), "npx --weird git push", Deny},
		{rules("git push", "npm exec"), "npm exec -- git push origin main", Deny},
		{rules("git push", "npm"), "npm exec git push", Deny},
		{rules("git push", "npm"), "npm x -- git push", Deny},
		{rules("git push", "npm"), "npm --yes exec git push", Deny},
		{rules("git push", "pnpm"), "pnpm exec git push", Deny},
		{rules("git push", "pnpm"), "pnpm dlx git push", Deny},
		{rules("git push", "pnpm"), "pnpm --filter web exec git push", Deny},
		{rules("git push", "pnpx"), "pnpx git push", Deny},
		{rules("git push", "yarn"), "yarn exec git push", Deny},
		{rules("git push", "yarn"), "yarn dlx git push", Deny},
		{rules("git push", "bun"), "bun x git push", Deny},
		{rules("git push", "bunx"), "bunx git push", Deny},
		{rules("git push --force", "npx"), "npx git push -f", Deny},
		{rules("npm publish", "npx"), "npx npm publish", Deny},
		{rules("npm publish", "npm"), "npm exec npm publish", Deny},
		{rules("npm publish", "npm"), "npm x -- npm pub", Deny},
		{rules("rm -r", "npx"), "npx rm -rf build", Deny},
		{rules("git push", "npx"), "npx npx git push", Deny},
		{rules("git push", "npx"), "npx eslint .", Allow},
		{rules("git push", "npm exec"), "npm exec -- eslint .", Allow},
		// "allow npx" does not cover what destroys or publishes: the rule must name it
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npx"}}, "npx git push", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npx"}}, "npx rm -rf build", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npm exec"}}, "npm exec -- git push", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npx git"}}, "npx git push", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npx git push"}}, "npx git push", Allow},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npx"}}, "npx prettier --check .", Allow},
		// an option whose meaning is not known asks, whatever allow rules say
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "git push"}}, "git push -Z origin", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "git branch"}}, "git branch -Qd x", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -z x", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -f-r x", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "npm install"}}, "npm install -Z x", Ask},
		{nil, "git branch -Z", Ask},
		{nil, "git branch -vv", Allow},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "git push"}}, "git push -u origin main", Allow},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "rm"}}, "rm -fv x", Allow},
	}
	for _, c := range cases {
		t.Run(c.command, func(t *testing.T) {
			d := DecideCommand(words(t, c.command), c.rules, cmdpolicy.Split)
			if d.Action != c.want {
				t.Errorf("%q under %+v: %+v, want %s", c.command, c.rules, d, c.want)
			}
		})
	}
}

// The canonical form is one spelling per option: both spellings of a rule read the same.
func TestCanonicalOptions(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"git push -uf origin main":       "git push --set-upstream --force origin main",
		"git push origin +main":          "git push origin +main --force",
		"git push origin :main -- x":     "git push origin :main --delete -- x",
		"git branch -D x":                "git branch --delete --force x",
		"git commit -mfix -a":            "git commit --message=fix --all",
		"git commit -m fix":              "git commit --message fix",
		"git checkout -bnew":             "git checkout -b new",
		"git stash -u":                   "git stash push --include-untracked",
		"git --no-pager clean -fdx":      "git clean --force -d -x",
		"rm -fR --verbose x":             "rm -r -f -v x",
		"rm --forc x":                    "rm -f x",
		"npm i -gD x":                    "npm install --global --save-dev x",
		"npm --registry https://r.x pub": "npm publish --registry https://r.x",
		"git tag -n5 -l":                 "git tag -n 5 --list",
		"git rebase -xmake -i":           "git rebase --exec=make --interactive",
	} {
		argv := words(t, in)
		got := Join(Readings(argv)[0])
		if got != want {
			t.Errorf("%q reads as %q, want %q", in, got, want)
		}
	}
}
