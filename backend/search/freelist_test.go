package search

import "testing"

// The larger buffers' free list keeps a buffer per worker but never more bytes than its bound: on a many-core
// machine searching huge files, what it holds stays bounded; what it hands back it no longer counts.
func TestFreeListKeepsBoundedBytes(t *testing.T) {
	t.Parallel()
	l := freeList{New: func() *[]byte { return nil }, max: 8, maxBytes: 32 << 20}
	buf := func(n int) *[]byte { b := make([]byte, 0, n); return &b }
	l.Put(buf(16 << 20))
	l.Put(buf(8 << 20))
	l.Put(buf(16 << 20)) // 40 MiB: over the bound, dropped
	l.Put(buf(8 << 20))
	if len(l.free) != 3 || l.bytes != 32<<20 {
		t.Fatalf("kept %d buffers, %d bytes; want 3 buffers, 32 MiB", len(l.free), l.bytes)
	}
	for range 3 {
		if b := l.Get(); b == nil {
			t.Fatal("a kept buffer was not handed back")
		}
	}
	if l.bytes != 0 || l.Get() != nil {
		t.Fatalf("empty list: %d bytes counted, or a buffer from nowhere", l.bytes)
	}
	l.Put(buf(16 << 20))
	l.Put(buf(16 << 20))
	if len(l.free) != 2 {
		t.Errorf("after handing everything back, kept %d of two 16 MiB buffers", len(l.free))
	}
}
