package cmdenv

import (
	"os"
	"path/filepath"
)

// trustedPath is name in the first absolute PATH folder that sandboxed commands may not write (not the temporary
// folder, a shared cache or a folder below one), or "". Windows has no root-owned system folders to hold to.
func trustedPath(name string) string {
	unsafe := []string{os.TempDir()}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) || insideAny(dir, unsafe) {
			continue
		}
		if p := lookIn(dir, name+".exe"); p != "" {
			return p
		}
	}
	return ""
}
