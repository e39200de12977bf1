#!/usr/bin/env bash
# Runs the sandbox's security tests and its backends' conformance table, the named-pipe tests of Rooted's own git,
# and the test that kills Rooted at seeded moments, as an unprivileged user as well. CI runs as root, where the
# sandbox holds by dropping root's capabilities and giving the command a PID namespace of its own; as an ordinary
# user it holds through a user namespace, or without one. Both must keep a command from outliving its result, from
# holding a capability and from reading Rooted's /proc entry. The test binaries are built here, as root, and run as
# nobody (who needs no Go build cache of its own); the tests print what they measured inside the sandbox (CapEff,
# the parent's environ).
set -euo pipefail
tags=${1:-webkit2_41}
if [ "$(id -u)" != 0 ]; then
  echo "test-unprivileged: running as $(id -un) already: go test covered it"
  exit 0
fi
user=nobody
group=$(id -gn "$user")
dir=$(mktemp -d /tmp/rooted-unprivileged-XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/tmp" "$dir/home"
go test -c -race -tags "$tags" -o "$dir/shell.test" ./backend/shell
go test -c -race -tags "$tags" -o "$dir/sandbox.test" ./backend/sandbox
go test -c -tags "$tags" -o "$dir/cmdenv.test" ./backend/cmdenv
go test -c -tags "$tags" -o "$dir/toolcache.test" ./backend/toolcache
go test -c -tags "$tags" -o "$dir/cmdpolicy.test" ./backend/cmdpolicy
go test -c -race -tags "$tags" -o "$dir/gitguard.test" ./backend/gitguard
go test -c -race -tags "$tags" -o "$dir/tools.test" ./backend/tools
go test -c -race -tags "$tags" -o "$dir/app.test" ./app
go test -c -tags "$tags" -o "$dir/snapshot.test" ./backend/snapshot
go test -c -tags "$tags" -o "$dir/repoinfo.test" ./backend/repoinfo
go test -c -tags "$tags" -o "$dir/gitexec.test" ./backend/gitexec
go test -c -race -o "$dir/webfetch.test" ./backend/webfetch/httpfetch
go test -c -race -o "$dir/publicdial.test" ./backend/webfetch
go test -c -race -o "$dir/websearch.test" ./backend/websearch/httpsearch
go test -c -tags "$tags" -o "$dir/gitdir.test" ./backend/gitdir
go test -c -tags "$tags" -o "$dir/permissions.test" ./backend/permissions
go test -c -tags "$tags" -o "$dir/conversations.test" ./backend/conversations
go test -c -tags "$tags" -o "$dir/skills.test" ./backend/skills
go test -c -tags "$tags" -o "$dir/worktree.test" ./backend/worktree
go test -c -race -tags "$tags" -o "$dir/mcpclient.test" ./backend/mcpclient
go test -c -race -o "$dir/httpproxy.test" ./backend/netproxy/httpproxy
go test -c -race -o "$dir/keystore.test" ./backend/keystore
go test -c -race -o "$dir/llm.test" ./backend/llm
go test -c -o "$dir/pdftext.test" ./backend/pdftext
go test -c -o "$dir/pdfium.test" ./backend/pdftext/pdfium
go test -c -o "$dir/readerproc.test" ./backend/readerproc
CGO_ENABLED=0 go build -o "$dir/rooted-reader" ./cmd/rooted-reader # as shipped: no cgo
go test -c -o "$dir/walk.test" ./backend/walk
go test -c -o "$dir/index.test" ./backend/index
go build -o "$dir/rooted" ./cmd/rooted
go build -o "$dir/rooted-mcp" ./cmd/rooted-mcp
go test -c -race -tags "$tags" -o "$dir/rooted-mcp.test" ./cmd/rooted-mcp
chmod 755 "$dir" "$dir"/*.test "$dir/rooted" "$dir/rooted-mcp" "$dir/rooted-reader"
chown "$user:$group" "$dir/tmp" "$dir/home"
# The node the caller runs (the Makefile puts the project's Node.js first on PATH) is the one the tests run as well.
node_dir=$(dirname "$(command -v node || echo /usr/bin/node)")
as_user() {
  (cd "$dir/tmp" && setpriv --reuid="$user" --regid="$group" --clear-groups \
    env -i PATH="$node_dir":/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin HOME="$dir/home" TMPDIR="$dir/tmp" LANG=C.UTF-8 "$@")
}
echo "test-unprivileged: the sandbox tests as $user"
as_user "$dir/shell.test" -test.run 'TestCommandHoldsNoPowerOverOthers' -test.v 2>&1 | grep -v '^=== '
as_user "$dir/shell.test" -test.run 'TestNothingOutlivesTheCommand|TestCommandGetsNoDescriptorsOrTerminal|TestNetwork|TestSandbox|TestTimeoutKillsTheWholeGroup|TestTimeoutTermReachesEveryProcess|TestOwnSession|TestEnv|TestStdioOutlivesTheThreadThatStartedIt|TestStdioStopTermReachesEveryProcess'
as_user "$dir/cmdenv.test" -test.run 'TestEnv|TestGoEnvFileWithAToken|TestSandboxEtcEntries|TestRootedConfigOutsideHome'
as_user "$dir/toolcache.test" -test.run 'TestGoCachesLeaveOutCredentials'
echo "test-unprivileged: the sandbox backend's conformance table, in every process mode it offers, as $user"
as_user "$dir/sandbox.test" -test.run 'TestConformance|TestNoneSaysSo|TestAllowListFallsBackToOff|TestStartOutlivesTheCallersThread|TestConfineSelf' -test.v 2>&1 | grep -E '^\s*(--- |ok|FAIL|PASS)|conformance_test|self_linux_test'
echo "test-unprivileged: allow-list network mode (go mod download through the proxy, an unlisted host refused, or asked about while the command waits), as $user"
as_user "$dir/tools.test" -test.run 'TestExecShellAllowListGoModDownload|TestExecShellNetworkOffByDefault' -test.v 2>&1 | grep -E '^\s*(--- |ok|FAIL|PASS)|exec_network_test'
as_user "$dir/app.test" -test.run 'TestHostAskedWhileTheCommandRuns|TestHostQuestionEndsUnanswered|TestAlwaysAllowReachesTheRunningCommand' -test.v 2>&1 | grep -E '^\s*(--- |ok|FAIL|PASS)|hosts_test'
echo "test-unprivileged: read-only paths during a command, and nothing outliving a killed Rooted, as $user"
as_user "$dir/shell.test" -test.run 'TestReadOnlyPathsCannotBeChanged|TestPinnedFoldersCannotBeRenamed|TestNothingOutlivesAKilledRooted'
as_user "$dir/tools.test" -test.run 'TestPermissionDenied|TestNothingACommandLeavesInGitRunsLater|TestOrdinaryGitChangesStay|TestLockLeftByAnEndedCommandGoes|TestToolDenyRuleInRegistry|TestGitConfigCredentialsNeverReachCommands'
as_user "$dir/tools.test" -test.run 'TestPlantedAndPutBackBeforeExitNeverRunsOutside|TestPathFoldersAndEditorFilesInTheProject|TestHuskyHookAfterACommandChangedNodeModules|TestProtectedPaths|TestSwappedGitFolderNeverRunsOutside|TestSwappedDependencyParentIsRefusedOrReported|TestReplantingInALoopEndsTheCommand|TestToolConfigFilesAnywhereAreProtected|TestWhatTheGuardComparesIsHeldDuringTheRun|TestGuardedIsProtected|TestUsersOwnEditsDuringAJobStay|TestSubmoduleUpdateInit|TestRepositoryMadeDuringTheRun|TestWhatTheWatcherTakesAwayIsKept|TestGitlinkRepositoryEndsTheCommandInAnyOrder' -test.v 2>&1 | grep -E 'watched mode|^(--- |ok|FAIL|PASS)|^\s+--- FAIL|^\s+[a-z_]+_test\.go:[0-9]+: '
as_user "$dir/gitguard.test"
echo "test-unprivileged: what tools run later, protected by name at any depth (dependency folders, bytecode, tool and agent files, go.work, .env, linked caches), as $user"
as_user "$dir/tools.test" -test.run 'TestNewDependencyFolderDoesNotShadowTheHoistedOne|TestPlantedBytecodeNeverRunsOutside|TestToolFilesCreatedAnywhereAreRemoved|TestPlantedNpmrcAndGoWorkNeverRunOutside|TestFilesAnEnvrcLoadsAreProtected|TestLinkedPackageCacheIsReadOnlyToCommands|TestWritesLinkedCaches|TestChangedBuildOutputsAreReported|TestCreatingAToolFileEndsTheCommand' -test.v 2>&1 | grep -E 'watched mode|^(--- |ok|FAIL|PASS)|^\s+--- FAIL|^\s+[a-z_]+_test\.go:[0-9]+: '
as_user "$dir/gitdir.test"
echo "test-unprivileged: folders opened below the project's folder, never above it or through a link, as $user"
as_user "$dir/walk.test" -test.run 'TestOpenBeneath'
as_user "$dir/index.test" -test.run 'TestDirCache'
echo "test-unprivileged: caches, links in the folders Rooted writes, a planted git on PATH, and rule spellings, as $user"
as_user "$dir/shell.test" -test.run 'TestNpmCacheCannotBePoisoned|TestCommandsCannotWriteWhatToolsRunLater'
as_user "$dir/toolcache.test" -test.run 'TestRootedFollowsNoPlantedLink|TestToolCacheDirFollowsTheFolder'
as_user "$dir/cmdenv.test" -test.run 'TestTrusted|TestRootOwnedChain'
as_user "$dir/cmdpolicy.test" -test.run 'TestGitOptionsThatRunPrograms|TestArgumentAttacks'
as_user "$dir/permissions.test" -test.run 'TestRuleSpellings|TestDecideCommand|TestRuleOptionMeanings|TestCanonicalOptions'
echo "test-unprivileged: named-pipe .gitignore files and git-folder files that would block git, as $user"
as_user "$dir/snapshot.test" -test.run 'TestNamedPipesGitOpensNeverBlockASnapshot|TestSeedingSkipsObjectsGitWouldBlockOn|TestByteBudget' 2>&1 | grep -v 'WARN file skipped'
as_user "$dir/repoinfo.test" -test.run 'TestNamedPipesDoNotBlockTheStatus|TestNamedPipesInTheGitFolderDoNotBlockTheStatus|TestDescribe'
echo "test-unprivileged: conversations saved into a read-only folder, and killed while appending, as $user"
as_user "$dir/conversations.test" -test.run 'TestReadOnlyDataFolder|TestFailedSaveLosesNothing|TestKillDuringAppends|TestTornRecordIsDropped' -test.v 2>&1 | grep -E '^(--- |ok|FAIL|PASS)|^\s+--- FAIL|^\s+[a-z_]+_test\.go:[0-9]+: '
echo "test-unprivileged: untrusted PDFs parsed in WebAssembly (text in order, a scan, truncated, encrypted, a deadline), as $user"
as_user "$dir/pdfium.test" -test.run 'TestExtract'
# The same PDFs through rooted-reader, built above: the test cannot build it as a user with no module cache.
as_user env ROOTED_TEST_READER="$dir/rooted-reader" "$dir/pdftext.test" -test.run 'TestExtract|TestAPDFAfterAPageInOneReader'
# rooted-reader confines itself as an ordinary user too (the seccomp filter, no new privileges, no capability).
as_user env ROOTED_TEST_READER="$dir/rooted-reader" "$dir/readerproc.test" -test.run 'TestTheReaderIsConfined|TestTheReaderClosesLeakedDescriptors|TestOneReaderServesRequestAfterRequest'
echo "test-unprivileged: skills and commands through links out of the project and pipes, as $user"
as_user "$dir/skills.test" -test.run 'TestFindRefusesLinksOutAndPipes|TestLoad|TestCommands' 2>&1 | grep -v 'WARN file skipped'
echo "test-unprivileged: a conversation's worktree made, worked in, merged and applied through the sandboxed git, as $user"
as_user "$dir/worktree.test" -test.run 'TestRoundTrip|TestApplyConflictChangesNothing|TestApplyMerges|TestMergedApplyIsUndoable|TestConversationInWorktree|TestWorktreeHasItsProjectsSettings|TestSetupCommandGetsTheFacesProxy' 2>&1 | grep -v 'WARN file skipped'
echo "test-unprivileged: MCP servers in the sandbox (no secret, no network or only the listed hosts), killed, hung and flooding, as $user"
as_user "$dir/shell.test" -test.run 'TestStartStdio'
as_user "$dir/mcpclient.test" -test.run 'TestAddInEachEra|TestEnvByName|TestServerCannotReadTheStoredSecrets|TestSandboxedServer|TestNetworkGrant|TestAllowListServer|TestRefusedHostsRecordedAndAllowedLive|TestRefusedAtStart|TestKilledMidCall|TestHungServer|TestFlood|TestFailureSaysWhy|TestClose|TestKeys|TestSecretFileRefusesWhatItCannotRead|TestRefusalNotificationsBounded|TestListsUnreadableAllowNothing|TestHostAllowedForOneServer'
echo "test-unprivileged: the allow-list proxy asks only about plain names, resolves nothing before the answer and caps its questions, as $user"
as_user "$dir/httpproxy.test" -test.run 'TestOnlyPlainHostNamesAreAskedAbout|TestQuestionsResolveNothing|TestOpenQuestionsAreCapped|TestUnlistedHostIsAsked|TestTunnelsOnlyToListedPublicHosts|TestAnswerCoversOnlyThePortAskedAbout'
echo "test-unprivileged: API keys, MCP servers' secrets and sign-ins in GNOME Keyring on a private session bus, the 0600 files without one, and the move between them; rooted call's MCP servers behind the allow-list proxy, as $user"
as_user "$dir/rooted-mcp.test" -test.run 'TestCallUsesTheSecretSettingsStored|TestAllowListServersGetTheProxy|TestAllowListServerRefusedAtStart' -test.v 2>&1 | grep -E '^\s*(--- |ok|FAIL|PASS)|_test.go'
as_user "$dir/keystore.test" -test.v 2>&1 | grep -E '^(--- |ok|FAIL|PASS)|_test.go'
as_user "$dir/llm.test" -test.run 'TestKeys|TestMoveKeys' -test.v 2>&1 | grep -E '^(--- |ok|FAIL|PASS)|_test.go'
echo "test-unprivileged: web_fetch refuses this machine's and its network's addresses, as $user"
as_user "$dir/webfetch.test" -test.run 'TestRefused|TestRedirectToAnotherHost|TestFetchArticle'
as_user "$dir/publicdial.test" -test.run 'TestPublicDialer'
as_user "$dir/tools.test" -test.run 'TestWebFetch'
echo "test-unprivileged: web_search reaches only the user's endpoint, never one a project names, and its results' private addresses stay refused, as $user"
as_user "$dir/websearch.test" -test.run 'TestSearchALocalSearXNG|TestSearchFailures'
as_user "$dir/tools.test" -test.run 'TestWebSearch|TestProjectSettingsCannotSetTheSearchEndpoint|TestSearchResultsOnThisMachineAreNotFetched'
echo "test-unprivileged: a background git stopped during a search, and killed with Rooted while stopped, as $user"
as_user "$dir/gitexec.test" -test.run 'TestStoppingTheGroupStopsGit|TestStoppedGitDiesWithRooted|TestRunHandsOverOnlySandboxedGroups'
echo "test-unprivileged: killed at seeded moments, as $user"
as_user env ROOTED_TEST_BIN="$dir" "$dir/snapshot.test" -test.short -test.run 'TestKilledAtAnyMoment' -test.v 2>&1 | grep -E 'ROOTED_CRASH_SEED|^(--- |ok|FAIL|PASS)'
