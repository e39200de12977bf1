//go:build unix

package cmdenv

import (
	"os"
	"path/filepath"
	"syscall"
)

// systemBin are the folders a program Rooted runs itself may come from, in order: the system's, which only root
// can write. PATH plays no part: it may name folders a command can write.
var systemBin = []string{"/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"}

// trustedPath is name in the first system folder that holds it, when the program (after its links) and every
// folder above it are owned by root and writable by no one else; "" when none is.
func trustedPath(name string) string {
	for _, dir := range systemBin {
		p := lookIn(dir, name)
		if p == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !rootOwnedChain(real) {
			continue
		}
		return p
	}
	return ""
}

// rootOwnedChain reports whether p and every folder above it belong to root and are not writable by group or
// others: no one but root could have put p there or replace it.
func rootOwnedChain(p string) bool {
	for {
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || st.Uid != 0 || fi.Mode().Perm()&0o022 != 0 {
			return false
		}
		parent := filepath.Dir(p)
		if parent == p {
			return true
		}
		p = parent
	}
}
