package mcpclient

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Secrets is where a server's entry finds the secrets it names as ${keyring:NAME}: the key store the user fills in
// Settings, so that a token need not be written in clear in the settings file. Secret returns ErrNoSecret (wrapped)
// when none is stored by that name.
type Secrets interface {
	Secret(name string) (string, error)
}

// ErrNoSecret says the key store holds no secret of the name asked for.
var ErrNoSecret = errors.New("no such secret")

// A reference in an env or headers value, in the shapes other clients' configurations use: ${NAME} and
// ${NAME:-default} (Claude Code), ${env:NAME} (Cursor, VS Code), a whole value $NAME (Crush), and ${keyring:NAME}
// for a secret of Rooted's key store. Anything else is kept as written: a "$" in a password stays a "$".
var (
	reference = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}]*)\}`) })
	wholeVar  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)$`) })
	varName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	// secretName is what a key store entry may be called: it appears in settings and in Settings' list.
	secretName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`) })
)

// ref is one reference: a variable of the user's environment (with a default when def is set), or a secret.
type ref struct {
	secret bool
	name   string
	def    *string
}

// parseRef reads what is between ${ and }.
func parseRef(body string) (ref, error) {
	if name, ok := strings.CutPrefix(body, "keyring:"); ok {
		if !secretName().MatchString(name) {
			return ref{}, fmt.Errorf("${keyring:%s}: a secret's name is letters, digits, '.', '_' and '-' (at most 64)", name)
		}
		return ref{secret: true, name: name}, nil
	}
	body = strings.TrimPrefix(body, "env:")
	r := ref{name: body}
	if name, def, ok := strings.Cut(body, ":-"); ok {
		r.name, r.def = name, &def
	}
	if !varName().MatchString(r.name) {
		return ref{}, fmt.Errorf("${%s} names no environment variable (${NAME}, ${env:NAME}, ${NAME:-default}) or secret (${keyring:NAME})", body)
	}
	return r, nil
}

// checkRefs checks the references of value without resolving them (ParseServers: a mistake is told on saving).
func checkRefs(value string) error {
	for _, m := range reference().FindAllStringSubmatch(value, -1) {
		if _, err := parseRef(m[1]); err != nil {
			return err
		}
	}
	return nil
}

// resolver resolves references when a server starts: variables from the user's environment, secrets from the key
// store. A reference that cannot be resolved is an error that names it, never an empty value sent on.
type resolver struct {
	lookupEnv func(string) (string, bool)
	secrets   Secrets
}

func (r resolver) expand(value string) (string, error) {
	if m := wholeVar().FindStringSubmatch(value); m != nil {
		return r.resolve(ref{name: m[1]})
	}
	var firstErr error
	out := reference().ReplaceAllStringFunc(value, func(s string) string {
		rf, err := parseRef(s[2 : len(s)-1])
		if err == nil {
			var v string
			if v, err = r.resolve(rf); err == nil {
				return v
			}
		}
		if firstErr == nil {
			firstErr = err
		}
		return ""
	})
	return out, firstErr
}

func (r resolver) resolve(rf ref) (string, error) {
	if rf.secret {
		if r.secrets == nil {
			return "", fmt.Errorf("${keyring:%s}: no key store here", rf.name)
		}
		v, err := r.secrets.Secret(rf.name)
		if errors.Is(err, ErrNoSecret) {
			return "", fmt.Errorf("${keyring:%s}: no secret of that name is stored; add it in Settings, MCP servers, Secrets", rf.name)
		}
		if err != nil {
			return "", fmt.Errorf("${keyring:%s}: %v", rf.name, err)
		}
		return v, nil
	}
	if v, ok := r.lookupEnv(rf.name); ok {
		return v, nil
	}
	if rf.def != nil {
		return *rf.def, nil
	}
	return "", fmt.Errorf("${%s}: the environment variable %s is not set in Rooted's environment", rf.name, rf.name)
}

// expandAll resolves every value of m; what is a label says where (env, headers) in an error.
func (r resolver) expandAll(what string, m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for _, k := range sortedNames(m) {
		v, err := r.expand(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", what, k, err)
		}
		out[k] = v
	}
	return out, nil
}
