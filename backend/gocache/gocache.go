// Package gocache is a Go build cache program (GOCACHEPROG, see 'go doc cmd/go/internal/cacheprog') for the
// sandbox: it looks an entry up in the project's private cache, then in the user's own build cache, and stores
// only into the private one. A sandboxed build so starts warm from what the user's builds compiled, while nothing
// it writes is ever read by the user's own builds: the user's cache is only read (and the sandbox cannot write
// it), and it is trusted because only the user's builds wrote it.
//
// Both caches use the go command's own layout (<dir>/<xx>/<hex action id>-a holding "v1 <action> <output> <size>
// <time>", and <dir>/<xx>/<hex output id>-d the bytes), so the private cache can also be the project's GOCACHE.
// Rooted's binaries serve the protocol when started with Arg as their first argument (see the init function), so
// the go command inside the sandbox can start the same binary that started the sandbox.
//
// Not covered: trimming. The private cache grows as the go command's own does; the user's cache is never touched,
// so an entry only the sandbox uses ages there as if unused.
package gocache

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/smallfile"
)

// Arg is the hidden first argument with which a Rooted binary serves as the cache program.
const Arg = "__rooted_gocacheprog"

// init serves the protocol and exits when this process was started as the cache program. It runs in every binary
// that links the sandbox (package shell imports this one), before main, so no main needs a hook of its own.
func init() {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		os.Exit(Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// Command is the GOCACHEPROG value that runs the binary exe as the cache program over the user's cache read (""
// for none) and the private cache write.
func Command(exe, read, write string) string {
	words := []string{quote(exe), Arg, "--write", quote(write)}
	if read != "" {
		words = append(words, "--read", quote(read))
	}
	return strings.Join(words, " ")
}

// quote protects a path with spaces for the go command, which splits GOCACHEPROG as cmd/internal/quoted does.
func quote(s string) string {
	if !strings.ContainsAny(s, " \t\n'\"") {
		return s
	}
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}

// UserCache is the user's own build cache as the go command finds it: GOCACHE, else go-build in the user's cache
// directory; "" when it is off or unknown.
func UserCache(getenv func(string) string) string {
	if c := getenv("GOCACHE"); c != "" {
		if c == "off" || !filepath.IsAbs(c) {
			return ""
		}
		return c
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go-build")
}

// Main serves the protocol on in and out until the go command closes it; args are --write DIR (required) and
// --read DIR.
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	fl := flag.NewFlagSet("gocacheprog", flag.ContinueOnError)
	fl.SetOutput(errOut)
	read := fl.String("read", "", "a build cache to look entries up in, read only (the user's)")
	write := fl.String("write", "", "the build cache to store entries in, and look them up first (the project's)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *write == "" || !filepath.IsAbs(*write) || (*read != "" && !filepath.IsAbs(*read)) {
		fmt.Fprintln(errOut, "rooted gocacheprog: --write needs an absolute folder, and --read too when given")
		return 2
	}
	if err := os.MkdirAll(*write, 0o700); err != nil {
		fmt.Fprintln(errOut, "rooted gocacheprog:", err)
		return 1
	}
	c := &Cache{Write: *write, Read: *read}
	if err := c.Serve(in, out); err != nil {
		fmt.Fprintln(errOut, "rooted gocacheprog:", err)
		return 1
	}
	return 0
}

// Cache answers the go command from the private cache Write, then the read-only cache Read.
type Cache struct {
	Write, Read string
}

type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// Serve answers requests read from in on out until "close" or the end of in. Gets are answered concurrently (the
// go command sends many at once); a put's body is read before the next request, as the protocol requires.
func (c *Cache) Serve(in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	var wmu sync.Mutex
	send := func(r response) error {
		wmu.Lock()
		defer wmu.Unlock()
		if err := enc.Encode(r); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := send(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	var wg sync.WaitGroup
	defer wg.Wait()
	sem := make(chan struct{}, 8)
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading a request: %w", err)
		}
		switch req.Command {
		case "close":
			wg.Wait()
			return send(response{ID: req.ID})
		case "put":
			var body []byte
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil { // a JSON string of base64, which []byte decodes
					return fmt.Errorf("reading the body of request %d: %w", req.ID, err)
				}
			}
			r := c.put(req, body)
			if err := send(r); err != nil {
				return err
			}
		case "get":
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				send(c.get(req))
			}()
		default:
			if err := send(response{ID: req.ID, Err: "unknown command " + strconv.Quote(req.Command)}); err != nil {
				return err
			}
		}
	}
}

// file is the path of id's file of kind ("a" an action entry, "d" output bytes) in the cache dir.
func file(dir string, id []byte, kind string) string {
	h := hex.EncodeToString(id)
	return filepath.Join(dir, h[:2], h+"-"+kind)
}

const idLen = 32 // sha256, the go command's cache.HashSize

func (c *Cache) get(req request) response {
	if len(req.ActionID) != idLen {
		return response{ID: req.ID, Err: "get: an action id is 32 bytes"}
	}
	for _, dir := range []string{c.Write, c.Read} {
		if dir == "" {
			continue
		}
		if r, ok := lookup(dir, req.ActionID); ok {
			r.ID = req.ID
			return r
		}
	}
	return response{ID: req.ID, Miss: true}
}

// lookup reads an action entry and checks its output file is there with the size it names.
func lookup(dir string, action []byte) (response, bool) {
	b, err := smallfile.Read(file(dir, action, "a"))
	if err != nil {
		return response{}, false
	}
	// "v1 <hex action> <hex output> <size, 20 wide> <unix nanoseconds, 20 wide>\n"
	f := strings.Fields(string(b))
	if len(f) != 5 || f[0] != "v1" || f[1] != hex.EncodeToString(action) || !strings.HasSuffix(string(b), "\n") {
		return response{}, false
	}
	out, err := hex.DecodeString(f[2])
	if err != nil || len(out) != idLen {
		return response{}, false
	}
	size, err1 := strconv.ParseInt(f[3], 10, 64)
	nanos, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil || size < 0 {
		return response{}, false
	}
	path := file(dir, out, "d")
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
		return response{}, false // a missing or changed output, or a cached executable (a folder): a miss
	}
	t := time.Unix(0, nanos)
	return response{OutputID: out, Size: size, Time: &t, DiskPath: path}, true
}

func (c *Cache) put(req request, body []byte) response {
	if len(req.ActionID) != idLen || len(req.OutputID) != idLen {
		return response{ID: req.ID, Err: "put: action and output ids are 32 bytes"}
	}
	if int64(len(body)) != req.BodySize {
		return response{ID: req.ID, Err: fmt.Sprintf("put: body of %d bytes, %d announced", len(body), req.BodySize)}
	}
	path := file(c.Write, req.OutputID, "d")
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(body)) {
		if err := writeAtomic(path, body, 0o600); err != nil {
			return response{ID: req.ID, Err: err.Error()}
		}
	}
	entry := fmt.Sprintf("v1 %x %x %20d %20d\n", req.ActionID, req.OutputID, len(body), time.Now().UnixNano())
	if err := writeAtomic(file(c.Write, req.ActionID, "a"), []byte(entry), 0o600); err != nil {
		return response{ID: req.ID, Err: err.Error()}
	}
	return response{ID: req.ID, DiskPath: path}
}

// writeAtomic writes a temporary file beside path and renames it over path, so a reader never sees half of it.
func writeAtomic(path string, b []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
