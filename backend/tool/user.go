package tool

import "context"

type userKey struct{}

// ByUser marks a call as the user's own (the window's editor and file view), not the agent's. The agent's record
// of what it has read, which makes its edits of files changed since stale, is neither updated nor consulted by
// such calls: a file the user viewed or saved is still one the agent must read again.
func ByUser(ctx context.Context) context.Context { return context.WithValue(ctx, userKey{}, true) }

// IsUser reports whether ctx carries a call made by the user.
func IsUser(ctx context.Context) bool { b, _ := ctx.Value(userKey{}).(bool); return b }
