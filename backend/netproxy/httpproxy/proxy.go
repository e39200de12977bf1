// Package httpproxy is the one way out of a command's network namespace in allow-list mode: an HTTP proxy run by
// Rooted, outside the sandbox, that opens tunnels (CONNECT) and forwards plain requests (absolute URIs) only to the
// hosts on the project's list, only to public addresses (checked after resolution, with web_fetch's rules, and
// dialled as checked, so a name cannot answer one address to the check and another to the connection), and
// answers every other with a 403 that names the host and how to allow it. Where someone can answer (the window),
// a host not on the list is asked about while the command runs, at the port asked for: its connections to that
// host and port wait, all on one question, for the answer or for the ask's bound, and then go on or are refused;
// an answer covers that port only, and another port of the same host is a question of its own. It records the hosts it refused and those the
// user declined, for the command's result.
package httpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rooted-dev/rooted/backend/netproxy"
	"github.com/rooted-dev/rooted/backend/webfetch"
)

// Options configure a Proxy.
type Options struct {
	// Hosts are the hosts allowed (netproxy.Normalize's form: exact names and "*.parent"); Denied those refused even where
	// Hosts names them (the user's deny rules).
	Hosts, Denied []string
	// Resolver resolves host names (default net.DefaultResolver).
	Resolver webfetch.Resolver
	// Exempt are addresses let through although they are not public: a test's fixture servers, never set
	// otherwise.
	Exempt []netip.AddrPort
	// Ask, when set, asks the user whether this command may reach host at port (a CONNECT's, or an http URL's
	// with 80 for none), host not being on the list (nor denied): true lets it through at that port for the rest
	// of the command, false refuses it there. It returns when ctx ends, with false. Nil: such a host is refused
	// at once (no one can answer: MCP, the CLI, a background job).
	Ask func(ctx context.Context, host string, port int) bool
	// AskWait bounds how long a connection waits for Ask's answer (default DefaultAskWait); the command's own end
	// (its timeout, Stop) ends the wait sooner.
	AskWait time.Duration
	// Lists, when set, is read at every connection in place of Hosts and Denied: a proxy follows the rules the
	// user adds or removes while it lives (an MCP server's, with no restart; a command's, so the host card's
	// Always reaches the command's other ports, and a deny added in Settings its next connection).
	Lists func() (allow, deny []string)
	// OnRefuse, when set, hears of every connection refused (each one, not each host once), as it is refused:
	// an MCP server's record of the hosts it was refused, which no one is asked about.
	OnRefuse func(*RefusedError)
}

// MaxOpenQuestions bounds the questions one proxy has waiting at once; a connection to yet another host or port
// is refused at once, as unanswered.
const MaxOpenQuestions = 8

// DefaultAskWait is how long a connection to a host not on the list waits for the user's answer.
const DefaultAskWait = 120 * time.Second

// question is one ask about a host at a port, which every connection to it there waits on.
type question struct {
	done     chan struct{}
	allowed  bool // the answer
	answered bool // false: the wait ended first
}

// Proxy serves one command's connections. Safe for concurrent use.
type Proxy struct {
	hosts    []string
	denied   []string
	dialer   *webfetch.PublicDialer
	plain    *http.Transport
	ask      func(ctx context.Context, host string, port int) bool
	askWait  time.Duration
	lists    func() (allow, deny []string)
	onRefuse func(*RefusedError)

	mu       sync.Mutex
	life     context.Context // Serve's: an ask ends with it
	refused  []string
	declined []string
	fixed    []string // of refused, those no allow rule would let through
	asked    map[hostPort]*question
	waiting  int // questions not yet answered nor ended
	open     map[io.Closer]bool
}

// New returns a proxy for one command.
func New(o Options) *Proxy {
	p := &Proxy{
		hosts: slices.Clone(o.Hosts), denied: slices.Clone(o.Denied),
		open: map[io.Closer]bool{}, asked: map[hostPort]*question{}, ask: o.Ask, askWait: o.AskWait, life: context.Background(),
		lists: o.Lists, onRefuse: o.OnRefuse,
	}
	if p.lists == nil {
		p.lists = func() ([]string, []string) { return p.hosts, p.denied }
	}
	if p.askWait <= 0 {
		p.askWait = DefaultAskWait
	}
	p.dialer = webfetch.NewPublicDialer(webfetch.DialOptions{
		Resolver: o.Resolver, Exempt: o.Exempt, Timeout: 30 * time.Second,
		Refusal: func(e *webfetch.AddressError) error { return &RefusedError{Host: e.Host, Address: e} },
	})
	p.plain = &http.Transport{DialContext: p.dialer.DialContext, Proxy: nil, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	return p
}

// Refused lists the hosts the proxy refused without the user's answer (not on the list with no one to ask, or no
// answer in time; denied by a rule; a private address), in the order first refused.
func (p *Proxy) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.refused)
}

