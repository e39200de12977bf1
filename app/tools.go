package app

import (
	"context"
	"encoding/json"

	"github.com/rooted-dev/rooted/backend/tool"
	"github.com/rooted-dev/rooted/backend/tools"
	"github.com/rooted-dev/rooted/backend/workspace"
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

// Tools serves the open projects' registries to the frontend.
type Tools struct {
	set   *workspace.Set
	specs *tool.Registry              // the tools' declarations, the same in every project's registry
	emit  func(name string, data any) // runtime.EventsEmit once the window is up

	running calls
	hosts   hostGrants // what the user allowed each conversation's commands to reach (AllowHost)
	// questions are the hosts running commands wait to be allowed (AnswerHost)
	questions hostQuestions
}

// Specs lists every tool of project id: the declared ones, then its MCP servers' (connected now); with id "",
// the declared ones alone.
func (t *Tools) Specs(id string) ([]ToolSpec, error) {
	reg := t.specs
	if id != "" {
		w, err := open(t.set, id)
		if err != nil {
			return nil, err
		}
		reg = w.Registry()
	}
	specs := reg.Specs()
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

// Run is Call for a tool whose output the window shows as it happens: the output arrives as EventToolOutput
// events carrying callID, and Cancel(callID) stops the call (a command's whole process group).
func (t *Tools) Run(id, callID, name, args string) (string, error) {
	return t.RunIn(id, "", callID, name, args)
}

// RunIn is Run for the agent of one conversation: what it reads and writes is recorded as that conversation's,
// so another conversation's agent must read a file itself before changing it (not_read).
func (t *Tools) RunIn(id, conversation, callID, name, args string) (string, error) {
	w, err := open(t.set, id)
	if err != nil {
		return "", err
	}
	if callID == "" {
		return "", reject(tool.Errorf(tool.CodeInvalidArgument, "a call id is required"))
	}
	ctx, done, ok := t.running.start(callID)
	if !ok {
		return "", reject(tool.Errorf(tool.CodeInvalidArgument, "call id %q is already running", callID))
	}
	defer done()
	if t.emit != nil {
		st := newStreamer(callID, func(o ToolOutput) { t.emit(EventToolOutput, o) })
		defer st.close()
		ctx = tool.WithProgress(ctx, st.write)
		if conversation != "" {
			// An agent's command, whose card can answer about a host while it runs; the Run tab's are refused
			// at once, as before.
			ctx = tools.WithHostAsk(ctx, t.hostAsker(ctx, callID))
		}
	}
	// The window's agent asks the user before a call that needs it (a fetch from a new domain among them), so a
	// call that reaches here was approved.
	ctx = tools.ApprovedCall(tool.InConversation(ctx, conversation), name, []byte(args))
	ctx = tools.WithHosts(ctx, t.hosts.of(id, conversation))
	out, e := w.Registry().Call(ctx, name, []byte(args))
	if e != nil {
		return "", reject(e)
	}
	return string(out), nil
}

// Cancel stops a call started with Run; it reports whether one was running.
func (t *Tools) Cancel(callID string) bool { return t.running.cancel(callID) }

// Call runs a tool with JSON arguments and returns its JSON result. JSON text crosses the bridge (not objects) so
// the result reaches the model byte for byte as every other face sees it.
func (t *Tools) Call(id, name, args string) (string, error) { return t.CallIn(id, "", name, args) }

// CallIn is Call for the agent of one conversation (see RunIn).
func (t *Tools) CallIn(id, conversation, name, args string) (string, error) {
	w, err := open(t.set, id)
	if err != nil {
		return "", err
	}
	ctx := tools.WithHosts(tool.InConversation(context.Background(), conversation), t.hosts.of(id, conversation))
	out, e := w.Registry().Call(tools.ApprovedCall(ctx, name, []byte(args)), name, []byte(args))
	if e != nil {
		return "", reject(e)
	}
	return string(out), nil
}

// UserCall is Call for the user's own reads and saves in the window (the file pane and its editor): the agent's
// record of what it read is neither updated nor consulted, so a file the user viewed or saved is one the agent
// must read again before changing it. A save is still snapshotted first.
func (t *Tools) UserCall(id, name, args string) (string, error) {
	w, err := open(t.set, id)
	if err != nil {
		return "", err
	}
	switch name {
	case "read_file", "write_file", "list_directory", "find_files":
	default:
		return "", reject(tool.Errorf(tool.CodeInvalidArgument, "%s is not one of the window's own calls", name))
	}
	out, e := w.Registry().Call(tool.ByUser(context.Background()), name, []byte(args))
	if e != nil {
		return "", reject(e)
	}
	return string(out), nil
}

// Text is the text form of a result (or a failure's error JSON) that the named tool returned: what the model reads
// (numbered lines, path:line:text, "error <code>: <message>"), made by the backend from the tool's one declaration.
// The window's cards keep the JSON.
func (t *Tools) Text(name, result string) string {
	return t.specs.TextOf(name, []byte(result))
}
