package testtree

import (
	"net"
	"testing"
)

// Listener starts a TCP server on the loopback address for a test of who may connect (the sandbox's network
// rule): it accepts every connection, writes greeting to it when there is one, and closes it. It stops with the
// test.
func Listener(tb testing.TB, greeting string) *net.TCPAddr {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if greeting != "" {
				c.Write([]byte(greeting))
			}
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr)
}
