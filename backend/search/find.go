package search

import (
	"context"
	"slices"
	"time"
)

// Found is one file found by name.
type Found struct {
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
}

// FindResult lists files, newest first.
type FindResult struct {
	Files     []Found `json:"files"`
	Total     int     `json:"total"`
	Limit     int     `json:"limit"`
	Truncated bool    `json:"truncated"`
}

// Find lists the files under dir whose paths pass g, most recently modified first (what an agent most likely
// wants next), then by path.
func Find(ctx context.Context, src Source, dir string, g *Glob, opt WalkOptions, limit int) (FindResult, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	opt.Match, opt.Stat = g.Match, true
	var found []Found
	err := src.Walk(ctx, dir, opt, func(f File) bool {
		found = append(found, Found{Path: f.Rel, Size: f.Info.Size(), ModTime: f.Info.ModTime()})
		f.Release()
		return true
	})
	if err != nil {
		return FindResult{}, err
	}
	if found == nil {
		found = []Found{}
	}
	slices.SortStableFunc(found, func(a, b Found) int { return b.ModTime.Compare(a.ModTime) })
	res := FindResult{Files: found, Total: len(found), Limit: limit}
	if len(found) > limit {
		res.Files, res.Truncated = found[:limit], true
	}
	return res, nil
}
