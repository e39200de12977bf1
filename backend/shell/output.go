package shell

import (
	"fmt"
	"sync"
)

// capture keeps a command's output within a fixed amount of memory: the first half of the cap as it came, and a
// ring of the last half, so a result shows how the output began and how it ended, with a marker where bytes were
// cut. Whatever a command prints, capture holds at most its cap.
type capture struct {
	mu    sync.Mutex
	cap   int
	head  []byte
	tail  []byte // ring buffer of size cap-len(head) once head is full
	start int    // ring start
	total int64
	live  func([]byte)
}

func newCapture(limit int, live func([]byte)) *capture {
	return &capture{cap: limit, head: make([]byte, 0, min(limit/2, 64<<10)), live: live}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	written := len(p)
	c.total += int64(written)
	if c.live != nil {
		c.live(p)
	}
	half := c.cap / 2
	if room := half - len(c.head); room > 0 {
		n := min(room, len(p))
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	size := c.cap - half
	for len(p) > 0 {
		if len(c.tail) < size {
			n := min(size-len(c.tail), len(p))
			c.tail = append(c.tail, p[:n]...)
			p = p[n:]
			continue
		}
		// Full: overwrite the oldest bytes.
		n := copy(c.tail[c.start:], p)
		if n == 0 {
			c.start = 0
			continue
		}
		c.start = (c.start + n) % size
		p = p[n:]
	}
	return written, nil
}

// String returns what was kept, with a marker where bytes were cut, and whether any were.
func (c *capture) String() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := append(append([]byte(nil), c.tail[c.start:]...), c.tail[:c.start]...)
	kept := int64(len(c.head) + len(tail))
	if kept >= c.total {
		return string(c.head) + string(tail), false
	}
	return fmt.Sprintf("%s\n… [%d bytes cut] …\n%s", c.head, c.total-kept, tail), true
}

// Total is how many bytes the command wrote.
func (c *capture) Total() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
