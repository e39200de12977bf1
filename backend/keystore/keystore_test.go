package keystore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/keystore/keyringtest"
)

const svc = "rooted test"

func noEnv(string) string { return "" }

// A key set through the store is in GNOME Keyring, running on its own bus: a second connection reads it back,
// replacing it keeps one item, and the fallback file never holds it.
func TestSecretServiceRoundTrip(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	file := filepath.Join(t.TempDir(), "keys.json")
	s, where := keystore.Open(ctx, keystore.Options{File: file, Bus: addr, Getenv: noEnv})
	if !where.Keyring || where.Name != "GNOME Keyring (Secret Service)" || where.Reason != "" || where.Path != "" {
		t.Fatalf("where = %+v, want GNOME Keyring", where)
	}
	if _, err := s.Get(ctx, svc, "anthropic"); !errors.Is(err, keystore.ErrNotFound) {
		t.Fatalf("Get before Set: %v, want ErrNotFound", err)
	}
	for _, key := range []string{"sk-ant-first", "sk-ant-second"} {
		if err := s.Set(ctx, svc, "anthropic", key); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Set(ctx, svc, "openai", "sk-openai"); err != nil {
		t.Fatal(err)
	}
	other := keyringtest.Dial(t, addr)
	for account, want := range map[string]string{"anthropic": "sk-ant-second", "openai": "sk-openai"} {
		if got, err := other.Get(ctx, svc, account); err != nil || got != want {
			t.Errorf("Get(%s) from a second connection = %q, %v; want %q", account, got, err, want)
		}
	}
	if got, err := other.Get(ctx, "another service", "anthropic"); !errors.Is(err, keystore.ErrNotFound) {
		t.Errorf("another service's item = %q, %v; want ErrNotFound", got, err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the fallback file exists beside a keyring: %v", err)
	}
	if err := s.Delete(ctx, svc, "anthropic"); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Get(ctx, svc, "anthropic"); !errors.Is(err, keystore.ErrNotFound) {
		t.Errorf("Get after Delete: %v, want ErrNotFound (replacing left a second item?)", err)
	}
	if err := s.Delete(ctx, svc, "anthropic"); err != nil {
		t.Errorf("deleting what is not there: %v", err)
	}
	if got, err := other.Get(ctx, svc, "openai"); err != nil || got != "sk-openai" {
		t.Errorf("deleting one account touched another: %q, %v", got, err)
	}
}

// Where no keyring can be used, secrets go to the file, and Where says why in words.
func TestOpenFallsBackToTheFile(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		opts   func(t *testing.T) keystore.Options
		reason string
	}{
		{"no session bus", func(*testing.T) keystore.Options { return keystore.Options{Getenv: noEnv} }, "no session bus: DBUS_SESSION_BUS_ADDRESS is not set"},
		{"autolaunch is not followed", func(*testing.T) keystore.Options {
			return keystore.Options{Getenv: func(k string) string {
				return map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:"}[k]
			}}
		}, "no session bus"},
		{"a bus address where nothing listens", func(t *testing.T) keystore.Options {
			return keystore.Options{Bus: "unix:path=" + filepath.Join(t.TempDir(), "bus"), Getenv: noEnv}
		}, "does not answer"},
		{"a bus with no Secret Service", func(t *testing.T) keystore.Options {
			return keystore.Options{Bus: keyringtest.Bus(t), Getenv: noEnv}
		}, "no Secret Service on the session bus"},
		{"a keyring with no default collection", func(t *testing.T) keystore.Options {
			addr := keyringtest.Bus(t)
			keyringtest.StartKeyring(t, addr, "")
			return keystore.Options{Bus: addr, Getenv: noEnv}
		}, "no default collection"},
		{"a locked keyring", func(t *testing.T) keystore.Options {
			addr := keyringtest.SecretService(t)
			keyringtest.Lock(t, addr)
			return keystore.Options{Bus: addr, Getenv: noEnv}
		}, "the default keyring is locked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts(t)
			o.File = filepath.Join(t.TempDir(), "rooted", "keys.json")
			s, where := keystore.Open(ctx, o)
			if where.Keyring || where.Path != o.File || !strings.Contains(where.Reason, c.reason) {
				t.Fatalf("where = %+v, want the file with a reason containing %q", where, c.reason)
			}
			if err := s.Set(ctx, svc, "a", "sk-file"); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Get(ctx, svc, "a"); err != nil || got != "sk-file" {
				t.Fatalf("Get = %q, %v", got, err)
			}
			fi, err := os.Stat(o.File)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("keys file: %v, %v; want mode 0600", fi, err)
			}
			if di, err := os.Stat(filepath.Dir(o.File)); err != nil || di.Mode().Perm() != 0o700 {
				t.Fatalf("keys folder: %v, %v; want mode 0700", di, err)
			}
		})
	}
}

