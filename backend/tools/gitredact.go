package tools

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rooted-dev/rooted/backend/gitconfig"
	"github.com/rooted-dev/rooted/backend/shell"
)

// Credentials in the project's own git configuration (a token in remote.origin.url, an http.extraHeader, an
// inline credential helper) are not for commands: a read-only git config --list would hand them to the model.
// In the command's mount namespace each git configuration file that holds one is replaced by a copy without them
// (gitconfig.Redacted: the same keys and values less the credentials), bound read-only in its place, so git in
// the sandbox works on the rest (git remote -v shows the URL without its token; a fetch with the network on goes
// out without credentials, and succeeds where the remote needs none). Without a namespace the command reads the
// file as it is: the result says so, and the secrets are cut from the output.

// redactedConfigs writes into dir a copy without credentials of every configuration file of st (git folders'
// config and config.worktree, and the files they include from the project) that holds one, and returns the binds
// and the secrets removed. A file that cannot be read back as git reads it is left out of the binds and its
// secrets are still returned: the caller hides them in output. complete says every file holding a secret has its
// copy.
func redactedConfigs(ctx context.Context, st *gitState, abs, dir string) (subs []shell.Substitute, secrets []string, complete bool) {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // the helper binds nothing through a link
	}
	complete = true
	names := make([]string, 0, len(st.configs))
	for p := range st.configs {
		names = append(names, p)
	}
	slices.Sort(names)
	for i, p := range names {
		g := st.configs[p]
		if g.unreadable || !g.mode.IsRegular() {
			continue
		}
		out, found, err := gitconfig.Redacted(ctx, g.data)
		if err != nil || len(found) == 0 {
			continue // git cannot read it (nor can a command's git), or nothing to hide
		}
		secrets = append(secrets, found...)
		copyTo := filepath.Join(dir, strings.ReplaceAll(path.Base(p), ".", "_")+"-"+strconv.Itoa(i))
		if os.WriteFile(copyTo, out, 0o644) != nil {
			complete = false
			continue
		}
		subs = append(subs, shell.Substitute{Path: filepath.Join(abs, filepath.FromSlash(p)), From: copyTo})
	}
	return subs, secrets, complete
}

// hideSecrets replaces every secret in s with [redacted].
func hideSecrets(s string, secrets []string) string {
	for _, x := range secrets {
		if len(x) >= 4 { // a one-letter user name would blank out the output
			s = strings.ReplaceAll(s, x, "[redacted]")
		}
	}
	return s
}
