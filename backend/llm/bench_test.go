package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkRelayStream relays a streamed completion of 500 token-sized SSE events, as a chat model sends them,
// and reports the added delay per event: how long after the server flushed an event the relay handed it on.
func BenchmarkRelayStream(b *testing.B) {
	const events = 500
	sent := make(chan time.Time, events)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range events {
			fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":\"tok%d \"}}]}\n\n", i)
			sent <- time.Now()
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Microsecond) // let each event travel on its own, as a model's tokens do
		}
	}))
	defer srv.Close()
	s := NewStore(filepath.Join(b.TempDir(), "p.json"), func(string) string { return "" })
	if err := s.Save(Config{Providers: []Provider{{ID: "p", Kind: OpenAICompatible, BaseURL: srv.URL + "/v1"}}}); err != nil {
		b.Fatal(err)
	}
	r := &Relay{Store: s}
	var lat []time.Duration
	for b.Loop() {
		err := r.Do(context.Background(), Request{Provider: "p", URL: srv.URL + "/v1/chat/completions", Method: "POST", Body: "{}"}, func(Head) {}, func(p []byte) {
			now := time.Now()
			// A read can carry several events; each waited from its own send.
			for range countEvents(p) {
				select {
				case t := <-sent:
					lat = append(lat, now.Sub(t))
				default:
				}
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		for len(sent) > 0 {
			<-sent
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs/event")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs/event")
}

func countEvents(p []byte) int {
	n := 0
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\n' && p[i+1] == '\n' {
			n++
		}
	}
	return n
}
