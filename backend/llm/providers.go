// Package llm keeps the user's LLM providers and relays the window's requests to them.
//
// Guarantees: API keys live in the system keyring where one answers (backend/keystore), else in keys.json beside
// providers.json in the user's config directory (mode 0600, its folder 0700), or in the environment; never in
// providers.json, whose keys from earlier versions MoveKeys moves out. They never travel to the web view: the
// window sees whether a provider has a key, not the key. A request is relayed only to a URL under a configured provider's base URL, with that provider's key
// put in by the relay; an environment key goes only to its own vendor's host (OPENAI_API_KEY to api.openai.com,
// never to an OpenAI-compatible server elsewhere). Responses stream back as they arrive.
//
// Not guaranteed: anything about what the provider does with the request.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/rooted-dev/rooted/backend/configfile"
	"github.com/rooted-dev/rooted/backend/keystore"
	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Kind is the wire protocol a provider speaks.
type Kind string

const (
	// OpenAICompatible is OpenAI's chat completions API, as OpenAI, LM Studio, llama.cpp, vLLM and OpenRouter
	// serve it.
	OpenAICompatible Kind = "openai-compatible"
	// Anthropic is Anthropic's Messages API.
	Anthropic Kind = "anthropic"
	// Ollama is Ollama's own API (/api/chat, /api/show, /api/tags) under the server's root URL. Unlike its
	// OpenAI-compatible /v1, it takes the context size with each request (options.num_ctx) and tells the model's
	// real window (/api/show), so a long prompt is never cut to the server's default without a word.
	Ollama Kind = "ollama"
)

// kinds are the wire protocols a provider may speak.
var kinds = []Kind{OpenAICompatible, Anthropic, Ollama}

// Provider is one configured endpoint.
type Provider struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Kind    Kind   `json:"kind"`
	BaseURL string `json:"base_url"`
	Model   string `json:"model,omitempty"`
	// APIKey is the key the user gave; it is kept in the key store, not in providers.json (where earlier
	// versions wrote it, so it is still read from there until MoveKeys or the next change moves it).
	APIKey string `json:"api_key,omitempty"`
	// ContextWindows overrides a model's context window in tokens, by model id, where the provider's model list
	// does not say it or says it wrong.
	ContextWindows map[string]int `json:"context_windows,omitempty"`
	// Prices are what the user pays for a model, by model id, for the window to show what a conversation costs
	// where the provider does not report it.
	Prices map[string]Price `json:"prices,omitempty"`
	// Efforts are the reasoning effort asked of a model, by model id (one of Efforts; absent: the provider's
	// default). The window sends it as the AI SDK's reasoning setting, which each provider sends in its own form:
	// Anthropic's thinking budget, OpenAI's reasoning effort, Ollama's think.
	Efforts map[string]string `json:"efforts,omitempty"`
	// TextOnly are the models the user marked as taking no images, by model id: an image is not sent to them
	// (read_file's image is unsupported_media, the request box takes no paste).
	TextOnly map[string]bool `json:"text_only,omitempty"`
}

// Efforts are the reasoning efforts a model may be set to; "" leaves it to the provider.
var Efforts = []string{"", "none", "low", "medium", "high"}

// Price is what a model costs in US dollars per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CachedInput is the price of input read from the provider's prompt cache; nil: the input price.
	CachedInput *float64 `json:"cached_input,omitempty"`
}

// MaxPrice bounds a price, in US dollars per million tokens: far above any model's, low enough to catch a price
// typed per token or per thousand by mistake as a number that is still a price.
const MaxPrice = 10_000

// Validate checks that every part of a price is a number of dollars from 0 to MaxPrice.
func (p Price) Validate() error {
	parts := []float64{p.Input, p.Output}
	if p.CachedInput != nil {
		parts = append(parts, *p.CachedInput)
	}
	for _, v := range parts {
		if math.IsNaN(v) || v < 0 || v > MaxPrice {
			return fmt.Errorf("%w: a price is US dollars per million tokens, from 0 to %d", ErrInvalid, MaxPrice)
		}
	}
	return nil
}

