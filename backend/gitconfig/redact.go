package gitconfig

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A repository's own configuration holds credentials as often as the user's does: a token as a remote URL's user
// name (a token-URL clone), an http.<url>.extraHeader with a bearer token (actions/checkout's
// persist-credentials), a credential helper written inline (!f() { echo password=...; }; f), a forge tool's
// token. Commands read the repository's configuration as git does, so Redacted makes the copy they see: the same
// keys and values, less the credentials.

// userInfoPart matches a URL's scheme and its user name and password, to cut them out ("https://TOKEN@host" is
// "https://host"). An ssh URL's user name alone (ssh://git@host) names an account, not a secret, and stays.
var userInfoPart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*)://([^/\s@]+)@`)
})

type redaction struct {
	out     []byte
	secrets []string
}

// redactCache keeps Redacted's answers by the content's hash: every command asks for the same files, and the
// answer costs two runs of git.
var redactCache = struct {
	sync.Mutex
	m map[[32]byte]redaction
}{m: map[[32]byte]redaction{}}

// mayHoldSecret is a quick look, before asking git, for what Redacted removes: most configurations hold none, and
// then no git runs.
func mayHoldSecret(b []byte) bool {
	lower := bytes.ToLower(b)
	for _, w := range []string{"credential", "extraheader", "token", "pass", "secret", "oauth", "apikey", "api-key", "cookie"} {
		if bytes.Contains(lower, []byte(w)) {
			return true
		}
	}
	return userInfo().Match(b)
}

// Redacted returns the configuration b without its credentials: credential.* settings (helpers, which a command
// could run or read a password from, and user names), http.<url>.extraHeader, keys named for a secret
// (github.token, sendemail.smtpPass), and the user name and password in every URL (a key's, as in
// url.https://TOKEN@host/.insteadOf, and a value's, as in remote.origin.url): the rest is kept in order, include
// directives among it. secrets are the parts removed (for hiding them in output where no copy could be given);
// none, and b itself, when it holds no credential. A configuration git cannot read is ErrUnreadable.
func Redacted(ctx context.Context, b []byte) (out []byte, secrets []string, err error) {
	if !mayHoldSecret(b) {
		return b, nil, nil
	}
	sum := sha256.Sum256(b)
	redactCache.Lock()
	r, ok := redactCache.m[sum]
	redactCache.Unlock()
	if ok {
		return r.out, r.secrets, nil
	}
	defer func() {
		if err == nil {
			redactCache.Lock()
			if len(redactCache.m) >= 64 {
				clear(redactCache.m) // a bound, not an LRU: a project has a handful of configurations
			}
			redactCache.m[sum] = redaction{out, secrets}
			redactCache.Unlock()
		}
	}()
	entries, err := Entries(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	var kept []Entry
	for _, e := range entries {
		k := strings.ToLower(e.Key)
		last := k[strings.LastIndexByte(k, '.')+1:]
		if strings.HasPrefix(k, "credential.") || strings.HasPrefix(k, "http.") && last == "extraheader" || secretName().MatchString(last) {
			if e.Value != "" {
				secrets = append(secrets, e.Value)
			}
			continue
		}
		strip := func(s string) string {
			return userInfoPart().ReplaceAllStringFunc(s, func(m string) string {
				sub := userInfoPart().FindStringSubmatch(m)
				scheme, info := strings.ToLower(sub[1]), sub[2]
				if strings.Contains(scheme, "ssh") && !strings.Contains(info, ":") {
					return m
				}
				secrets = append(secrets, info)
				return sub[1] + "://"
			})
		}
		e.Key, e.Value = strip(e.Key), strip(e.Value)
		kept = append(kept, e)
	}
	if len(secrets) == 0 {
		return b, nil, nil
	}
	out = Write(kept)
	back, err := Entries(ctx, out)
	if err != nil || !slices.Equal(back, kept) {
		return nil, nil, errors.New("the redacted git configuration does not read back as written")
	}
	return out, secrets, nil
}
