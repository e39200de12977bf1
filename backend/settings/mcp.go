package settings

// MCPServer is another MCP server whose tools the agent may use in a project, in the shape users paste between
// clients: a program to start (Command, Args, Env) or a Streamable HTTP endpoint (URL, Headers). It lives in the
// user's settings, never in the project: a cloned repository cannot add a server, nor widen one's sandbox.
//
// A program runs in Rooted's sandbox: it reads the project, the system's and the toolchains' folders and Readable;
// it writes only a data folder of its own (its HOME), and the project only with WriteProject; it connects only
// where the project's commands may (Project.Network), and in allow-list mode to the hosts allowed for it alone
// (Project.MCPServerHosts), unless Network grants it; it gets the environment commands
// get, plus Env and the user's variables EnvVars names.
//
// Env and Headers values may name the user's environment variables (${NAME}, ${env:NAME}, ${NAME:-default}, or a
// whole value $NAME) and secrets of Rooted's key store (${keyring:NAME}), resolved when the server starts, so that
// no secret need be written here in clear.
type MCPServer struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// EnvVars names variables of the user's environment this server gets as they are: granted by name, past the
	// allow-list and the credential table that keep them from commands.
	EnvVars []string          `json:"env_vars,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Network lets this server connect anywhere, whatever the project's setting for commands.
	Network bool `json:"network,omitempty"`
	// WriteProject lets this server change the project's files (off: it reads them only).
	WriteProject bool `json:"write_project,omitempty"`
	// Readable are folders (or files) this server may read besides the project, the system's and the toolchains'.
	Readable []string `json:"readable,omitempty"`
	// Disabled keeps the server's entry without starting it.
	Disabled bool `json:"disabled,omitempty"`
	// TimeoutMS bounds one call of a tool of this server (0: 60 s); a server that has not answered by then is
	// restarted at the next call.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}
