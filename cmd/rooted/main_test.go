package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The launcher: every way of asking rooted for the window starts the rooted-desktop beside it (found through a
// symlink to rooted, as /usr/bin may hold), with the folder made absolute, and it becomes that process. The
// desktop app here is a script that prints its arguments; the real one is started this way by the native-window
// end-to-end test and the package test.
func TestStartsTheDesktopAppBesideIt(t *testing.T) {
	bin := t.TempDir()
	rooted := filepath.Join(bin, "rooted")
	build := exec.Command("go", "build", "-o", rooted, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := "#!/bin/sh\necho \"desktop pid=$$ args=$*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "rooted-desktop"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	link := filepath.Join(links, "rooted")
	if err := os.Symlink(rooted, link); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	for _, args := range [][]string{{}, {"."}, {"open", "."}, {"--root", "."}, {"open", "--root", project}} {
		cmd := exec.Command(link, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin") // not found through PATH: beside the binary
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("rooted %v: %v\n%s", args, err, out)
		}
		want := "args="
		if len(args) > 0 {
			want += "--root " + project
		}
		got := strings.TrimSpace(string(out))
		if !strings.HasSuffix(got, want) || !strings.HasPrefix(got, "desktop pid="+strconv.Itoa(cmd.Process.Pid)+" ") {
			t.Errorf("rooted %v started: %q, want arguments %q", args, got, want)
		}
	}
	// Subcommands stay in the CLI.
	out, err := exec.Command(link, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "rooted dev") {
		t.Errorf("rooted version: %v %s", err, out)
	}
}
