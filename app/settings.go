package app

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy"

	"github.com/rooted-dev/rooted/backend/cmdpolicy"
	"github.com/rooted-dev/rooted/backend/index"
	"github.com/rooted-dev/rooted/backend/sandbox"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Settings serves each open project's settings screen: what commands may run, the sandbox they run in, whether
// edits need approval, and how many snapshots are kept.
type Settings struct {
	set         *workspace.Set
	store       *settings.Store // nil without a config directory
	skillDirs   []string        // the user's skills folders
	commandDirs []string        // the user's commands folders
}

// ProjectSettings is the settings screen's content.
type ProjectSettings struct {
	Root               string      `json:"root"`
	Allowlist          []string    `json:"allowlist"`
	DefaultAllowlist   []string    `json:"default_allowlist"`
	Network            bool        `json:"network"`      // every host
	NetworkMode        string      `json:"network_mode"` // "off", "on" or "allowlist"
	NetworkHosts       []string    `json:"network_hosts"`
	DefaultHosts       []string    `json:"default_hosts"` // what allow-list mode allows without NetworkHosts
	Writable           []string    `json:"writable"`
	Readable           []string    `json:"readable"`
	UnixSockets        []string    `json:"unix_sockets"` // socket files outside the project commands may connect to
	EnvAllow           []string    `json:"env_allow"`    // variables (NAME or PREFIX*) commands get besides the builds' own
	AutoApproveEdits   bool        `json:"auto_approve_edits"`
	SnapshotKeep       int         `json:"snapshot_keep"`
	SnapshotMaxAgeDays int         `json:"snapshot_max_age_days"`
	Sandbox            SandboxView `json:"sandbox"`
	File               string      `json:"file"`
	SearchMemoryMiB    int         `json:"search_memory_mib"` // as saved: 0 is the default
	Search             SearchView  `json:"search"`
}

// SearchView says what search holds for the project: the file text in memory against its budget, and the
// trigram index on disk.
type SearchView struct {
	BudgetMiB    int     `json:"budget_mib"`
	CachedMiB    float64 `json:"cached_mib"`
	IndexReady   bool    `json:"index_ready"`
	IndexFiles   int     `json:"index_files"`
	IndexDiskMiB float64 `json:"index_disk_mib"`
	Changed      int     `json:"changed"` // files searched directly until the index is rebuilt
}

// SandboxView says how commands are confined on this machine: what they can read and write, and the network.
type SandboxView struct {
	Active   bool     `json:"active"`
	Kind     string   `json:"kind"`
	Level    int      `json:"level"`
	Network  bool     `json:"network"`
	Proxy    string   `json:"proxy,omitempty"`        // allow-list mode in force: the proxy's address
	NetNote  string   `json:"network_note,omitempty"` // why allow-list mode cannot hold here
	Reason   string   `json:"reason"`
	Readable []string `json:"readable"`
	Writable []string `json:"writable"`
}

// ProjectSettingsInput is what the screen saves.
type ProjectSettingsInput struct {
	Allowlist []string `json:"allowlist"`
	Network   bool     `json:"network"`
	// NetworkMode, when set ("off", "on", "allowlist"), wins over Network; without it, Network true is "on", and
	// false keeps allow-list mode where it is in force (a screen that knows only the switch saves it unchanged).
	NetworkMode        string   `json:"network_mode,omitempty"`
	NetworkHosts       []string `json:"network_hosts,omitempty"`
	Readable           []string `json:"readable"`
	UnixSockets        []string `json:"unix_sockets"`
	EnvAllow           []string `json:"env_allow"`
	AutoApproveEdits   bool     `json:"auto_approve_edits"`
	SnapshotKeep       int      `json:"snapshot_keep"`
	SnapshotMaxAgeDays int      `json:"snapshot_max_age_days"`
	SearchMemoryMiB    int      `json:"search_memory_mib"`
}

