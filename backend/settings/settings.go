// Package settings keeps the user's per-project settings in the user's config directory, never in the project:
// a cloned repository must not be able to widen what the agent may run in it. Writes are atomic. A read sees the
// file as it is on disk at that moment, whoever wrote it (another process, the user's editor): what a Store keeps
// between reads is only a parse, reused while the file's bytes are the same.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/smallfile"

	"github.com/rooted-dev/rooted/backend/cmdenv"
	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/toolcache"
)

// Project is what a user decided for one project. Zero values mean the defaults.
type Project struct {
	// Allowlist is the programs the agent may run; nil means cmdpolicy.DefaultAllowlist.
	Allowlist []string `json:"allowlist"` // not omitempty: an empty list (nothing may run) differs from none
	// Network lets commands reach the network (where the sandbox can block it): every host (true), or only the
	// hosts of NetworkHosts and netproxy.DefaultHosts, through Rooted's proxy ("allowlist"). Off unless the user
	// turns it on: a prompt-injected file should not be one approved command away from sending the project
	// anywhere.
	Network Network `json:"network,omitempty"`
	// NetworkHosts are the hosts commands reach in allow-list mode besides the package registries
	// (netproxy.DefaultHosts): exact names, or "*.parent" for every subdomain of parent.
	NetworkHosts []string `json:"network_hosts,omitempty"`
	// Writable are directories commands may write besides the project, its temporary directory and the
	// toolchain caches.
	Writable []string `json:"writable,omitempty"`
	// Readable are folders (or files) commands may read besides the system's, the toolchains' and what they may
	// write.
	Readable []string `json:"readable,omitempty"`
	// UnixSockets are unix socket files outside the project commands may connect to (docker's socket, say); with
	// none named, a command reaches no unix socket made outside its sandbox, with the network on or off.
	UnixSockets []string `json:"unix_sockets,omitempty"`
	// EnvAllow names environment variables (exactly, or "PREFIX*") commands get besides those builds need; a value
	// shaped like a credential is still left out.
	EnvAllow []string `json:"env_allow,omitempty"`
	// MaxTimeoutMS caps a command's timeout (0: DefaultMaxTimeout).
	MaxTimeoutMS int64 `json:"max_timeout_ms,omitempty"`
	// AutoApproveEdits lets the agent write and patch files without asking (each edit still takes a snapshot).
	AutoApproveEdits bool `json:"auto_approve_edits,omitempty"`
	// SearchMemoryMiB is how much file text search keeps in memory for this project (0: the default, 128 MiB);
	// past it, the trigram index on disk narrows each search.
	SearchMemoryMiB int `json:"search_memory_mib,omitempty"`
	// SnapshotKeep, SnapshotMaxAgeDays and SnapshotMaxMiB bound the snapshots kept (0: the defaults, 500, 30 days
	// and a shadow repository of 4 GiB).
	SnapshotKeep       int `json:"snapshot_keep,omitempty"`
	SnapshotMaxAgeDays int `json:"snapshot_max_age_days,omitempty"`
	SnapshotMaxMiB     int `json:"snapshot_max_mib,omitempty"`
	// Rules say which calls run without asking, which ask and which are refused (permissions.DecideCommand).
	// They live here, never in the project: a cloned repository cannot allow itself anything.
	Rules []permissions.Rule `json:"rules,omitempty"`
	// BackgroundAfterSec moves a command still running after this many seconds to the background, where the
	// agent reads its output with job_output (0: DefaultBackgroundAfter; negative: never).
	BackgroundAfterSec int `json:"background_after_sec,omitempty"`
	// Diagnostics is the check run after the agent's edits: "" finds it (go vet, tsc, cargo check), "off" runs
	// none, anything else is a command line run as exec_shell runs it.
	Diagnostics string `json:"diagnostics,omitempty"`
	// WorktreeSetup is the command run in every new worktree of the project before its conversation starts
	// (["npm", "ci"], ["go", "mod", "download"]), as exec_shell runs commands; none when empty.
	WorktreeSetup []string `json:"worktree_setup,omitempty"`
	// MCPServers are other MCP servers whose tools the agent uses in this project, by name (MCPServer).
	MCPServers map[string]MCPServer `json:"mcp_servers,omitempty"`
	// MCPServerHosts are, by server name, the hosts each program MCP server reaches in allow-list mode besides the
	// project's list (ServerHosts): the window's "Allow HOST for SERVER". The project's commands never reach them,
	// nor does another server.
	MCPServerHosts map[string][]string `json:"mcp_server_hosts,omitempty"`
}

// DefaultBackgroundAfter is when a command still running moves to the background, unless the user chose.
const DefaultBackgroundAfter = time.Minute

// BackgroundAfter is when a command still running moves to the background; 0 means never.
func (p Project) BackgroundAfter() time.Duration {
	switch {
	case p.BackgroundAfterSec < 0:
		return 0
	case p.BackgroundAfterSec == 0:
		return DefaultBackgroundAfter
	}
	return time.Duration(p.BackgroundAfterSec) * time.Second
}

// Defaults.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxTimeout = 10 * time.Minute
)

// EffectiveAllowlist is the allowlist in force.
func (p Project) EffectiveAllowlist() []string {
	if p.Allowlist == nil {
		return slices.Clone(cmdpolicy.DefaultAllowlist)
	}
	return p.Allowlist
}

