package keystore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// The freedesktop Secret Service API (https://specifications.freedesktop.org/secret-service-spec/latest/).
const (
	ssName         = "org.freedesktop.secrets"
	ssPath         = dbus.ObjectPath("/org/freedesktop/secrets")
	ssService      = "org.freedesktop.Secret.Service"
	ssCollection   = "org.freedesktop.Secret.Collection"
	ssItem         = "org.freedesktop.Secret.Item"
	ssSession      = "org.freedesktop.Secret.Session"
	noPrompt       = dbus.ObjectPath("/")
	errNameUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
)

// callTimeout bounds each call to the Secret Service: a daemon that hangs costs a request that long, not the app.
const callTimeout = 10 * time.Second

// ssSecret is the Secret Service's Secret structure (oayays). With the "plain" algorithm Parameters is empty and
// Value the secret itself: the session bus is this user's own, and any program on it could ask for the item anyway.
type ssSecret struct {
	Session     dbus.ObjectPath
	Parameters  []byte
	Value       []byte
	ContentType string
}

// SecretService is a Store in the default collection of the Secret Service on a session bus. Items carry the
// attributes service and account, as libsecret's secret-tool and other programs name them, so
// `secret-tool lookup service S account A` finds them too.
type SecretService struct {
	addr string
	name string // the keyring's name, for Where

	mu   sync.Mutex
	conn *dbus.Conn
}

// DialSecretService connects to the session bus at addr and checks that a Secret Service answers there with an
// unlocked default collection; the error says in words why not. It never raises a prompt.
func DialSecretService(ctx context.Context, addr string) (*SecretService, error) {
	if addr == "" {
		return nil, errors.New("no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
	}
	if strings.Contains(addr, "autolaunch:") || strings.HasPrefix(addr, "disabled:") {
		return nil, fmt.Errorf("no session bus: its address is %q, which starts none here", addr)
	}
	s := &SecretService{addr: addr}
	if _, err := s.connection(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	session, err := s.openSession(ctx)
	if err != nil {
		s.Close()
		return nil, err
	}
	defer s.closeSession(session)
	coll, err := s.defaultCollection(ctx)
	if err != nil {
		s.Close()
		return nil, err
	}
	if locked, err := s.locked(ctx, coll, ssCollection); err != nil || locked {
		s.Close()
		if err != nil {
			return nil, err
		}
		return nil, errors.New("the default keyring is locked (unlock it, e.g. by logging in to the desktop, and start Rooted again)")
	}
	s.name = s.daemonName(ctx)
	return s, nil
}

// Name is the keyring's name for a person: "GNOME Keyring (Secret Service)".
func (s *SecretService) Name() string { return s.name }

// Close ends the connection to the bus.
func (s *SecretService) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

// connection is the bus connection, made again if it was lost (the bus restarted).
func (s *SecretService) connection() (*dbus.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && s.conn.Connected() {
		return s.conn, nil
	}
	c, err := dbus.Connect(s.addr)
	if err != nil {
		return nil, fmt.Errorf("the session bus at %s does not answer: %v", s.addr, err)
	}
	s.conn = c
	return c, nil
}

func (s *SecretService) call(ctx context.Context, path dbus.ObjectPath, method string, args ...any) (*dbus.Call, error) {
	c, err := s.connection()
	if err != nil {
		return nil, err
	}
	call := c.Object(ssName, path).CallWithContext(ctx, method, 0, args...)
	if call.Err != nil {
		return nil, explain(method, call.Err)
	}
	return call, nil
}

// explain turns a D-Bus error into a sentence that names the Secret Service.
func explain(method string, err error) error {
	var de dbus.Error
	if errors.As(err, &de) {
		switch de.Name {
		case errNameUnknown:
			return errors.New("no Secret Service on the session bus (GNOME Keyring, KWallet or KeePassXC with its Secret Service integration provides one)")
		case "org.freedesktop.Secret.Error.IsLocked":
			return errors.New("the keyring is locked")
		}
		return fmt.Errorf("the Secret Service refused %s: %s (%s)", method[strings.LastIndexByte(method, '.')+1:], de.Error(), de.Name)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the Secret Service did not answer %s within %s", method[strings.LastIndexByte(method, '.')+1:], callTimeout)
	}
	return fmt.Errorf("the Secret Service: %s: %v", method[strings.LastIndexByte(method, '.')+1:], err)
}

func (s *SecretService) openSession(ctx context.Context) (dbus.ObjectPath, error) {
	call, err := s.call(ctx, ssPath, ssService+".OpenSession", "plain", dbus.MakeVariant(""))
	if err != nil {
		return "", err
	}
	var out dbus.Variant
	var session dbus.ObjectPath
	if err := call.Store(&out, &session); err != nil {
		return "", fmt.Errorf("the Secret Service answered OpenSession oddly: %v", err)
	}
	return session, nil
}

func (s *SecretService) closeSession(session dbus.ObjectPath) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	s.call(ctx, session, ssSession+".Close") //nolint:errcheck // the daemon drops it with the connection anyway
}

func (s *SecretService) defaultCollection(ctx context.Context) (dbus.ObjectPath, error) {
	call, err := s.call(ctx, ssPath, ssService+".ReadAlias", "default")
	if err != nil {
		return "", err
	}
	var coll dbus.ObjectPath
	if err := call.Store(&coll); err != nil || coll == noPrompt || coll == "" {
		return "", errors.New("the keyring has no default collection (create one, e.g. in Seahorse, GNOME's Passwords and Keys)")
	}
	return coll, nil
}

func (s *SecretService) locked(ctx context.Context, path dbus.ObjectPath, iface string) (bool, error) {
	call, err := s.call(ctx, path, "org.freedesktop.DBus.Properties.Get", iface, "Locked")
	if err != nil {
		return false, err
	}
	var v dbus.Variant
	if err := call.Store(&v); err != nil {
		return false, err
	}
	b, ok := v.Value().(bool)
	return b || !ok, nil
}

// daemonName names the program that owns the Secret Service, from its process's name.
func (s *SecretService) daemonName(ctx context.Context) string {
	c, err := s.connection()
	if err != nil {
		return "Secret Service"
	}
	var pid uint32
	if err := c.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, ssName).Store(&pid); err != nil {
		return "Secret Service"
	}
	comm, _ := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "comm"))
	return daemonNameOf(strings.TrimSpace(string(comm)))
}

