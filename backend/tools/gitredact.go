package tools

import (
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/gitguard"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/shell"
)

// Credentials in the project's own git configuration (a token in remote.origin.url, an http.extraHeader, an
// inline credential helper) are not for commands: a read-only git config --list would hand them to the model.
// In the command's mount namespace each git configuration file that holds one is replaced by a copy without them
// (gitconfig.Redacted: the same keys and values less the credentials), bound read-only in its place, so git in
// the sandbox works on the rest (git remote -v shows the URL without its token; a fetch with the network on goes
// out without credentials, and succeeds where the remote needs none). Without a namespace the command reads the
// file as it is: the result says so, and the secrets are cut from the output.

// maxConfig is the largest configuration file read for redaction; git itself has no use for more.
const maxConfig = 1 << 20

// redaction is what one command gets instead of the project's git configuration files that hold credentials.
type redaction struct {
	dir     string   // the copies, removed by close
	secrets []string // the parts removed, cut from the output too
	mode    string   // sandbox.Info.Redacted
}

// redactConfigs writes a copy without credentials of every configuration file of st (git folders' config and
// config.worktree, and the files they include from the project) that holds any, and, in the namespace mode, has
// spec bind them in place of the originals. Output that streams (a job's) is cut as it goes.
func redactConfigs(ctx context.Context, root *os.Root, abs string, st *gitguard.State, spec *shell.Spec) *redaction {
	r := &redaction{}
	dir, err := os.MkdirTemp("", "rooted-gitconfig-")
	if err != nil {
		return r
	}
	r.dir = dir
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // the helper binds nothing through a link
	}
	names := slices.Sorted(st.Configs())
	var subs []sandbox.Substitute
	complete := true
	for i, p := range names {
		b, ok := readConfig(root, p)
		if !ok {
			continue
		}
		out, found, err := gitconfig.Redacted(ctx, b)
		if err != nil || len(found) == 0 {
			continue // git cannot read it (nor can a command's git), or nothing to hide
		}
		r.secrets = append(r.secrets, found...)
		copyTo := filepath.Join(dir, strings.ReplaceAll(path.Base(p), ".", "_")+"-"+strconv.Itoa(i))
		if os.WriteFile(copyTo, out, 0o644) != nil {
			complete = false
			continue
		}
		subs = append(subs, sandbox.Substitute{Path: filepath.Join(abs, filepath.FromSlash(p)), From: copyTo})
	}
	if len(r.secrets) == 0 {
		return r
	}
	r.mode = "readable (weaker)"
	if spec.Sandbox.Active && spec.Sandbox.Processes == sandbox.ProcessesNamespace && complete {
		spec.Policy.Substitutes = subs
		r.mode = "copies without credentials"
	}
	if live := spec.Live; live != nil {
		// What streams to a job's readers is cut as well (a secret split across two chunks escapes this).
		spec.Live = func(stream string, b []byte) { live(stream, []byte(r.hide(string(b)))) }
	}
	return r
}

// readConfig reads a configuration file as the guard does: a regular file, opened without blocking, not larger
// than git would use.
func readConfig(root *os.Root, p string) ([]byte, bool) {
	if fi, err := root.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxConfig {
		return nil, false
	}
	f, err := root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	return b, err == nil && len(b) <= maxConfig
}

// apply says in res how the credentials were kept from the command, and cuts them from its output.
func (r *redaction) apply(res *shell.Result) {
	if len(r.secrets) == 0 {
		return
	}
	res.Sandbox.Redacted = r.mode
	res.Stdout, res.Stderr = r.hide(res.Stdout), r.hide(res.Stderr)
}

// hide replaces every secret in s with [redacted].
func (r *redaction) hide(s string) string {
	for _, x := range r.secrets {
		if len(x) >= 4 { // a one-letter user name would blank out the output
			s = strings.ReplaceAll(s, x, "[redacted]")
		}
	}
	return s
}

// close removes the copies.
func (r *redaction) close() {
	if r.dir != "" {
		os.RemoveAll(r.dir)
	}
}