// load returns project ws and its settings.
func (s *Settings) load(ws string) (*workspace.Workspace, settings.Project, error) {
	w, err := open(s.set, ws)
	if err != nil {
		return nil, settings.Project{}, err
	}
	if s.store == nil {
		return nil, settings.Project{}, reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	p, err := s.store.Project(w.Root())
	if err != nil {
		return nil, settings.Project{}, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return w, p, nil
}

// view is what the screen shows for p, defaults filled in.
func (s *Settings) view(w *workspace.Workspace, p settings.Project) ProjectSettings {
	root := w.Root()
	snap := tools.SnapshotOptions(p, nil).WithDefaults()
	sb := sandbox.Probe(p.Policy(root, filepath.Join(os.TempDir(), "rooted-exec-*")))
	return ProjectSettings{
		Root: root, Allowlist: p.EffectiveAllowlist(), DefaultAllowlist: cmdpolicy.DefaultAllowlist, Network: p.Network.On(),
		NetworkMode: networkMode(p.Network), NetworkHosts: append([]string{}, p.NetworkHosts...), DefaultHosts: netproxy.DefaultHosts,
		Writable: append([]string{}, p.Writable...), Readable: append([]string{}, p.Readable...), AutoApproveEdits: p.AutoApproveEdits,
		UnixSockets: append([]string{}, p.UnixSockets...), EnvAllow: append([]string{}, p.EnvAllow...),
		SnapshotKeep: snap.Keep, SnapshotMaxAgeDays: int(snap.MaxAge / (24 * time.Hour)), SearchMemoryMiB: p.SearchMemoryMiB,
		Sandbox: SandboxView{
			Active: sb.Active, Kind: sb.Kind, Level: sb.Level, Network: sb.Network, Proxy: sb.Proxy, NetNote: sb.NetworkNote, Reason: sb.Reason,
			Readable: append([]string{}, sb.Readable...), Writable: append([]string{}, sb.Writable...),
		},
		File:   s.store.Path(),
		Search: searchView(w, p),
	}
}

// searchView reports the project's search memory: the budget in force and, when the project is open with an
// index, what it holds now.
func searchView(w *workspace.Workspace, p settings.Project) SearchView {
	v := SearchView{BudgetMiB: p.SearchMemoryMiB}
	if v.BudgetMiB == 0 {
		v.BudgetMiB = int(index.DefaultBudget >> 20)
	}
	if w.Indexes() == nil {
		return v
	}
	t, err := w.Session().Resolve(w.Root())
	if err != nil {
		return v
	}
	if cached, _, tri, ok := w.Indexes().Memory(t.Root); ok {
		v.CachedMiB = float64(cached) / (1 << 20)
		v.IndexReady, v.IndexFiles, v.Changed = tri.Ready, tri.Files, tri.Changed
		v.IndexDiskMiB = float64(tri.DiskBytes) / (1 << 20)
	}
	return v
}

// Project returns project ws's settings.
func (s *Settings) Project(ws string) (ProjectSettings, error) {
	w, p, err := s.load(ws)
	if err != nil {
		return ProjectSettings{}, err
	}
	return s.view(w, p), nil
}

// Save changes project ws's settings and returns them as now in force.
func (s *Settings) Save(ws string, in ProjectSettingsInput) (ProjectSettings, error) {
	w, p, err := s.load(ws)
	if err != nil {
		return ProjectSettings{}, err
	}
	allow := []string{}
	for _, prog := range in.Allowlist {
		prog = strings.TrimSpace(prog)
		if prog == "" || slices.Contains(allow, prog) {
			continue
		}
		if strings.ContainsAny(prog, `/\ `) {
			return ProjectSettings{}, reject(&tool.Error{
				Code: tool.CodeInvalidArgument, Field: "allowlist",
				Message: "the allowlist names programs (go, npm), not paths or command lines: " + prog,
			})
		}
		allow = append(allow, prog)
	}
	if in.SearchMemoryMiB < 0 || in.SearchMemoryMiB > 64<<10 {
		return ProjectSettings{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "search_memory_mib", Message: "search memory must be between 0 (the default) and 65536 MiB"})
	}
	if in.SnapshotKeep < 0 || in.SnapshotMaxAgeDays < 0 {
		return ProjectSettings{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "snapshot_keep", Message: "snapshot limits cannot be negative"})
	}
	readable, err := absolutePaths("readable", "readable folders", in.Readable)
	if err != nil {
		return ProjectSettings{}, err
	}
	sockets, err := absolutePaths("unix_sockets", "unix sockets", in.UnixSockets)
	if err != nil {
		return ProjectSettings{}, err
	}
	var envAllow []string
	for _, name := range in.EnvAllow {
		if name = strings.TrimSpace(name); name == "" || slices.Contains(envAllow, name) {
			continue
		}
		if !envPattern.MatchString(name) {
			return ProjectSettings{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "env_allow", Message: "name an environment variable (MY_VAR) or a prefix ending in * (MY_*), not " + strconv.Quote(name) + ": a lone * would pass every variable"})
		}
		envAllow = append(envAllow, name)
	}
	var hosts []string
	for _, h := range in.NetworkHosts {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		n, err := netproxy.Normalize(h)
		if err != nil {
			return ProjectSettings{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "network_hosts", Message: err.Error()})
		}
		if !slices.Contains(hosts, n) {
			hosts = append(hosts, n)
		}
	}
	mode, bad := networkInput(in)
	if bad != nil {
		return ProjectSettings{}, reject(bad)
	}
	// Only the fields this screen shows, in one read-modify-write: a rule added meanwhile (an approval card) stays.
	err = s.store.UpdateProject(w.Root(), func(q *settings.Project) error {
		q.Allowlist, q.Readable, q.AutoApproveEdits = allow, readable, in.AutoApproveEdits
		if mode != nil {
			q.Network = *mode
		} else if in.Network || q.Network != settings.NetworkAllowlist {
			q.Network = settings.NetworkOff
			if in.Network {
				q.Network = settings.NetworkOn
			}
		}
		if in.NetworkMode != "" || in.NetworkHosts != nil {
			q.NetworkHosts = hosts
		}
		q.UnixSockets, q.EnvAllow = sockets, envAllow
		q.SnapshotKeep, q.SnapshotMaxAgeDays, q.SearchMemoryMiB = in.SnapshotKeep, in.SnapshotMaxAgeDays, in.SearchMemoryMiB
		p = *q
		return nil
	})
	if err != nil {
		return ProjectSettings{}, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	if t, err := w.Session().Resolve(w.Root()); err == nil {
		if w.Snapshots() != nil {
			if repo := w.Snapshots().Current(t.Root); repo != nil {
				repo.SetOptions(tools.SnapshotOptions(p, w.Deps().Lane))
			}
		}
		if w.Indexes() != nil {
			w.Indexes().SetBudget(t.Root, int64(p.SearchMemoryMiB)<<20)
		}
	}
	return s.view(w, p), nil
}

