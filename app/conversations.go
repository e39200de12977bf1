package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/rooted-dev/rooted/backend/conversations"
	"github.com/rooted-dev/rooted/backend/tool"
)

// ConversationMeta is a conversation in the list; times are RFC 3339. Cost is the US dollars its requests of
// known cost came to, as saved (absent: none known), CostUnknown how many requests had no known cost: the list
// shows them for every conversation, opened this run or not.
type ConversationMeta struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Created     string   `json:"created"`
	Updated     string   `json:"updated"`
	Cost        *float64 `json:"cost,omitempty"`
	CostUnknown int      `json:"cost_unknown,omitempty"`
}

func toMeta(m conversations.Meta) ConversationMeta {
	return ConversationMeta{
		ID: m.ID, Title: m.Title, Created: m.Created.Format(time.RFC3339), Updated: m.Updated.Format(time.RFC3339),
		Cost: m.Cost, CostUnknown: m.CostUnknown,
	}
}

// store is the conversations store of project ws.
func (a *Agent) store(ws string) (*conversations.Store, error) {
	w, err := open(a.set, ws)
	if err != nil {
		return nil, err
	}
	return a.storeAt(w.Root())
}

// storeAt is the conversations store of the project at root, made on first use.
func (a *Agent) storeAt(root string) (*conversations.Store, error) {
	if a.dataDir == "" {
		return nil, reject(tool.Errorf(tool.CodeInternal, "no data directory to keep conversations in"))
	}
	a.convMu.Lock()
	defer a.convMu.Unlock()
	s := a.convs[root]
	if s == nil {
		if a.convs == nil {
			a.convs = map[string]*conversations.Store{}
		}
		s = conversations.ForProject(a.dataDir, root)
		a.convs[root] = s
	}
	return s, nil
}

// storeOf is the store of the project at root: one open, or one whose conversations this run has used.
func (a *Agent) storeOf(root string) (*conversations.Store, error) {
	for _, w := range a.set.List() {
		if w.Root() == root {
			return a.storeAt(root)
		}
	}
	a.convMu.Lock()
	defer a.convMu.Unlock()
	if s := a.convs[root]; s != nil {
		return s, nil
	}
	return nil, reject(tool.Errorf(tool.CodeNoProject, "project %s is not open", root))
}

func conversationErr(err error) error {
	switch {
	case errors.Is(err, conversations.ErrNotFound), errors.Is(err, conversations.ErrNoBlob):
		return reject(tool.Errorf(tool.CodeNotFound, "%v", err))
	case errors.Is(err, conversations.ErrBadID), errors.Is(err, conversations.ErrBadEvent):
		return reject(tool.Errorf(tool.CodeInvalidArgument, "%v", err))
	}
	return reject(tool.Errorf(tool.CodeInternal, "conversations: %v", err))
}

// Conversations lists project ws's conversations, most recent first.
func (a *Agent) Conversations(ws string) ([]ConversationMeta, error) {
	s, err := a.store(ws)
	if err != nil {
		return nil, err
	}
	list, err := s.List()
	if err != nil {
		return nil, conversationErr(err)
	}
	out := make([]ConversationMeta, len(list))
	for i, m := range list {
		out[i] = toMeta(m)
	}
	return out, nil
}

// LoadConversation returns a conversation's body (JSON text: items, messages and the other fields side by side).
// Strings of conversations.BlobMin bytes or more are references, {"$blob": hash, "bytes": n}, that
// ConversationBlob reads: a long day's conversation opens without its tool results.
func (a *Agent) LoadConversation(ws, id string) (string, error) {
	s, err := a.store(ws)
	if err != nil {
		return "", err
	}
	c, err := s.Load(id)
	if err != nil {
		return "", conversationErr(err)
	}
	b, err := c.Body.Flat()
	if err != nil {
		return "", conversationErr(err)
	}
	return string(b), nil
}

// AppendConversation adds events (a JSON array of conversations.Event) to a conversation of the project at root,
// creating it if new. When it returns, they are on disk; when it fails, none is, and the window sends them again.
// root is the open project's, or one open earlier in this run: the last changes of a conversation are saved
// where it belongs when the window has already moved to another project.
func (a *Agent) AppendConversation(root, id, events string) (ConversationMeta, error) {
	s, err := a.storeOf(root)
	if err != nil {
		return ConversationMeta{}, err
	}
	var evs []conversations.Event
	d := json.NewDecoder(strings.NewReader(events))
	d.DisallowUnknownFields()
	if err := d.Decode(&evs); err != nil {
		return ConversationMeta{}, reject(tool.Errorf(tool.CodeInvalidArgument, "conversation events: %v", err))
	}
	m, err := s.Append(id, evs)
	if err != nil {
		return ConversationMeta{}, conversationErr(err)
	}
	return toMeta(m), nil
}

