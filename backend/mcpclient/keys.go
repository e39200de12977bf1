package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/rooted-dev/rooted/backend/keystore"
)

// The files of the state folder (DefaultStateDir) that hold the user's MCP secrets and grants where no keyring
// answers, and the names-only index kept beside a keyring.
const (
	SecretsFile     = "mcp-secrets.json"
	GrantsFile      = "mcp-oauth.json"
	SecretIndexFile = "mcp-secret-names.json"
)

// SecretStore is the key store as Settings uses it: servers read secrets, the window stores them and lists their
// names, never their values.
type SecretStore interface {
	Secrets
	// SetSecret stores value as name; an empty value removes it.
	SetSecret(name, value string) error
	// SecretNames lists the names stored, sorted.
	SecretNames() ([]string, error)
}

// Keys are the user's MCP secrets and OAuth grants, and where they are kept.
type Keys struct {
	Secrets SecretStore
	Grants  Grants
	// Where is the system keyring's name, or the secrets file and why no keyring is used.
	Where keystore.Where
	// Problem says which entries the files held could not be moved into the keyring and why; "" when none.
	Problem string
}

// keyProbeTimeout bounds the look for a keyring and the move into it (D-Bus activation of its daemon included).
const keyProbeTimeout = 10 * time.Second

// OpenUserKeys is OpenKeys for the user's state folder (DefaultStateDir) and the session's keyring: the one way
// the window and the CLI open the secrets and grants.
func OpenUserKeys(ctx context.Context) (Keys, error) {
	dir, err := DefaultStateDir()
	if err != nil {
		return Keys{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, keyProbeTimeout)
	defer cancel()
	return OpenKeys(ctx, dir, keystore.Options{}), nil
}

// OpenKeys opens the user's MCP secrets and grants for the state folder dir: in the system keyring where one
// answers (keystore.Open with o; its File is ignored), with what the folder's files hold moved into it; else in
// those files (0600). The window and the CLI both open them here, so each finds what the other stored.
//
// In the keyring, a secret is the item of service "rooted mcp secrets <dir>/mcp-secrets.json" and account its
// name, a grant (as JSON) that of service "rooted mcp oauth <dir>/mcp-oauth.json" and account the server's URL.
// Secrets' names are listed from an index file of names only (0600) rather than by searching the keyring: the
// macOS Keychain and the Windows Credential Manager, as go-keyring reaches them, cannot be searched, and listing
// names then never needs the keyring unlocked.
func OpenKeys(ctx context.Context, dir string, o keystore.Options) Keys {
	secretsPath, grantsPath := filepath.Join(dir, SecretsFile), filepath.Join(dir, GrantsFile)
	o.File = secretsPath
	ring, where := keystore.Open(ctx, o)
	if !where.Keyring {
		return Keys{Secrets: NewSecretFile(secretsPath), Grants: NewGrantFile(grantsPath), Where: where}
	}
	k := keysIn(ctx, ring, dir)
	k.Where = where
	return k
}

// keysIn keeps the secrets and grants of state folder dir in ring, moving there what dir's files hold: each is
// written, read back and only then removed from its file, so a failure loses nothing (it is still read from the
// file) and is said in Problem.
func keysIn(ctx context.Context, ring keystore.Store, dir string) Keys {
	secretsPath, grantsPath := filepath.Join(dir, SecretsFile), filepath.Join(dir, GrantsFile)
	s := &ringSecrets{
		ring: ring, service: "rooted mcp secrets " + secretsPath,
		index: &jsonFile[bool]{path: filepath.Join(dir, SecretIndexFile)}, file: NewSecretFile(secretsPath),
	}
	g := &ringGrants{ring: ring, service: "rooted mcp oauth " + grantsPath, file: NewGrantFile(grantsPath)}
	var problems []error
	if err := s.moveIn(ctx); err != nil {
		problems = append(problems, fmt.Errorf("secrets: %w", err))
	}
	if err := g.moveIn(ctx); err != nil {
		problems = append(problems, fmt.Errorf("sign-ins: %w", err))
	}
	k := Keys{Secrets: s, Grants: g}
	if err := errors.Join(problems...); err != nil {
		k.Problem = err.Error()
	}
	return k
}

// ringSecrets keeps secrets in the keyring and their names in the index. The file is what an earlier version
// kept: read while it still holds a secret that could not be moved, emptied by every change.
type ringSecrets struct {
	ring    keystore.Store
	service string
	index   *jsonFile[bool]
	file    *SecretFile
}

func (s *ringSecrets) Secret(name string) (string, error) {
	v, err := s.ring.Get(context.Background(), s.service, name)
	if err == nil {
		return v, nil
	}
	if fv, ferr := s.file.Secret(name); ferr == nil {
		return fv, nil
	}
	if errors.Is(err, keystore.ErrNotFound) {
		return "", fmt.Errorf("%q: %w", name, ErrNoSecret)
	}
	return "", fmt.Errorf("reading the secret %q from the keyring: %w", name, err)
}

func (s *ringSecrets) SetSecret(name, value string) error {
	if !secretName().MatchString(name) {
		return fmt.Errorf("a secret's name is letters, digits, '.', '_' and '-' (at most 64), not %q", name)
	}
	ctx := context.Background()
	if value == "" {
		if err := s.ring.Delete(ctx, s.service, name); err != nil {
			return err
		}
		if err := s.file.SetSecret(name, ""); err != nil {
			return err
		}
		return s.index.update(func(m map[string]bool) { delete(m, name) })
	}
	if err := s.ring.Set(ctx, s.service, name, value); err != nil {
		return err
	}
	if err := s.index.update(func(m map[string]bool) { m[name] = true }); err != nil {
		return err
	}
	// An older copy in the file goes: the keyring's is the one read, and the file is to hold none.
	return s.file.SetSecret(name, "")
}

func (s *ringSecrets) SecretNames() ([]string, error) {
	names, err := s.index.keys()
	if err != nil {
		return nil, err
	}
	left, err := s.file.SecretNames()
	if err != nil {
		return nil, err
	}
	names = append(names, left...)
	slices.Sort(names)
	return slices.Compact(names), nil
}

// moveIn moves the file's secrets into the keyring, their names into the index first so that they stay listed
// whichever copy is read.
func (s *ringSecrets) moveIn(ctx context.Context) error {
	names, err := s.file.SecretNames()
	if err != nil || len(names) == 0 {
		return err
	}
	if err := s.index.update(func(m map[string]bool) {
		for _, n := range names {
			m[n] = true
		}
	}); err != nil {
		return err
	}
	_, err = keystore.Move(ctx, secretFileStore{s.file}, s.ring, s.service, names)
	return err
}

// ringGrants keeps grants in the keyring as JSON; the file is what an earlier version kept, as for ringSecrets.
type ringGrants struct {
	ring    keystore.Store
	service string
	file    *GrantFile
}

func (g *ringGrants) Grant(url string) (*Grant, error) {
	v, err := g.ring.Get(context.Background(), g.service, url)
	if err == nil {
		return decodeGrant(url, v)
	}
	if fg, ferr := g.file.Grant(url); ferr == nil && fg != nil {
		return fg, nil
	}
	if errors.Is(err, keystore.ErrNotFound) {
		return nil, nil
	}
	return nil, fmt.Errorf("reading the sign-in for %s from the keyring: %w", url, err)
}

func (g *ringGrants) SaveGrant(url string, gr *Grant) error {
	b, err := json.Marshal(gr)
	if err != nil {
		return err
	}
	if err := g.ring.Set(context.Background(), g.service, url, string(b)); err != nil {
		return err
	}
	return g.file.DeleteGrant(url)
}

func (g *ringGrants) DeleteGrant(url string) error {
	if err := g.ring.Delete(context.Background(), g.service, url); err != nil {
		return err
	}
	return g.file.DeleteGrant(url)
}

func (g *ringGrants) moveIn(ctx context.Context) error {
	urls, err := g.file.URLs()
	if err != nil || len(urls) == 0 {
		return err
	}
	_, err = keystore.Move(ctx, grantFileStore{g.file}, g.ring, g.service, urls)
	return err
}

// decodeGrant reads a grant stored as JSON; the error names the server, never the content.
func decodeGrant(url, v string) (*Grant, error) {
	var gr Grant
	if err := json.Unmarshal([]byte(v), &gr); err != nil {
		return nil, fmt.Errorf("the keyring's sign-in for %s is not one Rooted wrote (sign in again)", url)
	}
	return &gr, nil
}

// secretFileStore is the secrets file as a keystore.Store, for keystore.Move; the service is not the file's.
type secretFileStore struct{ f *SecretFile }

func (s secretFileStore) Get(_ context.Context, _, account string) (string, error) {
	v, err := s.f.Secret(account)
	if errors.Is(err, ErrNoSecret) {
		return "", keystore.ErrNotFound
	}
	return v, err
}

func (s secretFileStore) Set(_ context.Context, _, account, secret string) error {
	return s.f.SetSecret(account, secret)
}

func (s secretFileStore) Delete(_ context.Context, _, account string) error {
	return s.f.SetSecret(account, "")
}

// grantFileStore is the grants file as a keystore.Store of grants as JSON, for keystore.Move.
type grantFileStore struct{ f *GrantFile }

func (s grantFileStore) Get(_ context.Context, _, account string) (string, error) {
	g, err := s.f.Grant(account)
	if err != nil {
		return "", err
	}
	if g == nil {
		return "", keystore.ErrNotFound
	}
	b, err := json.Marshal(g)
	return string(b), err
}

func (s grantFileStore) Set(_ context.Context, _, account, secret string) error {
	g, err := decodeGrant(account, secret)
	if err != nil {
		return err
	}
	return s.f.SaveGrant(account, g)
}

func (s grantFileStore) Delete(_ context.Context, _, account string) error {
	return s.f.DeleteGrant(account)
}
