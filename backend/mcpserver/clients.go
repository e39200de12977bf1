package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/tool"
)

// What each client puts in front of its model, measured through the clients themselves (the agent e2e reads the
// requests each sends its model):
//
//   - Claude Code and Codex give the model JSON.stringify(structuredContent) whenever a result has it, and drop the
//     text block; Claude Code refuses a result without structuredContent from a tool that declared an outputSchema.
//   - opencode and Gemini CLI give the model the text block only; Qwen Code gives it both.
//
// So Rooted declares no outputSchema and sends no structuredContent: every client's model reads the text form
// (numbered lines, a command as a terminal shows it, path:line:text), the form made for models. A program that
// wants the result's fields finds them in _meta under ResultMeta (without those the text carries whole).
//
// Each client also caps a result, and cuts in its own way (a pointer to a file in its own home that Rooted's tools
// cannot read, a cut in mid-line, no word on how to get the rest). Rooted cuts first, to a budget under the
// client's cap, where the model can read on from (tool.Fitter).

// ResultMeta is the _meta key of a successful call's fields: the result's JSON without the fields its text block
// carries (a file's content, a command's output, a search's matches, a diff).
const ResultMeta = "dev.rooted/result"

// budgets are the bytes (and lines, where a client counts them) of text a result may hold for a client, by the name
// it gives in clientInfo (matched as a prefix), each under what that client lets through to its model, as measured
// through the clients themselves (frontend/e2e/agents.test.mjs).
var budgets = []budget{
	{"codex", 10_000, 0},       // Codex CLI 0.169 cuts an MCP result at about 12 KB, after its "Wall time" header
	{"gemini-cli", 32_000, 0},  // Gemini CLI 0.61 keeps the first 8,000 and last 32,000 characters of a larger one
	{"opencode", 48_000, 0},    // opencode 1.18 cuts at about 51 KB
	{"claude-code", 45_000, 0}, // Claude Code 2.1 puts a result of about 50,000 characters or more in a file instead
	{"qwen", 24_000, 990},      // Qwen Code 0.24 (qwen-cli-mcp-client-NAME) does so past 25,000 characters or 1,000 lines
}

type budget struct {
	prefix       string
	bytes, lines int
}

// defaultBudget is the cap for a client not in the table: under every cap above that a client is known to keep,
// about 10,000 tokens.
const defaultBudget = 40_000

// budgetFor is the text budget for a client; maxBytes, when set (rooted mcp --max-result-bytes), overrides its
// bytes (0 there means the table; a negative value, no cap at all).
func budgetFor(info *mcp.Implementation, maxBytes int) budget {
	b := budget{bytes: defaultBudget}
	if info != nil {
		name := strings.ToLower(info.Name)
		for _, c := range budgets {
			if strings.HasPrefix(name, c.prefix) {
				b = c
				break
			}
		}
	}
	switch {
	case maxBytes < 0:
		return budget{}
	case maxBytes > 0:
		b.bytes = maxBytes
	}
	return b
}

// text is a result's text form within the budget: its bytes, and its lines where the client counts them (a cut to
// the bytes that hold that many lines).
func (b budget) text(res tool.Result) string {
	text := res.TextWithin(b.bytes)
	if b.lines <= 0 || strings.Count(text, "\n") < b.lines {
		return text
	}
	at, n := 0, 0
	for n < b.lines-10 { // room for the closing lines a cut adds
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			break
		}
		at += i + 1
		n++
	}
	return res.TextWithin(max(at, 1))
}

// injected are the arguments clients add to every tool call on their own, which Rooted's schemas do not declare:
// they are dropped before the call is checked (an allow-list: any other unknown field is still refused, so that a
// model's typo is named rather than ignored).
var injected = []string{
	"wait_for_previous", // Gemini CLI adds it to every tool's schema and passes it on
}

// dropInjected removes the injected arguments from a call's JSON object, leaving anything else as it was.
func dropInjected(args json.RawMessage, schema func(string) bool) json.RawMessage {
	found := false
	for _, name := range injected {
		found = found || bytes.Contains(args, []byte(`"`+name+`"`))
	}
	if !found {
		return args // the common case, a write of a megabyte included, is not decoded here
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return args
	}
	changed := false
	for _, name := range injected {
		if _, ok := obj[name]; ok && !schema(name) {
			delete(obj, name)
			changed = true
		}
	}
	if !changed {
		return args
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return b
}
