package toolcache

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A project's private caches hold what its commands built and downloaded, which its next commands run without a
// check. They are keyed by an id Rooted stores once for the project, not by the project's path: a project deleted
// and cloned again at the same path (someone else's code now) must not inherit what the old one's commands left.
// The id is stored with the identity of the project's folder (device, inode and, where the file system keeps it,
// birth time); a different folder at the same path gets a new id. The record lives in Rooted's own folder beside
// the caches, which commands cannot write (only each cache folder itself is writable).

var cacheIDs sync.Mutex

// ToolCacheDir is where a project's commands keep their private toolchain caches: the user's cache directory (or
// the temporary one) / rooted/toolcache/<name>-<id>, the id stored for the project's folder (cacheID).
func ToolCacheDir(root string) string {
	base := toolCacheBase()
	return filepath.Join(base, filepath.Base(root)+"-"+cacheID(base, root))
}

func toolCacheBase() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "rooted", "toolcache")
}

// cacheID returns the id of the project folder at root, stored under base/ids by the hash of its path with the
// folder's identity: the stored id while the folder is the same one, a new random id (stored) otherwise. When
// nothing can be stored, the id is derived from the path and the folder's identity, which still changes with the
// folder.
func cacheID(base, root string) string {
	sum := sha256.Sum256([]byte(root))
	ident := dirIdentity(root)
	fallback := sha256.Sum256([]byte(root + "\x00" + ident))
	cacheIDs.Lock()
	defer cacheIDs.Unlock()
	dir := filepath.Join(base, "ids")
	if os.MkdirAll(dir, 0o700) != nil {
		return hex.EncodeToString(fallback[:8])
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return hex.EncodeToString(fallback[:8])
	}
	defer r.Close()
	name := hex.EncodeToString(sum[:12])
	if b, err := r.ReadFile(name); err == nil {
		id, was, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		if was == ident && len(id) == 16 {
			return id
		}
	}
	var raw [8]byte
	rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	tmp := name + ".tmp"
	if r.WriteFile(tmp, []byte(id+" "+ident+"\n"), 0o600) != nil || r.Rename(tmp, name) != nil {
		return hex.EncodeToString(fallback[:8])
	}
	return id
}
