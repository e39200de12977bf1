package snapshot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/rooted-dev/rooted/backend/gitexec"
)

// Git opens the .gitignore and .gitattributes of every folder it scans; one that is a named pipe blocks it (see
// gitexec.Pipes, which keeps them open while a git that reads the work tree runs). The pipes are found by the walk
// every full scan makes (scanTree), among the paths a watcher reports, and, when a git runs longer than
// gitexec.RescanAfter, by a walk made meanwhile (a pipe made since). A git that still does not end (a pipe some
// process holds open without writing) is ended at workTreeDeadline, and the snapshot fails with that reason rather
// than hang.

// workTreeDeadline bounds a git that reads the work tree: generous for the first snapshot of a big project.
var workTreeDeadline = 10 * time.Minute

// isBlocking reports whether a walked entry is a file git would open that is neither a regular file nor a link.
func isBlocking(name string, typ fs.FileMode) bool { return gitexec.IsBlocking(name, typ) }

// noteBlocking records rel (a slash path) as a pipe to keep open while git runs, if it is one.
func (r *Repo) noteBlocking(rel string) {
	if !gitexec.BlockingNames[path.Base(rel)] {
		return
	}
	if fi, err := r.fsys.Lstat(filepath.FromSlash(rel)); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		r.addBlocking([]string{rel})
	}
}

func (r *Repo) addBlocking(rels []string) {
	r.blockMu.Lock()
	defer r.blockMu.Unlock()
	if r.blocking == nil {
		r.blocking = map[string]bool{}
	}
	for _, rel := range rels {
		r.blocking[rel] = true
	}
}

func (r *Repo) knownBlocking() []string {
	r.blockMu.Lock()
	defer r.blockMu.Unlock()
	out := make([]string, 0, len(r.blocking))
	for rel := range r.blocking {
		out = append(out, rel)
	}
	return out
}

// runWorkTree runs a git that reads the work tree: with a deadline, and with the known pipes kept from blocking it.
func (r *Repo) runWorkTree(ctx context.Context, c gitexec.Cmd, stdin []byte, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, workTreeDeadline)
	defer cancel()
	c.Pipes = &gitexec.Pipes{Root: r.fsys, Known: r.knownBlocking, Found: r.addBlocking, Scan: func(ctx context.Context, root *os.Root) []string {
		_, pipes := scanTree(ctx, root, r.yieldToSearches)
		return pipes
	}}
	out, err := c.Run(ctx, stdin, args...)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("%w (git did not finish within %v: a file it reads in the project may block it, such as a named pipe some program holds open)", err, workTreeDeadline)
	}
	return out, err
}
