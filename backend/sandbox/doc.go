// Package sandbox confines one command to a Policy: it reads only under Policy.Readable and Policy.Writable,
// writes only under Policy.Writable, connects nowhere unless Policy.Network (and to no unix socket made outside
// the sandbox but those in Policy.Sockets) or, with Policy.Proxied, only to a listener in a network namespace of
// its own that the caller serves a proxy on (Launch.Bridge), cannot change Policy.ReadOnly while it runs, holds no capability (even
// when Rooted runs as root), gets /dev/null as input and no descriptor of Rooted's but its output, and
// leaves no process behind, neither when its result is taken nor when Rooted dies.
//
// What a platform must provide for that is the Backend interface; Platform returns this platform's. Linux is
// Landlock, seccomp and a PID and mount namespace (or a subreaper where no namespace can be made), applied by a
// helper that is the rooted binary itself, re-executed (every main calls RunHelperIfAsked first). Other platforms
// get None, which confines nothing and says so in Info. conformance_test.go is the table of behaviours every
// backend must pass, in each process mode it offers, as root and as an unprivileged user.
//
// ConfineSelf is the same confinement, less the namespaces, applied by a process to itself for the rest of its
// life: rooted-reader, which parses what came from outside, keeps one writable folder and no socket.
//
// Not here: what a policy lists (package cmdenv says what commands may read, package toolcache which caches they
// may write), the command's environment (cmdenv), and running and capturing it (package shell).
package sandbox
