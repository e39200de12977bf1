package gitguard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitconfig"
)

// isTodo reports whether p (root-relative, in a git folder) is a todo list git carries on with later: an
// interactive rebase's rebase-merge/git-rebase-todo, or a cherry-pick's or revert's sequencer/todo. Both are read
// by the sequencer, whose exec (x) command runs a shell command.
func isTodo(p string) bool {
	dir, name := path.Split(p)
	dir = path.Base(path.Clean(dir))
	return dir == "rebase-merge" && name == "git-rebase-todo" || dir == "sequencer" && name == "todo"
}

// withoutExecLines returns a todo list without its exec lines, and how many there were. A line is an exec line
// as the sequencer parses it (blanks, then "exec" or "x" and a blank or the line's end), in any case: a line
// Rooted takes for one that git would not is only dropped from a list the command wrote.
func withoutExecLines(b []byte) ([]byte, int) {
	var out []byte
	n := 0
	for line := range bytes.Lines(b) {
		word := bytes.TrimLeft(line, " \t")
		if end := bytes.IndexAny(word, " \t\r\n"); end >= 0 {
			word = word[:end]
		}
		if w := strings.ToLower(string(word)); w == "exec" || w == "x" {
			n++
			continue
		}
		out = append(out, line...)
	}
	return out, n
}

// maxListed is how many configuration contents a Guard remembers git's reading of.
const maxListed = 512

// configCache remembers git's reading of configuration contents, by their hash, so that a scan before and after
// every command asks git again only for what changed. It holds at most max readings: when full, it starts over.
type configCache struct {
	mu  sync.Mutex
	max int
	m   map[[32]byte]listed
}

type listed struct {
	keys map[string][]string
	err  error
}

// list is git's reading of the configuration content b: its keys and their values, or gitconfig.ErrUnreadable.
func (c *configCache) list(b []byte) (map[string][]string, error) {
	sum := sha256.Sum256(b)
	c.mu.Lock()
	l, ok := c.m[sum]
	c.mu.Unlock()
	if ok {
		return l.keys, l.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, err := gitconfig.List(ctx, b)
	if err != nil && !errors.Is(err, gitconfig.ErrUnreadable) {
		return nil, err // git did not run: not remembered
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = make(map[[32]byte]listed, c.max)
	}
	c.m[sum] = listed{keys, err}
	c.mu.Unlock()
	return keys, err
}

// size is how many readings c holds.
func (c *configCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// execKeys are the program-running settings among keys.
func execKeys(keys map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range keys {
		if gitconfig.RunsPrograms(k) {
			out[k] = v
		}
	}
	return out
}

// execKeysChanged lists the program-running settings whose values differ between two configuration files, as git
// reads them; an error when git cannot read after.
func (c *configCache) execKeysChanged(before, after []byte) ([]string, error) {
	b, err := c.list(after)
	if err != nil {
		return nil, err
	}
	a, _ := c.list(before) // unreadable before: every setting now counts
	ea, eb := execKeys(a), execKeys(b)
	var out []string
	for k, v := range eb {
		if !slices.Equal(ea[k], v) {
			out = append(out, k)
		}
	}
	for k := range ea {
		if _, ok := eb[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// stripNewRepoKeys returns the content of a configuration file the command created (git init, clone,
// config.worktree) holding only the keys a new repository may keep (gitconfig.NewRepositoryMayKeep, an
// allow-list, or also), removed by git itself, and the keys it removed.
func (c *configCache) stripNewRepoKeys(b []byte, also func(key string, values []string) bool) (keys []string, clean []byte, err error) {
	listedKeys, err := c.list(b)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range listedKeys {
		if !gitconfig.NewRepositoryMayKeep(k) && !also(k, v) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, b, nil
	}
	slices.Sort(keys)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if clean, err = gitconfig.Without(ctx, b, keys); err != nil {
		return nil, nil, err
	}
	left, err := c.list(clean)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range left {
		if !gitconfig.NewRepositoryMayKeep(k) && !also(k, v) {
			return nil, nil, fmt.Errorf("%w: %s stays", gitconfig.ErrUnreadable, k)
		}
	}
	return keys, clean, nil
}
