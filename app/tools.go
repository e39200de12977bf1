package app

import (
	"context"
	"encoding/json"

	"github.com/rooted-dev/rooted/backend/tool"
)

// ToolSpec is a tool's description for the frontend and the model; InputSchema is JSON Schema text.
type ToolSpec struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	InputSchema string `json:"input_schema"`
	ReadOnly    bool   `json:"read_only"`
	Destructive bool   `json:"destructive"`
	Idempotent  bool   `json:"idempotent"`
}

// Tools serves the registry to the frontend.
type Tools struct {
	registry *tool.Registry
}

// Specs lists every tool.
func (t *Tools) Specs() ([]ToolSpec, error) {
	specs := t.registry.Specs()
	out := make([]ToolSpec, len(specs))
	for i, s := range specs {
		schema, err := json.Marshal(s.InputSchema)
		if err != nil {
			return nil, reject(tool.Errorf(tool.CodeInternal, "schema of %s: %v", s.Name, err))
		}
		out[i] = ToolSpec{
			Name: s.Name, Title: s.Title, Description: s.Description, InputSchema: string(schema),
			ReadOnly: s.ReadOnly, Destructive: s.Destructive, Idempotent: s.Idempotent,
		}
	}
	return out, nil
}

// Call runs a tool with JSON arguments and returns its JSON result. JSON text crosses the bridge (not objects) so
// the result reaches the model byte for byte as every other face sees it.
func (t *Tools) Call(name, args string) (string, error) {
	out, e := t.registry.Call(context.Background(), name, []byte(args))
	if e != nil {
		return "", reject(e)
	}
	return string(out), nil
}
