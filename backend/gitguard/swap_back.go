package gitguard

import (
	"io/fs"
	"os"
)

// A command ended midway (the watcher's first put-back, in the weaker mode) may have renamed the project's .git
// away and left a half-built one in its place: the user's repository is then under another name and git finds
// none. Home notes which folder .git is before a command; MoveBack puts that very folder (the same inode) back
// under .git, removing what the command left there, through the project's os.Root (no link followed).

// Home is the project's .git as it was before a command, or nil where it is not a folder.
func Home(root *os.Root) fs.FileInfo {
	fi, err := root.Lstat(".git")
	if err != nil || !fi.IsDir() {
		return nil
	}
	return fi
}

// MoveBack returns what it did, or "" when .git is still the folder it was (or that folder is gone).
func MoveBack(root *os.Root, was fs.FileInfo) string {
	if was == nil {
		return ""
	}
	if now, err := root.Lstat(".git"); err == nil && os.SameFile(now, was) {
		return ""
	}
	dir, err := root.Open(".")
	if err != nil {
		return ""
	}
	entries, err := dir.ReadDir(-1)
	dir.Close()
	if err != nil {
		return ""
	}
	for _, e := range entries {
		fi, err := root.Lstat(e.Name())
		if err != nil || !os.SameFile(fi, was) {
			continue
		}
		if err := root.RemoveAll(".git"); err != nil {
			return "could not put back .git from " + e.Name() + ": " + err.Error()
		}
		if err := root.Rename(e.Name(), ".git"); err != nil {
			return "could not put back .git from " + e.Name() + ": " + err.Error()
		}
		return ".git moved back from " + e.Name() + ", where the command had renamed it"
	}
	return ""
}
