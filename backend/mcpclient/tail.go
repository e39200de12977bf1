package mcpclient

import "sync"

// tail keeps the last n bytes written to it: a server's error output, however much it writes.
type tail struct {
	mu  sync.Mutex
	n   int
	buf []byte
	cut bool
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.n; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(p), nil
}

// String is what is kept, from a line's start when the output was cut.
func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if t.cut {
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' && i+1 < len(s) {
				return "…\n" + s[i+1:]
			}
		}
	}
	return s
}
