package tool

import "context"

type conversationKey struct{}

// InConversation marks a call as made by the agent of one conversation (the window's conversation id, an MCP
// client's session): what the agent has read is recorded per conversation, so one conversation cannot edit a
// file only another has read. A call without one (a one-shot CLI call) has the conversation "".
func InConversation(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, conversationKey{}, id)
}

// Conversation returns the conversation ctx carries, or "".
func Conversation(ctx context.Context) string {
	s, _ := ctx.Value(conversationKey{}).(string)
	return s
}
