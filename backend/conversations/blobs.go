package conversations

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"

	"github.com/rooted-dev/rooted/backend/configfile"
)

// BlobMin is the length from which a string in an event (a file read, a command's output, the content of a write)
// is kept once, by its SHA-256, in a file of its own beside the log, and the log holds a reference instead:
//
//	{"$blob": "<64 hex digits>", "bytes": <length>}
//
// The same result in an item and in the model's messages is so stored once, the log stays small enough to read
// whole on open, and the window is handed references it loads when it shows them.
const BlobMin = 8 << 10

var hashPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// ErrNoBlob says a reference names content the conversation does not have.
var ErrNoBlob = errors.New("no such stored content")

// blobs is the content store of one conversation.
type blobs struct {
	dir string
}

func (b blobs) path(hash string) (string, error) {
	if !hashPattern().MatchString(hash) {
		return "", fmt.Errorf("%w: %q", ErrNoBlob, hash)
	}
	return filepath.Join(b.dir, hash), nil
}

// read returns the content with that hash.
func (b blobs) read(hash string) ([]byte, error) {
	p, err := b.path(hash)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoBlob, hash)
	}
	return data, err
}

// put stores data under its hash (once: content already there is not written again), durably before it returns,
// so a log record that names it never outlives it.
func (b blobs) put(data []byte, wrote *int64) (string, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	p := filepath.Join(b.dir, hash)
	if st, err := os.Stat(p); err == nil && st.Size() == int64(len(data)) {
		return hash, nil
	}
	// The folder is synced once for all the contents of an append (configfile.SyncDir), before the log record that
	// names them.
	if err := configfile.WriteBatched(p, data); err != nil {
		return "", err
	}
	*wrote += int64(len(data))
	return hash, nil
}

// isRef says whether v is a reference, and to what.
func isRef(v map[string]any) (string, bool) {
	if len(v) != 2 {
		return "", false
	}
	h, ok := v["$blob"].(string)
	_, hasBytes := v["bytes"]
	return h, ok && hasBytes
}

// extract replaces every string of BlobMin bytes or more in the JSON value raw by a reference, storing the
// string. References already in raw (the window sends back what it was given) must name stored content.
func (b blobs) extract(raw json.RawMessage, wrote *int64) (json.RawMessage, error) {
	if len(raw) < BlobMin && !bytes.Contains(raw, []byte(`"$blob"`)) {
		return raw, nil // nothing in it can be long enough, and it names no blob
	}
	return rewrite(raw, func(v any) (any, bool, error) {
		switch x := v.(type) {
		case string:
			if len(x) < BlobMin {
				return x, true, nil
			}
			h, err := b.put([]byte(x), wrote)
			if err != nil {
				return nil, true, err
			}
			return map[string]any{"$blob": h, "bytes": len(x)}, true, nil
		case map[string]any:
			h, ok := isRef(x)
			if !ok {
				return nil, false, nil
			}
			p, err := b.path(h)
			if err != nil {
				return nil, true, err
			}
			if _, err := os.Stat(p); err != nil {
				return nil, true, fmt.Errorf("%w: %s", ErrNoBlob, h)
			}
			return x, true, nil
		}
		return nil, false, nil
	})
}

// inline puts the stored content back in place of every reference in raw.
func (b blobs) inline(raw json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(`"$blob"`)) {
		return raw, nil
	}
	return rewrite(raw, func(v any) (any, bool, error) {
		x, ok := v.(map[string]any)
		if !ok {
			return nil, false, nil
		}
		h, ok := isRef(x)
		if !ok {
			return nil, false, nil
		}
		data, err := b.read(h)
		return string(data), true, err
	})
}

// rewrite decodes the JSON value raw (numbers kept as written), passes it through mapValue and encodes the
// result.
func rewrite(raw json.RawMessage, visit func(v any) (any, bool, error)) (json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	v, err := mapValue(v, visit)
	if err != nil {
		return nil, err
	}
	return marshal(v)
}

// mapValue walks a decoded JSON value depth first. visit sees every value before its contents: when it returns
// done, its result takes the value's place and the contents are not visited; otherwise objects and arrays are
// walked in place.
func mapValue(v any, visit func(v any) (any, bool, error)) (any, error) {
	if n, done, err := visit(v); err != nil || done {
		return n, err
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			n, err := mapValue(e, visit)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	case []any:
		for i, e := range x {
			n, err := mapValue(e, visit)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	}
	return v, nil
}

// marshal is json.Marshal without escaping <, > and & (tool results are full of them).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// keepOnly removes the stored contents body does not refer to (nor anything else in the folder: a temporary file
// a crash left behind). It runs after a compaction, under the store's lock, when body is the whole log.
func (b blobs) keepOnly(body *Body) error {
	live := map[string]bool{}
	for _, group := range [][]json.RawMessage{body.Items, body.Messages, body.Rewound, slices.Collect(maps.Values(body.State))} {
		for _, raw := range group {
			collectRefs(raw, live)
		}
	}
	entries, err := os.ReadDir(b.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !live[e.Name()] {
			if err := os.Remove(filepath.Join(b.dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// collectRefs adds the hash of every reference in raw to into.
func collectRefs(raw json.RawMessage, into map[string]bool) {
	if !bytes.Contains(raw, []byte(`"$blob"`)) {
		return
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	mapValue(v, func(v any) (any, bool, error) {
		if x, ok := v.(map[string]any); ok {
			if h, ok := isRef(x); ok {
				into[h] = true
				return x, true, nil
			}
		}
		return v, false, nil
	})
}
