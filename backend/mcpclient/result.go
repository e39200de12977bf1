package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rooted-dev/rooted/backend/tool"
)

// Result is what another server's tool returned, as every face receives it: its content blocks (text, images,
// audio, resource links and embedded resources) and its structured content, the text within MaxResultText.
type Result struct {
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Content    []Block         `json:"content"`
	Structured json.RawMessage `json:"structured_content,omitempty"`
	// Cut says text was left out past MaxResultText.
	Cut bool `json:"cut,omitempty"`
	// NetworkRefused are the hosts the server's proxy refused while the call ran (allow-list mode); Hint says so
	// to the model, and what the user can do.
	NetworkRefused []string `json:"network_refused,omitempty"`
	Hint           string   `json:"hint,omitempty"`
}

// Block is one content block.
type Block struct {
	Type      string `json:"type"` // text, image, audio, resource_link, resource
	Text      string `json:"text,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Data      []byte `json:"data,omitempty"`
	URI       string `json:"uri,omitempty"`
	Name      string `json:"name,omitempty"`
}

// toResult converts a call's answer; a result the server marked isError is a tool_failed error with its text.
func toResult(server, name string, r *mcp.CallToolResult) (any, error) {
	out := Result{Server: server, Tool: name}
	budget := MaxResultText
	for _, c := range r.Content {
		b := block(c)
		if len(b.Text) > budget {
			b.Text, out.Cut = tool.Fit(b.Text, max(budget, 1), "ask the tool for less"), true
		}
		budget = max(0, budget-len(b.Text))
		out.Content = append(out.Content, b)
	}
	if r.StructuredContent != nil {
		if raw, err := json.Marshal(r.StructuredContent); err == nil && len(raw) <= MaxResultText {
			out.Structured = raw
		} else if err == nil {
			out.Cut = true
		}
	}
	if r.IsError {
		return nil, &tool.Error{Code: tool.CodeToolFailed, Message: out.ModelText(), Details: map[string]any{"server": server, "tool": name}}
	}
	return out, nil
}

func block(c mcp.Content) Block {
	switch c := c.(type) {
	case *mcp.TextContent:
		return Block{Type: "text", Text: c.Text}
	case *mcp.ImageContent:
		return Block{Type: "image", MediaType: c.MIMEType, Data: c.Data}
	case *mcp.AudioContent:
		return Block{Type: "audio", MediaType: c.MIMEType, Data: c.Data}
	case *mcp.ResourceLink:
		return Block{Type: "resource_link", URI: c.URI, Name: c.Name, MediaType: c.MIMEType, Text: c.Description}
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return Block{Type: "resource"}
		}
		return Block{Type: "resource", URI: c.Resource.URI, MediaType: c.Resource.MIMEType, Text: c.Resource.Text, Data: c.Resource.Blob}
	}
	return Block{Type: fmt.Sprintf("%T", c)}
}

// ModelText is what the model reads: the text blocks as they are, other blocks described in a line, and the
// structured content when no block carries text.
func (r Result) ModelText() string {
	var b strings.Builder
	for _, c := range r.Content {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		switch c.Type {
		case "text":
			b.WriteString(c.Text)
		case "resource_link":
			fmt.Fprintf(&b, "[resource %s: %s] %s", c.Name, c.URI, c.Text)
		case "resource":
			fmt.Fprintf(&b, "[resource %s, %s]\n%s", c.URI, c.MediaType, c.Text)
		default:
			fmt.Fprintf(&b, "[%s: %s, %s]", c.Type, c.MediaType, tool.Plural(len(c.Data), "byte"))
		}
	}
	if b.Len() == 0 && len(r.Structured) > 0 {
		b.Write(r.Structured)
	}
	if r.Cut {
		b.WriteString("\n(cut: the result was longer than Rooted passes on; ask the tool for less)")
	}
	if r.Hint != "" {
		b.WriteString("\n(" + r.Hint + ")")
	}
	return b.String()
}

// Image is the result's first image, which a model that takes images is shown (tool.Imager).
func (r Result) Image() (string, []byte, bool) {
	for _, c := range r.Content {
		if c.Type == "image" && len(c.Data) > 0 {
			return c.MediaType, c.Data, true
		}
	}
	return "", nil, false
}

func decodeResult(raw []byte) (any, error) {
	var r Result
	err := json.Unmarshal(raw, &r)
	return r, err
}
