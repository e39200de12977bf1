package app

import (
	"context"

	"github.com/rooted-dev/rooted/backend/repoinfo"
)

// RepoInfo describes project ws's git repository (branch, short status, last commits) for the agent's system
// prompt; an empty description when the project is not a repository.
func (a *Agent) RepoInfo(ws string) (repoinfo.Info, error) {
	w, err := open(a.set, ws)
	if err != nil {
		return repoinfo.Info{}, err
	}
	return w.Repo().Describe(context.Background()), nil
}
