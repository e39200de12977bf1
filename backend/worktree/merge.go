package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// Lines are lines Start..Start+Count-1 of a file, counted from 1; Count 0 is the place before line Start (where
// one side added lines and the other had none).
type Lines struct {
	Start int `json:"start"`
	Count int `json:"count"`
}

func (l Lines) String() string {
	switch l.Count {
	case 0:
		return "before line " + strconv.Itoa(l.Start)
	case 1:
		return "line " + strconv.Itoa(l.Start)
	}
	return fmt.Sprintf("lines %d-%d", l.Start, l.Start+l.Count-1)
}

// Hunk is one place both sides changed differently: the lines of the base, of the main checkout's file and of
// the worktree's file it covers.
type Hunk struct {
	Base     Lines `json:"base"`
	Main     Lines `json:"main"`
	Worktree Lines `json:"worktree"`
}

// merged is the outcome of merging one file: its content when clean, else the hunks that conflict.
type merged struct {
	data  []byte
	mode  string
	hunks []Hunk
	why   string // set when the file cannot be merged at all (binary, symlink, modes)
}

// merge merges the worktree's version of a file (will) into the main checkout's (now), with the base (was) as
// their ancestor (absent for a file both sides created: git's add/add, merged against nothing). It runs git
// merge-file on copies in a private folder, so no attribute, driver or program of the project takes part.
func merge(ctx context.Context, was, now, will prior) (merged, error) {
	mode, ok := mergeMode(was, now, will)
	switch {
	case !ok:
		return merged{why: fmt.Sprintf("its mode was changed both ways (%s in the main checkout, %s in the worktree)", now.mode, will.mode)}, nil
	case now.mode == "120000" || will.mode == "120000" || (was.exists && was.mode == "120000"):
		return merged{why: "a symbolic link changed on both sides"}, nil
	case binary(was.data) || binary(now.data) || binary(will.data):
		return merged{why: "a binary file changed on both sides (git merges text only)"}, nil
	}
	dir, err := os.MkdirTemp("", "rooted-merge-")
	if err != nil {
		return merged{}, err
	}
	defer os.RemoveAll(dir)
	for name, data := range map[string][]byte{"main": now.data, "base": was.data, "worktree": will.data} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return merged{}, err
		}
	}
	// No repository is looked for above the private folder: git reads no project's configuration here.
	g := gitexec.Cmd{Dir: dir, Env: []string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir)}}
	out, code, err := status(ctx, g, "merge-file", "--stdout", "--quiet", "-L", "main", "-L", "base", "-L", "worktree", "main", "base", "worktree")
	if err != nil {
		return merged{}, err
	}
	if code == 0 {
		return merged{data: out, mode: mode}, nil
	}
	if code < 0 || code > 127 {
		return merged{}, fmt.Errorf("git merge-file exited with status %d", code)
	}
	toMain, err := lineDiff(ctx, g, "base", "main")
	if err != nil {
		return merged{}, err
	}
	toWorktree, err := lineDiff(ctx, g, "base", "worktree")
	if err != nil {
		return merged{}, err
	}
	hunks := overlaps(toMain, toWorktree, lines(now.data), lines(will.data))
	if len(hunks) == 0 { // git found a conflict where the line diffs did not: name the whole file
		hunks = []Hunk{{Lines{1, len(lines(was.data))}, Lines{1, len(lines(now.data))}, Lines{1, len(lines(will.data))}}}
	}
	return merged{hunks: hunks}, nil
}

// mergeMode is the merged file's mode: the side that changed it wins; both changing it the same way is fine.
func mergeMode(was, now, will prior) (string, bool) {
	base := was.mode
	if !was.exists {
		base = now.mode
	}
	switch {
	case now.mode == will.mode:
		return now.mode, true
	case now.mode == base:
		return will.mode, true
	case will.mode == base:
		return now.mode, true
	}
	return "", false
}

// binary says whether git would take data for binary: a NUL byte in its first 8000 bytes.
func binary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

