//go:build linux

package shell_test

import (
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// With the network off (the default), nothing reaches a listener outside the sandbox: TCP, UDP, a unix socket
// file (as a docker socket or the session bus is), an abstract unix socket; while a program's own socket pair
// still works. Each row performs the attack with a real program and checks the listener heard nothing.
func TestNetworkOffMeansOff(t *testing.T) {
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
		t.Run(a.name, func(t *testing.T) {
			res := h.run(t, a.argv...)
			if res.ExitCode == 0 || strings.Contains(res.Stdout, "SENT") {
				t.Errorf("%s went through: exit %d, %q %q", a.name, res.ExitCode, res.Stdout, res.Stderr)
			}
		})
	}
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
