//go:build linux

package sandbox

import "testing"

// The filter assembles for every architecture it knows and every choice of socket families; an unknown
// architecture gets none (Landlock alone), rather than a filter that would refuse everything.
func TestFilterAssembles(t *testing.T) {
	t.Parallel()
	for _, arch := range []string{"amd64", "arm64"} {
		for _, o := range []filterOpts{{}, {inet: true}, {unix: true}, {inet: true, unix: true}, {self: 4242}} {
			code, err := networkFilter(arch, o)
			if err != nil || len(code) == 0 {
				t.Errorf("%s %+v: %d instructions, %v", arch, o, len(code), err)
			}
		}
	}
	if code, err := networkFilter("riscv64", filterOpts{}); code != nil || err != nil {
		t.Errorf("riscv64: %d instructions, %v", len(code), err)
	}
	for _, c := range []struct {
		p    Policy
		abi  int
		want filterOpts
	}{
		{Policy{}, 7, filterOpts{}},
		{Policy{Network: true}, 7, filterOpts{inet: true}},
		{Policy{Network: true, Sockets: []string{"/run/docker.sock"}}, 7, filterOpts{inet: true, unix: true}},
		{Policy{}, 9, filterOpts{unix: true}}, // Landlock decides which socket files a command reaches
	} {
		if got := filterFor(c.p, c.abi); got != c.want {
			t.Errorf("filterFor(%+v, %d) = %+v, want %+v", c.p, c.abi, got, c.want)
		}
	}
}
