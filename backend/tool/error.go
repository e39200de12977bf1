package tool

import (
	"encoding/json"
	"fmt"
)

// Stable error codes. The model, the UI, the CLI and MCP clients branch on these; never rename one.
const (
	CodeNotFound         = "not_found"
	CodePermissionDenied = "permission_denied"
	CodeOutsideRoot      = "outside_root"
	CodeNotADirectory    = "not_a_directory"
	CodeIsADirectory     = "is_a_directory"
	CodeInvalidArgument  = "invalid_argument"
	CodeNoMatch          = "no_match"
	CodeMultipleMatches  = "multiple_matches"
	CodeStaleFile        = "stale_file"
	CodeNotRead          = "not_read"
	CodeBinaryFile       = "binary_file"
	CodeTooLarge         = "too_large"
	CodeNoProject        = "no_project"
	CodeUnknownTool      = "unknown_tool"
	CodeNotAllowed       = "command_not_allowed"
	CodeBackupFailed     = "backup_failed"
	CodeUnsupportedMedia = "unsupported_media"
	CodeFetchFailed      = "fetch_failed"
	CodeEncryptedFile    = "encrypted_file"   // read_file of a PDF that needs a password
	CodeDamagedFile      = "damaged_file"     // read_file of a PDF that cannot be parsed
	CodeNoUser           = "no_user"          // a tool that needs a person to answer, called where there is none
	CodeNotARepository   = "not_a_repository" // worktrees: the project is not the top folder of a git repository
	CodeNoCommit         = "no_commit"        // worktrees: the repository has no commit to branch from
	CodeBranchExists     = "branch_exists"
	CodeConflict         = "conflict"       // applying a worktree: the main checkout changed the same files
	CodeNotConfigured    = "not_configured" // an optional tool (web_search) the user's settings have not turned on
	CodeInternal         = "internal"
)

// Error is a failure the caller can act on. On the wire it is {"error": {code, message, path, field, ...}}.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Path    string         `json:"path,omitempty"`
	Field   string         `json:"field,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithPath returns e with the path set; it is a convenience for constructors.
func (e *Error) WithPath(p string) *Error { e.Path = p; return e }

// Envelope is the wire shape of a failed call.
type Envelope struct {
	Error *Error `json:"error"`
}

// JSON returns the error in its wire shape.
func (e *Error) JSON() []byte {
	b, err := json.Marshal(Envelope{Error: e})
	if err != nil { // only unmarshalable Details could cause this; keep the code and message
		b, _ = json.Marshal(Envelope{Error: &Error{Code: e.Code, Message: e.Message, Path: e.Path}})
	}
	return b
}

// ParseError reads a wire-shaped error; ok is false when b is not one.
func ParseError(b []byte) (*Error, bool) {
	var env Envelope
	if json.Unmarshal(b, &env) != nil || env.Error == nil || env.Error.Code == "" {
		return nil, false
	}
	return env.Error, true
}
