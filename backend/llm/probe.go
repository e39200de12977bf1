package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ProbeResult is what trying a provider found: the models it serves, or, in a sentence for a person, why it could
// not be used.
type ProbeResult struct {
	OK     bool     `json:"ok"`
	Models []string `json:"models"`
	// Status is the HTTP status of an answer that was an error (401: the key was refused); 0 when none came.
	Status int `json:"status,omitempty"`
	// Problem says what went wrong ("Ollama isn't running at http://localhost:11434"); "" when OK.
	Problem string `json:"problem,omitempty"`
}

// ProbeTimeout bounds a probe: a provider that has not listed its models by then is reported as not answering.
const ProbeTimeout = 15 * time.Second

// Probe tries a provider as the form describes it, saved or not: it asks for its model list with the key the
// change carries, or else the key a saved provider of the same id holds for the same host, or else the vendor's
// environment variable. Nothing is saved. A key is sent only where a saved one could be (KeyAllowed), and a
// redirect is never followed, so the key reaches no other host. An unreachable or refusing provider is a result
// (OK false, with the problem), not an error; an error is a change that could not be a provider at all.
func (s *Store) Probe(ctx context.Context, in ProviderChange, client *http.Client) (ProbeResult, error) {
	p := Provider{ID: strings.TrimSpace(in.ID), Name: strings.TrimSpace(in.Name), Kind: Kind(in.Kind), BaseURL: strings.TrimRight(strings.TrimSpace(in.BaseURL), "/"), APIKey: strings.TrimSpace(in.APIKey)}
	if p.Kind == Ollama {
		p.BaseURL = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(p.BaseURL, "/v1"), "/api"), "/")
	}
	check := p
	if check.ID == "" {
		check.ID = "new provider"
	}
	if err := check.Validate(); err != nil {
		return ProbeResult{}, err
	}
	if p.APIKey == "" && !in.ClearKey {
		if c, err := s.Load(); err == nil {
			if old, err := c.Find(p.ID); err == nil && SameHost(old.BaseURL, p.BaseURL) {
				p.APIKey = old.APIKey
			}
		}
	}
	key, _ := s.HeldKey(p)
	if key != "" && !KeyAllowed(p.BaseURL) {
		return ProbeResult{}, fmt.Errorf("%w: a key is sent only over https (or plain http to this machine or a private address), not to %s", ErrKeyInClear, p.BaseURL)
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	list := p.BaseURL + "/models"
	if p.Kind == Ollama {
		list = p.BaseURL + "/api/tags"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, list, nil)
	if err != nil {
		return ProbeResult{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	switch {
	case p.Kind == Anthropic:
		req.Header.Set("anthropic-version", "2023-06-01")
		if key != "" {
			req.Header.Set("x-api-key", key)
		}
	case key != "":
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if client == nil {
		client = defaultClient
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		return ProbeResult{Problem: unreachable(p, err)}, nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return ProbeResult{Problem: unreachable(p, err)}, nil
	}
	if resp.StatusCode != http.StatusOK {
		return ProbeResult{Status: resp.StatusCode, Problem: refused(p, key != "", resp.StatusCode)}, nil
	}
	models, err := modelIDs(p.Kind, body)
	if err != nil {
		return ProbeResult{Status: resp.StatusCode, Problem: fmt.Sprintf("%s answered, but not with a model list (%v): is %s the API's base URL?", p.BaseURL, err, p.BaseURL)}, nil
	}
	return ProbeResult{OK: true, Models: models}, nil
}

// unreachable says why no answer came, naming the server.
func unreachable(p Provider, err error) string {
	who := "Nothing answers"
	if p.Kind == Ollama {
		who = "Ollama isn't running"
	}
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("%s at %s", who, p.BaseURL)
	case errors.As(err, &dns):
		return fmt.Sprintf("%s's host could not be found (%s): check the address and the network", p.BaseURL, dns.Err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("%s did not answer within %d seconds", p.BaseURL, int(ProbeTimeout.Seconds()))
	}
	return fmt.Sprintf("%s could not be reached: %v", p.BaseURL, err)
}

// refused says what an HTTP error from the model list means for the person setting the provider up.
func refused(p Provider, hadKey bool, status int) string {
	switch {
	case (status == http.StatusUnauthorized || status == http.StatusForbidden) && !hadKey:
		return fmt.Sprintf("%s needs an API key (HTTP %d)", p.BaseURL, status)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Sprintf("%s refused the API key (HTTP %d)", p.BaseURL, status)
	case status == http.StatusNotFound:
		return fmt.Sprintf("%s has no model list (HTTP 404): is it the API's base URL?", p.BaseURL)
	case status >= 300 && status < 400:
		return fmt.Sprintf("%s redirects elsewhere (HTTP %d), which is not followed with a key: use the address it names", p.BaseURL, status)
	}
	return fmt.Sprintf("%s answered HTTP %d to the model list", p.BaseURL, status)
}

// modelIDs reads a model list: OpenAI's and Anthropic's {"data": [{"id"}]}, Ollama's {"models": [{"model"|"name"}]}.
func modelIDs(kind Kind, body []byte) ([]string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, errors.New("not JSON")
	}
	ids := []string{}
	if kind == Ollama {
		if list.Models == nil {
			return nil, errors.New(`no "models" field`)
		}
		for _, m := range list.Models {
			if id := cmp.Or(m.Model, m.Name); id != "" {
				ids = append(ids, id)
			}
		}
	} else {
		if list.Data == nil {
			return nil, errors.New(`no "data" field`)
		}
		for _, m := range list.Data {
			if m.ID != "" {
				ids = append(ids, m.ID)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
