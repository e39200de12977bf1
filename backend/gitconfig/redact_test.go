package gitconfig

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// A repository's configuration reaches commands without its credentials, and with everything else as git reads it.
func TestRedacted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	in := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n" +
		"[remote \"origin\"]\n\turl = https://x-access-token:ghs_SECRET1@github.com/org/repo.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[remote \"mirror\"]\n\turl = https://SECRET2@gitlab.example/org/repo.git\n" +
		"[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic SECRET3\n\tsslVerify = true\n" +
		"[credential]\n\thelper = \"!f() { echo username=x; echo password=SECRET4; }; f\"\n" +
		"[credential \"https://example.com\"]\n\tusername = someone\n" +
		"[url \"https://SECRET5@github.com/\"]\n\tinsteadOf = https://github.com/\n" +
		"[github]\n\ttoken = SECRET6\n" +
		"[remote \"ssh\"]\n\turl = ssh://git@github.com/org/repo.git\n" +
		"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n" +
		"[include]\n\tpath = ../.gitconfig-shared\n"
	out, secrets, err := Redacted(ctx, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"SECRET1", "SECRET2", "SECRET3", "SECRET4", "SECRET5", "SECRET6", "someone"} {
		if strings.Contains(string(out), s) {
			t.Errorf("the copy holds %s:\n%s", s, out)
		}
	}
	if len(secrets) < 6 {
		t.Errorf("secrets removed: %q", secrets)
	}
	keys, err := List(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"remote.origin.url": "https://github.com/org/repo.git", "remote.origin.fetch": "+refs/heads/*:refs/remotes/origin/*",
		"remote.mirror.url": "https://gitlab.example/org/repo.git", "http.https://github.com/.sslverify": "true",
		"url.https://github.com/.insteadof": "https://github.com/", "branch.main.merge": "refs/heads/main",
		"include.path": "../.gitconfig-shared", "core.bare": "false", "remote.ssh.url": "ssh://git@github.com/org/repo.git",
	} {
		if v := keys[k]; len(v) != 1 || v[0] != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	// A configuration without credentials is given as it is, without asking git.
	plain := []byte("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:org/repo.git\n")
	if out, secrets, err := Redacted(ctx, plain); err != nil || string(out) != string(plain) || secrets != nil {
		t.Errorf("a plain configuration: %q %q %v", out, secrets, err)
	}
}

// BenchmarkRedacted: what every command pays per git configuration file, without credentials (a scan, no git) and
// with them (git twice on the first call, then the cache).
func BenchmarkRedacted(b *testing.B) {
	ctx := context.Background()
	plain := []byte(strings.Repeat("[remote \"origin\"]\n\turl = git@github.com:org/repo.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", 20))
	secret := append([]byte("[remote \"x\"]\n\turl = https://tok:SECRET@h.example/r.git\n"), plain...)
	for name, in := range map[string][]byte{"plain": plain, "with a token": secret} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Redacted(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("with a token, first time", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			if _, _, err := Redacted(ctx, append(secret, fmt.Sprintf("[x]\n\tn = %d\n", i)...)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
