package app

import (
	"context"
	"encoding/base64"
	"errors"
	"sync"

	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/llm"
	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/workspace"
)

// Agent serves what the window's agent needs besides the tools: its providers (keys stay here), the relay that
// carries its requests to them, and its conversations.
type Agent struct {
	providers *llm.Store
	keys      KeyStorage // where the providers' keys are
	relay     *llm.Relay
	set       *workspace.Set
	dataDir   string // conversations live below it; "" when there is no data directory
	emit      func(name string, data any)
	ctx       context.Context // the window's, for the export's save dialog; nil until it starts

	convMu sync.Mutex
	convs  map[string]*conversations.Store // by project root: one store, so one lock, per project

	unsavedMu sync.Mutex
	unsaved   string // why the open conversation is not saved; "" when it is

	fetches calls
}

// ProviderView is a provider as the window sees it: whether it has a key, never the key.
type ProviderView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	BaseURL   string `json:"base_url"`
	Model     string `json:"model"`
	HasKey    bool   `json:"has_key"`
	KeySource string `json:"key_source,omitempty"` // "settings" or the environment variable
	// ContextWindow is the user's setting for the chosen model's context window in tokens (0: from the provider's
	// model list, else the model's known default).
	ContextWindow int `json:"context_window"`
	// Price is what the chosen model costs, when the user set it.
	Price *llm.Price `json:"price,omitempty"`
	// Effort is the reasoning effort set for the chosen model ("": the provider's default).
	Effort string `json:"effort,omitempty"`
	// TextOnly says the user marked the chosen model as taking no images.
	TextOnly bool `json:"text_only"`
}

// ProvidersView is the providers file as the window sees it.
type ProvidersView struct {
	Providers []ProviderView `json:"providers"`
	Active    string         `json:"active"`
}

// ProviderInput adds or changes a provider. An empty APIKey keeps the stored key; ClearKey removes it.
type ProviderInput struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	BaseURL  string `json:"base_url"`
	Model    string `json:"model"`
	APIKey   string `json:"api_key"`
	ClearKey bool   `json:"clear_key"`
	// ContextWindow sets the chosen model's context window in tokens (0: automatic).
	ContextWindow int `json:"context_window"`
	// Price sets what the chosen model costs (null: none).
	Price *llm.Price `json:"price"`
	// Effort sets the chosen model's reasoning effort: none, low, medium or high ("": the provider's default).
	Effort string `json:"effort"`
	// TextOnly marks the chosen model as taking no images.
	TextOnly bool `json:"text_only"`
}

func (a *Agent) view(c llm.Config) ProvidersView {
	v := ProvidersView{Providers: []ProviderView{}, Active: c.Active}
	for _, p := range c.Providers {
		key, src := a.providers.Key(p)
		v.Providers = append(v.Providers, ProviderView{
			ID: p.ID, Name: p.Name, Kind: string(p.Kind), BaseURL: p.BaseURL, Model: p.Model, HasKey: key != "", KeySource: src,
			ContextWindow: p.ContextWindows[p.Model], Price: priceOf(p), Effort: p.Efforts[p.Model], TextOnly: p.TextOnly[p.Model] && p.Model != "",
		})
	}
	return v
}

// priceOf is the price set for p's chosen model, or nil.
func priceOf(p llm.Provider) *llm.Price {
	if price, ok := p.Prices[p.Model]; ok && p.Model != "" {
		return &price
	}
	return nil
}

func providerErr(err error) error {
	switch {
	case errors.Is(err, llm.ErrInvalid):
		return reject(tool.Errorf(tool.CodeInvalidArgument, "%v", err))
	case errors.Is(err, llm.ErrUnknownProvider):
		return reject(tool.Errorf(tool.CodeNotFound, "%v", err))
	}
	return reject(tool.Errorf(tool.CodeInternal, "providers: %v", err))
}

// Providers lists the configured providers (a local Ollama when nothing is configured).
func (a *Agent) Providers() (ProvidersView, error) {
	c, err := a.providers.Load()
	if err != nil {
		return ProvidersView{}, providerErr(err)
	}
	return a.view(c), nil
}

