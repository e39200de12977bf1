package conversations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Export formats.
const (
	Markdown = "markdown"
	JSON     = "json"
)

// Export writes the conversation id, every stored content in place, as Markdown (for people: what the log shows)
// or JSON (the whole body with its metadata, for programs). The window and the CLI both export through here, so
// they write the same text.
func (s *Store) Export(w io.Writer, id, format string) error {
	c, err := s.Load(id)
	if err != nil {
		return err
	}
	body, err := s.Inline(c)
	if err != nil {
		return err
	}
	switch format {
	case JSON:
		flat, err := body.Flat()
		if err != nil {
			return err
		}
		out, err := marshal(struct {
			Meta
			Body json.RawMessage `json:"body"`
		}{c.Meta, flat})
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, out, "", "  "); err != nil {
			return err
		}
		pretty.WriteByte('\n')
		_, err = w.Write(pretty.Bytes())
		return err
	case Markdown:
		_, err := io.WriteString(w, markdown(c.Meta, body))
		return err
	}
	return fmt.Errorf("unknown export format %q (markdown or json)", format)
}

// item is what export reads of an item.
type exportItem struct {
	Kind    string          `json:"kind"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	State   string          `json:"state"`
	Output  json.RawMessage `json:"output"`
	Error   *struct{ Code, Message string }
	Diff    string   `json:"diff"`
	Summary string   `json:"summary"`
	Tone    string   `json:"tone"`
	Attach  []string `json:"attached"`
}

func markdown(m Meta, b Body) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n", m.Title)
	fmt.Fprintf(&sb, "_Started %s, last changed %s; %d items._\n", stamp(m.Created), stamp(m.Updated), len(b.Items))
	for _, raw := range b.Items {
		var it exportItem
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		sb.WriteString("\n")
		switch it.Kind {
		case "user":
			sb.WriteString("## You\n\n")
			sb.WriteString(strings.TrimSpace(it.Text) + "\n")
			if len(it.Attach) > 0 {
				fmt.Fprintf(&sb, "\n_attached: %s_\n", strings.Join(it.Attach, ", "))
			}
		case "assistant":
			sb.WriteString("## Agent\n\n")
			sb.WriteString(strings.TrimSpace(it.Text) + "\n")
		case "reasoning":
			sb.WriteString("<details><summary>Thinking</summary>\n\n")
			sb.WriteString(strings.TrimSpace(it.Text) + "\n\n</details>\n")
		case "notice":
			fmt.Fprintf(&sb, "> **%s:** %s\n", cmp(it.Tone, "notice"), strings.TrimSpace(it.Text))
		case "compaction":
			sb.WriteString("<details><summary>Conversation compacted</summary>\n\n")
			sb.WriteString(strings.TrimSpace(it.Summary) + "\n\n</details>\n")
		case "tool":
			fmt.Fprintf(&sb, "### Tool `%s` (%s)\n\n", it.Name, cmp(it.State, "unknown"))
			sb.WriteString(fence(pretty(it.Input), "json"))
			if it.Error != nil {
				fmt.Fprintf(&sb, "\n**Error** `%s`: %s\n", it.Error.Code, it.Error.Message)
			}
			if it.Diff != "" {
				sb.WriteString("\n" + fence(it.Diff, "diff"))
			}
			if len(it.Output) > 0 && string(it.Output) != "null" && it.Error == nil {
				sb.WriteString(output(it.Output))
			}
		}
	}
	return sb.String()
}

// output shows a tool's result: text as a block of its own, and an object's text fields of more than one line
// (a file's content, a command's output) as blocks under their names, the rest as JSON.
func output(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return "\n" + fence(text, "")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "\n" + fence(pretty(raw), "json")
	}
	var sb strings.Builder
	rest := map[string]json.RawMessage{}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		var s string
		if json.Unmarshal(obj[k], &s) == nil && strings.Contains(s, "\n") {
			fmt.Fprintf(&sb, "\n`%s`:\n\n%s", k, fence(s, ""))
		} else {
			rest[k] = obj[k]
		}
	}
	if len(rest) > 0 {
		b, _ := marshal(rest)
		sb.WriteString("\n" + fence(pretty(b), "json"))
	}
	return sb.String()
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func cmp(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

func pretty(raw json.RawMessage) string {
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		return string(raw)
	}
	return out.String()
}

// fence puts text in a code block whose fence is longer than any run of backticks in it.
func fence(text, lang string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f + "\n"
}
