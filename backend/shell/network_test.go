//go:build linux

package shell_test

import (
	"net"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rooted-dev/rooted/backend/sandbox"
)

// With the network off (the default), nothing reaches a listener outside the sandbox: TCP, UDP, a unix socket
// file (as a docker socket or the session bus is), an abstract unix socket; while a program's own socket pair
// still works. Each row performs the attack with a real program and checks the listener heard nothing.
func TestNetworkOffMeansOff(t *testing.T) { // not parallel: newHome sets the environment
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed for the network attack table")
	}
	h := newHome(t)
	heard := make(chan string, 8)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	sockFile := filepath.Join(t.TempDir(), "daemon.sock")
	unixLn, err := net.Listen("unix", sockFile)
	if err != nil {
		t.Fatal(err)
	}
	defer unixLn.Close()
	abstract, err := net.Listen("unix", "@rooted-test-"+strconv.Itoa(int(time.Now().UnixNano())))
	if err != nil {
		t.Fatal(err)
	}
	defer abstract.Close()
	for name, ln := range map[string]net.Listener{"tcp": tcp, "unix": unixLn, "abstract": abstract} {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				heard <- name
				c.Close()
			}
		}()
	}
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			heard <- "udp"
		}
	}()
	tcpPort := strconv.Itoa(tcp.Addr().(*net.TCPAddr).Port)
	udpPort := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
	py := func(code string) []string { return []string{"python3", "-c", "import socket\n" + code} }
	t.Run("attacks", func(rows *testing.T) { // returns once every row ran
		for _, a := range []struct {
			name string
			argv []string
		}{
			{"tcp connect", py("s = socket.create_connection(('127.0.0.1', " + tcpPort + ")); print('SENT')")},
			{"udp datagram", py("s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', " + udpPort + ")); print('SENT')")},
			{"udp over ipv6 socket", py("s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.sendto(b'x', ('::ffff:127.0.0.1', " + udpPort + ")); print('SENT')")},
			{"dns lookup", py("print(socket.getaddrinfo('example.com', 80)); print('SENT')")},
			{"unix socket file", py("s = socket.socket(socket.AF_UNIX); s.connect('" + sockFile + "'); print('SENT')")},
			{"abstract unix socket", py("s = socket.socket(socket.AF_UNIX); s.connect('\\0" + strings.TrimPrefix(abstract.Addr().String(), "@") + "'); print('SENT')")},
			{"raw socket", py("s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); print('SENT')")},
			{"packet socket", py("s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); print('SENT')")},
		} {
			rows.Run(a.name, func(t *testing.T) {
				t.Parallel()
				res := h.run(t, a.argv...)
				if res.ExitCode == 0 || strings.Contains(res.Stdout, "SENT") {
					t.Errorf("%s went through: exit %d, %q %q", a.name, res.ExitCode, res.Stdout, res.Stderr)
				}
			})
		}
	})
	// A program's own socket pair is not the network.
	res := h.run(t, py("a, b = socket.socketpair(); a.send(b'ok'); print(b.recv(2).decode())")...)
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "ok" {
		t.Errorf("socketpair: exit %d, %q %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	select {
	case name := <-heard:
		t.Errorf("the %s listener outside the sandbox was reached", name)
	case <-time.After(200 * time.Millisecond):
	}
}

// With the network on, IP sockets work, but unix sockets made outside the sandbox stay closed: a socket file
// outside the project (as docker's, the session bus's, an ssh agent's are) and an abstract socket. A socket the
// user names in Settings is reachable, and the result's sandbox lists it (where the kernel cannot tell socket
// files apart, Landlock before ABI 9, naming one opens every one, and the list says "*").
func TestNetworkOnKeepsUnixSocketsClosed(t *testing.T) { // not parallel: newHome sets the environment
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed for the socket table")
	}
	h := newHome(t)
	h.policy.Network = true
	h.info = sandbox.Probe(h.policy)
	outside := t.TempDir()
	heard := make(chan string, 8)
	listen := func(name, addr string) string {
		ln, err := net.Listen("unix", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				heard <- name
				c.Close()
			}
		}()
		return addr
	}
	daemon := listen("daemon", filepath.Join(outside, "daemon.sock"))
	docker := listen("docker", filepath.Join(outside, "docker.sock"))
	abstract := listen("abstract", "@rooted-test-on-"+strconv.Itoa(int(time.Now().UnixNano())))
	connect := func(addr string) []string {
		if strings.HasPrefix(addr, "@") {
			addr = `\0` + addr[1:]
		}
		return []string{"python3", "-c", "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('" + addr + "')\nprint('SENT')"}
	}
	reached := func() string {
		select {
		case name := <-heard:
			return name
		case <-time.After(200 * time.Millisecond):
			return ""
		}
	}
	for _, a := range []struct{ name, addr string }{{"unix socket file outside the project", daemon}, {"abstract unix socket", abstract}} {
		res := h.run(t, connect(a.addr)...)
		if res.ExitCode == 0 || strings.Contains(res.Stdout, "SENT") {
			t.Errorf("network on: %s went through: exit %d, %q %q", a.name, res.ExitCode, res.Stdout, res.Stderr)
		}
		if name := reached(); name != "" {
			t.Errorf("network on: the %s listener outside the sandbox was reached", name)
		}
	}
	if len(h.info.UnixSockets) != 0 {
		t.Errorf("no socket named, yet the sandbox lists %q", h.info.UnixSockets)
	}
	// A socket the user named.
	h.policy.Sockets = []string{docker}
	h.info = sandbox.Probe(h.policy)
	res := h.run(t, connect(docker)...)
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "SENT") || reached() != "docker" {
		t.Errorf("the named socket: exit %d, %q %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	want := []string{docker}
	if h.info.Level < 9 {
		want = []string{"*"}
	}
	if !slices.Equal(h.info.UnixSockets, want) {
		t.Errorf("the sandbox lists %q, want %q", h.info.UnixSockets, want)
	}
	if h.info.Level >= 9 {
		if res := h.run(t, connect(daemon)...); res.ExitCode == 0 || reached() != "" {
			t.Errorf("with another socket named, the unnamed one went through: %+v", res)
		}
	}
	if res := h.run(t, connect(abstract)...); res.ExitCode == 0 || reached() != "" {
		t.Errorf("with a socket named, the abstract one went through: %+v", res)
	}
}
