package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// The window's system prompt lists the skills of the project from its working directory up, then the user's, and
// hears of a SKILL.md it left out.
func TestInstructionsListSkills(t *testing.T) {
	dir := testtree.Dir(t, map[string]string{
		".agents/skills/review/SKILL.md":     "---\nname: review\ndescription: Review a change\n---\nbody",
		"svc/.claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the service\n---\nbody",
		".agents/skills/broken/SKILL.md":     "no front matter",
	})
	user := testtree.Dir(t, map[string]string{"review/SKILL.md": "---\nname: review\ndescription: the user's\n---\n"})
	svc := openServices(t)
	svc.Settings.skillDirs = []string{user}
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tools.Call(cur(t, svc), "change_working_directory", `{"path":"svc"}`); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Settings.Instructions(cur(t, svc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range v.Skills.Skills {
		got = append(got, s.Name+":"+s.Path)
	}
	want := []string{"deploy:svc/.claude/skills/deploy/SKILL.md", "review:.agents/skills/review/SKILL.md"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("skills: %v, want %v", got, want)
	}
	left := map[string]bool{}
	for _, p := range v.Skills.Problems {
		left[p.Path] = true
	}
	if !left[".agents/skills/broken/SKILL.md"] || !left[filepath.Join(user, "review", "SKILL.md")] {
		t.Errorf("problems: %+v", v.Skills.Problems)
	}
}

// /name in the request box expands the nearest prompt file called name, else the skill; an unknown name lists
// what there is.
func TestCommandExpandsAPromptFileOrASkill(t *testing.T) {
	dir := testtree.Dir(t, map[string]string{
		".agents/commands/review.md":     "---\ndescription: Review\n---\nReview $ARGUMENTS carefully.\n",
		".agents/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy\n---\nRun make deploy.\n",
	})
	svc := openServices(t)
	svc.Settings.skillDirs, svc.Settings.commandDirs = nil, []string{t.TempDir()}
	if _, err := svc.Projects.Open(dir); err != nil {
		t.Fatal(err)
	}
	if c, err := svc.Settings.Command(cur(t, svc), "review"); err != nil || c.Kind != "command" || c.Body != "Review $ARGUMENTS carefully.\n" {
		t.Errorf("review: %+v %v", c, err)
	}
	if c, err := svc.Settings.Command(cur(t, svc), "deploy"); err != nil || c.Kind != "skill" || c.Body != "Run make deploy.\n" {
		t.Errorf("deploy: %+v %v", c, err)
	}
	if _, err := svc.Settings.Command(cur(t, svc), "nope"); err == nil || !strings.Contains(err.Error(), "not_found") || !strings.Contains(err.Error(), "/review, /deploy") {
		t.Errorf("nope: %v", err)
	}
	v, err := svc.Settings.Instructions(cur(t, svc))
	if err != nil || len(v.Commands) != 1 || v.Commands[0].Name != "review" || v.Commands[0].Description != "Review" {
		t.Errorf("commands listed: %+v %v", v.Commands, err)
	}
}