// SaveProvider adds the provider or replaces the one with the same id (the rules are llm.Store.SaveProvider's).
func (a *Agent) SaveProvider(in ProviderInput) (ProvidersView, error) {
	return a.viewOf(a.providers.SaveProvider(llm.ProviderChange(in)))
}

// DeleteProvider removes a provider.
func (a *Agent) DeleteProvider(id string) (ProvidersView, error) {
	return a.viewOf(a.providers.DeleteProvider(id))
}

// SetActive makes a provider (and, when model is not empty, that model) the one conversations use.
func (a *Agent) SetActive(id, model string) (ProvidersView, error) {
	return a.viewOf(a.providers.SetActive(id, model))
}

// TestProvider tries a provider as the form describes it, before it is saved (Test connection): the models it
// serves, or why it cannot be used, in words ("Ollama isn't running at http://localhost:11434"). A key left blank
// is the saved provider's of the same id and host, or the vendor's environment variable. Nothing is saved.
func (a *Agent) TestProvider(in ProviderInput) (llm.ProbeResult, error) {
	r, err := a.providers.Probe(context.Background(), llm.ProviderChange(in), nil)
	if err != nil {
		if errors.Is(err, llm.ErrKeyInClear) {
			return r, reject(tool.Errorf(tool.CodeInvalidArgument, "%v", err))
		}
		return r, providerErr(err)
	}
	return r, nil
}

func (a *Agent) viewOf(c llm.Config, err error) (ProvidersView, error) {
	if err != nil {
		return ProvidersView{}, providerErr(err)
	}
	return a.view(c), nil
}

// LLMRequest is a request the window's AI SDK would have sent with fetch.
type LLMRequest struct {
	Provider string            `json:"provider"`
	URL      string            `json:"url"`
	Method   string            `json:"method"`
	Headers  map[string]string `json:"headers"`
	Body     string            `json:"body"`
}

// Fetch relays a request to a provider and streams the response back as EventLLM events carrying id: the head,
// then the body in order (base64, numbered), then the end. It returns when the response has ended; a failure
// before the head (refused URL, connection refused) is both the end event's error and the rejection.
func (a *Agent) Fetch(id string, req LLMRequest) error {
	if id == "" {
		return reject(tool.Errorf(tool.CodeInvalidArgument, "a request id is required"))
	}
	ctx, done, ok := a.fetches.start(id)
	if !ok {
		return reject(tool.Errorf(tool.CodeInvalidArgument, "request id %q is already running", id))
	}
	defer done()
	emit := func(e LLMStream) {
		e.ID = id
		if a.emit != nil {
			a.emit(EventLLM, e)
		}
	}
	seq := 0
	var head *LLMHead
	err := a.relay.Do(ctx, llm.Request(req), func(h llm.Head) {
		head = &LLMHead{Status: h.Status, StatusText: h.StatusText, Headers: h.Headers}
		emit(LLMStream{Head: head})
	}, func(b []byte) {
		emit(LLMStream{Seq: seq, Data: base64.StdEncoding.EncodeToString(b)})
		seq++
	})
	// Events can overtake each other on the way to the web view: the end repeats the head, and pieces are numbered.
	end := LLMStream{End: true, Seq: seq, Head: head}
	if err != nil {
		end.Error = err.Error()
		if errors.Is(err, context.Canceled) {
			end.Error = "aborted"
		}
	}
	emit(end)
	if err != nil {
		code := tool.CodeInternal
		if errors.Is(err, llm.ErrOutsideProvider) || errors.Is(err, llm.ErrUnknownProvider) || errors.Is(err, llm.ErrKeyInClear) {
			code = tool.CodeInvalidArgument
		}
		return reject(tool.Errorf(code, "%v", err))
	}
	return nil
}

// CancelFetch aborts a relayed request; it reports whether one was running.
func (a *Agent) CancelFetch(id string) bool { return a.fetches.cancel(id) }
