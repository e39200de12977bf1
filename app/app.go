// Package app is Rooted's Wails face: small bound services whose methods are thin calls into backend packages,
// returning concrete DTOs. Failures reach the frontend as rejections whose message is the tool error JSON
// ({"error": {code, message, ...}}), which frontend/src/bridge turns into a typed BackendError.
package app

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/recent"
	"github.com/rooted-dev/rooted/backend/search"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
)

// Options configure the window.
type Options struct {
	// Assets is the built frontend (frontend/dist embedded by main).
	Assets embed.FS
	// Root, when set, is opened as the project at start.
	Root string
	// RecentFile overrides where recent projects are kept (tests).
	RecentFile string
}

// Run opens the window and blocks until it closes.
func Run(opt Options) error {
	if err := CheckDisplay(); err != nil {
		return err
	}
	assets, err := fs.Sub(opt.Assets, "frontend/dist")
	if err != nil {
		return err
	}
	svc, err := newServices(opt)
	if err != nil {
		return err
	}
	defer svc.session.Close()
	defer svc.indexes.Close()
	return wails.Run(&options.App{
		Title:            "Rooted",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 24, G: 26, B: 31, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        svc.startup,
		Bind:             []any{svc.Projects, svc.Tools},
		Linux:            &linux.Options{ProgramName: "rooted"},
	})
}

// services are the bound structs plus what they share. Only Projects and Tools are bound; their methods are the
// frontend's whole view of the backend.
type services struct {
	session  *session.Session
	indexes  *search.Indexes
	Projects *Projects
	Tools    *Tools
}

func newServices(opt Options) (*services, error) {
	file := opt.RecentFile
	if file == "" {
		f, err := recent.DefaultFile()
		if err != nil {
			return nil, fmt.Errorf("locating the config directory: %w", err)
		}
		file = f
	}
	s := session.New()
	p := &Projects{session: s, recent: recent.NewStore(file), now: time.Now}
	if opt.Root != "" {
		if _, err := p.Open(opt.Root); err != nil {
			// The window still opens on the project picker; the message says why the folder was not opened.
			slog.Warn("could not open project", "root", opt.Root, "err", err)
			p.startErr = err
		}
	}
	idx := &search.Indexes{}
	deps := tools.Deps{Session: s, Indexes: idx}
	if path, err := settings.DefaultPath(); err == nil {
		deps.Settings = settings.NewStore(path)
	}
	if cache, err := os.UserCacheDir(); err == nil {
		deps.Snapshots = &snapshot.Projects{CacheDir: cache}
	}
	return &services{session: s, indexes: idx, Projects: p, Tools: &Tools{registry: tools.Registry(deps)}}, nil
}

func (s *services) startup(ctx context.Context) {
	s.Projects.ctx = ctx
	s.Tools.emit = func(name string, data any) { wruntime.EventsEmit(ctx, name, data) }
}

// reject turns a tool error into the rejection the bridge parses.
func reject(e *tool.Error) error { return errors.New(string(e.JSON())) }

// rejectErr classifies a Go error first.
func rejectErr(err error) error {
	var te *tool.Error
	if errors.As(err, &te) {
		return reject(te)
	}
	return reject(tools.Classify(err))
}
