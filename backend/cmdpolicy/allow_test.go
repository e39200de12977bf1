package cmdpolicy

import (
	"slices"
	"strings"
	"testing"
)

// Each row is an attack on the argument checks: a way of naming a file outside the project, following a link
// out, or running a program the allowlist does not name. The checks must parse options as the program does.
func TestArgumentAttacks(t *testing.T) {
	paths := []struct {
		argv []string
		want string // must be among PathArgs
	}{
		{[]string{"grep", "-ie.", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "-ie", ".", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "--regexp=.", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "--regex=.", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "-rf", "/etc/patterns", "."}, "/etc/patterns"},
		{[]string{"grep", "--file=/etc/patterns", "."}, "/etc/patterns"},
		{[]string{"grep", "-A3", "x", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "-C", "3", "x", "/etc/passwd"}, "/etc/passwd"},
		{[]string{"grep", "--exclude-from=/etc/shadow", "x", "."}, "/etc/shadow"},
		{[]string{"cp", "--target=/tmp", "a"}, "/tmp"},
		{[]string{"cp", "--target-directory", "/tmp", "a"}, "/tmp"},
		{[]string{"cp", "-vt/tmp", "a"}, "/tmp"},
		{[]string{"mv", "-t", "/tmp", "a"}, "/tmp"},
		{[]string{"find", "-P", "/etc", "-name", "x"}, "/etc"},
		{[]string{"find", "-H", "-D", "stat", "/etc"}, "/etc"},
		{[]string{"find", "-O3", "/etc"}, "/etc"},
		{[]string{"rm", "-rf", "--", "-/../../x"}, "-/../../x"},
		{[]string{"ls", "-la", "/root"}, "/root"},
	}
	for _, c := range paths {
		if got := PathArgs(c.argv); !slices.Contains(got, c.want) {
			t.Errorf("PathArgs(%q) = %q: %s goes unchecked", c.argv, got, c.want)
		}
	}
	// What is a pattern or an option value is not taken for a file.
	for _, c := range []struct {
		argv []string
		not  string
	}{
		{[]string{"grep", "-e", "/etc/x", "."}, "/etc/x"},
		{[]string{"grep", "-ie/etc/x", "."}, "/etc/x"},
		{[]string{"grep", "/etc/x", "."}, "/etc/x"},
		{[]string{"grep", "-m", "5", "x", "."}, "5"},
	} {
		if got := PathArgs(c.argv); slices.Contains(got, c.not) {
			t.Errorf("PathArgs(%q) = %q: %s is not a file", c.argv, got, c.not)
		}
	}
	for _, argv := range [][]string{
		{"grep", "-rR", "x", "."},
		{"grep", "--dereference-recursive", "x"},
		{"grep", "--deref", "x"},
		{"ls", "-lL"},
		{"ls", "--dereference"},
		{"cp", "-rL", "a", "b"},
		{"cp", "--deref", "a", "b"},
		{"find", "-L", "."},
		{"find", ".", "-follow"},
	} {
		if FollowsLinks(argv) == "" {
			t.Errorf("FollowsLinks(%q): not seen", argv)
		}
	}
	for _, argv := range [][]string{{"grep", "-r", "x", "."}, {"ls", "-la"}, {"cp", "-r", "a", "b"}, {"find", ".", "-name", "L"}} {
		if got := FollowsLinks(argv); got != "" {
			t.Errorf("FollowsLinks(%q) = %q, but it follows no link", argv, got)
		}
	}
	for _, argv := range [][]string{
		{"find", ".", "-exec", "sh", "-c", "id", ";"},
		{"find", ".", "-execdir", "rm", "{}", "+"},
		{"find", ".", "-ok", "x", ";"},
		{"find", ".", "-okdir", "x", ";"},
		{"git", "-c", "alias.x=!sh -c id", "x"},
		{"git", "-calias.x=!id", "x"},
		{"git", "-c", "core.pager=sh -c id", "log"},
		{"git", "--config-env=core.sshCommand=X", "fetch"},
		{"git", "-C", ".", "-c", "core.fsmonitor=./evil", "status"},
		{"git", "config", "core.fsmonitor", "./evil"},
		{"git", "config", "--global", "core.hooksPath", "/tmp/h"},
		{"git", "config", "alias.st", "!sh"},
		{"git", "config", "set", "core.sshCommand", "evil"},
		{"git", "config", "filter.x.clean", "evil"},
		{"git", "config", "diff.x.textconv", "evil"},
		{"git", "config", "include.path", "/tmp/evil"},
	} {
		if RunsPrograms(argv) == "" {
			t.Errorf("RunsPrograms(%q): not refused", argv)
		}
	}
	for _, argv := range [][]string{
		{"git", "log", "-c"},
		{"git", "commit", "-m", "-c"},
		{"git", "config", "--get", "core.pager"},
		{"git", "config", "user.name", "Me"},
		{"git", "config", "core.pager"},
		{"git", "-C", "sub", "status"},
		{"find", ".", "-name", "*.go"},
		{"grep", "-c", "x", "."},
	} {
		if why := RunsPrograms(argv); why != "" {
			t.Errorf("RunsPrograms(%q) = %q: it runs nothing else", argv, why)
		}
	}
	if !strings.Contains(RunsPrograms([]string{"find", ".", "-exec", "x"}), "-exec") {
		t.Error("the refusal should name the option")
	}
}