// envPattern is a variable's name, or a prefix of one ending in "*" (at least one character before it).
var envPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\*?$`)

// absolutePaths cleans the absolute paths of a list the user typed, dropping blanks and repeats; a relative one is
// refused with field named.
func absolutePaths(field, what string, in []string) ([]string, error) {
	var out []string
	for _, r := range in {
		if r = strings.TrimSpace(r); r == "" {
			continue
		}
		if !filepath.IsAbs(r) {
			return nil, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: field, Message: what + " must be absolute paths: " + r})
		}
		if r = filepath.Clean(r); !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// networkMode is the settings screen's name of n.
func networkMode(n settings.Network) string {
	if n == settings.NetworkOff {
		return "off"
	}
	return string(n)
}

// networkInput is the mode the screen chose by name; nil when it named none (only the switch).
func networkInput(in ProjectSettingsInput) (*settings.Network, *tool.Error) {
	var n settings.Network
	switch in.NetworkMode {
	case "":
		return nil, nil
	case "off":
		n = settings.NetworkOff
	case "on":
		n = settings.NetworkOn
	case "allowlist":
		n = settings.NetworkAllowlist
	default:
		return nil, &tool.Error{Code: tool.CodeInvalidArgument, Field: "network_mode", Message: "network_mode is off, on or allowlist, not " + strconv.Quote(in.NetworkMode)}
	}
	return &n, nil
}
