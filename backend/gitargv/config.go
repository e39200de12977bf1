package gitargv

import (
	"regexp"
	"strings"
	"sync"
)

// commandSettable are the keys (section and name in lower case, a subsection as .+) a command may set with git
// config: who commits, line endings and the like, branches' upstreams, remotes' URLs and refspecs, and display and
// merge preferences. None names a program, a file git reads settings or hooks from, a signing step, a guessed
// command (help.autocorrect runs a mistyped subcommand a rule may refuse), or when history is deleted.
var commandSettable = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(` +
		`user\.(name|email)|` +
		`core\.(autocrlf|eol|safecrlf|filemode|ignorecase|quotepath|whitespace|precomposeunicode|longpaths|symlinks|abbrev|compression|bigfilethreshold|untrackedcache|preloadindex|checkstat|trustctime|logallrefupdates)|` +
		`branch\.(autosetupmerge|autosetuprebase|sort)|branch\..+\.(remote|pushremote|merge|rebase|description)|` +
		`remote\.pushdefault|remote\..+\.(url|pushurl|fetch|push|tagopt|prune|prunetags|skipdefaultupdate|skipfetchall)|` +
		`init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|` +
		`fetch\.(prune|prunetags|parallel|writecommitgraph|showforcedupdates)|` +
		`merge\.(ff|conflictstyle|log|stat|renames|autostash)|` +
		`rebase\.(autosquash|autostash|updaterefs|stat|abbreviatecommands|missingcommitscheck)|` +
		`diff\.(algorithm|renames|renamelimit|colormoved|colormovedws|mnemonicprefix|noprefix|context|interhunkcontext|statgraphwidth|submodule|ignoresubmodules|indentheuristic|wserrorhighlight)|` +
		`color\.[a-z]+|color\.[a-z]+\.[a-z]+|advice\.[a-z]+|` +
		`status\.(showuntrackedfiles|short|branch|relativepaths|submodulesummary|aheadbehind|showstash|renames)|` +
		`log\.(date|decorate|abbrevcommit|follow|mailmap)|commit\.(verbose|cleanup|status)|tag\.sort|` +
		`rerere\.(enabled|autoupdate)|column\.ui|i18n\.(commitencoding|logoutputencoding)|apply\.whitespace|` +
		`submodule\.recurse|worktree\.guessremote|gc\.(auto|autodetach)` +
		`)$`)
})

// CommandMaySet reports whether a command may set key (any case) with git config: the key is on the allow-list of
// what commands may change (commandSettable). Everything else, including keys git adds in later versions, is
// refused: a key is allowed because it is known harmless, not because it is not known harmful.
func CommandMaySet(key string) bool { return commandSettable().MatchString(strings.ToLower(key)) }
