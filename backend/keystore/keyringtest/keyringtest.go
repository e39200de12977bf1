// Package keyringtest runs a real Secret Service for tests: a private D-Bus session bus (no service activation,
// so nothing starts behind the test's back) and GNOME Keyring on it, its login keyring unlocked with a password
// given on standard input, its files in the test's temporary folder. Both processes end with the test. Nothing
// of the machine's own session (its bus, its keyring) is touched: the address is handed to the code under test,
// not put into the environment.
package keyringtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/rooted-dev/rooted/backend/keystore"
)

// busConfig is a session bus that lets its clients talk to each other and activates nothing.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// Bus starts a private session bus and returns its address. A missing dbus-daemon fails the test, saying what
// to install: the tests that need it are not to pass by not running.
func Bus(t testing.TB) string {
	t.Helper()
	daemon := need(t, "dbus-daemon", "dbus")
	dir := shortDir(t)
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, busConfig, filepath.Join(dir, "bus")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting dbus-daemon: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(line)
}

// Password is the test keyring's.
const Password = "test password"

// SecretService starts a private session bus with GNOME Keyring on it, its login keyring (the default
// collection) created and unlocked, and returns the bus's address once the Secret Service answers there.
func SecretService(t testing.TB) string {
	t.Helper()
	addr := Bus(t)
	StartKeyring(t, addr, Password)
	return addr
}

// StartKeyring starts GNOME Keyring's secrets component on the bus at addr, unlocking (creating) its login
// keyring with password, and waits until it owns the Secret Service's name. An empty password starts it with no
// login keyring, so no default collection.
func StartKeyring(t testing.TB, addr, password string) {
	t.Helper()
	gk := need(t, "gnome-keyring-daemon", "gnome-keyring")
	home := shortDir(t) // its control socket is below it
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"--foreground", "--components=secrets"}
	if password != "" {
		args = append(args, "--unlock")
	}
	cmd := exec.Command(gk, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_RUNTIME_DIR=" + run, "DBUS_SESSION_BUS_ADDRESS=" + addr,
	}
	cmd.Stdin = strings.NewReader(password)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting gnome-keyring-daemon: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatalf("connecting to the test bus: %v", err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		var has bool
		if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.secrets").Store(&has); err == nil && has {
			return
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			t.Fatalf("gnome-keyring-daemon ended before it took the Secret Service's name (%v):\n%s", err, out.String())
		case <-ctx.Done():
			t.Fatalf("gnome-keyring-daemon did not take the Secret Service's name on the test bus within 20 s:\n%s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Dial is a connection of Rooted's own (keystore.DialSecretService) to the Secret Service at addr, closed when the
// test ends: the second reader a test checks what the code under test stored with, or the keyring it hands that
// code.
func Dial(t testing.TB, addr string) *keystore.SecretService {
	t.Helper()
	ring, err := keystore.DialSecretService(context.Background(), addr)
	if err != nil {
		t.Fatalf("connecting to the test keyring: %v", err)
	}
	t.Cleanup(ring.Close)
	return ring
}

// defaultCollection connects to the Secret Service at addr and returns the connection (the caller closes it), the
// service and the path of its default collection.
func defaultCollection(t testing.TB, addr string) (*dbus.Conn, dbus.BusObject, dbus.ObjectPath) {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	svc := conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets")
	var coll dbus.ObjectPath
	if err := svc.Call("org.freedesktop.Secret.Service.ReadAlias", 0, "default").Store(&coll); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	return conn, svc, coll
}

// Lock locks the default collection, as the desktop does when the screen locks or the user chooses to.
func Lock(t testing.TB, addr string) {
	t.Helper()
	conn, svc, coll := defaultCollection(t, addr)
	defer conn.Close()
	var locked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	if err := svc.Call("org.freedesktop.Secret.Service.Lock", 0, []dbus.ObjectPath{coll}).Store(&locked, &prompt); err != nil {
		t.Fatal(err)
	}
	if len(locked) != 1 || prompt != "/" {
		t.Fatalf("locking the test keyring: locked %v, prompt %v", locked, prompt)
	}
}

// Unlock unlocks the default collection with the password StartKeyring gave it, through GNOME Keyring's own
// interface for that (the Secret Service's Unlock would show a prompt).
func Unlock(t testing.TB, addr string) {
	t.Helper()
	conn, svc, coll := defaultCollection(t, addr)
	defer conn.Close()
	var session dbus.ObjectPath
	var out dbus.Variant
	if err := svc.Call("org.freedesktop.Secret.Service.OpenSession", 0, "plain", dbus.MakeVariant("")).Store(&out, &session); err != nil {
		t.Fatal(err)
	}
	secret := struct {
		Session     dbus.ObjectPath
		Parameters  []byte
		Value       []byte
		ContentType string
	}{session, []byte{}, []byte(Password), "text/plain"}
	if err := svc.Call("org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface.UnlockWithMasterPassword", 0, coll, secret).Err; err != nil {
		t.Fatalf("unlocking the test keyring: %v", err)
	}
}

// shortDir is a new temporary folder with a short path: a unix socket's path is limited to 107 bytes, which a
// subtest's t.TempDir under a long TMPDIR exceeds.
func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "bus")
	if err == nil && len(dir) > 80 {
		os.Remove(dir)
		dir, err = os.MkdirTemp("/tmp", "bus")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func need(t testing.TB, program, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		t.Fatalf("%s is not installed: install the %s package (scripts/deps.sh test does)", program, pkg)
	}
	return p
}
