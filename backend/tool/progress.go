package tool

import "context"

// Progress receives a tool's output as it happens (a command's stdout and stderr), for faces that can show it
// live. Tools that have nothing to stream ignore it.
type Progress func(stream string, chunk []byte)

type progressKey struct{}

// WithProgress returns ctx carrying p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// ProgressFrom returns the Progress in ctx, or nil.
func ProgressFrom(ctx context.Context) Progress {
	p, _ := ctx.Value(progressKey{}).(Progress)
	return p
}