// git options that run a program the allowlist does not name are refused as find -exec is; one row per way, in the
// forms git's parser accepts (abbreviated long options, attached values, short clusters).
func TestGitOptionsThatRunPrograms(t *testing.T) {
	for _, line := range []string{
		"git rebase --exec make main", "git rebase -x make", "git rebase -xmake", "git rebase -ix make", "git rebase --exe=make",
		"git rebase -i --exec=make HEAD~2",
		"git submodule foreach make", "git submodule --quiet foreach make",
		"git bisect run make",
		"git difftool --extcmd=sh", "git difftool -x sh", "git difftool", "git mergetool",
		"git config -f .git/config core.fsmonitor x", "git config --file .git/config core.fsmonitor x",
		"git config --file=.git/config core.fsmonitor x", "git config -f.git/config core.fsmonitor x",
		"git config --blob HEAD:x --file .git/config alias.x !sh", "git config set --file .git/config core.hooksPath h",
		"git config --type bool commit.gpgSign true", "git config --edit", "git config -e",
		"git config --rename-section foo core",
		"git filter-branch --tree-filter make", "git send-email x.patch", "git instaweb", "git web--browse http://x",
		"git help log", "git log --help", "git --help",
		"git ls-remote --upload-pack=sh origin", "git ls-remote -u sh origin", "git ls-remote --upload=sh origin",
		"git fetch --upload-pack sh origin", "git pull --upload-pack=sh", "git clone -u sh x y", "git clone --upload-pack=sh x",
		"git clone --template=t x y", "git clone -c core.fsmonitor=x x y", "git clone --config core.pager=x x",
		"git init --template=t", "git push --receive-pack=sh origin", "git push --exec=sh origin",
		"git archive --exec=sh --remote=x HEAD",
		"git grep -O x", "git grep --open-files-in-pager=vim x", "git grep -Ovim x",
		"git merge -s evil topic", "git merge -sevil topic", "git merge --strategy=evil topic", "git pull --strategy evil",
		"git --exec-path=./bin status", "git -C . --exec-path=bin log",
		"git -c core.pager=x log", "git --config-env=core.pager=X log",
		// An option before the subcommand that takes a value, or one git is not known to take, never lets its value
		// pass for the subcommand.
		"git --attr-source HEAD rebase --exec make", "git --attr-source=HEAD rebase -x make",
		"git --no-literal-pathspecs rebase --exec make", "git --namespace x rebase --exec make",
		"git --weird rebase", "git --shallow-file x rebase --exec make",
		// plumbing that does a porcelain command's work is judged as that command
		"git send-pack --receive-pack=sh ../x main", "git send-pack --exec=sh ../x main",
		"git fetch-pack --upload-pack=sh ../x", "git fetch-pack --exec=sh ../x",
		// git config: only the keys commands may change, by an allow-list
		"git config interactive.diffFilter x", "git config gpg.ssh.defaultKeyCommand x", "git config help.autocorrect 1",
		"git config hook.pre.command x", "git config --add foo.bar x", "git config set Core.SshCommand x",
		"git config gc.pruneExpire now", "git config --replace-all core.pager x", "git config pull.twohead evil",
	} {
		argv, err := Split(line)
		if err != nil {
			t.Fatal(err)
		}
		if RunsPrograms(argv) == "" {
			t.Errorf("%s: not refused", line)
		}
	}
	for _, line := range []string{
		"git rebase main", "git rebase -i HEAD~2", "git rebase --onto main topic", "git rebase -Xours main",
		"git submodule update --init", "git bisect start", "git bisect good", "git fetch -u origin",
		"git config -f x.cfg user.name Me", "git config --file .git/config --get core.fsmonitor", "git config -f x --list",
		"git config --unset core.fsmonitor", "git config set user.email me@example.com",
		"git clone https://example.com/x.git", "git push origin main", "git pull --rebase", "git grep -n TODO",
		"git merge -s ours topic", "git merge --strategy=ort topic", "git merge -X theirs topic", "git --exec-path",
		"git log -h", "git commit -m message", "git -C sub status", "git archive HEAD",
		"git --no-literal-pathspecs status", "git --attr-source HEAD log", "git --no-pager log", "git --version",
		"git stage x.go", "git send-pack ../x main",
		"git config branch.main.remote origin", "git config remote.origin.url https://example.com/x.git",
		"git config Remote.Origin.Fetch +refs/heads/*:refs/remotes/origin/*", "git config core.autocrlf input",
		"git config --unset interactive.diffFilter", "git config pull.rebase true",
	} {
		argv, _ := Split(line)
		if why := RunsPrograms(argv); why != "" {
			t.Errorf("%s: refused (%s), but it runs nothing else", line, why)
		}
	}
}

// find's -delete and -fprint change files: their paths are checked as rm's are (a repository's history may not be
// among them), and find with no starting point starts at ".".
func TestFindChangedPaths(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"find .git -delete", []string{".git"}},
		{"find -name x -delete", []string{"."}},
		{"find a b -type f -delete", []string{"a", "b"}},
		{"find . -name x -fprint .git/hooks/pre-commit", []string{".git/hooks/pre-commit"}},
		{"find . -fprintf .git/config %p", []string{".git/config"}},
		{"find . -fls out -fprint0 out0", []string{"out", "out0"}},
		{"find . -name x", nil},
		{"rm -rf a", []string{"a"}},
		{"grep -r x .", nil},
	} {
		argv, _ := Split(c.line)
		got := ChangedPaths(argv)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("ChangedPaths(%s) = %q, missing %s", c.line, got, w)
			}
		}
		if c.want == nil && got != nil {
			t.Errorf("ChangedPaths(%s) = %q, but it changes nothing", c.line, got)
		}
		for _, w := range c.want {
			if w != "." && !slices.Contains(PathArgs(argv), w) {
				t.Errorf("PathArgs(%s) = %q: %s is not checked to be inside the project", c.line, PathArgs(argv), w)
			}
		}
	}
}
