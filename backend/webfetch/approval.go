package webfetch

import "context"

type approvalKey struct{}

// WithApproval marks ctx as carrying a call the user was asked about and approved: its URL's host may be fetched
// once without a rule allowing it. Only a face that asked (the window's card, an MCP client's elicitation) sets it;
// a redirect to another host is not covered.
func WithApproval(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, approvalKey{}, host)
}

// Approved reports whether ctx carries the user's approval of fetching from host.
func Approved(ctx context.Context, host string) bool {
	h, ok := ctx.Value(approvalKey{}).(string)
	return ok && h == host
}