// Unallowable lists the hosts of Refused that no allow rule would let through (a deny rule, an address commands
// never reach, a name that is not plain, an IP address): the window offers no rule for them.
func (p *Proxy) Unallowable() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.fixed)
}

// Declined lists where the user, asked while the command ran, declined: host:port (net.JoinHostPort), as an
// answer covers that port alone; a command allowed at github.com:443 and declined at github.com:22 lists
// github.com:22 only.
func (p *Proxy) Declined() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.declined)
}

// Serve answers the connections on ln until ctx ends, then closes ln and every connection still open.
func (p *Proxy) Serve(ctx context.Context, ln net.Listener) error {
	p.mu.Lock()
	p.life = ctx
	p.mu.Unlock()
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	stop := context.AfterFunc(ctx, func() {
		srv.Close()
		p.closeAll()
	})
	defer stop()
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ServeHTTP handles one request: a tunnel for CONNECT, a forwarded request for an absolute URI, a 400 otherwise.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		p.tunnel(w, r)
	case r.URL.IsAbs() && r.URL.Scheme == "http":
		p.forward(w, r)
	default:
		http.Error(w, "rooted: this is the proxy for the project's commands; it takes CONNECT host:port, or a request for an absolute http:// URL", http.StatusBadRequest)
	}
}

// tunnel opens a connection to the host of a CONNECT and copies both ways until either side ends.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	host, portText, err := net.SplitHostPort(r.Host)
	port, ok := portNumber(portText)
	if err != nil || !ok {
		http.Error(w, "rooted: CONNECT needs host:port, the port a number from 1 to 65535", http.StatusBadRequest)
		return
	}
	upstream, err := p.connect(r.Context(), host, port)
	if err != nil {
		p.refuse(w, host, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "rooted: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	p.track(client, true)
	p.track(upstream, true)
	defer func() {
		p.track(client, false)
		p.track(upstream, false)
		client.Close()
		upstream.Close()
	}()
	if _, err := client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		// What the client sent after its CONNECT, already read into buf, goes first.
		io.Copy(upstream, io.MultiReader(io.LimitReader(buf, int64(buf.Reader.Buffered())), client))
		closeWrite(upstream)
		done <- struct{}{}
	}()
	go func() {
		io.Copy(client, upstream)
		closeWrite(client)
		done <- struct{}{}
	}()
	<-done
	<-done
}

// closeWrite ends one direction of a TCP connection, so the other side reads its end while the other direction
// goes on.
func closeWrite(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
}

// forward sends a plain http request on and its answer back, one request per connection.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	portText := r.URL.Port()
	if portText == "" {
		portText = "80"
	}
	port, ok := portNumber(portText)
	if !ok {
		http.Error(w, "rooted: the URL's port must be a number from 1 to 65535", http.StatusBadRequest)
		return
	}
	if err := p.check(r.Context(), host, port); err != nil {
		p.refuse(w, host, err)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Close = true
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade"} {
		out.Header.Del(h)
	}
	res, err := p.plain.RoundTrip(out)
	if err != nil {
		p.refuse(w, host, err)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.Header().Set("Connection", "close")
	w.WriteHeader(res.StatusCode)
	io.Copy(w, res.Body)
}

// RefusedError is a host the proxy would not connect to: not on the list, or resolving to an address that is not
// public.
type RefusedError struct {
	Host       string
	Address    *webfetch.AddressError // nil: the host is not on the list
	Denied     bool                   // a rule of the user's denies it
	Declined   bool                   // the user, asked while the command ran, said no (for Port)
	Port       int                    // with Declined: the port the answer was about
	Unanswered bool                   // the user was asked and the wait ended before an answer
	TooMany    bool                   // with Unanswered: not asked, as MaxOpenQuestions questions waited already
	NotPlain   bool                   // not a plain host name (Plain); Host is quoted, escaped to ASCII
}