// ConversationBlob returns the content a reference in a conversation names.
func (a *Agent) ConversationBlob(ws, id, hash string) (string, error) {
	s, err := a.store(ws)
	if err != nil {
		return "", err
	}
	b, err := s.Blob(id, hash)
	if err != nil {
		return "", conversationErr(err)
	}
	return string(b), nil
}

// ConversationBlobsContaining returns the references of a conversation whose content holds text (ignoring case),
// for a search over the whole conversation.
func (a *Agent) ConversationBlobsContaining(ws, id, text string) ([]string, error) {
	s, err := a.store(ws)
	if err != nil {
		return nil, err
	}
	out, err := s.BlobsContaining(id, text)
	if err != nil {
		return nil, conversationErr(err)
	}
	return out, nil
}

// RenameConversation changes a conversation's title.
func (a *Agent) RenameConversation(ws, id, title string) (ConversationMeta, error) {
	s, err := a.store(ws)
	if err != nil {
		return ConversationMeta{}, err
	}
	m, err := s.Rename(id, title)
	if err != nil {
		return ConversationMeta{}, conversationErr(err)
	}
	return toMeta(m), nil
}

// DeleteConversation removes a conversation.
func (a *Agent) DeleteConversation(ws, id string) error {
	s, err := a.store(ws)
	if err != nil {
		return err
	}
	if err := s.Delete(id); err != nil {
		return conversationErr(err)
	}
	return nil
}

// ExportConversation returns a conversation as "markdown" or "json", every tool result in place: the same text
// as rooted conversations export.
func (a *Agent) ExportConversation(ws, id, format string) (string, error) {
	s, err := a.store(ws)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := s.Export(&buf, id, format); err != nil {
		if strings.Contains(err.Error(), "unknown export format") {
			return "", reject(tool.Errorf(tool.CodeInvalidArgument, "%v", err))
		}
		return "", conversationErr(err)
	}
	return buf.String(), nil
}

// SaveConversationExport asks where to save a conversation's export and writes it there; "" when the user
// cancels.
func (a *Agent) SaveConversationExport(ws, id, format string) (string, error) {
	text, err := a.ExportConversation(ws, id, format)
	if err != nil {
		return "", err
	}
	if a.ctx == nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "the window is not ready yet"))
	}
	ext := map[string]string{conversations.Markdown: ".md", conversations.JSON: ".json"}[format]
	path, err := wruntime.SaveFileDialog(a.ctx, wruntime.SaveDialogOptions{Title: "Export the conversation", DefaultFilename: id + ext, CanCreateDirectories: true})
	if err != nil {
		return "", reject(tool.Errorf(tool.CodeInternal, "save dialog: %v", err))
	}
	if path == "" {
		return "", nil
	}
	// Not in the project: the user chose the place, as with any file saved from a dialog.
	if err := os.WriteFile(filepath.Clean(path), []byte(text), 0o644); err != nil {
		return "", rejectErr(err)
	}
	return path, nil
}

// SetConversationUnsaved tells the backend the open conversation could not be saved (why), or "" once it is:
// closing the window then asks first, so such a conversation is never closed silently.
func (a *Agent) SetConversationUnsaved(reason string) {
	a.unsavedMu.Lock()
	defer a.unsavedMu.Unlock()
	a.unsaved = reason
}

// beforeClose keeps the window open when the user, told the conversation is not saved, does not confirm.
func (a *Agent) beforeClose(ctx context.Context) (prevent bool) {
	a.unsavedMu.Lock()
	reason := a.unsaved
	a.unsavedMu.Unlock()
	if reason == "" {
		return false
	}
	answer, err := wruntime.MessageDialog(ctx, wruntime.MessageDialogOptions{
		Type:          wruntime.QuestionDialog,
		Title:         "The conversation is not saved",
		Message:       "Rooted could not save the open conversation (" + reason + ") and is still trying.\n\nClose anyway, losing what was not saved?",
		Buttons:       []string{"Keep open", "Close anyway"},
		DefaultButton: "Keep open",
		CancelButton:  "Keep open",
	})
	if err != nil {
		return true
	}
	return answer != "Yes" && answer != "Close anyway"
}
