package gitguard

import (
	"encoding/binary"
	"hash/fnv"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The guard's one walk of the work tree also finds, by name at any depth, what other tools run programs from,
// for the caller to protect before a command and to judge what a command created after it:
//
//   - dependency folders (IsDependencyFolder), outermost only;
//   - tool files and folders (the Guard's tool rule, WithToolNames) outside dependency folders, outermost only;
//   - the runnable files of build outputs (OutputFolders), fingerprinted: a command may write them (a build must),
//     so what it changed there is reported (OutputsChanged);
//   - the work-tree folders outside all of these, where a new tool file or dependency folder would appear.

// DependencyFolders are the folders package managers fill with code that other tools later run, by name at any
// depth: a new one nearer to a package shadows the hoisted one (node resolves the nearest node_modules, npm puts
// the nearest node_modules/.bin first on PATH). A folder holding pyvenv.cfg is a virtual environment by any name
// (IsDependencyFolder). __pycache__ holds compiled code Python loads instead of its source when the header matches:
// commands get a private PYTHONPYCACHEPREFIX, so Python itself never writes one in the project.
var DependencyFolders = map[string]bool{
	"node_modules": true, ".venv": true, "venv": true, "bower_components": true, ".yarn": true, ".tox": true,
	".nox": true, "__pypackages__": true, "__pycache__": true,
}

// IsDependencyFolder reports whether the folder named name, holding names, is a dependency folder.
func IsDependencyFolder(name string, names []string) bool {
	return DependencyFolders[name] || slices.Contains(names, "pyvenv.cfg")
}

// WithToolNames sets the rule by which the walk records tool files and folders (Tools): a name tools outside the
// sandbox run programs from, wherever it is in the work tree. Set it before the Guard's first Scan.
func (g *Guard) WithToolNames(isTool func(name string) bool) *Guard {
	g.isTool = isTool
	return g
}

// Tools are the tool files and folders (WithToolNames) outside dependency folders, outermost only.
func (st *State) Tools() []string { return st.tools }

// Folders are the work-tree folders outside dependency, tool and output folders ("." first): where a command would
// create a tool file or dependency folder.
func (st *State) Folders() []string { return st.folders }

// Build outputs are code as well: cargo run and cargo test run target/debug/app and its test binaries when cargo's
// fingerprint says they are fresh, which it judges by the sources, not by the binaries; npm start runs dist/ and
// .next/ as they are. They are fingerprinted file by file: each executable file or script's name, size, mode,
// modification and change times, which a command cannot set back.

// OutputFolders are the folders build tools write what runners later execute without rebuilding.
var OutputFolders = map[string]bool{"target": true, "dist": true, "build": true, ".next": true}

// skipInOutputs are the parts of output folders that hold no programs: compiler state and caches.
var skipInOutputs = map[string]bool{"incremental": true, ".fingerprint": true, "cache": true, "doc": true}

// scriptExts are the extensions of files runners load whatever their mode: scripts, modules, libraries.
var scriptExts = []string{".js", ".mjs", ".cjs", ".node", ".so", ".dylib", ".wasm", ".jar", ".exe", ".sh", ".py"}

// runnable reports whether a file named name may be what a runner executes: no extension (Unix executables, test
// binaries named crate-hash), or a script's, a library's or a module's. Only these are looked at (one lstat each):
// most files of an output folder (.rlib, .rmeta, .d, .map) are passed over by name.
func runnable(name string) bool {
	return !strings.Contains(name, ".") || slices.Contains(scriptExts, path.Ext(name))
}

// addOutputs fingerprints the runnable files among names, in the output folder dir at rel: a file with an
// executable bit, or a script or module by its extension.
func (st *State) addOutputs(dir *os.Root, rel string, names []string) {
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

// maxOutputsListed bounds the files OutputsChanged names (a build changes many); the rest are counted.
const maxOutputsListed = 30

// OutputsChanged lists the output files the command added or changed between before and after (a removed one runs
// nothing).
func (before *State) OutputsChanged(after *State) []string {
	var out []string
	for p, v := range after.outputs {
		if b, ok := before.outputs[p]; !ok || b != v {
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