// The Secret Service's D-Bus address is DBUS_SESSION_BUS_ADDRESS when set.
func TestOpenFindsTheBusInTheEnvironment(t *testing.T) {
	addr := keyringtest.SecretService(t)
	_, where := keystore.Open(context.Background(), keystore.Options{
		File:   filepath.Join(t.TempDir(), "keys.json"),
		Getenv: func(k string) string { return map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr}[k] },
	})
	if !where.Keyring {
		t.Fatalf("where = %+v, want the keyring on the bus the environment names", where)
	}
}

// Keys in the file move to the keyring, which is read back before the file lets them go; when the keyring
// refuses (here: locked after Rooted started), the file keeps every key.
func TestMoveKeepsTheFileCopyWhenTheKeyringRefuses(t *testing.T) {
	ctx := context.Background()
	addr := keyringtest.SecretService(t)
	ring := keyringtest.Dial(t, addr)
	path := filepath.Join(t.TempDir(), "keys.json")
	file := keystore.NewFile(path)
	for _, a := range []string{"a", "b"} {
		if err := file.Set(ctx, svc, a, "sk-"+a); err != nil {
			t.Fatal(err)
		}
	}
	keyringtest.Lock(t, addr)
	moved, err := keystore.Move(ctx, file, ring, svc, []string{"a", "b", "absent"})
	if err == nil || len(moved) != 0 || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("Move into a locked keyring: moved %v, err %v; want nothing moved and a locked error", moved, err)
	}
	if strings.Contains(err.Error(), "sk-a") {
		t.Errorf("the error shows a key: %v", err)
	}
	for _, a := range []string{"a", "b"} {
		if got, err := file.Get(ctx, svc, a); err != nil || got != "sk-"+a {
			t.Errorf("after a failed move the file's %s = %q, %v", a, got, err)
		}
	}
	keyringtest.Unlock(t, addr)
	moved, err = keystore.Move(ctx, file, ring, svc, []string{"a", "b", "absent"})
	if err != nil || strings.Join(moved, ",") != "a,b" {
		t.Fatalf("Move into an unlocked keyring: moved %v, err %v", moved, err)
	}
	for _, a := range []string{"a", "b"} {
		if got, err := ring.Get(ctx, svc, a); err != nil || got != "sk-"+a {
			t.Errorf("keyring's %s = %q, %v", a, got, err)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the keys file outlived its last key: %v", err)
	}
}

// A keys file that is not JSON is an error naming the file, never showing what is in it.
func TestFileErrorShowsNoSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte(`{"s": {"a": "sk-secret"`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := keystore.NewFile(path).Get(context.Background(), "s", "a")
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "sk-secret") {
		t.Fatalf("err = %v; want one naming the file and not the key", err)
	}
	if err := keystore.NewFile(path).Set(context.Background(), "s", "b", "x"); err == nil {
		t.Fatal("Set over an unreadable keys file replaced it")
	}
	if b, _ := os.ReadFile(path); string(b) != `{"s": {"a": "sk-secret"` {
		t.Fatalf("the unreadable keys file changed: %q", b)
	}
}

// BenchmarkGet reads one secret: from GNOME Keyring on a private bus (a session, the default collection's
// alias, a search and the secret: five round trips), and from the 0600 file.
func BenchmarkGet(b *testing.B) {
	ctx := context.Background()
	ring := keyringtest.Dial(b, keyringtest.SecretService(b))
	for name, s := range map[string]keystore.Store{"keyring": ring, "file": keystore.NewFile(filepath.Join(b.TempDir(), "keys.json"))} {
		b.Run(name, func(b *testing.B) {
			if err := s.Set(ctx, svc, "a", "sk-a"); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if v, err := s.Get(ctx, svc, "a"); err != nil || v != "sk-a" {
					b.Fatal(v, err)
				}
			}
		})
	}
}
