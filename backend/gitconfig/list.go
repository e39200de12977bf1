package gitconfig

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// ErrUnreadable says git itself cannot read a configuration file: git refuses to run in a repository whose
// configuration it cannot parse.
var ErrUnreadable = errors.New("git cannot read this configuration")

// List asks git which keys the configuration file content b sets, and to what: git's own parser, so that a
// byte-order mark, a comment of any length or a "]" in a value mean what they mean to git. Include directives are
// not followed (include.path and includeIf.<condition>.path come back as keys of their own); git runs hardened
// (gitexec) in "/", so no repository's configuration is read either. Keys are named as git names them (section and
// key in lower case, a subsection as written). A file git cannot parse is ErrUnreadable.
func List(ctx context.Context, b []byte) (map[string][]string, error) {
	entries, err := Entries(ctx, b)
	if err != nil {
		return nil, err
	}
	keys := map[string][]string{}
	for _, e := range entries {
		keys[e.Key] = append(keys[e.Key], e.Value)
	}
	return keys, nil
}

// Entry is one setting as git read it.
type Entry struct {
	Key, Value string
	NoValue    bool // "key" alone, without "=": git's true
}

// Entries is List in the file's order, telling a key without a value from an empty one.
func Entries(ctx context.Context, b []byte) ([]Entry, error) {
	if _, err := exec.LookPath(gitexec.Path()); err != nil {
		return nil, err // no git: nothing known about the file
	}
	out, err := gitexec.Cmd{Dir: "/"}.Run(ctx, b, "config", "--no-includes", "--file", "-", "--list", "-z")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	var entries []Entry
	for _, raw := range strings.Split(string(out), "\x00") {
		if raw == "" {
			continue
		}
		k, v, hasValue := strings.Cut(raw, "\n")
		entries = append(entries, Entry{Key: k, Value: v, NoValue: !hasValue})
	}
	return entries, nil
}

// Without returns the configuration content b without every value of keys, removed by git itself (git config
// --unset-all on a copy), so that what goes is what git reads.
func Without(ctx context.Context, b []byte, keys []string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "rooted-gitconfig-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "config")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		return nil, err
	}
	git := gitexec.Cmd{Dir: "/", Read: []string{dir}, Write: []string{dir}}
	for _, k := range keys {
		if _, err := git.Run(ctx, nil, "config", "--no-includes", "--file", file, "--unset-all", k); err != nil {
			if left, lerr := List(ctx, mustRead(file)); lerr == nil && left[k] == nil {
				continue // not set (an earlier key's removal took it)
			}
			return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
	}
	return os.ReadFile(file)
}

func mustRead(file string) []byte {
	b, _ := os.ReadFile(file)
	return b
}
