package gitconfig

import (
	"regexp"
	"strings"
	"sync"

	"github.com/rooted-dev/rooted/backend/gitargv"
)

// runsPrograms matches the configuration keys (lower case, subsection kept) whose value is a program git runs, or
// which decide what it runs or where. It is what a repository's own configuration is checked for (a repository
// Rooted did not make may hold any key); what a command may set and what reaches a command's copy of the user's
// configuration are allow-lists instead (gitargv.CommandMaySet, Keep).
var runsPrograms = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|worktree|alternaterefscommand)|alias\..+|filter\..+\.(clean|smudge|process|required)|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|credential\.(.+\.)?helper|gpg\.(.+\.)?program|gpg\.ssh\.defaultkeycommand|interactive\.difffilter|hook\..+\.command|commit\.gpgsign|tag\.gpgsign|sequence\.editor|include\.path|includeif\..+\.path|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack|vcs)|protocol\.(.+\.)?allow|url\..+\.(pushinsteadof|insteadof)|pager\..+|sendemail\..+|web\.browser|help\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|difftool\..+\.(cmd|path)|mergetool\..+\.(cmd|path)|submodule\..+\.update|init\.templatedir|extensions\.worktreeconfig|ssh\.variant)$`)
}) // compiled on first use: start-up stays short

// RunsPrograms reports whether a key, named as List names it, is a program git runs or decides what git runs
// (core.fsmonitor, core.hooksPath, aliases, filters and drivers, credential helpers, gpg.program, includes, ...).
func RunsPrograms(key string) bool { return runsPrograms().MatchString(key) }

// repositoryMade are the keys git itself writes into a repository it creates (git init, clone, submodule add,
// worktree add) beyond what commands may set: the repository's format and the submodules it knows.
var repositoryMade = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(repositoryformatversion|bare)|extensions\.(objectformat|refstorage|noop)|submodule\..+\.(url|active)|lfs\.repositoryformatversion)$`)
})

// NewRepositoryMayKeep reports whether a repository a command created may keep key (named as List names it) in
// its configuration: an allow-list, what commands may set (gitargv.CommandMaySet) and what git writes when it
// makes a repository. Anything else, a program git runs later or a key git adds in a later version, is removed.
func NewRepositoryMayKeep(key string) bool {
	return gitargv.CommandMaySet(key) || repositoryMade().MatchString(strings.ToLower(key))
}
