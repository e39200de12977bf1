// Package cmdpolicy decides which command lines the agent may run at all, before any sandbox: the program must be
// on the project's allowlist (Allowed), the line is split as a shell would split words but no shell syntax is
// interpreted (Split), path arguments are found for the path checks (PathArgs, ChangedPaths, FollowsLinks), and
// options that make a program run other programs are refused or named (RunsPrograms; git's command line read by
// package gitargv, the one parser the permission rules use too).
//
// Guaranteed: a line using shell syntax, a program off the allowlist or a program named by path is refused with an
// error that says why. Not guaranteed: that an allowed program cannot run others by means not listed here; the
// sandbox is what confines those.
package cmdpolicy