// Config is the providers file.
type Config struct {
	Providers []Provider `json:"providers"`
	// Active is the ID of the provider new conversations use.
	Active string `json:"active,omitempty"`
}

// DefaultConfig is what a user who configured nothing gets: a local Ollama, which needs no key.
func DefaultConfig() Config {
	return Config{
		Providers: []Provider{{ID: "ollama", Name: "Ollama (local)", Kind: Ollama, BaseURL: "http://localhost:11434"}},
		Active:    "ollama",
	}
}

// Errors a caller can tell apart.
var (
	ErrUnknownProvider = errors.New("no such provider")
	ErrInvalid         = errors.New("invalid provider")
	// ErrKeyInClear refuses a request that would carry a key over plain http to a public address.
	ErrKeyInClear = errors.New("an API key is not sent in clear text")
)

// Store reads and writes the providers file, and the providers' keys in a key store. Its methods may be called
// concurrently: each edit is a read-modify-write under one lock.
type Store struct {
	mu     sync.Mutex
	path   string
	getenv func(string) string
	keys   keystore.Store
	// held are the keys read from or written to keys, by provider id ("" for none): each is read once per run,
	// since every relayed request loads the providers and a keyring answers in D-Bus round trips, not microseconds.
	held map[string]string
}

// NewStore keeps providers in path and their keys in KeysPath(path); getenv (os.Getenv when nil) supplies keys
// from the environment.
func NewStore(path string, getenv func(string) string) *Store {
	return NewStoreWith(path, getenv, nil)
}

// NewStoreWith is NewStore with the keys in keys (nil: the file KeysPath(path)).
func NewStoreWith(path string, getenv func(string) string, keys keystore.Store) *Store {
	if getenv == nil {
		getenv = os.Getenv
	}
	if keys == nil {
		keys = keystore.NewFile(KeysPath(path))
	}
	return &Store{path: path, getenv: getenv, keys: keys, held: map[string]string{}}
}

// KeysPath is the file that holds the keys of the providers in path where no keyring answers: keys.json beside it.
func KeysPath(path string) string { return filepath.Join(filepath.Dir(path), "keys.json") }

// KeyService is the service a provider's key is stored under, its account being the provider's id: one per
// providers file, so two configurations (another XDG_CONFIG_HOME) never share or overwrite each other's keys.
func (s *Store) KeyService() string { return "rooted " + s.path }

// DefaultPath is $XDG_CONFIG_HOME/rooted/providers.json (or the platform's config directory).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "rooted", "providers.json"), nil
}

// Load returns the configuration, or DefaultConfig when there is no file yet.
func (s *Store) Load() (Config, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load()
}

// load is the file with each provider's key from the key store (or, from an earlier version, the file).
func (s *Store) load() (Config, error) {
	c, err := s.readFile()
	if err != nil {
		return Config{}, err
	}
	for i, p := range c.Providers {
		if p.APIKey != "" {
			continue
		}
		key, err := s.stored(context.Background(), p.ID)
		if err != nil {
			return Config{}, err
		}
		c.Providers[i].APIKey = key
	}
	return c, nil
}

// stored is the key the key store holds for provider id ("" for none), read once.
func (s *Store) stored(ctx context.Context, id string) (string, error) {
	if key, ok := s.held[id]; ok {
		return key, nil
	}
	key, err := s.keys.Get(ctx, s.KeyService(), id)
	if err != nil && !errors.Is(err, keystore.ErrNotFound) {
		return "", fmt.Errorf("reading the key of provider %q: %w", id, err)
	}
	s.held[id] = key
	return key, nil
}

// readFile is the providers file as written.
func (s *Store) readFile() (Config, error) {
	b, err := smallfile.Read(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return DefaultConfig(), nil
	}
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", s.path, err)
	}
	for i := range c.Providers {
		c.Providers[i] = migrate(c.Providers[i])
	}
	return c, nil
}

