package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rooted-dev/rooted/backend/tool"
)

// Conversations of one project run at once, as the window's panes do: each call names its conversation, so what a
// conversation read is its own however the calls interleave. Every conversation edits the file it read; none may
// edit the file only its neighbour read (not_read), and that refusal changes nothing on disk.
func TestConversationsAtOnceKeepTheirOwnReads(t *testing.T) {
	const n = 8
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("f%d.txt", i)] = fmt.Sprintf("file %d\n", i)
	}
	svc, p := openProject(t, files)
	call := func(conv, name string, args any) error {
		b, _ := json.Marshal(args)
		_, err := svc.Tools.CallIn(p.ID, conv, name, string(b))
		return err
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			conv := fmt.Sprintf("conv-%d", i)
			mine := fmt.Sprintf("f%d.txt", i)
			next := fmt.Sprintf("f%d.txt", (i+1)%n)
			for round := range 5 {
				if err := call(conv, "read_file", map[string]any{"path": mine}); err != nil {
					errs[i] = fmt.Errorf("%s read %s: %w", conv, mine, err)
					return
				}
				if err := call(conv, "write_file", map[string]any{"path": mine, "content": fmt.Sprintf("file %d, round %d\n", i, round)}); err != nil {
					errs[i] = fmt.Errorf("%s write %s: %w", conv, mine, err)
					return
				}
				err := call(conv, "write_file", map[string]any{"path": next, "content": "overwritten by a neighbour\n"})
				if err == nil || !strings.Contains(err.Error(), tool.CodeNotRead) {
					errs[i] = fmt.Errorf("%s wrote %s, which only its neighbour read: %v", conv, next, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	for i := range n {
		got, err := os.ReadFile(filepath.Join(p.Root, fmt.Sprintf("f%d.txt", i)))
		if want := fmt.Sprintf("file %d, round 4\n", i); err != nil || string(got) != want {
			t.Errorf("f%d.txt = %q, %v; want %q", i, got, err, want)
		}
	}
}