// Allowable says whether an allow rule for Host would let it through: it was refused only for not being on the
// list (or not allowed in time), and is a name, which a rule can name (an address cannot be on the list).
func (e *RefusedError) Allowable() bool {
	if e.Denied || e.NotPlain || e.Address != nil {
		return false
	}
	_, err := netip.ParseAddr(e.Host)
	return err != nil
}

func (e *RefusedError) Error() string {
	switch {
	case e.NotPlain:
		return fmt.Sprintf("%s is not a plain host name (a wildcard, or letters outside ASCII or escaped), which commands never reach through the proxy; name the host as its DNS name in ASCII (punycode)", e.Host)
	case e.TooMany:
		return fmt.Sprintf("%s is not on this project's list of hosts commands may reach, and was not asked about: too many hosts asked about at once (%d wait for the user's answer); retry once they are answered, or add it to the hosts in Settings for this project", e.Host, MaxOpenQuestions)
	case e.Declined:
		return fmt.Sprintf("%s was declined by the user for this command when asked", e.Host)
	case e.Unanswered:
		return fmt.Sprintf("%s is not on this project's list of hosts commands may reach, and the user, asked while the command ran, did not answer in time", e.Host)
	}
	if e.Denied {
		return fmt.Sprintf("%s is denied to this project's commands by a network rule (Settings, Permissions)", e.Host)
	}
	if e.Address != nil {
		return fmt.Sprintf("%s resolves to %s, a %s address, which commands never reach through the proxy", e.Host, e.Address.Addr, e.Address.Reason)
	}
	return fmt.Sprintf("%s is not on this project's list of hosts commands may reach; to allow it, add it to the hosts in Settings for this project (allow-list network)", e.Host)
}

// refuse answers 403 for a refused host, naming it in the status line (what Go, Python and curl print of a failed
// tunnel) and in the body, and records it; 502 for a host that could not be reached.
func (p *Proxy) refuse(w http.ResponseWriter, host string, err error) {
	var re *RefusedError
	if !errors.As(err, &re) {
		http.Error(w, fmt.Sprintf("rooted proxy: %s: %v", host, err), http.StatusBadGateway)
		return
	}
	p.mu.Lock()
	if re.Declined {
		if at := net.JoinHostPort(re.Host, strconv.Itoa(re.Port)); !slices.Contains(p.declined, at) {
			p.declined = append(p.declined, at)
		}
	} else if !slices.Contains(p.refused, re.Host) {
		p.refused = append(p.refused, re.Host)
	}
	if !re.Declined && !re.Allowable() && !slices.Contains(p.fixed, re.Host) {
		p.fixed = append(p.fixed, re.Host)
	}
	p.mu.Unlock()
	if p.onRefuse != nil {
		p.onRefuse(re)
	}
	body := "rooted: " + re.Error() + "\n"
	reason := "Forbidden by Rooted: " + re.Host + " is not on this project's list of hosts"
	switch {
	case re.NotPlain:
		reason = "Forbidden by Rooted: " + re.Host + " is not a plain host name"
	case re.TooMany:
		reason = "Forbidden by Rooted: " + re.Host + " is not on this project's list of hosts and too many hosts are asked about at once"
	case re.Declined:
		reason = "Forbidden by Rooted: " + re.Host + " was declined by the user"
	case re.Unanswered:
		reason = "Forbidden by Rooted: " + re.Host + " is not on this project's list of hosts and was not answered in time"
	case re.Denied:
		reason = "Forbidden by Rooted: " + re.Host + " is denied by a rule"
	case re.Address != nil:
		reason = "Forbidden by Rooted: " + re.Host + " is a " + re.Address.Reason + " address"
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, body, http.StatusForbidden)
		return
	}
	c, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	fmt.Fprintf(buf, "HTTP/1.1 403 %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nX-Rooted-Refused-Host: %s\r\nConnection: close\r\n\r\n%s",
		reason, len(body), re.Host, body)
	buf.Flush()
}

