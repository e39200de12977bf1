package files

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiffFormat(t *testing.T) {
	t.Parallel()
	before := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	after := strings.Replace(before, "two\n", "TWO\n", 1)
	want := "--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n three\n four\n five\n"
	if got := Diff("f.txt", []byte(before), []byte(after), false); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := Diff("f.txt", []byte(before), []byte(before), false); got != "" {
		t.Errorf("equal content: %q", got)
	}
	want = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"
	if got := Diff("n.txt", nil, []byte("a\nb"), true); got != want {
		t.Errorf("created:\n%s\nwant:\n%s", got, want)
	}
	if got := Diff("b.bin", []byte("a\x00"), []byte("b\x00"), false); got != "Binary files a/b.bin and b/b.bin differ\n" {
		t.Errorf("binary: %q", got)
	}
}

// TestDiffAppliesWithGit checks the diff by what matters about it: git apply turns before into after with it.
// The cases are random edits of a small vocabulary of lines, so that lines repeat as they do in code.
func TestDiffAppliesWithGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := []string{"{", "}", "return nil", "x++", "", "// note", "if err != nil {"}
	randomText := func(n int) []string {
		lines := make([]string, n)
		for i := range lines {
			lines[i] = vocab[rng.IntN(len(vocab))]
		}
		return lines
	}
	join := func(lines []string, eol bool) string {
		s := strings.Join(lines, "\n")
		if eol && len(lines) > 0 {
			s += "\n"
		}
		return s
	}
	for i := range 60 {
		a := randomText(rng.IntN(40))
		b := append([]string(nil), a...)
		for range rng.IntN(6) + 1 {
			switch p := rng.IntN(len(b) + 1); rng.IntN(3) {
			case 0:
				b = append(b[:p], append(randomText(rng.IntN(4)+1), b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[min(len(b), p+rng.IntN(4)+1):]...)
				}
			default:
				if p < len(b) {
					b[p] = "changed " + vocab[rng.IntN(len(vocab))]
				}
			}
		}
		before, after := join(a, rng.IntN(4) > 0), join(b, rng.IntN(4) > 0)
		if before == after {
			continue
		}
		name := filepath.Join(dir, "f.txt")
		os.WriteFile(name, []byte(before), 0o644)
		d := Diff("f.txt", []byte(before), []byte(after), false)
		os.WriteFile(filepath.Join(dir, "p.diff"), []byte(d), 0o644)
		cmd := exec.Command("git", "apply", "p.diff")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: git apply: %v\n%s\nbefore:\n%q\nafter:\n%q\ndiff:\n%s", i, err, out, before, after, d)
		}
		if got, _ := os.ReadFile(name); string(got) != after {
			t.Fatalf("case %d: applied diff gives %q, want %q\ndiff:\n%s", i, got, after, d)
		}
	}
}

// A large rewrite goes past the edit bound and is still a correct diff.
func TestDiffBeyondEditBound(t *testing.T) {
	t.Parallel()
	var a, b strings.Builder
	for i := range maxDiffEdits + 10 {
		a.WriteString("a" + strings.Repeat("x", i%7) + "\n")
		b.WriteString("b" + strings.Repeat("y", i%5) + "\n")
	}
	d := Diff("f", []byte(a.String()), []byte(b.String()), false)
	if n := strings.Count(d, "\n-"); n != maxDiffEdits+10 {
		t.Errorf("%d deletions, want %d", n, maxDiffEdits+10)
	}
}
