package cmdenv

import (
	"slices"
	"strings"
	"testing"
)

// A credential carried in what a value assigns (a URL's query or fragment, a -D, -X or --option assignment in an
// option variable) and one-time passwords are dropped under every allowed name; settings that only look alike
// (proxies and registries without a secret, -Dfile.encoding, keyStore paths, linker version stamps) pass.
func TestEnvDropsSecretAssignments(t *testing.T) {
	t.Parallel()
	drop := []string{
		// tokens in a registry's, an index's or a proxy's query string or fragment
		"npm_config_registry=https://r.example/?token=S1",
		"PIP_EXTRA_INDEX_URL=https://h.example/simple?private_token=S2",
		"PIP_INDEX_URL=https://pypi.example/simple?token=S3",
		"PIP_FIND_LINKS=https://a.example/links https://b.example/links?a=1&access_token=S4",
		"CARGO_HTTP_PROXY=http://h:3128/?auth=S5",
		"npm_config_proxy=http://h/?apikey=S6",
		"HTTPS_PROXY=http://h/?key=S7",
		"https_proxy=http://h/?x=1;api_key=S8",
		"UV_INDEX_URL=https://h.example/simple#access_token=S9",
		"npm_config_registry=https://bucket.example/npm/?X-Amz-Credential=A%2F1&X-Amz-Signature=S10",
		"GOPROXY=https://proxy.example/?sig=S11",
		"YARN_NPM_REGISTRY_SERVER=https://r.example/?client_secret=S12",
		// properties, linker assignments, long options and macros in option variables
		"JAVA_TOOL_OPTIONS=-Dgpr.key=S13",
		"JAVA_OPTS=-Xmx1g -Dgpr.user=me -Dgpr.key=S14",
		"GOFLAGS=-ldflags=-X=main.apiKey=S15",
		"GOFLAGS=-ldflags=-X main.apiKey=S16",
		"MAVEN_OPTS=-Dgithub.accessToken=S17",
		"GRADLE_OPTS=-Dorg.gradle.project.signing.secretKeyRingFile=x -Dsigning.keyId=1",
		"SBT_OPTS=-Dsbt.session=S18",
		"NODE_OPTIONS=--registry-auth=S19",
		"CGO_CFLAGS=-O2 -DAPI_KEY=\"S20\"",
		"RUSTFLAGS=--cfg feature=\"x\" -C link-arg=-Wl,--defsym,SIG=S21",
		"CARGO_REGISTRIES_CRATES_IO_PROTOCOL=sparse?auth_token=S22",
		// percent-encoded names, options that take the credential as their next word
		"PIP_INDEX_URL=https://h.example/simple?access%5Ftoken=S24",
		"NODE_OPTIONS=--max-old-space-size=4096 --api-token S25", "MAVEN_OPTS=-Xss4m --password S26",
		// one-time passwords
		"npm_config_otp=123456", "NPM_CONFIG_OTP=123456", "YARN_NPM_OTP=123456",
	}
	keep := []string{
		"HTTPS_PROXY=http://proxy.example:3128", "http_proxy=http://proxy.example:3128/", "NO_PROXY=localhost,.corp.example",
		"npm_config_registry=https://registry.npmjs.org/", "PIP_INDEX_URL=https://pypi.example/simple?format=json",
		"PIP_EXTRA_INDEX_URL=https://a.example/simple https://b.example/simple",
		"JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8 -Duser.timezone=UTC",
		"JAVA_OPTS=-Djavax.net.ssl.keyStore=/etc/ssl/ks.p12 -Djavax.net.ssl.keyStoreType=PKCS12",
		"MAVEN_OPTS=-Dgpg.keyname=ABCD1234 -Dmaven.repo.local=/home/u/.m2/repository",
		"GOFLAGS=-ldflags=-X=main.version=1.2.3 -tags=netgo", "GOFLAGS=-mod=mod",
		"CGO_CFLAGS=-O2 -DNDEBUG=1", "RUSTFLAGS=-C target-cpu=native", "NODE_OPTIONS=--max-old-space-size=4096",
		"CGO_LDFLAGS=-Wl,-rpath=/opt/lib", "JAVA_TOOL_OPTIONS=-Dcom.sun.management.jmxremote.authenticate=false",
		"PYTHONWARNINGS=ignore::DeprecationWarning", "PIP_TRUSTED_HOST=pypi.example",
		"NODE_OPTIONS=--no-auth --max-old-space-size 4096", "PIP_INDEX_URL=https://h.example/my%20index/simple",
		"RUSTFLAGS=-C target-cpu=native --cap-lints warn",
	}
	base := append(slices.Clone(drop), keep...)
	got, dropped := Environ(base, nil, nil)
	for _, kv := range drop {
		if slices.Contains(got, kv) {
			t.Errorf("passed: %s", kv)
		}
	}
	for _, kv := range keep {
		if !slices.Contains(got, kv) {
			t.Errorf("dropped: %s", kv)
		}
	}
	if dropped != len(drop) {
		t.Errorf("%d reported dropped, %d were", dropped, len(drop))
	}
	// The user's own names in Settings do not let a credential-carrying value through either.
	got, _ = Environ([]string{"MY_MIRROR=https://m.example/?token=S23"}, []string{"MY_*"}, nil)
	if slices.ContainsFunc(got, func(kv string) bool { return strings.Contains(kv, "S23") }) {
		t.Error("a value the user's names allow passed with a token in its query")
	}
}

func TestNameWords(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"apiKey": "API KEY", "APIKey": "API KEY", "-Dgpr.key": "DGPR KEY", "X-Amz-Signature": "X AMZ SIGNATURE",
		":_authToken": "AUTH TOKEN", "keyStoreType": "KEY STORE TYPE", "private_token": "PRIVATE TOKEN",
		"file.encoding": "FILE ENCODING", "sha256Sum": "SHA256 SUM", "": "",
	} {
		if got := strings.Join(nameWords(name), " "); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzSecretAssignment: a value that assigns a token to a query parameter or a property is dropped whatever
// surrounds it, and nothing panics.
func FuzzSecretAssignment(f *testing.F) {
	for _, s := range []string{"https://r.example/", "-Dfile.encoding=UTF-8", "a=b&c=d", "=", "-X=main.v=1", "é=ü", "?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, around string) {
		for _, v := range []string{around + " -Dgpr.key=S", "https://h/?x=1&token=S " + around, around + "&access_token=S"} {
			if !SecretIn(v) {
				t.Fatalf("%q passed", v)
			}
		}
	})
}

// Go's env file is a credential (unreadable to commands) when a setting in it carries one, in a query string too.
func TestGoEnvFileWithAToken(t *testing.T) {
	t.Parallel()
	for content, want := range map[string]bool{
		"GOPRIVATE=example.com\nGOFLAGS=-mod=mod\n": false,
		"GOPROXY=https://proxy.example/?token=S\n":  true,
		"GOFLAGS=-ldflags=-X=main.apiKey=S\n":       true,
		"GOPROXY=https://user:pw@proxy.example\n":   true,
		"GOAUTH=netrc\n": true,
		"GOPROXY=https://proxy.example,direct\nGOSUMDB=sum.golang.org\n": false,
	} {
		if got := goEnvSecret([]byte(content)); got != want {
			t.Errorf("goEnvSecret(%q) = %v, want %v", content, got, want)
		}
	}
}
