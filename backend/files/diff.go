package files

import (
	"bytes"
	"fmt"
	"strings"
)

// DiffContext is how many unchanged lines a diff shows around each change, as git's default.
const DiffContext = 3

// maxDiffEdits bounds the work of the line diff (Myers' D): past it, the differing middle is shown as one
// deletion and one insertion, which is still a correct diff, only a longer one.
const maxDiffEdits = 2000

// Diff returns a unified diff from before to after, labelled a/path and b/path as git labels them ("" when they
// are equal). A created file is diffed from /dev/null. Binary content (a NUL byte near the start) is not diffed
// line by line: the diff says the files differ, as git does.
func Diff(path string, before, after []byte, created bool) string {
	if !created && bytes.Equal(before, after) {
		return ""
	}
	from := "a/" + path
	if created {
		from = "/dev/null"
	}
	if bytes.IndexByte(before[:min(len(before), sniffLen)], 0) >= 0 || bytes.IndexByte(after[:min(len(after), sniffLen)], 0) >= 0 {
		return fmt.Sprintf("Binary files %s and b/%s differ\n", from, path)
	}
	a, b := splitLines(string(before)), splitLines(string(after))
	ops := lineDiff(a, b)
	var sb strings.Builder
	sb.WriteString("--- " + from + "\n+++ b/" + path + "\n")
	for _, h := range hunks(ops, DiffContext) {
		writeHunk(&sb, h, a, b)
	}
	return sb.String()
}

// splitLines splits s after each newline; a last line without one is kept as it is.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type diffOp struct {
	kind byte // ' ', '-', '+'
	a, b int  // index in a (for ' ' and '-') and in b (for ' ' and '+')
}

// lineDiff is Myers' shortest edit script over lines, after the common head and tail are set aside.
func lineDiff(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ops := make([]diffOp, 0, head+tail+8)
	for i := range head {
		ops = append(ops, diffOp{' ', i, i})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	for _, op := range myers(ma, mb) {
		op.a += head
		op.b += head
		ops = append(ops, op)
	}
	for i := range tail {
		ops = append(ops, diffOp{' ', len(a) - tail + i, len(b) - tail + i})
	}
	return ops
}

func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	replaceAll := func() []diffOp {
		ops := make([]diffOp, 0, n+m)
		for i := range n {
			ops = append(ops, diffOp{'-', i, 0})
		}
		for j := range m {
			ops = append(ops, diffOp{'+', 0, j})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return replaceAll()
	}
	limit := min(n+m, maxDiffEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d][k+d]: the furthest x on diagonal k after round d
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	if found < 0 {
		return replaceAll()
	}
	var rev []diffOp
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		}
		px := at(prevK)
		py := px - prevK
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{' ', x, y})
		}
		if x == px {
			y--
			rev = append(rev, diffOp{'+', x, y})
		} else {
			x--
			rev = append(rev, diffOp{'-', x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{' ', x, y})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// hunks groups the changes with ctx lines of context, merging groups whose context would touch.
func hunks(ops []diffOp, ctx int) [][]diffOp {
	var out [][]diffOp
	start, end := -1, -1 // the current hunk's range in ops
	for i, op := range ops {
		if op.kind == ' ' {
			continue
		}
		lo, hi := max(0, i-ctx), min(len(ops), i+ctx+1)
		if start >= 0 && lo <= end {
			end = hi
			continue
		}
		if start >= 0 {
			out = append(out, ops[start:end])
		}
		start, end = lo, hi
	}
	if start >= 0 {
		out = append(out, ops[start:end])
	}
	return out
}

func writeHunk(sb *strings.Builder, h []diffOp, a, b []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, op := range h {
		if op.kind != '+' {
			if aStart < 0 {
				aStart = op.a
			}
			aLen++
		}
		if op.kind != '-' {
			if bStart < 0 {
				bStart = op.b
			}
			bLen++
		}
	}
	// An empty side starts at the line before the change (0 at the top), as in diff -u.
	if aStart < 0 {
		aStart = h[0].a - 1
	}
	if bStart < 0 {
		bStart = h[0].b - 1
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range h {
		line := ""
		switch op.kind {
		case '-':
			line = a[op.a]
		default:
			line = b[op.b]
		}
		sb.WriteByte(op.kind)
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
