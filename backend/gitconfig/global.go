package gitconfig

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/gitargv"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// A sandboxed git reads the user's system and global configuration, which is where credentials live: url.<base>
// with a token in <base>, http.extraHeader with a bearer token, credential helpers and their stores, tokens of
// forge tools. So commands get neither file: SandboxGlobal writes a copy without them, and without the settings
// that run programs, and points git at it. The copy is rebuilt from the user's files for every command (from a
// cache keyed by their content), so it stays current.

// userInfo matches a URL carrying a user name or password ("https://TOKEN@host/", "https://u:p@host").
// Compiled on first use, as the package's other expressions are: every process start (each CLI command, the MCP
// server before its first answer) would pay for them.
var userInfo = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`://[^/\s@]+@`) })

// secretName matches keys named for a secret (github.token, hub.oauthtoken, sendemail.smtpPass, ...).
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(token|password|passwd|pass$|secret|oauth|apikey|api-key|cookie)`)
})

// copyOnly are the keys a command's copy of the user's configuration keeps beyond what commands may set
// (gitargv.CommandMaySet): the ignore and attributes files (copied beside it), which repositories are safe, the
// signing key's name, and how git talks HTTP (a proxy holding a password is dropped by its value).
var copyOnly = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(excludesfile|attributesfile)|safe\.directory|user\.signingkey|gpg\.format|http\.(.+\.)?(sslverify|sslcainfo|sslcapath|version|postbuffer|lowspeedlimit|lowspeedtime|proxy))$`)
})

// Keep reports whether a global setting may reach a command: a key on the allow-list of what commands may set or
// copyOnly, or a url.<base>.insteadOf whose <base> holds no credentials (it only rewrites where git fetches from),
// and never a credential. Any other key, a program git would run or one git adds later, is left out.
func Keep(e Entry) bool {
	k := strings.ToLower(e.Key)
	switch {
	case strings.HasPrefix(k, "credential."), strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".extraheader"),
		userInfo().MatchString(e.Key), userInfo().MatchString(e.Value), secretName().MatchString(k[strings.LastIndexByte(k, '.')+1:]):
		return false
	case strings.HasPrefix(k, "url.") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof")):
		return true
	}
	return gitargv.CommandMaySet(k) || copyOnly().MatchString(k)
}

var globalCache = struct {
	sync.Mutex
	in  [32]byte
	out []byte
}{}

// SandboxGlobal writes into dir a copy of the user's git configuration (system, XDG and global files, as git reads
// them, includes not followed) holding only what Keep keeps, copies the global ignore and attributes files beside
// it, and returns the variables that make git read it instead of the user's files and never start an editor.
// getenv is the user's environment (HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM).
func SandboxGlobal(dir string, getenv func(string) string) ([]string, error) {
	home := getenv("HOME")
	var sources []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" {
		sources = append(sources, "/etc/gitconfig")
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		sources = append(sources, g)
	} else {
		if xdg != "" {
			sources = append(sources, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			sources = append(sources, filepath.Join(home, ".gitconfig"))
		}
	}
	var all []byte
	for _, src := range sources {
		if b, err := smallfile.Read(src); err == nil { // a pipe, a device or a huge file is skipped
			all = append(append(all, b...), '\n')
		}
	}
	out, err := filtered(all)
	file := filepath.Join(dir, "gitconfig")
	if err != nil {
		out = nil // git could not read the user's files: the command gets none of them
	}
	// The ignore and attributes files the user named, copied: they are rules, not secrets, and git warns on every
	// run about a file it cannot read.
	keys, _ := List(context.Background(), out)
	var extra []string
	for _, k := range []string{"core.excludesfile", "core.attributesfile"} {
		v := keys[k]
		if len(v) == 0 {
			continue
		}
		p := v[len(v)-1]
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		copyTo := filepath.Join(dir, "git-"+strings.TrimPrefix(k, "core."))
		if b, err := smallfile.Read(p); err == nil && os.WriteFile(copyTo, b, 0o600) == nil {
			extra = append(extra, fmt.Sprintf("\t%s = %s\n", strings.TrimPrefix(k, "core."), quote(copyTo)))
		} else {
			extra = append(extra, fmt.Sprintf("\t%s = %s\n", strings.TrimPrefix(k, "core."), quote(os.DevNull)))
		}
	}
	if len(extra) > 0 {
		out = append(out, []byte("[core]\n"+strings.Join(extra, ""))...)
	}
	if err := os.WriteFile(file, out, 0o600); err != nil {
		return nil, err
	}
	// help.autocorrect, from whatever configuration (a cloned repository's own), would run the subcommand git
	// guesses for a mistyped one: not the command Rooted judged and the user's rules matched. Passed as git -c
	// passes it, it outranks every configuration file.
	return []string{
		"GIT_CONFIG_GLOBAL=" + file, "GIT_CONFIG_NOSYSTEM=1", "GIT_EDITOR=:", "GIT_SEQUENCE_EDITOR=:",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=help.autocorrect", "GIT_CONFIG_VALUE_0=0",
	}, nil
}

// filtered is the configuration b with only what Keep keeps, written anew and checked by reading it back through
// git.
func filtered(b []byte) ([]byte, error) {
	sum := sha256.Sum256(b)
	globalCache.Lock()
	if globalCache.in == sum && globalCache.out != nil {
		out := globalCache.out
		globalCache.Unlock()
		return out, nil
	}
	globalCache.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	entries, err := Entries(ctx, b)
	if err != nil {
		return nil, err
	}
	var kept []Entry
	for _, e := range entries {
		if Keep(e) {
			kept = append(kept, e)
		}
	}
	out := Write(kept)
	back, err := Entries(ctx, out)
	if err != nil || !slices.Equal(back, kept) {
		return nil, errors.New("the filtered git configuration does not read back as written")
	}
	globalCache.Lock()
	globalCache.in, globalCache.out = sum, out
	globalCache.Unlock()
	return out, nil
}

// Write writes entries in git's configuration format, each under its own section header when the section changes.
func Write(entries []Entry) []byte {
	var sb strings.Builder
	last := "\x00"
	for _, e := range entries {
		i, j := strings.IndexByte(e.Key, '.'), strings.LastIndexByte(e.Key, '.')
		if i < 0 {
			continue
		}
		head := "[" + e.Key[:i] + "]"
		if j > i {
			head = "[" + e.Key[:i] + " " + quote(e.Key[i+1:j]) + "]"
		}
		if head != last {
			sb.WriteString(head + "\n")
			last = head
		}
		if e.NoValue {
			sb.WriteString("\t" + e.Key[j+1:] + "\n")
		} else {
			sb.WriteString("\t" + e.Key[j+1:] + " = " + quote(e.Value) + "\n")
		}
	}
	return []byte(sb.String())
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}
