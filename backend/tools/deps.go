package tools

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Dependency folders are not invisible: hooks and test runners run the code in them. A command that is not the
// package manager's own install cannot change them where it has a mount namespace (they are bound read-only); an
// install can, and where no namespace can be made any command can. What changed is reported, per package
// (node_modules/husky, node_modules/@scope/pkg, .venv/bin), from a fingerprint of every file's name, size, mode
// and change time, which a command cannot set back.

// depPrints fingerprints each package of the dependency folders. It reads only names and metadata, never
// following a link, so it walks the folders by their paths: through the root, each step would cost a resolution.
func depPrints(abs string, deps []string) map[string]uint64 {
	out := map[string]uint64{}
	var buf []byte
	for _, dep := range deps {
		base := filepath.Join(abs, filepath.FromSlash(dep))
		filepath.WalkDir(base, func(full string, d fs.DirEntry, err error) error {
			if err != nil || full == base {
				return nil
			}
			rel, _ := filepath.Rel(abs, full)
			p := filepath.ToSlash(rel)
			pkg := packageOf(dep, p)
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			buf = append(buf[:0], p...)
			buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.Size()))
			buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.Mode()))
			buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.ModTime().UnixNano()))
			buf = binary.LittleEndian.AppendUint64(buf, uint64(changeTime(fi)))
			h := fnv.New64a()
			h.Write(buf)
			out[pkg] += h.Sum64() // a sum: the walk's order does not matter
			return nil
		})
	}
	return out
}

// packageOf names the package p belongs to: the dependency folder's entry, or @scope/name.
func packageOf(dep, p string) string {
	rest := strings.TrimPrefix(p, dep+"/")
	parts := strings.SplitN(rest, "/", 3)
	if strings.HasPrefix(parts[0], "@") && len(parts) > 1 {
		return path.Join(dep, parts[0], parts[1])
	}
	return path.Join(dep, parts[0])
}

// depsChanged lists the packages added, removed or changed between two fingerprints.
func depsChanged(before, after map[string]uint64) []string {
	var out []string
	for k, v := range after {
		if b, ok := before[k]; !ok || b != v {
			out = append(out, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
