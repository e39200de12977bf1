package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Prefix starts the name of every tool of another MCP server.
const Prefix = "mcp__"

// maxName is the longest tool name every model's API takes (OpenAI's 64).
const maxName = 64

// ToolName is the registry's name of the tool of server: mcp__<server>__<tool>, with what model APIs refuse in a
// name (anything but letters, digits, _ and -) made _, and a name longer than they take cut and told apart by a
// hash of the whole.
func ToolName(server, name string) string {
	full := Prefix + toolNamePart(server) + "__" + toolNamePart(name)
	if len(full) <= maxName {
		return full
	}
	sum := sha256.Sum256([]byte(server + "\x00" + name))
	return full[:maxName-9] + "_" + hex.EncodeToString(sum[:4])
}

func toolNamePart(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