// daemonNameOf names a Secret Service by its program's name (as /proc/PID/comm gives it, cut to 15 bytes).
func daemonNameOf(comm string) string {
	c := strings.ToLower(comm)
	switch {
	case strings.HasPrefix(c, "gnome-keyring"):
		return "GNOME Keyring (Secret Service)"
	case strings.HasPrefix(c, "kwalletd"), strings.HasPrefix(c, "ksecretd"):
		return "KWallet (Secret Service)"
	case strings.HasPrefix(c, "keepassxc"):
		return "KeePassXC (Secret Service)"
	case strings.HasPrefix(c, "oo7"):
		return "oo7 (Secret Service)"
	}
	return "the system keyring (Secret Service)"
}

// items finds the items for service and account in the default collection.
func (s *SecretService) items(ctx context.Context, service, account string) (dbus.ObjectPath, []dbus.ObjectPath, error) {
	coll, err := s.defaultCollection(ctx)
	if err != nil {
		return "", nil, err
	}
	call, err := s.call(ctx, coll, ssCollection+".SearchItems", map[string]string{"service": service, "account": account})
	if err != nil {
		return "", nil, err
	}
	var found []dbus.ObjectPath
	if err := call.Store(&found); err != nil {
		return "", nil, err
	}
	return coll, found, nil
}

// Get returns the secret, or ErrNotFound.
func (s *SecretService) Get(ctx context.Context, service, account string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	session, err := s.openSession(ctx)
	if err != nil {
		return "", err
	}
	defer s.closeSession(session)
	_, found, err := s.items(ctx, service, account)
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		return "", ErrNotFound
	}
	call, err := s.call(ctx, found[0], ssItem+".GetSecret", session)
	if err != nil {
		return "", err
	}
	var sec ssSecret
	if err := call.Store(&sec); err != nil {
		return "", fmt.Errorf("the Secret Service answered GetSecret oddly: %v", err)
	}
	return string(sec.Value), nil
}

// Set stores the secret in the default collection, replacing the item with the same attributes. A locked
// collection is an error, not a prompt.
func (s *SecretService) Set(ctx context.Context, service, account, secret string) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	session, err := s.openSession(ctx)
	if err != nil {
		return err
	}
	defer s.closeSession(session)
	coll, err := s.defaultCollection(ctx)
	if err != nil {
		return err
	}
	if locked, err := s.locked(ctx, coll, ssCollection); err != nil || locked {
		if err != nil {
			return err
		}
		return errors.New("the keyring is locked")
	}
	props := map[string]dbus.Variant{
		ssItem + ".Label":      dbus.MakeVariant(label(service, account)),
		ssItem + ".Attributes": dbus.MakeVariant(map[string]string{"service": service, "account": account}),
	}
	call, err := s.call(ctx, coll, ssCollection+".CreateItem", props, ssSecret{Session: session, Parameters: []byte{}, Value: []byte(secret), ContentType: "text/plain"}, true)
	if err != nil {
		return err
	}
	var item, prompt dbus.ObjectPath
	if err := call.Store(&item, &prompt); err != nil {
		return fmt.Errorf("the Secret Service answered CreateItem oddly: %v", err)
	}
	if prompt != noPrompt {
		s.call(ctx, prompt, "org.freedesktop.Secret.Prompt.Dismiss") //nolint:errcheck // it was never shown
		return errors.New("the keyring asked for a confirmation before storing the key; it was not shown")
	}
	return nil
}

// Delete removes every item for service and account.
func (s *SecretService) Delete(ctx context.Context, service, account string) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	_, found, err := s.items(ctx, service, account)
	if err != nil {
		return err
	}
	for _, item := range found {
		call, err := s.call(ctx, item, ssItem+".Delete")
		if err != nil {
			return err
		}
		var prompt dbus.ObjectPath
		if err := call.Store(&prompt); err == nil && prompt != noPrompt {
			s.call(ctx, prompt, "org.freedesktop.Secret.Prompt.Dismiss") //nolint:errcheck // it was never shown
			return errors.New("the keyring asked for a confirmation before removing the key; it was not shown")
		}
	}
	return nil
}

// label is what a keyring manager (Seahorse, KWallet Manager) shows for the item.
func label(service, account string) string {
	return "Rooted: " + account + " (" + service + ")"
}

// sessionBus is the session bus's address: DBUS_SESSION_BUS_ADDRESS, or else the socket systemd and dbus-broker
// keep at $XDG_RUNTIME_DIR/bus.
func sessionBus(getenv func(string) string) string {
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		p := filepath.Join(dir, "bus")
		if fi, err := os.Stat(p); err == nil && fi.Mode().Type() == os.ModeSocket {
			return "unix:path=" + p
		}
	}
	return ""
}
