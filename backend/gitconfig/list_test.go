package gitconfig

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// List reads a file as git does, where a line-by-line reading goes wrong: a byte-order mark, a comment longer than
// any buffer, a "]" inside a value, a key on the header's line, capital letters. Includes are keys, not followed.
func TestListReadsAsGitDoes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file string
		want       map[string][]string
	}{
		{"byte-order mark", "\ufeff[core]\n\tfsmonitor = x\n", map[string][]string{"core.fsmonitor": {"x"}}},
		{"a comment over 1 MiB", "#" + strings.Repeat("x", 1<<20+10) + "\n[core]\n\tfsmonitor = x\n", map[string][]string{"core.fsmonitor": {"x"}}},
		{"] in a value on the header's line", "[core] fsmonitor = \"touch x ]\"\n", map[string][]string{"core.fsmonitor": {"touch x ]"}}},
		{"capitals and a subsection", "[Filter \"Lfs\"]\n\tClean = a\n[CORE]\n\tFsMonitor\n", map[string][]string{"filter.Lfs.clean": {"a"}, "core.fsmonitor": {""}}},
		{"an include is a key", "[include]\n\tpath = ../elsewhere\n", map[string][]string{"include.path": {"../elsewhere"}}},
	} {
		got, err := List(context.Background(), []byte(c.file))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
	if _, err := List(context.Background(), []byte("[core\nfsmonitor = x\n")); !errors.Is(err, ErrUnreadable) {
		t.Errorf("a broken file: %v", err)
	}
}

// Without removes keys as git reads them, and leaves the rest as it was.
func TestWithout(t *testing.T) {
	t.Parallel()
	file := "\ufeff[core]\n\tbare = false\n[CORE] FsMonitor = \"x ]\"\n[alias]\n\tst = !sh\n\tco = checkout\n"
	got, err := Without(context.Background(), []byte(file), []string{"core.fsmonitor", "alias.st"})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := List(context.Background(), got)
	want := map[string][]string{"core.bare": {"false"}, "alias.co": {"checkout"}}
	if err != nil || !reflect.DeepEqual(keys, want) {
		t.Errorf("%q: %v %v", got, keys, err)
	}
}
