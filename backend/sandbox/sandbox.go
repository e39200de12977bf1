package sandbox

// Policy is what a sandboxed command may do: read only under Readable and Writable, write only under Writable,
// reach the network only when Network is set, and connect to no unix socket made outside the sandbox but those
// in Sockets.
type Policy struct {
	Readable []string `json:"readable"`
	Writable []string `json:"writable"`
	Network  bool     `json:"network"`
	// Proxied (with Network off) is allow-list mode: the command gets a network namespace of its own, with only
	// loopback, whose one way out is 127.0.0.1:ProxyPort, a listener the helper makes there before the command starts
	// and hands to Rooted (Launch.Bridge), which serves a proxy on it from outside the sandbox. Landlock lets the
	// command connect to that port only. Where no network namespace can be made, the command has no network
	// (Info.NetworkNote says why).
	Proxied bool `json:"proxied,omitempty"`
	// Sockets are unix socket files outside the sandbox the user lets commands connect to (a docker socket).
	Sockets []string `json:"sockets,omitempty"`
	// Stdin and Files keep the caller's standard input and that many descriptors from 3 on for the program
	// (git reading objects from Rooted, holding a lock). A command the model chose gets neither: its input is
	// /dev/null and every other descriptor is closed.
	Stdin bool `json:"stdin,omitempty"`
	Files int  `json:"files,omitempty"`
	// ReadOnly are paths inside Writable that the command may not change, as they are what tools outside the
	// sandbox run or trust later (a git folder's config and hooks, editor task files). In a mount namespace of its
	// own they are bound read-only for the whole run; without one, the caller watches them (see
	// Info.Protection).
	ReadOnly []string `json:"read_only,omitempty"`
	// Pinned are folders inside Writable that hold a ReadOnly path (.git for .git/config, web for
	// web/node_modules). In a mount namespace each is bound onto itself, writable, before ReadOnly is bound: a
	// mount point cannot be renamed or removed (EBUSY), so the command cannot move the read-only binds away with
	// their folder and put a folder of its own in its place. List outer folders before inner ones.
	Pinned []string `json:"pinned,omitempty"`
	// Substitutes are files inside the project the command sees as other content (a git folder's config less
	// its credentials): in a mount namespace each Path is replaced, read-only, by its From file for the whole run,
	// after ReadOnly is bound. Without one the command reads Path itself (Info.Redacted says which).
	Substitutes []Substitute `json:"substitutes,omitempty"`
	// Grace is how long the helper lets the program's processes end after TERM before it kills them (ms).
	GraceMS int64 `json:"grace_ms,omitempty"`
}

// Substitute is one file of Policy.Substitutes: From is bound read-only onto Path.
type Substitute struct {
	Path string `json:"path"`
	From string `json:"from"`
}

// Info says whether a command ran sandboxed, and how.
type Info struct {
	Active bool   `json:"active"`
	Kind   string `json:"kind,omitempty"`  // "landlock"
	Level  int    `json:"level,omitempty"` // the Landlock ABI version in force
	// Readable and Writable list where the command could read and write; Network whether it could connect.
	Readable []string `json:"readable,omitempty"`
	Writable []string `json:"writable,omitempty"`
	Network  bool     `json:"network"`
	// Proxy is where the command's one way out listens in allow-list mode (ProxyAddr, in the command's own network
	// namespace); empty otherwise.
	Proxy string `json:"proxy,omitempty"`
	// NetworkNote says why allow-list mode did not hold and the command had no network instead.
	NetworkNote string `json:"network_note,omitempty"`
	// UnixSockets are the unix socket files outside the sandbox the command could connect to: the ones the user
	// named, or "*" (every one) where the kernel cannot tell them apart (Landlock before ABI 9) and the user
	// named one. Empty: none.
	UnixSockets []string `json:"unix_sockets,omitempty"`
	// Processes says what keeps the command's processes together and others out of reach: "pid namespace" (a
	// PID namespace and /proc of its own: it sees no other process, and all of its processes end with it) or
	// "subreaper" (the helper adopts every process the command leaves and ends it; other processes stay visible
	// in /proc, but the command has no capability to read or signal them).
	Processes string `json:"processes,omitempty"`
	// Protection says how Policy.ReadOnly held: "read-only" (bound read-only in the command's mount namespace: no
	// change possible), or "watched (weaker)" where no namespace could be made: changes are put back as they
	// happen, so a tool outside the sandbox may see one for a moment. Empty: nothing was listed.
	Protection string `json:"protection,omitempty"`
	// Redacted says how the credentials in the project's git configuration (a token in a remote's URL, an
	// http.extraHeader, an inline credential helper) were kept from the command: "copies without credentials"
	// (each such file replaced, in the command's mount namespace, by a copy less them), or "readable (weaker)"
	// where no namespace could be made: the command could read them; Rooted hides them in its output. Empty: the
	// project's git configuration holds none.
	Redacted string `json:"redacted,omitempty"`
	// Capabilities is what the command holds: "none" (every set emptied, the bounding set included, and
	// no_new_privs), or "none in effect" (an unprivileged user: nothing permitted or effective, no_new_privs, the
	// bounding set left as the kernel gave it since only a privileged process may shrink it).
	Capabilities string `json:"capabilities,omitempty"`
	// Reason explains an inactive sandbox, in words a user can act on.
	Reason string `json:"reason,omitempty"`
}

// HelperArg is the hidden first argument with which the rooted binary runs as the sandbox helper: it sets up the
// command's processes (a PID namespace, or a subreaper), starts the confining stage, and ends every process the
// command started before it returns. main and TestMain call RunHelperIfAsked first thing.
const HelperArg = "__rooted_sandbox_exec"

// confineArg starts the helper's second stage, in the command's process: it applies the policy to itself, drops
// every capability, then executes the command, which inherits the restriction.
const confineArg = "__rooted_sandbox_confine"

// probeArg starts the helper only to see whether namespaces can be set up here.
const probeArg = "__rooted_sandbox_probe"

// policyEnv carries the policy to the helper, as JSON.
const policyEnv = "ROOTED_SANDBOX_POLICY"
