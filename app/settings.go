package app

import (
	"slices"
	"strings"
	"time"

	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Settings serves the open project's settings screen: what commands may run, the sandbox they run in, whether
// edits need approval, and how many snapshots are kept.
type Settings struct {
	session   *session.Session
	store     *settings.Store // nil without a config directory
	snapshots *snapshot.Projects
}

// ProjectSettings is the settings screen's content.
type ProjectSettings struct {
	Root               string      `json:"root"`
	Allowlist          []string    `json:"allowlist"`
	DefaultAllowlist   []string    `json:"default_allowlist"`
	NoNetwork          bool        `json:"no_network"`
	Writable           []string    `json:"writable"`
	AutoApproveEdits   bool        `json:"auto_approve_edits"`
	SnapshotKeep       int         `json:"snapshot_keep"`
	SnapshotMaxAgeDays int         `json:"snapshot_max_age_days"`
	Sandbox            SandboxView `json:"sandbox"`
	File               string      `json:"file"`
}

// SandboxView says how commands are confined on this machine.
type SandboxView struct {
	Active  bool   `json:"active"`
	Kind    string `json:"kind"`
	Level   int    `json:"level"`
	Network bool   `json:"network"`
	Reason  string `json:"reason"`
}

// ProjectSettingsInput is what the screen saves.
type ProjectSettingsInput struct {
	Allowlist          []string `json:"allowlist"`
	NoNetwork          bool     `json:"no_network"`
	AutoApproveEdits   bool     `json:"auto_approve_edits"`
	SnapshotKeep       int      `json:"snapshot_keep"`
	SnapshotMaxAgeDays int      `json:"snapshot_max_age_days"`
}

// load returns the open project's root and settings.
func (s *Settings) load() (string, settings.Project, error) {
	info, err := s.session.Info()
	if err != nil {
		return "", settings.Project{}, reject(tool.Errorf(tool.CodeNoProject, "no project is open"))
	}
	if s.store == nil {
		return "", settings.Project{}, reject(tool.Errorf(tool.CodeInternal, "no config directory to keep settings in"))
	}
	p, err := s.store.Project(info.Root)
	if err != nil {
		return "", settings.Project{}, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return info.Root, p, nil
}

// view is what the screen shows for p, defaults filled in.
func (s *Settings) view(root string, p settings.Project) ProjectSettings {
	snap := snapshotOptions(p).WithDefaults()
	sb := shell.Probe(shell.Policy{Network: !p.NoNetwork})
	return ProjectSettings{
		Root: root, Allowlist: p.EffectiveAllowlist(), DefaultAllowlist: shell.DefaultAllowlist, NoNetwork: p.NoNetwork,
		Writable: append([]string{}, p.Writable...), AutoApproveEdits: p.AutoApproveEdits,
		SnapshotKeep: snap.Keep, SnapshotMaxAgeDays: int(snap.MaxAge / (24 * time.Hour)),
		Sandbox: SandboxView{Active: sb.Active, Kind: sb.Kind, Level: sb.Level, Network: sb.Network, Reason: sb.Reason},
		File:    s.store.Path(),
	}
}

// Project returns the open project's settings.
func (s *Settings) Project() (ProjectSettings, error) {
	root, p, err := s.load()
	if err != nil {
		return ProjectSettings{}, err
	}
	return s.view(root, p), nil
}

// Save changes the open project's settings and returns them as now in force.
func (s *Settings) Save(in ProjectSettingsInput) (ProjectSettings, error) {
	root, p, err := s.load()
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
	if in.SnapshotKeep < 0 || in.SnapshotMaxAgeDays < 0 {
		return ProjectSettings{}, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "snapshot_keep", Message: "snapshot limits cannot be negative"})
	}
	p.Allowlist, p.NoNetwork, p.AutoApproveEdits = allow, in.NoNetwork, in.AutoApproveEdits
	p.SnapshotKeep, p.SnapshotMaxAgeDays = in.SnapshotKeep, in.SnapshotMaxAgeDays
	if err := s.store.SetProject(root, p); err != nil {
		return ProjectSettings{}, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	if t, err := s.session.Resolve(root); err == nil && s.snapshots != nil {
		if repo := s.snapshots.Current(t.Root); repo != nil {
			repo.SetOptions(snapshotOptions(p))
		}
	}
	return s.view(root, p), nil
}

func snapshotOptions(p settings.Project) snapshot.Options {
	return snapshot.Options{Keep: p.SnapshotKeep, MaxAge: time.Duration(p.SnapshotMaxAgeDays) * 24 * time.Hour}
}
