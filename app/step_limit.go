package app

import (
	"fmt"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
)

// StepLimit is how many model calls one request may take before the agent stops and offers Continue: the user's
// setting in settings.json, the same for every project, or 100.
func (s *Settings) StepLimit() (int, error) {
	if s.store == nil {
		return settings.DefaultStepLimit, nil
	}
	u, err := s.store.User()
	if err != nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return u.Steps(), nil
}

// SaveStepLimit sets the step limit (1 to 10,000) and returns the one in force.
func (s *Settings) SaveStepLimit(n int) (int, error) {
	if s.store == nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "settings are not available here"))
	}
	if n < 1 || n > settings.MaxStepLimit {
		return 0, reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "step_limit", Message: fmt.Sprintf("the step limit is a number of model calls from 1 to %d, not %d", settings.MaxStepLimit, n)})
	}
	var in settings.User
	err := s.store.UpdateUser(func(u *settings.User) error {
		u.StepLimit = n
		in = *u
		return nil
	})
	if err != nil {
		return 0, reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return in.Steps(), nil
}
