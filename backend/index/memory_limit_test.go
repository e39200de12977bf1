package index

import (
	"os"
	"testing"
)

// The process's memory limit follows the sum of the live indexes' budgets: a second project opened beside the
// first raises it, closing one lowers it, and a budget changed is counted once.
func TestMemoryLimitSumsLiveBudgets(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	var set []int64
	m := &MemoryLimit{setLimit: func(n int64) int64 { set = append(set, n); return 0 }}
	a, b := &Indexes{Limit: m}, &Indexes{Limit: m}
	const mib = 1 << 20
	steps := []struct {
		name string
		do   func()
		want int64
	}{
		{"a opens with the default budget", func() { a.SetBudget(nil, 0) }, DefaultBudget + memoryHeadroom},
		{"b opens with 64 MiB", func() { b.SetBudget(nil, 64*mib) }, DefaultBudget + 64*mib + 2*memoryHeadroom},
		{"a's budget changes to 32 MiB", func() { a.SetBudget(nil, 32*mib) }, 96*mib + 2*memoryHeadroom},
		{"a closes", a.Close, 64*mib + memoryHeadroom},
		{"a closes again", a.Close, 64*mib + memoryHeadroom},
	}
	for _, s := range steps {
		s.do()
		if got := m.Limit(); got != s.want {
			t.Fatalf("%s: limit %d MiB, want %d MiB", s.name, got/mib, s.want/mib)
		}
		if set[len(set)-1] != s.want {
			t.Fatalf("%s: set %d MiB, want %d MiB", s.name, set[len(set)-1]/mib, s.want/mib)
		}
	}
	b.Close()
	if got := m.Limit(); got != 0 {
		t.Errorf("with every index closed the limit is %d", got)
	}
}

// A GOMEMLIMIT in the environment is the user's choice: the budgets never override it.
func TestMemoryLimitLeavesGOMEMLIMIT(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	called := false
	m := &MemoryLimit{setLimit: func(int64) int64 { called = true; return 0 }}
	(&Indexes{Limit: m}).SetBudget(nil, 0)
	if called {
		t.Error("the memory limit was set despite GOMEMLIMIT")
	}
}
