package skills

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// Commands are found as skills are: the nearest folder first, the project before the user; a description from the
// front matter or the first line; never a link out of the project, a pipe, or a file that is not a Markdown name.
func TestCommands(t *testing.T) {
	outside := testtree.Dir(t, map[string]string{"leak.md": "SECRET"})
	root, dir := testtree.Root(t, map[string]string{
		".agents/commands/review.md":                                       "---\ndescription: Review the change\nargument-hint: [path]\n---\nReview $ARGUMENTS for bugs.\n",
		".agents/commands/notes.txt":                                       "not a command",
		".agents/commands/bad name.md":                                     "x",
		".claude/commands/explain.md":                                      "# Explain the code\n\nExplain $ARGUMENTS.\n",
		"web/.agents/commands/review.md":                                   "Review the web app: $ARGUMENTS\n",
		".agents/commands/leak.md => " + filepath.Join(outside, "leak.md"): "",
	})
	mkfifo(t, filepath.Join(dir, ".agents/commands/pipe.md"))
	user := testtree.Dir(t, map[string]string{"review.md": "USER", "standup.md": "Write my standup."})
	p := Places{Project: root, Cwd: "web", UserCommands: []string{user}}
	var got []string
	for _, c := range p.Commands() {
		got = append(got, c.Name+"="+c.Description+"@"+c.Scope)
	}
	want := "review=Review the web app: $ARGUMENTS@project,explain=Explain the code@project,standup=Write my standup.@user"
	if strings.Join(got, ",") != want {
		t.Fatalf("commands:\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	c, body, err := p.CommandBody("review")
	if err != nil || body != "Review the web app: $ARGUMENTS\n" || c.Path != "web/.agents/commands/review.md" {
		t.Errorf("review from web: %q %+v %v", body, c, err)
	}
	p.Cwd = ""
	c, body, err = p.CommandBody("review")
	if err != nil || body != "Review $ARGUMENTS for bugs.\n" || c.ArgumentHint != "[path]" {
		t.Errorf("review from the root: %q %+v %v", body, c, err)
	}
	for _, name := range []string{"leak", "pipe", "notes", "nope"} {
		if _, _, err := p.CommandBody(name); !errors.Is(err, ErrUnknownCommand) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
