package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// stringsFlag collects a repeatable flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

func runSearch(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("search", "PATTERN [PATH] [--regex] [-i] [--glob G]... [--context N] [--files] [--limit N] [--hidden] [--ignored] [--root DIR] [--json]", stdio)
	regex := c.fs.Bool("regex", false, "PATTERN is a regular expression (RE2), not literal text")
	ci := c.fs.Bool("i", false, "ignore case")
	var globs stringsFlag
	c.fs.Var(&globs, "glob", "only files matching this glob; !glob excludes (repeatable)")
	ctxLines := c.fs.Int("context", 0, "lines of context around each match")
	filesOnly := c.fs.Bool("files", false, "list matching files with their counts instead of lines")
	limit := c.fs.Int("limit", 0, "at most this many matches (default 100)")
	hidden := c.fs.Bool("hidden", false, "search hidden files too")
	ignored := c.fs.Bool("ignored", false, "search gitignored files too")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usageError(stdio, c.fs, "want PATTERN and at most one PATH")
	}
	in := map[string]any{"query": pos[0], "regex": *regex, "case_insensitive": *ci, "include_hidden": *hidden, "include_ignored": *ignored}
	if len(pos) == 2 {
		in["path"] = pos[1]
	}
	if len(globs) > 0 {
		in["glob"] = []string(globs)
	}
	if *ctxLines > 0 {
		in["context"] = *ctxLines
	}
	if *limit > 0 {
		in["limit"] = *limit
	}
	if *filesOnly {
		in["output"] = "files"
	}
	return c.call(ctx, "search_files", in, func(raw []byte) error {
		var r struct {
			Matches []struct {
				Path   string   `json:"path"`
				Line   int      `json:"line"`
				Text   string   `json:"text"`
				Before []string `json:"before"`
				After  []string `json:"after"`
			} `json:"matches"`
			Files []struct {
				Path  string `json:"path"`
				Count int    `json:"count"`
			} `json:"files"`
			capped
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		for _, f := range r.Files {
			fmt.Fprintf(stdio.Stdout, "%s:%d\n", f.Path, f.Count)
		}
		for _, m := range r.Matches {
			for i, b := range m.Before {
				fmt.Fprintf(stdio.Stdout, "%s-%d-%s\n", m.Path, m.Line-len(m.Before)+i, b)
			}
			fmt.Fprintf(stdio.Stdout, "%s:%d:%s\n", m.Path, m.Line, m.Text)
			for i, a := range m.After {
				fmt.Fprintf(stdio.Stdout, "%s-%d-%s\n", m.Path, m.Line+1+i, a)
			}
		}
		r.note(stdio)
		return nil
	})
}

func runFind(ctx context.Context, stdio IO, args []string) int {
	c := newFileCommand("find", "GLOB... [--path DIR] [--limit N] [--hidden] [--ignored] [--root DIR] [--json]", stdio)
	dir := c.fs.String("path", "", "directory to look in (default: the working directory)")
	limit := c.fs.Int("limit", 0, "at most this many files")
	hidden := c.fs.Bool("hidden", false, "include hidden files")
	ignored := c.fs.Bool("ignored", false, "include gitignored files")
	pos, err := parseInterleaved(c.fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		return usageError(stdio, c.fs, "want at least one GLOB, such as '**/*.go'")
	}
	in := map[string]any{"glob": pos, "include_hidden": *hidden, "include_ignored": *ignored}
	if *dir != "" {
		in["path"] = *dir
	}
	if *limit > 0 {
		in["limit"] = *limit
	}
	return c.call(ctx, "find_files", in, func(raw []byte) error {
		var r struct {
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
			capped
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		for _, f := range r.Files {
			fmt.Fprintln(stdio.Stdout, f.Path)
		}
		r.note(stdio)
		return nil
	})
}

// capped is the part of a listing's result that says whether it was cut at its limit.
type capped struct {
	Total     int  `json:"total"`
	Limit     int  `json:"limit"`
	Truncated bool `json:"truncated"`
}

// note says on stderr that a listing was capped, so a pipe's reader gets only results.
func (c capped) note(stdio IO) {
	if c.Truncated {
		fmt.Fprintf(stdio.Stderr, "(first %d of %d shown; --limit for more)\n", c.Limit, c.Total)
	}
}
