// Package cmdenv decides what a command learns about the user: the environment variables it gets (those builds
// need, less every name and value that reads as a credential), the folders it may read (the system's and the
// toolchains', less the credential locations of Credentials and SystemCredentials), and the programs Rooted runs
// itself outside any sandbox (Trusted: from root-owned system folders only, never from PATH).
//
// Guaranteed: a variable not on the allowlist or the user's additions never reaches a command; no path that
// Readable returns holds a listed credential. Not guaranteed: a secret under a name and in a value that look like
// neither passes, which is why the sandbox keeps the home folder unreadable rather than relying on this filter.
package cmdenv
