// Package gitexec is the one way Rooted starts git for itself: snapshots, restores and diffs of the shadow
// repository, and the reads other packages make of the project's repository (its branch and log for the system
// prompt, the .git guard's questions). Every git it starts runs hardened:
//
//   - no system configuration (GIT_CONFIG_NOSYSTEM), no global configuration but what the caller names
//     (GIT_CONFIG_GLOBAL is the null device), no system attributes;
//   - every setting that makes git run a program switched off through GIT_CONFIG_COUNT/KEY/VALUE, which outranks
//     every configuration file, the project's and any nested repository's, and which every git that git itself
//     starts inherits: core.fsmonitor, hooks (core.hooksPath is the null device, where nothing can be created),
//     submodules (never recursed into, never asked whether they changed), the ssh command, the credential
//     helpers, the pager, the editor, signing, and every transport (protocol.allow=never);
//   - an allow-listed environment: no GIT_* variable of this process (GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND,
//     GIT_DIR ...), no LD_PRELOAD, a PATH of system folders only; the caller adds the GIT_* variables it means;
//   - the git found outside every folder sandboxed commands may write (cmdenv.Trusted);
//   - where the process can (UseSandbox was called, and the OS has a sandbox), inside the command sandbox itself:
//     reading the system, git's files and what the caller lists, writing only what it lists, with no network.
//     A setting missed above still cannot act outside those folders.
//
// Not covered: attribute filters and textconv are per repository (a .gitattributes names them, the config defines
// them). Callers that read work-tree files through git switch them off where they read: the snapshot repository's
// info/attributes unsets every filter, and diffs pass --no-ext-diff --no-textconv. A caller that runs git on a
// repository whose config it does not control must not run commands that apply filters (checkout, add, status of
// modified files).
package gitexec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/cmdenv"
)

// Path is git, resolved once outside every folder sandboxed commands may write (see cmdenv.Trusted).
func Path() string { return cmdenv.Trusted("git") }

// Hardening are the settings every git gets, as key=value pairs passed through GIT_CONFIG_COUNT: they outrank
// every configuration file and reach every git the first one starts.
var Hardening = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", os.DevNull},
	{"core.sshCommand", "false"},
	{"core.askPass", ""},
	{"core.editor", "false"},
	{"core.pager", "cat"},
	{"core.attributesFile", os.DevNull},
	{"sequence.editor", "false"},
	{"credential.helper", ""},
	{"protocol.allow", "never"},
	{"submodule.recurse", "false"},
	{"diff.ignoreSubmodules", "all"},
	{"status.submoduleSummary", "false"},
	{"fetch.recurseSubmodules", "false"},
	{"gpg.program", "false"},
	{"commit.gpgSign", "false"},
	{"tag.gpgSign", "false"},
}

// passEnv are the variables of this process a git may see: where home is (for ~ in paths the caller passes), the
// locale is fixed below, and Windows needs its system folders to start a program at all.
var passEnv = []string{"HOME", "USERPROFILE", "SYSTEMROOT", "SystemRoot", "WINDIR", "COMSPEC", "PATHEXT"}

// Env returns the environment of a hardened git: the allow-listed variables, the hardening, and extra (GIT_DIR,
// GIT_WORK_TREE, GIT_INDEX_FILE, ... and GIT_CONFIG_* pairs are not allowed in extra: use Config).
func Env(config [][2]string, extra ...string) []string {
	env := make([]string, 0, len(passEnv)+2*len(Hardening)+len(config)*2+len(extra)+12)
	for _, k := range passEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	env = append(env,
		"PATH="+safePath(),
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PROTOCOL_FROM_USER=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_ADVICE=0",
	)
	all := append(append([][2]string{}, Hardening...), config...)
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(all)))
	for i, kv := range all {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	for _, e := range extra {
		if strings.HasPrefix(e, "GIT_CONFIG_") {
			continue
		}
		env = append(env, e)
	}
	return env
}

