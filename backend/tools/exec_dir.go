package tools

import (
	"fmt"
	"runtime"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/session"
)

// commandDir opens the session's working directory through the project's root at the moment a command starts, so
// a folder swapped for a symlink after the agent changed into it cannot move the command outside the project: the
// open is refused (outside_root), or on Linux the command starts in the very directory opened (its
// /proc/self/fd path, which the child enters before it runs anything). done closes the directory.
func commandDir(s *session.Session, info session.Info) (dir string, done func(), err error) {
	t, err := s.Resolve(info.Cwd)
	if err != nil {
		return "", nil, err
	}
	f, err := t.Root.Open(t.Rel)
	if err != nil {
		return "", nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.IsDir() {
		err = &files.Error{Op: "exec", Path: t.Slash(), Err: files.ErrNotDir}
	}
	if err != nil {
		f.Close()
		return "", nil, err
	}
	if runtime.GOOS == "linux" {
		return fmt.Sprintf("/proc/self/fd/%d", f.Fd()), func() { f.Close() }, nil
	}
	return info.Cwd, func() { f.Close() }, nil
}
