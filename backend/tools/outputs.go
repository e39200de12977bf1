package tools

import (
	"encoding/binary"
	"hash/fnv"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Build outputs are code as well: cargo run and cargo test run target/debug/app and its test binaries when
// cargo's fingerprint says they are fresh, which it judges by the sources, not by the binaries; npm start runs
// dist/ and .next/ as they are. A command may write them (a build must), so what it changed there is reported
// (outputs_changed, and a line in the command's text in History), file by file, from the guard's own walks
// before and after it: each executable file or script's name, size, mode, modification and change times, which
// a command cannot set back.

// outputFolders are the folders build tools write what runners later execute without rebuilding.
var outputFolders = map[string]bool{"target": true, "dist": true, "build": true, ".next": true}

// skipInOutputs are the parts of output folders that hold no programs: compiler state and caches.
var skipInOutputs = map[string]bool{"incremental": true, ".fingerprint": true, "cache": true, "doc": true}

// scriptExts are the extensions of files runners load whatever their mode: scripts, modules, libraries.
var scriptExts = []string{".js", ".mjs", ".cjs", ".node", ".so", ".dylib", ".wasm", ".jar", ".exe", ".sh", ".py"}

// runnable reports whether a file named name may be what a runner executes: no extension (Unix executables, test
// binaries named crate-hash), or a script's, a library's or a module's. Only these are looked at (one lstat
// each): most files of an output folder (.rlib, .rmeta, .d, .map) are passed over by name.
func runnable(name string) bool {
	return !strings.Contains(name, ".") || slices.Contains(scriptExts, path.Ext(name))
}

// addOutputs fingerprints the runnable files among names, in the output folder dir at rel: a file with an
// executable bit, or a script or module by its extension.
func (st *gitState) addOutputs(dir *os.Root, rel string, names []string) {
	var buf []byte
	for _, name := range names {
		if !runnable(name) {
			continue
		}
		fi, err := dir.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || !slices.Contains(scriptExts, path.Ext(name)) && fi.Mode()&0o111 == 0 {
			continue
		}
		p := path.Join(rel, name)
		buf = append(buf[:0], p...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.Size()))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.Mode()))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(fi.ModTime().UnixNano()))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(changeTime(fi)))
		h := fnv.New64a()
		h.Write(buf)
		st.outputs[p] = h.Sum64()
	}
}

// maxOutputsListed bounds the files outputs_changed names (a build changes many); the rest are counted.
const maxOutputsListed = 30

// outputsChanged lists the output files the command added or changed (a removed one runs nothing).
func outputsChanged(before, after map[string]uint64) []string {
	var out []string
	for p, v := range after {
		if b, ok := before[p]; !ok || b != v {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	if len(out) > maxOutputsListed {
		more := len(out) - maxOutputsListed
		out = append(out[:maxOutputsListed], "and "+strconv.Itoa(more)+" more")
	}
	return out
}
