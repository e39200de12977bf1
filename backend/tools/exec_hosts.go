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