// check refuses a host a rule denies, and one that is not on the list unless the user, asked about it at port,
// allows it there. ctx is the connection's: it ends the wait for the answer when the client goes away.
//
// It resolves nothing: a lookup before the question would itself be a way out (a command that may reach no host
// could still send data in the names it has looked up, <data>.attacker.example, whatever the user answers). What
// a name resolves to is checked by the dialer (webfetch.PublicDialer), on the addresses it dials, once the name is let through.
func (p *Proxy) check(ctx context.Context, host string, port int) error {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if !Plain(host) {
		// Shown escaped: a name that is not plain may be one that looks like another (gіthub.com with a Cyrillic
		// і) or reorders what follows it.
		return &RefusedError{Host: strconv.QuoteToASCII(host), NotPlain: true}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if why := webfetch.Refused(a); why != "" && !p.dialer.ExemptAddr(a) {
			return &RefusedError{Host: host, Address: &webfetch.AddressError{Host: host, Addr: a.Unmap(), Reason: why}}
		}
	}
	allow, deny := p.lists()
	if netproxy.Allowed(deny, host) {
		return &RefusedError{Host: host, Denied: true}
	}
	if netproxy.Allowed(allow, host) {
		return nil
	}
	if p.ask == nil {
		return &RefusedError{Host: host}
	}
	q := p.question(hostPort{host, port})
	if q == nil {
		return &RefusedError{Host: host, Unanswered: true, TooMany: true}
	}
	select {
	case <-q.done:
	case <-ctx.Done():
		return &RefusedError{Host: host, Unanswered: true}
	}
	switch {
	case q.allowed:
		return nil
	case q.answered:
		return &RefusedError{Host: host, Declined: true, Port: port}
	}
	return &RefusedError{Host: host, Unanswered: true}
}

// Plain says whether host (lower case, no trailing dot) is one the proxy takes: an IP address as written in its
// canonical form, or a host name already in netproxy.Normalize's form with no wildcard. Anything else (a
// wildcard, a name with letters outside ASCII or written with escapes, a control or direction character) is
// refused as it is, never asked about nor offered as a rule: the window would show one host, and an allow rule
// would name another, or every subdomain of one.
func Plain(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Zone() == "" && a.String() == host
	}
	n, err := netproxy.Normalize(host)
	return err == nil && n == host && !strings.Contains(n, "*")
}

// hostPort is what a question is about, and what its answer covers: a yes for github.com at 443 lets nothing
// through to github.com at 22, which a command could otherwise reach (ssh, a database port, anything the host
// listens on) on the strength of an answer about HTTPS.
type hostPort struct {
	host string
	port int
}

// portNumber parses a port as a connection's target names it: a number from 1 to 65535, never a service name (one
// port, one question: "https" and "443" would be two questions about the same port).
func portNumber(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// question is the one ask about hp for this command: the first connection to that host and port puts the question,
// within AskWait and the proxy's life; the rest wait on it, and later connections there take its answer at once.
// Nil when MaxOpenQuestions questions about other hosts or ports wait already: a command cannot cover the window
// with cards, nor hold a goroutine per host it names.
func (p *Proxy) question(hp hostPort) *question {
	p.mu.Lock()
	defer p.mu.Unlock()
	if q := p.asked[hp]; q != nil {
		return q
	}
	if p.waiting >= MaxOpenQuestions {
		return nil
	}
	q := &question{done: make(chan struct{})}
	p.asked[hp] = q
	p.waiting++
	ctx, cancel := context.WithTimeout(p.life, p.askWait)
	go func() {
		defer cancel()
		allowed := p.ask(ctx, hp.host, hp.port)
		// A no that came as the wait ended is the wait's end, not the user's answer.
		q.allowed, q.answered = allowed, allowed || ctx.Err() == nil
		p.mu.Lock()
		p.waiting--
		p.mu.Unlock()
		close(q.done)
	}()
	return q
}

// connect checks host at port and dials it there.
func (p *Proxy) connect(ctx context.Context, host string, port int) (net.Conn, error) {
	if err := p.check(ctx, host, port); err != nil {
		return nil, err
	}
	return p.dialer.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
}

// track keeps the tunnels' connections, which the server no longer tracks once hijacked, to close at the end.
func (p *Proxy) track(c io.Closer, open bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if open {
		p.open[c] = true
	} else {
		delete(p.open, c)
	}
}

func (p *Proxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.open {
		c.Close()
	}
	p.plain.CloseIdleConnections()
}
