package snapshot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Git opens the .gitignore and .gitattributes of every folder it scans, and Rooted cannot tell it not to. One that
// is a named pipe (a sandboxed command can make one) blocks git's open until something opens the pipe for
// writing: a snapshot would never end. So while a git that reads the work tree runs, Rooted keeps opening every
// such pipe it knows of for writing, without blocking, and closes it at once: git's open returns and it reads an
// empty file. The pipes are found by the walk every full scan makes (scanTree), among the paths a watcher reports,
// and, when a git runs longer than rescanAfter, by a walk made meanwhile (a pipe made since). A git that still does
// not end (a pipe some process holds open without writing) is ended at workTreeDeadline, and the snapshot fails
// with that reason rather than hang.

// blockingNames are the files git opens in every folder it scans.
var blockingNames = map[string]bool{".gitignore": true, ".gitattributes": true}

var (
	// workTreeDeadline bounds a git that reads the work tree: generous for the first snapshot of a big project.
	workTreeDeadline = 10 * time.Minute
	// pokeEvery is how often the known pipes are opened while such a git runs.
	pokeEvery = 25 * time.Millisecond
	// rescanAfter is how long such a git runs before a walk looks for pipes made since the last one.
	rescanAfter = time.Second
)

// isBlocking reports whether a walked entry is a file git would open that is neither a regular file nor a link
// (git refuses links to these files).
func isBlocking(name string, typ fs.FileMode) bool {
	return blockingNames[name] && !typ.IsRegular() && !typ.IsDir() && typ&fs.ModeSymlink == 0
}

// noteBlocking records rel (a slash path) as a pipe to keep open while git runs, if it is one.
func (r *Repo) noteBlocking(rel string) {
	if !blockingNames[path.Base(rel)] {
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
func (r *Repo) runWorkTree(ctx context.Context, run func(ctx context.Context) ([]byte, error)) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, workTreeDeadline)
	defer cancel()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.keepPipesOpen(ctx, stop)
	}()
	out, err := run(ctx)
	close(stop)
	<-done
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("%w (git did not finish within %v: a file it reads in the project may block it, such as a named pipe some program holds open)", err, workTreeDeadline)
	}
	return out, err
}

// keepPipesOpen opens every known pipe for writing, every pokeEvery, until stop; after rescanAfter it walks the
// tree for pipes made since, once, in the background.
func (r *Repo) keepPipesOpen(ctx context.Context, stop <-chan struct{}) {
	known := r.knownBlocking()
	tick := time.NewTicker(pokeEvery)
	defer tick.Stop()
	rescan := time.NewTimer(rescanAfter)
	defer rescan.Stop()
	found := make(chan []string, 1)
	walkCtx, cancelWalk := context.WithCancel(ctx)
	var walking sync.WaitGroup
	defer walking.Wait()
	defer cancelWalk()
	for {
		for _, rel := range known {
			pokePipe(r.fsys, rel)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		case <-rescan.C:
			walking.Go(func() {
				_, pipes := scanTree(walkCtx, r.fsys)
				found <- pipes
			})
		case pipes := <-found:
			r.addBlocking(pipes)
			for _, p := range pipes {
				if !slices.Contains(known, p) {
					known = append(known, p)
				}
			}
		}
	}
}

// pokePipe opens rel for writing without blocking and closes it, when it is a named pipe: a reader blocked opening
// it goes on, and reads an end of file. Opened through the project's root, never through a link out of it.
func pokePipe(root *os.Root, rel string) {
	p := filepath.FromSlash(rel)
	if fi, err := root.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return
	}
	if f, err := root.OpenFile(p, os.O_WRONLY|oNonblock, 0); err == nil {
		f.Close()
	}
}
