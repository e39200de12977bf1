package sandbox

import (
	"net"
	"os"
	"strconv"
)

// ProxyPort is where a command in allow-list mode finds its one way out: 127.0.0.1:ProxyPort in its own network
// namespace, where nothing else listens and from where nothing else is reachable. Every namespace is the command's
// own, so one fixed port serves them all, and the environment naming it can be built before the command starts.
const ProxyPort = 3128

// ProxyAddr is the proxy's address as a command sees it.
var ProxyAddr = "127.0.0.1:" + strconv.Itoa(ProxyPort)

// Bridge hands the listener the helper made in the command's network namespace to Rooted: the helper sends the
// listening socket over a socket pair before the command starts, so that Rooted accepts the command's connections
// from outside the sandbox, and no socket file or port outside the namespace exists for anyone else to reach.
type Bridge struct {
	parent    *net.UnixConn
	child     *os.File
	rootedNet uint64 // the inode of Rooted's network namespace
}

// Close releases the bridge; after Listener, or for a process that did not start.
func (b *Bridge) Close() {
	b.child.Close()
	b.parent.Close()
}

// bridgeEnv tells the helper which descriptor to send the listener over, and the network namespace it must not be
// in (Rooted's: a listener there would be reachable by every process of the machine).
const bridgeEnv = "ROOTED_SANDBOX_BRIDGE"
