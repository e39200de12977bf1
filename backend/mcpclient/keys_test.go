package mcpclient

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
	"golang.org/x/oauth2"
)

func noEnv(string) string { return "" }

const grantURL = "https://mcp.example/mcp"

// legacyState writes the secrets and grants files as an earlier version left them in dir.
func legacyState(t *testing.T, dir string) {
	t.Helper()
	sf := NewSecretFile(filepath.Join(dir, SecretsFile))
	for name, v := range map[string]string{"docs-token": "SECRET-DOCS", "gh": "SECRET-GH"} {
		if err := sf.SetSecret(name, v); err != nil {
			t.Fatal(err)
		}
	}
	g := &Grant{ClientID: "rooted", TokenURL: "https://auth.example/token", Token: &oauth2.Token{AccessToken: "ACCESS-TOKEN", RefreshToken: "REFRESH-TOKEN"}}
	if err := NewGrantFile(filepath.Join(dir, GrantsFile)).SaveGrant(grantURL, g); err != nil {
		t.Fatal(err)
	}
}

// noValueOnDisk fails when any file under dir holds one of the values.
func noValueOnDisk(t *testing.T, dir string, values ...string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		for _, v := range values {
			if strings.Contains(string(b), v) {
				t.Errorf("%s holds %s:\n%s", path, v, b)
			}
		}
		return nil
	})
}

// At the first start with a keyring, the secrets and the sign-in the files held move into it: a second connection
// to the keyring reads them, the files are gone, the names are still listed (from an index of names only), and what
// is stored or removed afterwards goes to the keyring alone.
func TestKeysMoveIntoTheKeyring(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	dir := t.TempDir()
	legacyState(t, dir)
	k := OpenKeys(ctx, dir, keystore.Options{Bus: addr, Getenv: noEnv})
	if !k.Where.Keyring || k.Where.Name != "GNOME Keyring (Secret Service)" || k.Problem != "" {
		t.Fatalf("keys = %+v", k)
	}
	for _, f := range []string{SecretsFile, GrantsFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there after the move: %v", f, err)
		}
	}
	ring := keyringtest.Dial(t, addr)
	secrets := "rooted mcp secrets " + filepath.Join(dir, SecretsFile)
	if v, err := ring.Get(ctx, secrets, "docs-token"); err != nil || v != "SECRET-DOCS" {
		t.Errorf("the keyring's docs-token = %q, %v", v, err)
	}
	if v, err := ring.Get(ctx, "rooted mcp oauth "+filepath.Join(dir, GrantsFile), grantURL); err != nil || !strings.Contains(v, "REFRESH-TOKEN") {
		t.Errorf("the keyring's grant = %q, %v", v, err)
	}
	if names, err := k.Secrets.SecretNames(); err != nil || !slices.Equal(names, []string{"docs-token", "gh"}) {
		t.Errorf("names = %v, %v", names, err)
	}
	if v, err := k.Secrets.Secret("gh"); err != nil || v != "SECRET-GH" {
		t.Errorf("Secret(gh) = %q, %v", v, err)
	}
	if g, err := k.Grants.Grant(grantURL); err != nil || g == nil || g.Token.RefreshToken != "REFRESH-TOKEN" || g.ClientID != "rooted" {
		t.Errorf("Grant = %+v, %v", g, err)
	}
	if err := k.Secrets.SetSecret("new", "SECRET-NEW"); err != nil {
		t.Fatal(err)
	}
	if err := k.Secrets.SetSecret("gh", ""); err != nil {
		t.Fatal(err)
	}
	if v, err := ring.Get(ctx, secrets, "new"); err != nil || v != "SECRET-NEW" {
		t.Errorf("the keyring's new = %q, %v", v, err)
	}
	if _, err := ring.Get(ctx, secrets, "gh"); !errors.Is(err, keystore.ErrNotFound) {
		t.Errorf("a removed secret is still in the keyring: %v", err)
	}
	if _, err := k.Secrets.Secret("gh"); !errors.Is(err, ErrNoSecret) {
		t.Errorf("Secret of a removed name: %v", err)
	}
	if names, _ := k.Secrets.SecretNames(); !slices.Equal(names, []string{"docs-token", "new"}) {
		t.Errorf("names after a change = %v", names)
	}
	if err := k.Grants.DeleteGrant(grantURL); err != nil {
		t.Fatal(err)
	}
	if g, err := k.Grants.Grant(grantURL); g != nil || err != nil {
		t.Errorf("a grant signed out of: %+v, %v", g, err)
	}
	info, err := os.Stat(filepath.Join(dir, SecretIndexFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the index: %v %v", info, err)
	}
	noValueOnDisk(t, dir, "SECRET-", "TOKEN")

	// A second opening (the CLI beside the window) finds the same.
	again := OpenKeys(ctx, dir, keystore.Options{Bus: addr, Getenv: noEnv})
	if v, err := again.Secrets.Secret("new"); err != nil || v != "SECRET-NEW" {
		t.Errorf("a second opening reads %q, %v", v, err)
	}
}

