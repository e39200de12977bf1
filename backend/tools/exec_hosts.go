package tools

import (
	"context"
	"slices"
)

type hostsKey struct{}

// WithHosts marks ctx as carrying hosts the user allowed, in the window, for the commands of this conversation
// (a refused host's card, "allow for this conversation"): in allow-list mode the proxy lets them through besides
// the project's list. Only a face that asked the user sets it; a model's arguments never reach it.
func WithHosts(ctx context.Context, hosts []string) context.Context {
	if len(hosts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, hostsKey{}, slices.Clone(hosts))
}

// grantedHosts are the hosts WithHosts put in ctx.
func grantedHosts(ctx context.Context) []string {
	h, _ := ctx.Value(hostsKey{}).([]string)
	return h
}

// HostAsk asks the user, while a command runs in allow-list mode, whether it may reach host at port, host not
// being on the project's list: true lets it through at that port (only) for the rest of that command. It returns
// false when ctx ends first.
type HostAsk = func(ctx context.Context, host string, port int) bool

// HostLists are the hosts a command's proxy lets through and those it refuses, as the settings say now.
type HostLists = func() (allow, deny []string)

type hostAskKey struct{}

// WithHostAsk marks ctx as coming from a face where the user can answer while a command runs (the window): in
// allow-list mode, a connection to a host not on the list waits for ask's answer instead of being refused at once.
// Elsewhere (MCP, the CLI, a command already in the background) no one can answer, and such a host is refused.
func WithHostAsk(ctx context.Context, ask HostAsk) context.Context {
	if ask == nil {
		return ctx
	}
	return context.WithValue(ctx, hostAskKey{}, ask)
}

// hostAsk is what WithHostAsk put in ctx, or nil.
func hostAsk(ctx context.Context) HostAsk {
	a, _ := ctx.Value(hostAskKey{}).(HostAsk)
	return a
}
