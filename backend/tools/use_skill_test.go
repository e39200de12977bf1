package tools

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/testtree"
	"github.com/rooted-dev/rooted/backend/tool"
)

// use_skill, as every face calls it: the body the model reads, the skill's files and how to read them; one of
// those files; the list; and the errors a model can act on. A project skill beats a user's of the same name,
// and the working directory's beats the root's.
func TestUseSkill(t *testing.T) {
	outside := testtree.Dir(t, map[string]string{"secret.md": "SECRET"})
	dir := testtree.Dir(t, map[string]string{
		".agents/skills/review/SKILL.md":                                       "---\nname: review\ndescription: Review a change\n---\nRead the diff, then list the risks.\n",
		".agents/skills/review/checklist.md":                                   "- tests\n",
		".agents/skills/review/scripts/lint.sh":                                "#!/bin/sh\n",
		".agents/skills/review/leak => " + filepath.Join(outside, "secret.md"): "",
		"web/.claude/skills/review/SKILL.md":                                   "---\nname: review\ndescription: Review the web app\n---\nWEB\n",
	})
	user := testtree.Dir(t, map[string]string{
		"review/SKILL.md": "---\nname: review\ndescription: the user's\n---\nUSER\n",
		"notes/SKILL.md":  "---\nname: notes\ndescription: Keep notes\n---\nWrite notes.\n",
		"notes/tpl.md":    "template",
	})
	s, err := session.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	reg := Registry(Deps{Session: s, SkillDirs: []string{user}})
	text := func(args string) (string, *tool.Error) {
		res, e := reg.CallForms(context.Background(), "use_skill", []byte(args))
		if e != nil {
			return "", e
		}
		return res.Text(), nil
	}

	got, e := text(`{"name": "review"}`)
	if e != nil || !strings.HasPrefix(got, "Read the diff, then list the risks.\n") ||
		!strings.Contains(got, "checklist.md, leak, scripts/, scripts/lint.sh") || !strings.Contains(got, "exec_shell") {
		t.Fatalf("review: %q %v", got, e)
	}
	if got, e := text(`{"name": "review", "file": "checklist.md"}`); e != nil || !strings.HasPrefix(got, "- tests\n") {
		t.Errorf("a file: %q %v", got, e)
	}
	if got, e := text(`{"name": "notes", "file": "tpl.md"}`); e != nil || !strings.HasPrefix(got, "template") {
		t.Errorf("a user skill's file: %q %v", got, e)
	}
	if got, e := text(`{}`); e != nil || got != "review: Review a change (project)\nnotes: Keep notes (user)\n(2 skills: read one with use_skill {\"name\": ...})" {
		t.Errorf("list: %q %v", got, e)
	}
	if _, e := reg.Call(context.Background(), "change_working_directory", []byte(`{"path": "web"}`)); e != nil {
		t.Fatal(e)
	}
	if got, _ := text(`{"name": "review"}`); !strings.HasPrefix(got, "WEB") {
		t.Errorf("from web/, the nearest review: %q", got)
	}
	if _, e := reg.Call(context.Background(), "change_working_directory", []byte(`{"path": ".."}`)); e != nil {
		t.Fatal(e)
	}
	for _, c := range []struct{ args, code, says string }{
		{`{"name": "nope"}`, tool.CodeNotFound, "the skills are: review, notes"},
		{`{"name": "review", "file": "../../../../secret.md"}`, tool.CodeInvalidArgument, "inside the skill's folder"},
		{`{"name": "review", "file": "missing.md"}`, tool.CodeNotFound, "no file missing.md"},
		{`{"file": "x.md"}`, tool.CodeInvalidArgument, "name the skill"},
	} {
		_, e := text(c.args)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.says) {
			t.Errorf("%s: %+v, want %s saying %q", c.args, e, c.code, c.says)
		}
	}
	if got, e := text(`{"name": "review", "file": "leak"}`); e == nil || strings.Contains(got, "SECRET") || e.Code != tool.CodeOutsideRoot {
		t.Errorf("a link out of the project: %q %+v", got, e)
	}
}
