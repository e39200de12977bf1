package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/testtree"
)

// rooted call use_skill reads the project's skills and the user's (Rooted's own folder under the config folder,
// which TestMain points at a throwaway one): every face has the tool, not only the window.
func TestCallUseSkill(t *testing.T) {
	root := testtree.Dir(t, map[string]string{
		".agents/skills/review/SKILL.md": "---\nname: review\ndescription: Review a change\n---\nList the risks.\n",
	})
	user := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rooted", "skills")
	testtree.Write(t, user, map[string]string{"cli-notes/SKILL.md": "---\nname: cli-notes\ndescription: Keep notes\n---\nWrite notes.\n"})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(user, "cli-notes")) })
	code, out, errOut := run(t, "", "call", "use_skill", "--root", root, `{"name":"review"}`)
	if code != ExitOK || !strings.Contains(out, `"content": "List the risks.\n"`) || !strings.Contains(out, `"scope": "project"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = run(t, "", "call", "use_skill", "--root", root, `{"name":"cli-notes"}`)
	if code != ExitOK || !strings.Contains(out, `"content": "Write notes.\n"`) || !strings.Contains(out, `"scope": "user"`) {
		t.Errorf("a user skill: exit %d, stdout %q", code, out)
	}
	code, out, _ = run(t, "", "call", "use_skill", "--root", root, `{"name":"nope"}`)
	if code != ExitToolError || !strings.Contains(out, `"code": "not_found"`) || !strings.Contains(out, "review") {
		t.Errorf("an unknown skill: exit %d, stdout %q", code, out)
	}
}
