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
)

// Write replaces path with data: a temporary file in the same folder (created 0700 if missing), mode 0600,
// synced, then renamed over path.
func Write(path string, data []byte) error {
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
	return os.Rename(tmp.Name(), path)
}

// WriteJSON is Write of v as indented JSON with a final newline.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return Write(path, append(b, '\n'))
}
