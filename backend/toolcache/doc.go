// Package toolcache gives each project's commands caches of their own (Go's build and module caches, npm's, pnpm's,
// bun's, yarn's, pip's, cargo's registry), keyed by an id stored for the project's folder rather than by its path,
// and fills them from the user's caches only with what cannot be poisoned: content looked up by its hash, links to
// read-only folders. Every file Rooted itself writes in a folder a command may write goes through os.Root, so a
// link a command planted there is never followed.
//
// Guaranteed: no cache of the user's is writable to a command, and nothing a command writes in its project's caches
// is run by another project or by the user's own tools. Not guaranteed: that a project's own caches are free of what
// its earlier commands put there.
package toolcache
