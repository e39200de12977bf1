package mcpclient

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// The secrets file is read as Rooted reads every file of its own: a named pipe or a folder in its place is refused
// at once, naming the path, never waited on; a file that is not JSON is refused naming the path and never showing
// what it holds; and a refused file is left as it was by a write.
func TestSecretFileRefusesWhatItCannotRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path string)
		want  error // nil: any error naming the path
	}{
		{"named pipe", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		}, smallfile.ErrNotRegular},
		{"folder", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		}, smallfile.ErrNotRegular},
		{"not JSON", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(`{"tok": SECRET-VALUE`), 0o600); err != nil {
				t.Fatal(err)
			}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), SecretsFile)
			tc.plant(t, path)
			before, _ := os.Lstat(path)
			s := NewSecretFile(path)
			done := make(chan error, 1)
			go func() { _, err := s.SecretNames(); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("reading the secrets file blocked")
			}
			if err == nil || !strings.Contains(err.Error(), path) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("err = %v; want one naming %s (%v)", err, path, tc.want)
			}
			if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "'S'") {
				t.Fatalf("the error shows what the file holds: %v", err)
			}
			if err := s.SetSecret("other", "v"); err == nil {
				t.Fatal("SetSecret over an unreadable secrets file succeeded")
			}
			if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() || after.Size() != before.Size() {
				t.Fatalf("the refused file changed: %v, %v", after, err)
			}
		})
	}
}