// migrate turns an OpenAI-compatible provider whose base URL is Ollama's /v1 (port 11434, the default provider
// of earlier versions) into the Ollama kind at the server's root: the same server, model and key, spoken to
// through the API that honours the context size. The file is rewritten with the next change.
func migrate(p Provider) Provider {
	if p.Kind != OpenAICompatible {
		return p
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil || u.Port() != "11434" || strings.TrimSuffix(u.Path, "/") != "/v1" || u.RawQuery != "" {
		return p
	}
	u.Path = ""
	p.Kind = Ollama
	p.BaseURL = u.String()
	return p
}

// Save validates c and writes it atomically, readable by the user only.
func (s *Store) Save(c Config) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.save(c)
}

// save writes the keys that changed to the key store, removes those of providers that no longer have one, then
// writes the file without keys. A key the store refuses is an error before the file changes.
func (s *Store) save(c Config) error {
	if err := validate(c); err != nil {
		return err
	}
	ctx := context.Background()
	ids := map[string]bool{}
	if old, err := s.readFile(); err == nil {
		for _, p := range old.Providers {
			ids[p.ID] = true
		}
	}
	for _, p := range c.Providers {
		ids[p.ID] = true
	}
	keys := map[string]string{}
	for _, p := range c.Providers {
		keys[p.ID] = p.APIKey
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		held, err := s.stored(ctx, id)
		if err != nil {
			return err
		}
		switch key := keys[id]; {
		case key == held:
		case key == "":
			if err := s.keys.Delete(ctx, s.KeyService(), id); err != nil {
				return fmt.Errorf("removing the key of provider %q: %w", id, err)
			}
		default:
			if err := s.keys.Set(ctx, s.KeyService(), id, key); err != nil {
				delete(s.held, id) // the store may hold either now: read it again
				return fmt.Errorf("storing the key of provider %q: %w", id, err)
			}
		}
		s.held[id] = keys[id]
	}
	return configfile.WriteJSON(s.path, withoutKeys(c))
}

// withoutKeys is c as providers.json holds it.
func withoutKeys(c Config) Config {
	c.Providers = slices.Clone(c.Providers)
	for i := range c.Providers {
		c.Providers[i].APIKey = ""
	}
	return c
}

// MoveKeys moves the keys that providers.json holds (written by an earlier version) into the key store, and
// those from (the keys file, when the store is now a keyring; nil: none) as well: each is read back from the
// store before its old copy is removed, so one the store refuses stays where it was, and the error says so. It
// returns the providers whose keys moved.
func (s *Store) MoveKeys(ctx context.Context, from keystore.Store) (moved []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.readFile()
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var errs []error
	var rest []string // providers whose key, if any, is not in the file
	for i, p := range c.Providers {
		if p.APIKey == "" {
			rest = append(rest, p.ID)
			continue
		}
		if err := s.keys.Set(ctx, s.KeyService(), p.ID, p.APIKey); err != nil {
			errs = append(errs, fmt.Errorf("provider %q: its key stays in %s: %w", p.ID, s.path, err))
			continue
		}
		if back, err := s.keys.Get(ctx, s.KeyService(), p.ID); err != nil || back != p.APIKey {
			errs = append(errs, fmt.Errorf("provider %q: its key did not read back from the key store, so it stays in %s", p.ID, s.path))
			continue
		}
		c.Providers[i].APIKey = ""
		s.held[p.ID] = p.APIKey
		moved = append(moved, p.ID)
	}
	if len(moved) > 0 {
		if err := configfile.WriteJSON(s.path, c); err != nil {
			return nil, errors.Join(append(errs, err)...)
		}
	}
	if from != nil {
		// A key moved from providers.json replaces an older copy in the keys file, which goes too.
		for _, id := range moved {
			if err := from.Delete(ctx, s.KeyService(), id); err != nil {
				errs = append(errs, err)
			}
		}
		m, err := keystore.Move(ctx, from, s.keys, s.KeyService(), rest)
		for _, id := range m {
			delete(s.held, id) // read from the store when next needed
		}
		moved = append(moved, m...)
		errs = append(errs, err)
	}
	return moved, errors.Join(errs...)
}

