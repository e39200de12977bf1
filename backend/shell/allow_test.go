package shell

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
