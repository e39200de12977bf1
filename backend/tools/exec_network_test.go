package tools

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rooted-dev/rooted/backend/netproxy/httpproxy"
	"github.com/rooted-dev/rooted/backend/permissions"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/settings"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/webfetch/webfetchtest"
)

// goModuleProxy serves the module example.com/fixture, every version v1.0.N asked for, as a Go module proxy does.
func goModuleProxy(t *testing.T) http.Handler {
	t.Helper()
	zipOf := func(v string) []byte {
		var zb bytes.Buffer
		zw := zip.NewWriter(&zb)
		for name, text := range map[string]string{
			"go.mod":     "module example.com/fixture\n\ngo 1.21\n",
			"fixture.go": "package fixture\n\nconst Hello = \"from the fixture\"\n",
		} {
			w, err := zw.Create("example.com/fixture@" + v + "/" + name)
			if err != nil {
				t.Error(err)
			}
			w.Write([]byte(text))
		}
		zw.Close()
		return zb.Bytes()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, "/example.com/fixture/@v/")
		v, ext, _ := strings.Cut(rest, ".0.")
		if !ok || v != "v1" {
			http.NotFound(w, r)
			return
		}
		patch, ext, _ := strings.Cut(ext, ".")
		version := "v1.0." + patch
		switch ext {
		case "info":
			fmt.Fprintf(w, `{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, version)
		case "mod":
			fmt.Fprint(w, "module example.com/fixture\n\ngo 1.21\n")
		case "zip":
			w.Write(zipOf(version))
		default:
			http.NotFound(w, r)
		}
	})
}

// In allow-list mode, go mod download reaches a listed module proxy through Rooted's proxy; pointed at a host
// that is not listed, it fails, and the result and the hint name the host. A host allowed for one of the project's
// MCP servers alone is such a host to commands.
func TestExecShellAllowListGoModDownload(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("allow-list mode needs Linux's network namespaces")
	}
	web := webfetchtest.New(t, goModuleProxy(t), "goproxy.example.com", "unlisted.example.com")
	_, root := makeLayout(t, nil)
	ca := filepath.Join(root, "ca.pem")
	cert := web.Sites["goproxy.example.com"].Server.Certificate().Raw
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", ca)
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "")
	s, _ := session.Open(root)
	defer s.Close()
	store := settings.NewStore(filepath.Join(t.TempDir(), "settings.json"))
	// The project's MCP server docs may reach unlisted.example.com (its panel's Allow HOST for docs): a grant for
	// that server's proxy alone, which the project's commands never get.
	if err := store.SetProject(root, settings.Project{
		Network: settings.NetworkAllowlist, NetworkHosts: []string{"goproxy.example.com"},
		MCPServers: map[string]settings.MCPServer{"docs": {Command: "docs-server"}}, MCPServerHosts: map[string][]string{"docs": {"unlisted.example.com"}},
	}); err != nil {
		t.Fatal(err)
	}
	reg := Registry(Deps{Session: s, Settings: store, CommandProxy: func(lists HostLists, ask HostAsk) shell.Proxy {
		return httpproxy.New(httpproxy.Options{Lists: lists, Ask: ask, Resolver: web.Resolver, Exempt: web.Options().Exempt})
	}})
	type netOut struct {
		execOut
		Hint           string
		NetworkRefused []string `json:"network_refused"`
		Sandbox        struct {
			Network     bool
			Proxy       string
			NetworkNote string `json:"network_note"`
		}
	}
	download := `{"command": "go", "args": ["mod", "download", "-json", "example.com/fixture@v1.0.0"]}`

	t.Setenv("GOPROXY", web.Sites["goproxy.example.com"].URL(""))
	out, e := call[netOut](t, reg, "exec_shell", download)
	if e != nil {
		t.Fatal(e)
	}
	if out.Sandbox.Proxy == "" {
		// No network namespace here: allow-list mode is off, and the result says why.
		if out.ExitCode == 0 || out.Sandbox.NetworkNote == "" || out.Sandbox.Network {
			t.Fatalf("allow-list mode without a network namespace: %+v", out)
		}
		t.Skipf("no network namespace can be made here: %s", out.Sandbox.NetworkNote)
	}
	if out.ExitCode != 0 || !strings.Contains(out.Stdout, `"Version": "v1.0.0"`) || len(out.NetworkRefused) != 0 || out.Sandbox.Network {
		t.Fatalf("go mod download through the proxy: %+v", out)
	}

	t.Setenv("GOPROXY", web.Sites["unlisted.example.com"].URL(""))
	out, e = call[netOut](t, reg, "exec_shell", `{"command": "go", "args": ["mod", "download", "-json", "example.com/fixture@v1.0.1"]}`)
	if e != nil {
		t.Fatal(e)
	}
	if out.ExitCode == 0 || !slices.Equal(out.NetworkRefused, []string{"unlisted.example.com"}) ||
		!strings.Contains(out.Stdout+out.Stderr, "unlisted.example.com") || !strings.Contains(out.Hint, "unlisted.example.com") || !strings.Contains(out.Hint, "Settings") {
		t.Fatalf("an unlisted module proxy: %+v", out)
	}
	t.Logf("refused: %s\n%s", out.Stdout+out.Stderr, out.Hint)

	// The window's card: allowed for this conversation, the host is reached; denied by a rule, it is refused even
	// where the list names it.
	granted := `{"command": "go", "args": ["mod", "download", "-json", "example.com/fixture@v1.0.4"]}`
	raw, te := reg.Call(WithHosts(context.Background(), []string{"unlisted.example.com"}), "exec_shell", []byte(granted))
	var grantedOut netOut
	if te != nil || json.Unmarshal(raw, &grantedOut) != nil || grantedOut.ExitCode != 0 || len(grantedOut.NetworkRefused) != 0 || !strings.Contains(grantedOut.Stdout, `"Version": "v1.0.4"`) {
		t.Fatalf("a host allowed for the conversation: %s, %v", raw, te)
	}
	t.Setenv("GOPROXY", web.Sites["goproxy.example.com"].URL(""))
	deny := permissions.Rule{Action: permissions.Deny, Tool: permissions.Network, Domain: "goproxy.example.com"}
	if err := store.SetProject(root, settings.Project{Network: settings.NetworkAllowlist, NetworkHosts: []string{"goproxy.example.com"}, Rules: []permissions.Rule{deny}}); err != nil {
		t.Fatal(err)
	}
	out, e = call[netOut](t, reg, "exec_shell", `{"command": "go", "args": ["mod", "download", "-json", "example.com/fixture@v1.0.5"]}`)
	if e != nil || out.ExitCode == 0 || !slices.Equal(out.NetworkRefused, []string{"goproxy.example.com"}) || !strings.Contains(out.Stdout, "denied by a rule") {
		t.Fatalf("a listed host a rule denies: %+v, %v", out, e)
	}

	// Where someone can answer (the window's agent), the unlisted host is asked about while the command waits:
	// allowed, the download goes on; declined, it fails, and the result and hint say the user declined the host.
	t.Setenv("GOPROXY", web.Sites["unlisted.example.com"].URL(""))
	for i, allow := range []bool{true, false} {
		var asked []string
		ask := func(_ context.Context, host string, port int) bool {
			asked = append(asked, net.JoinHostPort(host, strconv.Itoa(port)))
			return allow
		}
		v := fmt.Sprintf("v1.0.%d", 6+i)
		raw, te := reg.Call(WithHostAsk(context.Background(), ask), "exec_shell", []byte(`{"command": "go", "args": ["mod", "download", "-json", "example.com/fixture@`+v+`"]}`))
		var got netOut
		if te != nil || json.Unmarshal(raw, &got) != nil {
			t.Fatalf("asked: %s, %v", raw, te)
		}
		var declined struct {
			NetworkDeclined []string `json:"network_declined"`
		}
		json.Unmarshal(raw, &declined)
		// The question names the port go asked for, the one an answer covers.
		unlisted, _ := url.Parse(web.Sites["unlisted.example.com"].URL(""))
		if !slices.Equal(asked, []string{unlisted.Host}) || len(got.NetworkRefused) != 0 {
			t.Errorf("allow=%v: asked about %v, refused %v", allow, asked, got.NetworkRefused)
		}
		if allow && (got.ExitCode != 0 || !strings.Contains(got.Stdout, `"Version": "`+v+`"`) || len(declined.NetworkDeclined) != 0) {
			t.Errorf("allowed when asked: %s", raw)
		}
		if !allow && (got.ExitCode == 0 || !slices.Equal(declined.NetworkDeclined, []string{unlisted.Host}) ||
			!strings.Contains(got.Stdout+got.Stderr, "unlisted.example.com was declined by the user") || !strings.Contains(got.Hint, "declined unlisted.example.com")) {
			t.Errorf("declined when asked: %s", raw)
		}
	}
}
