// Package searchtest is a stand-in for a SearXNG instance in tests, on a local HTTP server: GET /search with
// format=json answers SearXNG's JSON (results with url, title and content, and the fields around them), any other
// format 403 as SearXNG does when JSON is not enabled. It records the queries it was asked.
package searchtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Result is one result as SearXNG sends it.
type Result struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Content string `json:"content"`
}

// Server is the stand-in.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	queries []string
	results []Result
}

// New starts a stand-in answering every query with results, closed when t ends.
func New(t testing.TB, results ...Result) *Server {
	t.Helper()
	s := &Server{results: results}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Queries are the queries asked so far.
func (s *Server) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/search" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	if q.Get("format") != "json" {
		http.Error(w, "403 Forbidden", http.StatusForbidden)
		return
	}
	s.mu.Lock()
	s.queries = append(s.queries, q.Get("q"))
	s.mu.Unlock()
	type engine struct {
		Result
		Engine   string    `json:"engine"`
		Engines  []string  `json:"engines"`
		Score    float64   `json:"score"`
		Category string    `json:"category"`
		Position []float64 `json:"positions"`
	}
	out := make([]engine, len(s.results))
	for i, res := range s.results {
		out[i] = engine{Result: res, Engine: "duckduckgo", Engines: []string{"duckduckgo"}, Score: 1, Category: "general", Position: []float64{float64(i + 1)}}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"query": q.Get("q"), "number_of_results": len(out), "results": out,
		"answers": []any{}, "corrections": []any{}, "infoboxes": []any{}, "suggestions": []string{fmt.Sprintf("%s tutorial", q.Get("q"))}, "unresponsive_engines": []any{},
	})
}