// Where no keyring answers, secrets and grants stay in the files (0600), and Where names the secrets file and why.
func TestKeysInTheFilesWithoutABus(t *testing.T) {
	dir := t.TempDir()
	legacyState(t, dir)
	k := OpenKeys(context.Background(), dir, keystore.Options{Getenv: noEnv})
	want := keystore.Where{Name: filepath.Join(dir, SecretsFile), Path: filepath.Join(dir, SecretsFile), Reason: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set"}
	if k.Where != want || k.Problem != "" {
		t.Fatalf("keys = %+v, want %+v", k, want)
	}
	if v, err := k.Secrets.Secret("docs-token"); err != nil || v != "SECRET-DOCS" {
		t.Errorf("Secret = %q, %v", v, err)
	}
	if err := k.Secrets.SetSecret("new", "SECRET-NEW"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{SecretsFile, GrantsFile} {
		if info, err := os.Stat(filepath.Join(dir, f)); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", f, info, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, SecretIndexFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an index beside the files: %v", err)
	}
	if g, err := k.Grants.Grant(grantURL); err != nil || g == nil || g.Token.AccessToken != "ACCESS-TOKEN" {
		t.Errorf("Grant = %+v, %v", g, err)
	}
}

// A keyring that refuses every write keeps nothing from moving out of the files: each secret and the grant stay
// there, are still read and listed, and the refusal is said.
func TestKeysMoveFailureLosesNothing(t *testing.T) {
	dir := t.TempDir()
	legacyState(t, dir)
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// A store below a regular file: every read and write fails, for root too.
	broken := keystore.NewFile(filepath.Join(blocker, "keys.json"))
	k := keysIn(context.Background(), broken, dir)
	if !strings.Contains(k.Problem, "secrets:") || !strings.Contains(k.Problem, "sign-ins:") {
		t.Errorf("Problem = %q", k.Problem)
	}
	if strings.Contains(k.Problem, "SECRET-") || strings.Contains(k.Problem, "TOKEN") {
		t.Errorf("the problem shows a value: %s", k.Problem)
	}
	if v, err := k.Secrets.Secret("docs-token"); err != nil || v != "SECRET-DOCS" {
		t.Errorf("Secret after a failed move = %q, %v", v, err)
	}
	if names, err := k.Secrets.SecretNames(); err != nil || !slices.Equal(names, []string{"docs-token", "gh"}) {
		t.Errorf("names = %v, %v", names, err)
	}
	if g, err := k.Grants.Grant(grantURL); err != nil || g == nil || g.Token.RefreshToken != "REFRESH-TOKEN" {
		t.Errorf("Grant after a failed move = %+v, %v", g, err)
	}
	if v, _ := NewSecretFile(filepath.Join(dir, SecretsFile)).Secret("gh"); v != "SECRET-GH" {
		t.Errorf("the file lost gh: %q", v)
	}
}

// BenchmarkOpenKeysAndRead is what rooted call pays for the keyring before it starts a server: the Secret
// Service found, its collection checked, and one secret read.
func BenchmarkOpenKeysAndRead(b *testing.B) {
	ctx := context.Background()
	addr := keyringtest.SecretService(b)
	dir := b.TempDir()
	if err := OpenKeys(ctx, dir, keystore.Options{Bus: addr, Getenv: noEnv}).Secrets.SetSecret("tok", "SECRET"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		k := OpenKeys(ctx, dir, keystore.Options{Bus: addr, Getenv: noEnv})
		if v, err := k.Secrets.Secret("tok"); err != nil || v != "SECRET" {
			b.Fatal(v, err)
		}
		if s, ok := k.Secrets.(*ringSecrets); ok {
			if c, ok := s.ring.(interface{ Close() }); ok {
				c.Close() // a run's connection ends with its process
			}
		}
	}
}
