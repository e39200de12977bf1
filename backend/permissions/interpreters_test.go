package permissions

import (
	"path"
	"slices"
	"testing"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
)

// An interpreter is offered neither "always allow" for itself alone nor a grant for the session, and code written
// into the command asks even under a rule for the interpreter: "allow node" would otherwise allow node -e with any
// program in it.
func TestInterpreters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		command string
		inline  bool   // code written into the command (or read from its input): sensitive
		suggest string // "always allow" offers this rule; "" none
		grant   string // "allow for this session" covers this program; "" none
	}{
		{"node -e \"require('fs').rmSync('src', {recursive: true})\"", true, "", ""},
		{"node --eval 'x()'", true, "", ""},
		{"node --print=1+1", true, "", ""},
		{"node -pe 1", true, "", ""},
		{"node --no-warnings -e 'x()'", true, "", ""},
		{"node", true, "", ""},
		{"node -", true, "", ""},
		{"node scripts/build.js --prod", false, "node scripts/build.js", ""},
		{"node --inspect scripts/build.js", false, "", ""},
		{"/usr/bin/node -e x", true, "", ""},
		{"nodejs -e x", true, "", ""},
		{"bun -e x", true, "", ""},
		{"python3 -c 'import os; os.remove(\"x\")'", true, "", ""},
		{"python3 -Bc 'x'", true, "", ""},
		{"python3 -u -c 'x'", true, "", ""},
		{"python3.12 -c 'x'", true, "", ""},
		{"python -c x", true, "", ""},
		{"python3 -m pytest -q", false, "python3 -m pytest", ""},
		{"python3 tools/gen.py", false, "python3 tools/gen.py", ""},
		{"bash -c 'rm -rf /'", true, "", ""},
		{"bash -lc x", true, "", ""},
		{"bash -x -c x", true, "", ""},
		{"sh -c x", true, "", ""},
		{"zsh -c x", true, "", ""},
		{"bash scripts/test.sh", false, "bash scripts/test.sh", ""},
		{"sh ./configure", false, "sh ./configure", ""},
		{"perl -e 'unlink q(x)'", true, "", ""},
		{"perl -ne 'print'", true, "", ""},
		{"perl -E 'say 1'", true, "", ""},
		{"ruby -e 'File.delete(%q(x))'", true, "", ""},
		{"php -r 'unlink(\"x\");'", true, "", ""},
		{"deno eval 'Deno.removeSync(\"x\")'", true, "", ""},
		{"deno run main.ts", false, "deno run main.ts", ""},
		{"deno run -A main.ts", false, "", ""},
		{"deno test", false, "deno test", ""},
		{"awk 'BEGIN { system(\"rm x\") }'", true, "", ""},
		{"awk -f prog.awk data.txt", false, "", ""},
		{"pwsh -Command 'Remove-Item x'", true, "", ""},
		{"fish --command=x", true, "", ""},
		// Programs that run others: a grant or a rule for them alone would allow every program.
		{"env FOO=1 node x.js", false, "", ""},
		{"xargs rm", false, "", ""},
		{"timeout 5 go test", false, "", ""},
		// Neither an interpreter nor a runner: as before.
		{"go test ./...", false, "go test", "go"},
		{"wc -l main.go", false, "wc", "wc"},
		{"npm run build", false, "npm run build", "npm"},
	} {
		argv := words(t, c.command)
		if got := InlineCode(argv) != ""; got != c.inline {
			t.Errorf("InlineCode(%q) = %q, want inline %v", c.command, InlineCode(argv), c.inline)
		}
		if got := Sensitive(argv) != ""; got != c.inline {
			t.Errorf("Sensitive(%q) = %q, want sensitive %v", c.command, Sensitive(argv), c.inline)
		}
		if got := Suggest(argv); got != c.suggest {
			t.Errorf("Suggest(%q) = %q, want %q", c.command, got, c.suggest)
		}
		if got := ProgramGrant(argv); got != c.grant {
			t.Errorf("ProgramGrant(%q) = %q, want %q", c.command, got, c.grant)
		}
	}
}

// A rule naming only the interpreter (as "always allow" offered before) no longer runs code written into a
// command; it still runs scripts. A rule naming a script covers only that script.
func TestInterpreterRules(t *testing.T) {
	t.Parallel()
	allowNode := []Rule{{Action: Allow, Tool: "exec_shell", Command: "node"}}
	allowScript := []Rule{{Action: Allow, Tool: "exec_shell", Command: "node scripts/build.js"}}
	for _, c := range []struct {
		rules   []Rule
		command string
		want    Action
	}{
		{allowNode, "node -e 'x()'", Ask},
		{allowNode, "node scripts/build.js", Allow},
		{allowScript, "node scripts/build.js --prod", Allow},
		{allowScript, "node scripts/other.js", Ask},
		{allowScript, "node -e 'x()'", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "find"}}, "find . -name '*.go' -exec rm '{}' +", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "find"}}, "find . -delete", Ask},
		{[]Rule{{Action: Allow, Tool: "exec_shell", Command: "find"}}, "find . -name '*.go'", Allow},
	} {
		if d := DecideCommand(words(t, c.command), c.rules, cmdpolicy.Split); d.Action != c.want {
			t.Errorf("%q under %+v: %+v, want %s", c.command, c.rules, d, c.want)
		}
	}
}

// Whatever the command, an interpreter or a program that runs others is never granted for the session, "always
// allow" never names it alone, and code written into a command is never suggested as a rule.
func FuzzInterpreterNeverWhole(f *testing.F) {
	for _, seed := range []string{"node -e x", "python3 -c 'x'", "bash -lc x", "env node x.js", "node scripts/x.js", "python3.11 -m pytest", "deno run -A x.ts", "awk -f p.awk", "go test ./...", "xargs -0 rm", "/usr/bin/perl -ne p"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv, err := cmdpolicy.Split(line)
		if err != nil || len(argv) == 0 {
			return
		}
		runs := interpreter(argv) != "" || slices.Contains(runners, path.Base(argv[0]))
		if runs && ProgramGrant(argv) != "" {
			t.Errorf("ProgramGrant(%q) = %q: a grant of an interpreter or a runner allows any code", argv, ProgramGrant(argv))
		}
		s := Suggest(argv)
		if InlineCode(argv) != "" && s != "" {
			t.Errorf("Suggest(%q) = %q for code written into the command", argv, s)
		}
		if words, _ := cmdpolicy.Split(s); runs && s != "" && len(words) < 2 {
			t.Errorf("Suggest(%q) = %q: the interpreter alone", argv, s)
		}
		if InlineCode(argv) != "" && Sensitive(argv) == "" {
			t.Errorf("%q hands code to an interpreter but is not sensitive", argv)
		}
	})
}
