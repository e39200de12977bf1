package skills

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/smallfile"
	"github.com/rooted-dev/rooted/backend/testtree"
)

func skillMD(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body
}

// Skills are found from the working directory up to the project root, then in the user's folders; the nearest
// wins a shared name, the project wins over the user, .agents over .claude; the others are reported, not listed.
func TestFindPrecedence(t *testing.T) {
	root, _ := testtree.Root(t, map[string]string{
		".agents/skills/review/SKILL.md":          skillMD("review", "root review", "ROOT"),
		".agents/skills/deploy/SKILL.md":          skillMD("deploy", "root deploy", ""),
		".claude/skills/deploy/SKILL.md":          skillMD("deploy", "claude deploy", ""),
		".claude/skills/lint/SKILL.md":            skillMD("lint", "claude lint", ""),
		"svc/.agents/skills/review/SKILL.md":      skillMD("review", "svc review", "SVC"),
		"svc/api/keep.go":                         "package api",
		"other/.agents/skills/elsewhere/SKILL.md": skillMD("elsewhere", "not on the way up", ""),
	})
	user := testtree.Dir(t, map[string]string{
		"lint/SKILL.md":   skillMD("lint", "user lint", ""),
		"notes/SKILL.md":  skillMD("notes", "user notes", ""),
		"review/SKILL.md": skillMD("review", "user review", ""),
	})
	c := Places{Project: root, Cwd: "svc/api", User: []string{filepath.Join(t.TempDir(), "missing"), user}}.Find()
	var got []string
	for _, s := range c.Skills {
		got = append(got, s.Name+"="+s.Description+"@"+s.Scope)
	}
	want := "review=svc review@project,deploy=root deploy@project,lint=claude lint@project,notes=user notes@user"
	if strings.Join(got, ",") != want {
		t.Fatalf("skills:\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	if c.Skills[0].Path != "svc/.agents/skills/review/SKILL.md" || c.Skills[3].Path != filepath.Join(user, "notes", "SKILL.md") {
		t.Errorf("paths: %s, %s", c.Skills[0].Path, c.Skills[3].Path)
	}
	shadowed := map[string]bool{}
	for _, p := range c.Problems {
		shadowed[p.Path] = true
	}
	for _, p := range []string{".agents/skills/review/SKILL.md", ".claude/skills/deploy/SKILL.md", filepath.Join(user, "lint", "SKILL.md"), filepath.Join(user, "review", "SKILL.md")} {
		if !shadowed[p] {
			t.Errorf("%s is not reported as shadowed: %+v", p, c.Problems)
		}
	}
	// use_skill reads the one listed: the nearest.
	l, err := Places{Project: root, Cwd: "svc/api", User: []string{user}}.Load("review", "")
	if err != nil || l.Content != "SVC" {
		t.Fatalf("load review: %q, %v", l.Content, err)
	}
}

// A SKILL.md reached through a link out of the project (the skill's folder, the file, or the skills folder itself)
// is never read; nor is a pipe, which would block a plain read; nor one without a description.
func TestFindRefusesLinksOutAndPipes(t *testing.T) {
	outside := testtree.Dir(t, map[string]string{
		"evil/SKILL.md":     skillMD("evil", "SECRET outside", "SECRET"),
		"skills/x/SKILL.md": skillMD("x", "SECRET folder", "SECRET"),
	})
	root, dir := testtree.Root(t, map[string]string{
		".agents/skills/good/SKILL.md":                                                  skillMD("good", "fine", "body"),
		".agents/skills/nodesc/SKILL.md":                                                "---\nname: nodesc\n---\nbody",
		".agents/skills/nofront/SKILL.md":                                               "just text",
		".agents/skills/bad/SKILL.md":                                                   skillMD("bad name!", "x", ""),
		".agents/skills/evil => " + filepath.Join(outside, "evil"):                      "",
		".agents/skills/file/":                                                          "",
		".agents/skills/file/SKILL.md => " + filepath.Join(outside, "evil", "SKILL.md"): "",
		".claude/skills => " + filepath.Join(outside, "skills"):                         "",
		".agents/skills/pipe/":                                                          "",
	})
	mkfifo(t, filepath.Join(dir, ".agents/skills/pipe/SKILL.md"))
	c := Places{Project: root}.Find()
	if len(c.Skills) != 1 || c.Skills[0].Name != "good" {
		t.Fatalf("skills: %+v", c.Skills)
	}
	reasons := map[string]string{}
	for _, p := range c.Problems {
		reasons[p.Path] = p.Reason
		if strings.Contains(p.Reason, "SECRET") {
			t.Errorf("a problem shows what is outside: %+v", p)
		}
	}
	for p, want := range map[string]string{
		".agents/skills/nodesc/SKILL.md":  "no description",
		".agents/skills/nofront/SKILL.md": "no front matter",
		".agents/skills/bad/SKILL.md":     "not a skill name",
		".agents/skills/pipe/SKILL.md":    "named pipe",
		".agents/skills/evil/SKILL.md":    "link out",
		".agents/skills/file/SKILL.md":    "link out",
	} {
		if !strings.Contains(reasons[p], want) {
			t.Errorf("%s: reason %q, want it to say %q", p, reasons[p], want)
		}
	}
	for _, name := range []string{"evil", "x"} {
		if _, err := (Places{Project: root}).Load(name, ""); !errors.Is(err, ErrUnknown) {
			t.Errorf("load %s: %v, want unknown", name, err)
		}
	}
}

// use_skill's reader: the body without its front matter, the skill's other files listed, one of them read, and
// nothing outside the skill's folder's root (.., absolute, a link out).
func TestLoad(t *testing.T) {
	outside := testtree.Dir(t, map[string]string{"secret.txt": "SECRET"})
	root, _ := testtree.Root(t, map[string]string{
		".agents/skills/pdf/SKILL.md":                                        skillMD("pdf", "Fill PDF forms", "\nRun scripts/fill.py with exec_shell.\n"),
		".agents/skills/pdf/scripts/fill.py":                                 "print('fill')",
		".agents/skills/pdf/reference.md":                                    "# Reference",
		".agents/skills/pdf/.hidden":                                         "x",
		".agents/skills/pdf/bin.dat":                                         "a\xffb",
		".agents/skills/pdf/leak => " + filepath.Join(outside, "secret.txt"): "",
		"notes.md": "project notes",
	})
	p := Places{Project: root}
	l, err := p.Load("pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	if l.Content != "Run scripts/fill.py with exec_shell.\n" || l.Dir != ".agents/skills/pdf" || l.File != "SKILL.md" {
		t.Errorf("loaded: %+v", l)
	}
	if got := strings.Join(l.Files, ","); got != "bin.dat,leak,reference.md,scripts/,scripts/fill.py" {
		t.Errorf("files: %s", got)
	}
	if l, err := p.Load("pdf", "scripts/fill.py"); err != nil || l.Content != "print('fill')" || l.File != "scripts/fill.py" {
		t.Errorf("a file of the skill: %+v, %v", l, err)
	}
	for file, want := range map[string]error{
		"../../../notes.md": ErrBadFile,
		"/etc/passwd":       ErrBadFile,
		"bin.dat":           ErrBinary,
		"missing.md":        os.ErrNotExist,
	} {
		if _, err := p.Load("pdf", file); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", file, err, want)
		}
	}
	if l, err := p.Load("pdf", "leak"); err == nil || strings.Contains(l.Content, "SECRET") {
		t.Errorf("a link out of the project was read: %q, %v", l.Content, err)
	}
	if _, err := p.Load("nope", ""); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown: %v", err)
	}
}

