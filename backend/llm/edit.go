package llm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ProviderChange adds or changes a provider, as the window's provider form sends it. An empty APIKey keeps the
// stored key (while the base URL stays on the same host); ClearKey removes it.
type ProviderChange struct {
	ID, Name, Kind, BaseURL, Model, APIKey string
	ClearKey                               bool
	// ContextWindow sets the chosen model's context window in tokens (0: automatic).
	ContextWindow int
	// Price sets what the chosen model costs (nil: no price, so no money is shown unless the provider reports it).
	Price *Price
	// Effort sets the chosen model's reasoning effort, one of Efforts ("": the provider's default).
	Effort string
	// TextOnly marks the chosen model as taking no images.
	TextOnly bool
}

// MaxContextWindow bounds a context window setting, in tokens.
const MaxContextWindow = 100_000_000

// update applies f to the configuration under the store's lock and saves the result: concurrent edits (the
// window calls from several goroutines) are applied one after the other, none lost.
func (s *Store) update(f func(*Config) error) (Config, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.load()
	if err != nil {
		return Config{}, err
	}
	if err := f(&c); err != nil {
		return Config{}, err
	}
	if err := s.save(c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// SaveProvider adds the provider, or replaces the one with the same id. The replaced provider's context windows
// and prices are kept (the chosen model's set as the change says), and its key too unless the change clears it or moves the base URL to another host (a stored key stays
// with its host: moving it elsewhere needs the key entered again). The first provider saved becomes the active one.
func (s *Store) SaveProvider(in ProviderChange) (Config, error) {
	if in.ContextWindow < 0 || in.ContextWindow > MaxContextWindow {
		return Config{}, fmt.Errorf("%w: a context window is a number of tokens, 0 for automatic", ErrInvalid)
	}
	if in.Price != nil {
		if err := in.Price.Validate(); err != nil {
			return Config{}, err
		}
	}
	if !slices.Contains(Efforts, in.Effort) {
		return Config{}, fmt.Errorf("%w: reasoning effort %q is not one of none, low, medium, high (or empty: the provider's default)", ErrInvalid, in.Effort)
	}
	p := Provider{
		ID: strings.TrimSpace(in.ID), Name: strings.TrimSpace(in.Name), Kind: Kind(in.Kind),
		BaseURL: strings.TrimRight(strings.TrimSpace(in.BaseURL), "/"), Model: strings.TrimSpace(in.Model), APIKey: strings.TrimSpace(in.APIKey),
	}
	if p.Name == "" {
		p.Name = p.ID
	}
	if p.Kind == Ollama {
		// Ollama's API is below the server's root; a URL copied from the OpenAI-compatible setup or from Ollama's
		// docs names /v1 or /api, which the window adds itself.
		p.BaseURL = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(p.BaseURL, "/v1"), "/api"), "/")
	}
	return s.update(func(c *Config) error {
		i := slices.IndexFunc(c.Providers, func(old Provider) bool { return old.ID == p.ID })
		if i >= 0 {
			old := c.Providers[i]
			p.ContextWindows = maps.Clone(old.ContextWindows)
			p.Prices = maps.Clone(old.Prices)
			p.Efforts = maps.Clone(old.Efforts)
			p.TextOnly = maps.Clone(old.TextOnly)
			if p.APIKey == "" && !in.ClearKey && SameHost(old.BaseURL, p.BaseURL) {
				p.APIKey = old.APIKey
			}
		}
		if p.Model != "" {
			if in.ContextWindow > 0 {
				if p.ContextWindows == nil {
					p.ContextWindows = map[string]int{}
				}
				p.ContextWindows[p.Model] = in.ContextWindow
			} else {
				delete(p.ContextWindows, p.Model)
			}
			if len(p.ContextWindows) == 0 {
				p.ContextWindows = nil
			}
			if in.Price != nil {
				if p.Prices == nil {
					p.Prices = map[string]Price{}
				}
				p.Prices[p.Model] = *in.Price
			} else {
				delete(p.Prices, p.Model)
			}
			if len(p.Prices) == 0 {
				p.Prices = nil
			}
			if in.Effort != "" {
				if p.Efforts == nil {
					p.Efforts = map[string]string{}
				}
				p.Efforts[p.Model] = in.Effort
			} else {
				delete(p.Efforts, p.Model)
			}
			if len(p.Efforts) == 0 {
				p.Efforts = nil
			}
			if in.TextOnly {
				if p.TextOnly == nil {
					p.TextOnly = map[string]bool{}
				}
				p.TextOnly[p.Model] = true
			} else {
				delete(p.TextOnly, p.Model)
			}
			if len(p.TextOnly) == 0 {
				p.TextOnly = nil
			}
		}
		if i >= 0 {
			c.Providers[i] = p
		} else {
			c.Providers = append(c.Providers, p)
		}
		if c.Active == "" {
			c.Active = p.ID
		}
		return validate(*c)
	})
}

// DeleteProvider removes a provider; when it was the active one, the first left becomes active.
func (s *Store) DeleteProvider(id string) (Config, error) {
	return s.update(func(c *Config) error {
		if _, err := c.Find(id); err != nil {
			return err
		}
		c.Providers = slices.DeleteFunc(c.Providers, func(p Provider) bool { return p.ID == id })
		if c.Active == id {
			c.Active = ""
			if len(c.Providers) > 0 {
				c.Active = c.Providers[0].ID
			}
		}
		return nil
	})
}

// SetActive makes a provider (and, when model is not empty, that model) the one conversations use.
func (s *Store) SetActive(id, model string) (Config, error) {
	return s.update(func(c *Config) error {
		i := slices.IndexFunc(c.Providers, func(p Provider) bool { return p.ID == id })
		if i < 0 {
			return fmt.Errorf("%w: %q", ErrUnknownProvider, id)
		}
		if model != "" {
			c.Providers[i].Model = model
		}
		c.Active = id
		return nil
	})
}
