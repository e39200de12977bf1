package gitexec

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Git opens the .gitignore and .gitattributes of every folder it scans, and nothing tells it not to; in a
// repository's git folder it opens what it needs by name (config, HEAD, index, packed-refs, refs, info/exclude,
// objects/info/alternates, packs, loose objects). One that is a named pipe (a sandboxed command can make one)
// blocks git's open until something opens the pipe for writing: a status, an add or a snapshot would never end. Pipes keeps such pipes from blocking a git that reads a work tree:
// while the git runs, every pipe it knows of is opened for writing without blocking and closed at once, so git's
// open returns and it reads an empty file; when the git runs longer than RescanAfter, a walk of the tree looks
// for pipes it did not know of. Every open goes through the project's root, never through a link out of it.

// BlockingNames are the files git opens in every folder it scans.
var BlockingNames = map[string]bool{".gitignore": true, ".gitattributes": true}

// IsBlocking reports whether a walked entry is a file git would open that is neither a regular file nor a link
// (git refuses links to these files), nor a folder.
func IsBlocking(name string, typ fs.FileMode) bool {
	return BlockingNames[name] && !typ.IsRegular() && !typ.IsDir() && typ&fs.ModeSymlink == 0
}

// Pipes is the work tree a git reads, for Cmd.Pipes.
type Pipes struct {
	Root *os.Root
	// Known, when set, lists pipes the caller already knows of (slash paths from the root), found by its own walks
	// or its watcher; Found hears of the ones a walk found.
	Known func() []string
	Found func([]string)
	// Scan, when set, walks the tree for pipes (ScanPipes when nil).
	Scan func(ctx context.Context, root *os.Root) []string
}

var (
	// pokeEvery is how often the known pipes are opened while a git runs.
	pokeEvery = 25 * time.Millisecond
	// RescanAfter is how long a git runs before a walk looks for pipes not known before.
	RescanAfter = time.Second
)

// keepOpen opens every known pipe for writing, every pokeEvery, until stop; after RescanAfter it walks the tree
// for more, once, in the background.
func (p *Pipes) keepOpen(ctx context.Context, stop <-chan struct{}) {
	var known []string
	if p.Known != nil {
		known = p.Known()
	}
	tick := time.NewTicker(pokeEvery)
	defer tick.Stop()
	rescan := time.NewTimer(RescanAfter)
	defer rescan.Stop()
	found := make(chan []string, 1)
	walkCtx, cancelWalk := context.WithCancel(ctx)
	var walking sync.WaitGroup
	defer walking.Wait()
	defer cancelWalk()
	scan := p.Scan
	if scan == nil {
		scan = ScanPipes
	}
	for {
		for _, rel := range known {
			PokePipe(p.Root, rel)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		case <-rescan.C:
			walking.Go(func() { found <- scan(walkCtx, p.Root) })
		case pipes := <-found:
			if p.Found != nil {
				p.Found(pipes)
			}
			for _, rel := range pipes {
				if !slices.Contains(known, rel) {
					known = append(known, rel)
				}
			}
		}
	}
}

// ScanPipes walks the tree under root for the pipes git would block on: the .gitignore and .gitattributes files
// of the work tree, and every named pipe in a .git folder (any file there is one git may open: a repository Rooted
// does not own holds whatever a command left). It stops early, with what it found, when ctx ends.
func ScanPipes(ctx context.Context, root *os.Root) []string {
	var pipes []string
	fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		if err != nil {
			return nil // an unreadable folder: git cannot read it either
		}
		if d.IsDir() && d.Name() == ".git" {
			pipes = append(pipes, GitDirPipes(ctx, root, rel)...)
			return fs.SkipDir
		}
		if IsBlocking(d.Name(), d.Type()) {
			pipes = append(pipes, rel)
		}
		return nil
	})
	return pipes
}

// GitDirPipes lists the named pipes in the git folder dir (a slash path under root) and below it, read from the
// folder entries alone (no call per file: a git folder may hold many loose objects).
func GitDirPipes(ctx context.Context, root *os.Root, dir string) []string {
	var pipes []string
	fs.WalkDir(root.FS(), dir, func(rel string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		if err == nil && d.Type()&fs.ModeNamedPipe != 0 {
			pipes = append(pipes, rel)
		}
		return nil
	})
	return pipes
}

// inGitDir reports whether the slash path rel lies in a .git folder.
func inGitDir(rel string) bool {
	return strings.HasPrefix(rel, ".git/") || strings.Contains(rel, "/.git/")
}

// PokePipe opens rel for writing without blocking and closes it, when it is a named pipe: a reader blocked opening
// it goes on, and reads an end of file.
func PokePipe(root *os.Root, rel string) {
	if !BlockingNames[path.Base(rel)] && !inGitDir(rel) {
		return
	}
	p := filepath.FromSlash(rel)
	if fi, err := root.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return
	}
	if f, err := root.OpenFile(p, os.O_WRONLY|oNonblock, 0); err == nil {
		f.Close()
	}
}
