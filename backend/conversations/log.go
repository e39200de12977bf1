package conversations

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// A conversation's log is a header followed by framed records:
//
//	4 bytes  little-endian payload length (1 .. maxRecord)
//	4 bytes  little-endian CRC-32C of the payload
//	payload  one event, JSON
//
// Records are only ever appended, each batch with one write(2). A process killed while writing leaves at most one
// record short or with a wrong checksum at the end; reading stops there, and the next append cuts it off first.
// A length of 0 is never written: a file extended with zeros by a crash (some file systems do that after a power
// loss) reads as a torn record, not as empty events.

const logHeader = "rooted-conversation-log 1\n"

const (
	frameHeader = 8
	maxRecord   = 256 << 20 // a record this large is damage, not an event: tool results over 8 KiB are blobs
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frame appends payload as one record to buf.
func frame(buf, payload []byte) []byte {
	var h [frameHeader]byte
	binary.LittleEndian.PutUint32(h[:4], uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	return append(append(buf, h[:]...), payload...)
}

// scan is what reading a log found.
type scan struct {
	records [][]byte
	good    int64 // bytes up to the end of the last whole record: where the next append goes
	size    int64 // the file's size; more than good when a torn or damaged record follows
	damaged bool  // a record whose length fits in the file failed its checksum: damage, not a tear
}

var errNotLog = errors.New("not a conversation log")

// readLog reads every whole record of the log in b. Records stop at the first that is short or fails its checksum.
func readLog(b []byte) (scan, error) {
	if !bytes.HasPrefix(b, []byte(logHeader)) {
		if len(b) < len(logHeader) && bytes.HasPrefix([]byte(logHeader), b) {
			// A crash while the header itself was written: an empty log.
			return scan{good: 0, size: int64(len(b))}, nil
		}
		return scan{}, errNotLog
	}
	s := scan{good: int64(len(logHeader)), size: int64(len(b))}
	rest := b[len(logHeader):]
	for len(rest) > 0 {
		if len(rest) < frameHeader {
			break
		}
		n := binary.LittleEndian.Uint32(rest[:4])
		sum := binary.LittleEndian.Uint32(rest[4:8])
		if n == 0 || n > maxRecord || int64(n) > int64(len(rest)-frameHeader) {
			break
		}
		payload := rest[frameHeader : frameHeader+int(n)]
		if crc32.Checksum(payload, castagnoli) != sum {
			s.damaged = len(rest) > frameHeader+int(n) // more follows: not the last record, so not a tear
			break
		}
		s.records = append(s.records, payload)
		s.good += int64(frameHeader + int(n))
		rest = rest[frameHeader+int(n):]
	}
	return s, nil
}

// readLogFile reads the log at path.
func readLogFile(path string) (scan, error) {
	f, err := os.Open(path)
	if err != nil {
		return scan{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return scan{}, err
	}
	if !st.Mode().IsRegular() {
		return scan{}, fmt.Errorf("%s is not a regular file", path)
	}
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return scan{}, err
	}
	s, err := readLog(b)
	if err != nil {
		return scan{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