// Policy is the sandbox of a command run in the project at root with the private temporary folder tmp.
func (p Project) Policy(root, tmp string) sandbox.Policy {
	home, _ := os.UserHomeDir()
	// Only the project's own caches are writable, never the user's (toolcache.GoCaches, toolcache.PackageCaches).
	caches := toolcache.ToolCacheDir(root)
	goBuild, goMods := toolcache.GoCacheDirs(caches)
	writable := append([]string{root, tmp, goBuild, goMods}, p.Writable...)
	writable = append(writable, toolcache.PackageCacheDirs(caches)...)
	return sandbox.Policy{
		Readable: cmdenv.Readable(home, os.Getenv, p.Readable...), Writable: writable, Sockets: p.UnixSockets,
		Network: p.Network.On(), Proxied: p.Network == NetworkAllowlist,
	}
}

// MaxTimeout is the longest a command may be given.
func (p Project) MaxTimeout() time.Duration {
	if p.MaxTimeoutMS <= 0 {
		return DefaultMaxTimeout
	}
	return time.Duration(p.MaxTimeoutMS) * time.Millisecond
}

type file struct {
	Projects map[string]Project `json:"projects"`
	User     User               `json:"user"`
}

// User holds the settings that apply to every project.
type User struct {
	// Instructions are the user's own standing instructions to the agent, added to every system prompt.
	Instructions string `json:"instructions,omitempty"`
	// StepLimit is how many model calls one request may take before the agent stops and offers to continue
	// (0: DefaultStepLimit).
	StepLimit int `json:"step_limit,omitempty"`
	// SearchEndpoint turns web_search on: a SearXNG instance's address, or a URL with {query} answering SearXNG's
	// JSON (websearch.ParseEndpoint); empty, web_search is off and listed nowhere. It is the user's alone, never a
	// project's: the endpoint may be on this machine or its network, and a cloned repository must not be able to
	// send the agent's searches to a server of its choosing.
	SearchEndpoint string `json:"search_endpoint,omitempty"`
}

// DefaultStepLimit and MaxStepLimit bound the agent's steps per request.
const (
	DefaultStepLimit = 100
	MaxStepLimit     = 10_000
)

// Steps is the step limit in force: the user's, or DefaultStepLimit.
func (u User) Steps() int {
	if u.StepLimit <= 0 {
		return DefaultStepLimit
	}
	return min(u.StepLimit, MaxStepLimit)
}

// MaxInstructions bounds the user's instructions, in bytes.
const MaxInstructions = 16 << 10

// User returns the settings that apply to every project.
func (s *Store) User() (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	return f.User, err
}

// UpdateUser changes the settings that apply to every project with f, read and written under the store's lock, so
// a change to one field keeps another saved meanwhile.
func (s *Store) UpdateUser(f func(*User) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	file, err := s.load()
	if err != nil {
		return err
	}
	if err := f(&file.User); err != nil {
		return err
	}
	return s.save(file)
}

// Store reads and writes settings.json.
type Store struct {
	mu   sync.Mutex
	path string
	// seen is the file's projects as last parsed, with the bytes they were parsed from: Project, asked on every
	// tool call, reads the file each time but parses it again only when its bytes changed, and then parses only
	// its project's part. Bytes, not the file's time or inode: a write within the clock's tick, of the same size,
	// into a reused inode, is still seen.
	seen *seenFile
}

// seenFile is the settings file as Project last parsed it: each project's settings as JSON.
type seenFile struct {
	data     []byte
	projects map[string]json.RawMessage
}

// NewStore keeps settings in path.
func NewStore(path string) *Store { return &Store{path: path} }

// DefaultPath is settings.json in Rooted's folder of the user's config directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "rooted", "settings.json"), nil
}

// Project returns the settings of the project at root (an absolute path).
func (s *Store) Project(root string) (Project, error) {
	raw, err := s.projectJSON(root)
	var p Project
	if err == nil && raw != nil {
		err = json.Unmarshal(raw, &p) // a value of its own each time: what a caller changes is not kept
	}
	if err != nil {
		return Project{}, err
	}
	return p, nil
}

// projectJSON returns the settings of the project at root as the file holds them now (nil: none), parsing the
// file only when it differs from the one parsed last.
func (s *Store) projectJSON(root string) (json.RawMessage, error) {
	b, err := smallfile.Read(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	seen := s.seen
	s.mu.Unlock()
	if seen == nil || !bytes.Equal(seen.data, b) {
		var f struct {
			Projects map[string]json.RawMessage `json:"projects"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, err
		}
		seen = &seenFile{data: b, projects: f.Projects}
		s.mu.Lock()
		s.seen = seen
		s.mu.Unlock()
	}
	return seen.projects[root], nil
}

// SetProject saves the settings of the project at root.
func (s *Store) SetProject(root string, p Project) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return err
	}
	f.Projects[root] = p
	return s.save(f)
}

// UpdateProject changes the settings of the project at root with f, read and written under the store's lock, so
// two changes at once (a rule added from an approval card while Settings saves) both stay.
func (s *Store) UpdateProject(root string, f func(*Project) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	file, err := s.load()
	if err != nil {
		return err
	}
	p := file.Projects[root]
	if err := f(&p); err != nil {
		return err
	}
	file.Projects[root] = p
	return s.save(file)
}

// RemoveProject forgets the settings of the project at root (a worktree discarded with its folder).
func (s *Store) RemoveProject(root string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return err
	}
	if _, ok := f.Projects[root]; !ok {
		return nil
	}
	delete(f.Projects, root)
	return s.save(f)
}

func (s *Store) load() (file, error) {
	f := file{Projects: map[string]Project{}}
	b, err := smallfile.Read(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, err
	}
	if f.Projects == nil {
		f.Projects = map[string]Project{}
	}
	return f, nil
}

func (s *Store) save(f file) error { return configfile.WriteJSON(s.path, f) }

// Path is the settings file.
func (s *Store) Path() string { return s.path }
