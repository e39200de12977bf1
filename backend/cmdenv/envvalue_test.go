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
		// tokens standing in a URL's path (Cloudsmith, Gemfury, private registries' forms)
		"PIP_EXTRA_INDEX_URL=https://dl.cloudsmith.io/kfpA9n4JcZ1n8aBu/org/repo/python/simple/",
		"npm_config_registry=https://npm.fury.io/hYU7pgX2kL9mQ3zR4t/acme/",
		"PIP_INDEX_URL=https://pypi.fury.io/1a2B3c4D5e6F7g8H9i0J/acme/",
		"CARGO_REGISTRIES_MY_INDEX=sparse+https://h.example/api/Zq81xPw02LmNn7Ty/index/",
		"POETRY_REPOSITORIES_X_URL=https://h.example/repo/aB3dE5fG7hJ9kL1mN/simple/",
		"YARN_NPM_REGISTRY_SERVER=https://h.example/S0mE7oKen9Va1ueXyZ",
		"GOPROXY=https://proxy.example/t/0123456789abcdef0123456789abcdef01234567,direct",
		"PIP_FIND_LINKS=https://a.example/links https://dl.cloudsmith.io/basic/x/ https://dl.cloudsmith.io/kfpA9n4JcZ1n8aBu/org/",
		"npm_config_registry=https://npm.fury.io/hYU7pgX2%6BL9mQ3zR4t/acme/",
		// JVM options named by the words SonarQube, Nexus and friends use for credentials
		"JAVA_TOOL_OPTIONS=-Dsonar.login=squ_0123456789abcdef", "MAVEN_OPTS=-Dnexus.pw=S03",
		"GRADLE_OPTS=-Dartifactory.pwd=S27", "SBT_OPTS=-Drepo.passcode=S28", "JAVA_OPTS=-Dsonar.userKey=S29",
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
		// URL paths made of words, versions, ids and UUIDs
		"PIP_INDEX_URL=https://gitlab.example.com/api/v4/projects/12345678/packages/pypi/simple",
		"npm_config_registry=https://art.example/artifactory/api/npm/npm-remote-2024/",
		"npm_config_registry=https://pkgs.dev.azure.com/org/3f2504e0-4f89-11d3-9a0c-0305e82c3301/_packaging/feed/npm/registry/",
		"PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu121",
		"PIP_FIND_LINKS=https://h.example/python3-packages-2024/x86_64-unknown-linux-gnu/",
		"NVM_NODEJS_ORG_MIRROR=https://nodejs.org/dist/node-v22.1.0-linux-x64/",
		"RUSTUP_DIST_SERVER=https://static.rust-lang.org/aarch64-apple-darwin20/",
		"GOPROXY=https://goproxy.example/release-20240115/,direct",
		"npm_config_registry=https://maven.pkg.github.com/MyCompanyPackages/repo",
		"JAVA_TOOL_OPTIONS=-Duser.language=en -Djava.security.egd=file:/dev/./urandom",
		"MAVEN_OPTS=-Dmaven.wagon.http.pool=false -Dhttps.protocols=TLSv1.2",
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
	for _, s := range []string{
		"https://r.example/", "-Dfile.encoding=UTF-8", "a=b&c=d", "=", "-X=main.v=1", "é=ü", "?", "https://h/%zz",
		"https://h/a-b_c.d/12345678/", "sparse+https://h/", "://", "https://h/aB3dE5fG7hJ9kL1mN",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, around string) {
		for _, v := range []string{
			around + " -Dgpr.key=S", "https://h/?x=1&token=S " + around, around + "&access_token=S",
			around + " https://dl.cloudsmith.io/kfpA9n4JcZ1n8aBu/org/repo/", around + " -Dsonar.login=S",
		} {
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
