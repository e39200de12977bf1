package app

import (
	"context"

	"github.com/rooted-dev/rooted/backend/repoinfo"
)

// RepoInfo describes the open project's git repository (branch, short status, last commits) for the agent's
// system prompt; an empty description when the project is not a repository.
func (a *Agent) RepoInfo() (repoinfo.Info, error) {
	info, err := a.session.Info()
	if err != nil {
		return repoinfo.Info{}, rejectErr(err)
	}
	return repoinfo.Describe(context.Background(), info.Root), nil
}
