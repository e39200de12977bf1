package app

import (
	"strings"

	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/websearch"
)

// SearchEndpoint is the search service web_search asks: the user's setting, the same for every project; "" while
// web_search is off.
func (s *Settings) SearchEndpoint() (string, error) {
	if s.store == nil {
		return "", nil
	}
	u, err := s.store.User()
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "reading settings: %v", err))
	}
	return u.SearchEndpoint, nil
}

// SaveSearchEndpoint sets the search service web_search asks (a SearXNG instance's address, or a URL with {query}
// answering SearXNG's JSON), or turns web_search off with "". An endpoint that cannot be asked is refused with
// invalid_argument saying why, and nothing is saved. The tool is offered from the next request on; a running MCP
// server adds it to its list (or takes it out) and tells its clients (backend/mcpserver).
func (s *Settings) SaveSearchEndpoint(endpoint string) (string, error) {
	if s.store == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "settings are not available here"))
	}
	endpoint = strings.TrimSpace(endpoint)
	if endpoint != "" {
		if _, err := websearch.ParseEndpoint(endpoint); err != nil {
			return "", reject(&tool.Error{Code: tool.CodeInvalidArgument, Field: "search_endpoint", Message: err.Error()})
		}
	}
	err := s.store.UpdateUser(func(u *settings.User) error {
		u.SearchEndpoint = endpoint
		return nil
	})
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "saving settings: %v", err))
	}
	return endpoint, nil
}
