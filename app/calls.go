package app

import (
	"context"
	"sync"
)

// calls are the cancellable calls the window has running (tool runs, LLM requests), by the id the window chose.
type calls struct {
	mu sync.Mutex
	m  map[string]context.CancelFunc
}

// start registers id and returns the call's context and the func that ends it; ok is false when id is already
// running.
func (c *calls) start(id string) (ctx context.Context, done func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.m[id]; dup {
		return nil, nil, false
	}
	if c.m == nil {
		c.m = map[string]context.CancelFunc{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.m[id] = cancel
	return ctx, func() {
		c.mu.Lock()
		delete(c.m, id)
		c.mu.Unlock()
		cancel()
	}, true
}

// cancel stops the call with id; it reports whether one was running.
func (c *calls) cancel(id string) bool {
	c.mu.Lock()
	cancel, ok := c.m[id]
	c.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}
