package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrTooBroad is the refusal of a project root that holds what no command may change: the user's home folder
// (their shell's startup files, their keys, every other project), Rooted's own settings (the rules commands run
// under) or its cache (the snapshots the user restores from, the copies it set aside). Commands may write the whole project, so such a root would let one rewrite what runs outside the sandbox,
// or its own rules.
var ErrTooBroad = errors.New("too broad to open as a project")

// tooBroadError is ErrTooBroad with its reason, which is all it says (the path is the *fs.PathError's).
type tooBroadError struct{ why string }

func (e tooBroadError) Error() string        { return e.why }
func (e tooBroadError) Is(target error) bool { return target == ErrTooBroad }

// tooBroad says why the folder real (symbolic links followed) may not be a project root, or "" when it may. home,
// config and cache are the user's home, configuration and cache folders ("" where there is none).
func tooBroad(real, home, config, cache string) string {
	switch {
	case home != "" && within(home, real):
		return fmt.Sprintf("it is or holds your home folder (%s): commands could change your shell's startup files and keys; open the project's own folder", home)
	case config != "" && within(filepath.Join(config, "rooted"), real):
		return fmt.Sprintf("it holds Rooted's settings (%s): commands could change the rules they run under; open the project's own folder", filepath.Join(config, "rooted"))
	case cache != "" && within(filepath.Join(cache, "rooted"), real):
		return fmt.Sprintf("it holds Rooted's cache (%s): commands could change the snapshots you restore from; open the project's own folder", filepath.Join(cache, "rooted"))
	}
	return ""
}

// within reports whether p is dir or lies inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !escapes(rel) && !filepath.IsAbs(rel)
}

// userFolders are the user's home, configuration and cache folders, symbolic links followed, "" for one there is
// none of.
func userFolders() (home, config, cache string) {
	resolve := func(p string, err error) string {
		if err != nil || p == "" {
			return ""
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return resolve(os.UserHomeDir()), resolve(os.UserConfigDir()), resolve(os.UserCacheDir())
}
