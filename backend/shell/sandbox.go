package shell

// Policy is what a sandboxed command may do: read only under Readable and Writable, write only under Writable,
// reach the network only when Network is set.
type Policy struct {
	Readable []string `json:"readable"`
	Writable []string `json:"writable"`
	Network  bool     `json:"network"`
}

// SandboxInfo says whether a command ran sandboxed, and how.
type SandboxInfo struct {
	Active bool   `json:"active"`
	Kind   string `json:"kind,omitempty"`  // "landlock"
	Level  int    `json:"level,omitempty"` // the Landlock ABI version in force
	// Readable and Writable list where the command could read and write; Network whether it could connect.
	Readable []string `json:"readable,omitempty"`
	Writable []string `json:"writable,omitempty"`
	Network  bool     `json:"network"`
	// Reason explains an inactive sandbox, in words a user can act on.
	Reason string `json:"reason,omitempty"`
}

// HelperArg is the hidden first argument with which the rooted binary runs as the sandbox helper: it applies the
// policy to itself, then executes the command, which inherits the restriction. main and TestMain call
// RunHelperIfAsked first thing.
const HelperArg = "__rooted_sandbox_exec"

// policyEnv carries the policy to the helper, as JSON.
const policyEnv = "ROOTED_SANDBOX_POLICY"
