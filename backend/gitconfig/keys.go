package gitconfig

import (
	"regexp"
	"sync"
)

// runsPrograms matches the configuration keys (lower case, subsection kept) whose value is a program git runs, or
// which decide what it runs or where: narrower than what "git config" refuses to set (shell.GitExecKey), so that
// a new remote or branch does not count.
var runsPrograms = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|worktree|alternaterefscommand)|alias\..+|filter\..+\.(clean|smudge|process|required)|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|credential\.(.+\.)?helper|gpg\.(.+\.)?program|commit\.gpgsign|tag\.gpgsign|sequence\.editor|include\.path|includeif\..+\.path|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack|vcs)|protocol\.(.+\.)?allow|url\..+\.(pushinsteadof|insteadof)|pager\..+|sendemail\..+|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|difftool\..+\.(cmd|path)|mergetool\..+\.(cmd|path)|submodule\..+\.update|init\.templatedir|extensions\.worktreeconfig|ssh\.variant)$`)
}) // compiled on first use: start-up stays short

// RunsPrograms reports whether a key, named as List names it, is a program git runs or decides what git runs
// (core.fsmonitor, core.hooksPath, aliases, filters and drivers, credential helpers, gpg.program, includes, ...).
func RunsPrograms(key string) bool { return runsPrograms().MatchString(key) }