// safePath is the folder git lives in and the system's program folders: git starts its own helpers from its
// exec path, and nothing a sandboxed command may write is on this PATH.
func safePath() string {
	dirs := []string{filepath.Dir(Path())}
	if runtime.GOOS != "windows" {
		dirs = append(dirs, "/usr/bin", "/bin")
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// Cmd describes one git to run.
type Cmd struct {
	Dir string // the working directory
	// Config are settings of this caller's own (key, value), passed as the hardening is.
	Config [][2]string
	// Env adds variables (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OPTIONAL_LOCKS, ...).
	Env []string
	// Read and Write are the folders git needs besides the system's and Dir, when it runs sandboxed: it reads
	// under both and writes only under Write. Read-only when Write is empty.
	Read, Write []string
	// ObjectsOnly says git reads and writes only its repository (objects, refs, its own index), never a work tree
	// or another repository's configuration: it runs hardened but outside the sandbox, which costs two process
	// starts per git.
	ObjectsOnly bool
	// ExtraFiles are passed on to git (a lock it must hold for as long as it runs, even if Rooted dies first).
	ExtraFiles []*os.File
	// Started, if set, hears the process id once git has started (to lower its priority).
	Started func(pid int)
	// WhileRunning, if set, is called once git has started when it runs sandboxed, with the id of a process group
	// of its own that holds the sandbox helper and git, which the caller may stop and continue as one (background
	// work pausing while a search runs); it returns what to call once git has ended. Only a sandboxed git is
	// started so: the helper and git die with Rooted even while stopped (the helper is the init of their PID
	// namespace or, without one, gives git a parent-death signal), where a plain git stopped would outlive it.
	WhileRunning func(group int) (ended func())
	// Pipes, for a git that reads a work tree, keeps named pipes there from blocking it (see Pipes).
	Pipes *Pipes
}

// Command returns the hardened (and, where possible, sandboxed) git for args.
func (c Cmd) Command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	argv := append([]string{Path()}, args...)
	env := Env(c.Config, c.Env...)
	cmd, err := c.start(ctx, argv)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(env, cmd.Env...)
	cmd.Dir, cmd.ExtraFiles = c.Dir, c.ExtraFiles
	return cmd, nil
}

// Run runs git with stdin (nil for none) and returns what it printed; an error carries git's stderr.
func (c Cmd) Run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd, err := c.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	grouped := c.WhileRunning != nil && !c.ObjectsOnly && Sandboxed() && ownGroup(cmd)
	err = cmd.Start()
	if err == nil {
		if c.Started != nil {
			c.Started(cmd.Process.Pid)
		}
		var ended func()
		if grouped {
			ended = c.WhileRunning(cmd.Process.Pid)
		}
		err = c.wait(ctx, cmd)
		if ended != nil {
			ended()
		}
	}
	if err != nil {
		name := ""
		if len(args) > 0 {
			name = args[0]
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// wait waits for git, keeping the work tree's pipes from blocking it meanwhile when c.Pipes says where.
func (c Cmd) wait(ctx context.Context, cmd *exec.Cmd) error {
	if c.Pipes == nil || c.Pipes.Root == nil {
		return cmd.Wait()
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Pipes.keepOpen(ctx, stop)
	}()
	err := cmd.Wait()
	close(stop)
	<-done
	return err
}

// WithoutFilters returns c with every attribute filter its repository's configuration defines switched off (their
// clean, smudge and process commands emptied): for a command that reads work-tree files of a repository Rooted
// does not control (a diff or status of the project's own repository). Attributes name filters per path, so only
// the configuration can say which exist; it is read through the hardened git, which runs nothing.
func (c Cmd) WithoutFilters(ctx context.Context) (Cmd, error) {
	out, err := c.Run(ctx, nil, "config", "--name-only", "--list", "-z")
	if err != nil {
		return c, err
	}
	seen := map[string]bool{}
	cfg := append([][2]string{}, c.Config...)
	for _, key := range strings.Split(string(out), "\x00") {
		name, ok := strings.CutPrefix(strings.ToLower(key), "filter.")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 || seen[name[:i]] {
			continue
		}
		seen[name[:i]] = true
		sub := key[len("filter.") : len("filter.")+i] // the subsection keeps its case
		for _, k := range []string{"clean", "smudge", "process"} {
			cfg = append(cfg, [2]string{"filter." + sub + "." + k, ""})
		}
		cfg = append(cfg, [2]string{"filter." + sub + ".required", "false"})
	}
	c.Config = cfg
	return c, nil
}
