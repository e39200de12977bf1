// Package configfile writes Rooted's own files in the user's directories (recent projects, settings, providers,
// keys, conversations, the MCP client's secrets and grants): atomically, so a crash leaves the old file or the new
// one and never half of either, and readable by the user only.
//
// It is for files outside any project; files inside a project go through backend/files and the session's
// os.Root.
package configfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces path with data: a temporary file in the same folder (created 0700 if missing), mode 0600,
// written and synced, then renamed over path, and the folder synced so the rename itself survives a crash. It is
// the one atomic writer for Rooted's own files (settings, conversation logs and their stored contents): a reader
// sees the old file or the new one, and once Write returns the new one is on disk. On failure path is as it was
// and no temporary file is left.
func Write(path string, data []byte) error { return write(path, data, true) }

// WriteBatched is Write without the folder's sync, for a caller that writes several files into one folder and
// then calls SyncDir once for all of them (a conversation's stored contents, synced once before the log record
// that names them is written): the same write, one folder sync a batch instead of one a file.
func WriteBatched(path string, data []byte) error { return write(path, data, false) }

func write(path string, data []byte, sync bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if !sync {
		return nil
	}
	return SyncDir(dir)
}

// SyncDir makes the renames in dir durable. Windows has no such call (FlushFileBuffers wants a handle open for
// writing, which a folder's is not) and journals the rename in NTFS's metadata itself.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteJSON is Write of v as indented JSON with a final newline.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return Write(path, append(b, '\n'))
}
