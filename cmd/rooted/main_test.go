package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/becomemcp"
	"github.com/rooted-dev/rooted/backend/cli"
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
	// rooted mcp becomes the MCP server beside it, with its flags as given; without one it says what to install.
	cmd := exec.Command(link, "mcp", "--root", project, "--verbose")
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin")
	out, err = cmd.CombinedOutput()
	if err == nil {
		t.Errorf("rooted mcp without rooted-mcp beside it: no error, %s", out)
	} else if !strings.Contains(string(out), "the MCP server (rooted-mcp) is not installed beside this binary") {
		t.Errorf("rooted mcp without rooted-mcp beside it: %s", out)
	}
	mcpScript := "#!/bin/sh\necho \"mcp pid=$$ args=$*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "rooted-mcp"), []byte(mcpScript), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(link, "mcp", "--root", project, "--verbose")
	out, err = cmd.CombinedOutput()
	want := "mcp pid=" + strconv.Itoa(cmd.Process.Pid) + " args=--root " + project + " --verbose"
	if err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("rooted mcp: %v %q, want %q", err, out, want)
	}
	// It becomes rooted-mcp before the rest of rooted initialises (an agent waits for the server's handshake at every
	// session): neither rooted's own packages nor any other module's start, only the standard library's that os
	// needs.
	cmd = exec.Command(link, "mcp", "--root", project)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "mcp pid=") {
		t.Errorf("rooted mcp: %v %q", err, out)
	}
	if !strings.Contains(stderr.String(), "init os ") { // the trace works (becomemcp's own line never comes: it ends in exec)
		t.Errorf("no trace of rooted's initialisation: %s", stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		pkg, _, _ := strings.Cut(strings.TrimPrefix(line, "init "), " ")
		if first, _, _ := strings.Cut(pkg, "/"); strings.Contains(first, ".") {
			t.Errorf("rooted initialised a module's package before it became rooted-mcp: %s", line)
		}
	}
	if becomemcp.Name != cli.MCPName {
		t.Errorf("becomemcp.Name %q, cli.MCPName %q", becomemcp.Name, cli.MCPName)
	}
	// What rooted mcp does not take is rooted's usage error, not one of rooted-mcp's other commands.
	out, err = exec.Command(link, "mcp", "tools").CombinedOutput()
	if err == nil || strings.HasPrefix(string(out), "mcp pid=") || !strings.Contains(string(out), `unexpected argument "tools"`) {
		t.Errorf("rooted mcp tools: %v %q", err, out)
	}
	// rooted mcp sign-in is rooted-mcp's sign-in.
	cmd = exec.Command(link, "mcp", "sign-in", "docs", "--root", project)
	out, err = cmd.CombinedOutput()
	want = "mcp pid=" + strconv.Itoa(cmd.Process.Pid) + " args=sign-in docs --root " + project
	if err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("rooted mcp sign-in: %v %q, want %q", err, out, want)
	}
}