// A large body is cut at MaxBody; a file over smallfile's limit is refused.
func TestLoadCaps(t *testing.T) {
	root, _ := testtree.Root(t, map[string]string{
		".agents/skills/big/SKILL.md": skillMD("big", "big body", strings.Repeat("é", MaxBody)),
		".agents/skills/big/huge.txt": strings.Repeat("x", smallfile.Limit+1),
	})
	l, err := Places{Project: root}.Load("big", "")
	if err != nil || !l.Truncated || len(l.Content) > MaxBody || !strings.HasPrefix(l.Content, "é") {
		t.Fatalf("big body: %d bytes, truncated %v, %v", len(l.Content), l.Truncated, err)
	}
	if _, err := (Places{Project: root}).Load("big", "huge.txt"); !errors.Is(err, smallfile.ErrTooLarge) {
		t.Errorf("huge: %v", err)
	}
}

func TestFrontMatter(t *testing.T) {
	cases := []struct {
		name, src, wantName, wantDesc, wantBody string
	}{
		{"plain", "---\nname: a\ndescription: Does a thing.\n---\nBody\n", "a", "Does a thing.", "Body\n"},
		{"quoted", "---\nname: \"a\"\ndescription: 'It''s: fine' # not a comment inside quotes\n---\n", "a", "It's: fine", ""},
		{"double escapes", "---\ndescription: \"line\\tTab\"\n---\nB", "", "line\tTab", "B"},
		{"folded block", "---\ndescription: >\n  Fills PDF forms.\n  Use when asked.\n\n  Second.\nname: pdf\n---\nB", "pdf", "Fills PDF forms. Use when asked.\nSecond.", "B"},
		{"literal block", "---\ndescription: |\n  one\n  two\n---\n", "", "one\ntwo", ""},
		{"continued plain", "---\ndescription: starts here\n  and goes on\nname: x # trailing\n---\n", "x", "starts here and goes on", ""},
		{"nested skipped", "---\nname: x\nmetadata:\n  version: 1\n  description: nested\nallowed-tools:\n  - Read\ndescription: top\n---\n", "x", "top", ""},
		{"crlf and bom", "\ufeff---\r\nname: w\r\ndescription: win\r\n---\r\nB\r\n", "w", "win", "B\n"},
		{"empty front matter", "---\n---\nB", "", "", "B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, body, ok := frontMatter(c.src)
			if !ok || f["name"] != c.wantName || f["description"] != c.wantDesc || body != c.wantBody {
				t.Errorf("got ok=%v name=%q desc=%q body=%q", ok, f["name"], f["description"], body)
			}
		})
	}
	for _, src := range []string{"no front matter", "---\nname: x\nnever closed"} {
		if _, body, ok := frontMatter(src); ok || body != src {
			t.Errorf("%q: ok=%v body=%q", src, ok, body)
		}
	}
}

func FuzzFrontMatter(f *testing.F) {
	f.Add("---\nname: a\ndescription: >\n  x\n---\nbody")
	f.Add("---\n---\n")
	f.Add("---\ndescription: \"\\\n---")
	f.Fuzz(func(t *testing.T, src string) {
		fields, body, ok := frontMatter(src)
		if !ok && body != src && body != strings.ReplaceAll(strings.TrimPrefix(src, "\ufeff"), "\r\n", "\n") {
			t.Errorf("no front matter, but the body changed: %q", body)
		}
		_ = fields
	})
}