// validate checks every provider, and that no two share an id.
func validate(c Config) error {
	seen := map[string]bool{}
	for _, p := range c.Providers {
		if err := p.Validate(); err != nil {
			return err
		}
		if seen[p.ID] {
			return fmt.Errorf("%w: two providers with id %q", ErrInvalid, p.ID)
		}
		seen[p.ID] = true
	}
	return nil
}

// Validate checks what a provider needs to be usable.
func (p Provider) Validate() error {
	if strings.TrimSpace(p.ID) == "" {
		return fmt.Errorf("%w: an id is required", ErrInvalid)
	}
	if !slices.Contains(kinds, p.Kind) {
		return fmt.Errorf("%w: %s: kind must be %q, %q or %q, not %q", ErrInvalid, p.ID, OpenAICompatible, Anthropic, Ollama, p.Kind)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: %s: base URL %q must be an http or https URL", ErrInvalid, p.ID, p.BaseURL)
	}
	for model, price := range p.Prices {
		if err := price.Validate(); err != nil {
			return fmt.Errorf("%s: %s: %w", p.ID, model, err)
		}
	}
	if p.APIKey != "" && !KeyAllowed(p.BaseURL) {
		return fmt.Errorf("%w: %s: an API key is sent only over https (or plain http to this machine or a private address), not to %s", ErrInvalid, p.ID, p.BaseURL)
	}
	return nil
}

// KeyAllowed reports whether a key may be sent to baseURL: over https anywhere, and over plain http only to this
// machine (localhost, a loopback address) or a private address (10/8, 172.16/12, 192.168/16, fc00::/7), where a
// local server or a proxy on the user's own network listens. A host name other than localhost is not trusted to
// be private over http, since whoever answers for it could read the key.
func KeyAllowed(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "https":
		return u.Host != ""
	case "http":
		h := strings.ToLower(u.Hostname())
		if h == "localhost" || strings.HasSuffix(h, ".localhost") {
			return true
		}
		ip, err := netip.ParseAddr(h)
		return err == nil && (ip.IsLoopback() || ip.IsPrivate())
	}
	return false
}

// Find returns the provider with id.
func (c Config) Find(id string) (Provider, error) {
	for _, p := range c.Providers {
		if p.ID == id {
			return p, nil
		}
	}
	return Provider{}, fmt.Errorf("%w: %q", ErrUnknownProvider, id)
}

// envKeys maps a vendor's API host to the environment variable that holds its key.
var envKeys = map[string]string{
	"api.openai.com":    "OPENAI_API_KEY",
	"api.anthropic.com": "ANTHROPIC_API_KEY",
	"openrouter.ai":     "OPENROUTER_API_KEY",
}

// Key returns the key to send to p and where it came from ("settings", the environment variable's name, or ""
// when there is none, as for a local server). A key is never sent in clear text: for a base URL KeyAllowed
// refuses, there is none (see HeldKey).
func (s *Store) Key(p Provider) (key, source string) {
	if !KeyAllowed(p.BaseURL) {
		return "", ""
	}
	return s.HeldKey(p)
}

// HeldKey is the key Rooted holds for p, whether or not it may be sent there.
func (s *Store) HeldKey(p Provider) (key, source string) {
	if p.APIKey != "" {
		return p.APIKey, "settings"
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return "", ""
	}
	if name := envKeys[u.Hostname()]; name != "" {
		if k := s.getenv(name); k != "" {
			return k, name
		}
	}
	return "", ""
}

// SameHost reports whether two base URLs name the same scheme, host and port: where a stored key may be sent.
func SameHost(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host)
}
