package walk

import (
	"encoding/binary"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// listFD lists a directory by its descriptor, taking each entry's type from getdents64's d_type. os.File.ReadDir
// on a directory opened in an os.Root stats every entry instead (it cannot stat lazily by path), which for a
// search is a system call per file for nothing; only entries of unknown type are stat'ed here.
func listFD(fd int) ([]entry, error) {
	var out []entry
	bp := direntBufs.Get()
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "getdents", Path: ".", Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			name := b[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			b = b[reclen:]
			if s := string(name); s != "." && s != ".." {
				e := entry{name: s, typ: direntType(typ)}
				if typ == unix.DT_UNKNOWN {
					var st unix.Stat_t
					if unix.Fstatat(fd, s, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
						continue
					}
					e.typ = statType(st.Mode)
				}
				out = append(out, e)
			}
		}
	}
}

// direntBufs are getdents64 buffers: a search lists a thousand folders, and a fresh 32 KiB each was a third of
// a cold search's allocation. A free list rather than a sync.Pool, which every garbage collection empties.
var direntBufs = bufList{size: 32 << 10}

// bufList is a small stack of equal buffers that garbage collection leaves alone.
type bufList struct {
	size int
	mu   sync.Mutex
	free []*[]byte
}

func (l *bufList) Get() *[]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		b := l.free[n-1]
		l.free = l.free[:n-1]
		return b
	}
	b := make([]byte, l.size)
	return &b
}

func (l *bufList) Put(b *[]byte) {
	l.mu.Lock()
	if len(l.free) < 16 {
		l.free = append(l.free, b)
	}
	l.mu.Unlock()
}

func direntType(t uint8) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

func statType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