// status runs git and returns its output and exit status; err is only for a git that could not run.
func status(ctx context.Context, g gitexec.Cmd, args ...string) ([]byte, int, error) {
	cmd, err := g.Command(ctx, args...)
	if err != nil {
		return nil, 0, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() >= 0 {
		if exit.ExitCode() > 127 || (exit.ExitCode() > 1 && args[0] == "diff") {
			return nil, 0, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
		}
		return stdout.Bytes(), exit.ExitCode(), nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), 0, nil
}

// edit is one hunk of a line diff: base lines [from, to) became count lines at side line at.
type edit struct{ from, to, at, count int }

var hunkHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`) })

// lineDiff lists the hunks that turn file a into file b (both in g's folder), as git diffs them.
func lineDiff(ctx context.Context, g gitexec.Cmd, a, b string) ([]edit, error) {
	out, _, err := status(ctx, g, "diff", "--no-index", "--no-ext-diff", "--no-textconv", "--no-color", "-U0", "--", a, b)
	if err != nil {
		return nil, err
	}
	var list []edit
	for _, m := range hunkHeader().FindAllSubmatch(out, -1) {
		n := func(i int) int {
			if len(m[i]) == 0 {
				return 1
			}
			v, _ := strconv.Atoi(string(m[i]))
			return v
		}
		from, fromCount, at, count := n(1), n(2), n(3), n(4)
		// A side with no lines names the line before the place (0 at the top): the place is the next line.
		if fromCount == 0 {
			from++
		}
		if count == 0 {
			at++
		}
		list = append(list, edit{from: from, to: from + fromCount, at: at, count: count})
	}
	return list, nil
}

// overlaps groups the two sides' hunks where they overlap or touch in the base (as git's merge does) and returns
// each group both sides took part in whose two results differ.
func overlaps(toMain, toWorktree []edit, mainLines, worktreeLines [][]byte) []Hunk {
	type tagged struct {
		edit
		side int
	}
	var all []tagged
	for _, e := range toMain {
		all = append(all, tagged{e, 0})
	}
	for _, e := range toWorktree {
		all = append(all, tagged{e, 1})
	}
	slices.SortStableFunc(all, func(a, b tagged) int { return a.from - b.from })
	var hunks []Hunk
	var shift [2]int // lines each side gained before the group, from hunks outside it
	for i := 0; i < len(all); {
		from, to := all[i].from, all[i].to
		var in [2]bool
		var grow [2]int
		j := i
		for ; j < len(all) && all[j].from <= to; j++ {
			to = max(to, all[j].to)
			in[all[j].side] = true
			grow[all[j].side] += all[j].count - (all[j].to - all[j].from)
		}
		if in[0] && in[1] {
			h := Hunk{
				Base:     Lines{from, to - from},
				Main:     Lines{from + shift[0], to - from + grow[0]},
				Worktree: Lines{from + shift[1], to - from + grow[1]},
			}
			if !slices.EqualFunc(span(mainLines, h.Main), span(worktreeLines, h.Worktree), bytes.Equal) {
				hunks = append(hunks, h)
			}
		}
		shift[0] += grow[0]
		shift[1] += grow[1]
		i = j
	}
	return hunks
}

// lines splits data after each newline (a last line without one is a line too).
func lines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	l := bytes.SplitAfter(data, []byte("\n"))
	if len(l[len(l)-1]) == 0 {
		l = l[:len(l)-1]
	}
	return l
}

// span returns the lines l covers, as far as the file has them.
func span(all [][]byte, l Lines) [][]byte {
	from := min(max(l.Start-1, 0), len(all))
	return all[from:min(from+l.Count, len(all))]
}

// describe says where a file's hunks are, for the conflict's message.
func describe(hunks []Hunk) string {
	parts := make([]string, 0, len(hunks))
	for _, h := range hunks {
		parts = append(parts, h.Main.String()+" in the main checkout against "+h.Worktree.String()+" in the worktree")
	}
	return strings.Join(parts, "; ")
}
