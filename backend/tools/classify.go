package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rooted-dev/rooted/backend/files"
	"github.com/rooted-dev/rooted/backend/session"
	"github.com/rooted-dev/rooted/backend/shell"
	"github.com/rooted-dev/rooted/backend/snapshot"
	"github.com/rooted-dev/rooted/backend/tool"
)

// Classify maps the errors of the packages below to stable codes with messages that name the path and the reason.
func Classify(err error) *tool.Error {
	var fe *files.Error
	if errors.As(err, &fe) {
		e := &tool.Error{Path: slash(fe.Path), Message: fe.Error()}
		switch {
		case errors.Is(fe.Err, files.ErrBinary):
			e.Code = tool.CodeBinaryFile
			e.Message = fmt.Sprintf("binary file: %s (%s); only text files can be read", slash(fe.Path), fe.Detail)
		case errors.Is(fe.Err, files.ErrTooLarge):
			e.Code = tool.CodeTooLarge
			e.Message = fmt.Sprintf("file too large: %s (%s)", slash(fe.Path), fe.Detail)
		case errors.Is(fe.Err, files.ErrProtected):
			e.Code = tool.CodePermissionDenied
			e.Message = fmt.Sprintf("permission denied: %s is inside .git, which Rooted's tools never write (%s); use git commands for the repository", slash(fe.Path), fe.Detail)
		case errors.Is(fe.Err, files.ErrNotRegular):
			e.Code = tool.CodeInvalidArgument
			e.Message = fmt.Sprintf("not a regular file: %s is %s; only files of bytes can be read or edited", slash(fe.Path), fe.Detail)
		case errors.Is(fe.Err, files.ErrIsDir):
			e.Code = tool.CodeIsADirectory
			e.Message = fmt.Sprintf("is a directory: %s; use list_directory to see its entries", slash(fe.Path))
		case errors.Is(fe.Err, files.ErrNoMatch), errors.Is(fe.Err, files.ErrMultipleMatches),
			errors.Is(fe.Err, files.ErrEmptySearch), errors.Is(fe.Err, files.ErrNoChange):
			return classifyEdit(fe)
		case errors.Is(fe.Err, files.ErrChangedDuringWrite):
			e.Code = tool.CodeStaleFile
			e.Message = fmt.Sprintf("stale file: %s changed on disk while it was being written; read it again, then retry", slash(fe.Path))
		case errors.Is(fe.Err, files.ErrLinkOutside):
			e.Code = tool.CodeOutsideRoot
			e.Message = fmt.Sprintf("outside the project root: %s is a symlink that leads outside the project (%s)", slash(fe.Path), fe.Detail)
		case errors.Is(fe.Err, files.ErrLinkLoop):
			e.Code = tool.CodeInvalidArgument
			e.Message = fmt.Sprintf("too many levels of symbolic links: %s", slash(fe.Path))
		case errors.Is(fe.Err, files.ErrNotDir):
			e.Code = tool.CodeNotADirectory
			e.Message = fmt.Sprintf("not a directory: %s", slash(fe.Path))
		default:
			return classifyOS(fe.Err, fe.Op, fe.Path)
		}
		if fe.Size > 0 {
			e.Details = map[string]any{"size": fe.Size}
		}
		return e
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return classifyOS(pe.Err, pe.Op, pe.Path)
	}
	return classifyOS(err, "", "")
}

// classifyEdit explains a patch that did not apply, with what the model needs to correct its next call.
func classifyEdit(fe *files.Error) *tool.Error {
	p := slash(fe.Path)
	var ee *files.EditError
	errors.As(fe.Err, &ee)
	prefix := ""
	e := &tool.Error{Path: p, Code: tool.CodeInvalidArgument, Details: map[string]any{}}
	if ee != nil && ee.Of > 1 {
		prefix = fmt.Sprintf("edit %d of %d: ", ee.Index+1, ee.Of)
		e.Details["edit_index"] = ee.Index
		e.Field = "edits"
	}
	switch {
	case errors.Is(fe.Err, files.ErrNoMatch):
		e.Code = tool.CodeNoMatch
		e.Message = fmt.Sprintf("%sno match: the search text does not occur in %s", prefix, p)
		if ee.Hint != "" {
			e.Message += "; " + ee.Hint
			e.Details["nearest_line"] = ee.HintLine
		}
		e.Message += "; nothing was changed"
	case errors.Is(fe.Err, files.ErrMultipleMatches):
		e.Code = tool.CodeMultipleMatches
		e.Message = fmt.Sprintf("%smultiple matches: the search text occurs %d times in %s (lines %s); add surrounding lines to make it unique, or set replace_all; nothing was changed",
			prefix, ee.Count, p, joinInts(ee.Lines))
		e.Details["count"], e.Details["lines"] = ee.Count, ee.Lines
	case errors.Is(fe.Err, files.ErrEmptySearch):
		e.Message = prefix + "the search text is empty: give the exact text to replace"
		if e.Field == "" {
			e.Field = "search"
		}
	default:
		e.Message = prefix + "search and replace are the same text: nothing would change"
		if e.Field == "" {
			e.Field = "replace"
		}
	}
	if len(e.Details) == 0 {
		e.Details = nil
	}
	return e
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

func classifyOS(err error, op, path string) *tool.Error {
	p := slash(path)
	e := &tool.Error{Path: p}
	switch {
	case errors.Is(err, session.ErrNoProject):
		e.Code, e.Message = tool.CodeNoProject, "no project is open: open a folder first"
	case errors.Is(err, session.ErrOutsideRoot), isEscape(err):
		e.Code = tool.CodeOutsideRoot
		e.Message = fmt.Sprintf("outside the project root: %s: paths must stay inside the project (no .., absolute or symlink escapes)", p)
	case errors.Is(err, session.ErrStale):
		e.Code = tool.CodeStaleFile
		e.Message = fmt.Sprintf("stale file: %s changed on disk since you last read it; read it again, then retry", p)
	case errors.Is(err, snapshot.ErrUnknown):
		e.Code, e.Message = tool.CodeNotFound, err.Error()+"; list_snapshots shows the ids"
		e.Path = ""
	case errors.Is(err, shell.ErrStart):
		e.Code, e.Message = tool.CodeNotFound, err.Error()
	case errors.Is(err, session.ErrNoPrevious):
		e.Code, e.Message = tool.CodeInvalidArgument, "no previous directory: \"-\" returns to the directory before the last change, and there has been none"
	case errors.Is(err, session.ErrTooBroad):
		var pe *fs.PathError
		why := err.Error()
		if errors.As(err, &pe) {
			why = pe.Err.Error()
		}
		e.Code, e.Message = tool.CodePermissionDenied, fmt.Sprintf("Rooted does not open %s as a project: %s", p, why)
	case errors.Is(err, session.ErrInvalidPath):
		e.Code, e.Message = tool.CodeInvalidArgument, fmt.Sprintf("invalid path %q: %v", p, err)
	case errors.Is(err, fs.ErrNotExist):
		e.Code, e.Message = tool.CodeNotFound, fmt.Sprintf("not found: %s", p)
	case errors.Is(err, fs.ErrPermission):
		e.Code, e.Message = tool.CodePermissionDenied, fmt.Sprintf("permission denied: %s: %s: %v", p, op, unwrapAll(err))
	case errors.Is(err, syscall.ENOTDIR), session.IsNotDir(err):
		e.Code, e.Message = tool.CodeNotADirectory, fmt.Sprintf("not a directory: %s", p)
	case errors.Is(err, syscall.EISDIR):
		e.Code, e.Message = tool.CodeIsADirectory, fmt.Sprintf("is a directory: %s", p)
	case errors.Is(err, syscall.ENAMETOOLONG):
		e.Code, e.Message = tool.CodeInvalidArgument, fmt.Sprintf("file name too long: %s", p)
	case errors.Is(err, syscall.ELOOP):
		e.Code, e.Message = tool.CodeInvalidArgument, fmt.Sprintf("too many levels of symbolic links: %s", p)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Code, e.Message = tool.CodeInternal, fmt.Sprintf("cancelled: %v", err)
	default:
		e.Code = tool.CodeInternal
		if p != "" {
			e.Message = fmt.Sprintf("%s %s: %v", op, p, err)
		} else {
			e.Message = err.Error()
		}
	}
	return e
}

// isEscape recognises os.Root's refusal of a path that leaves the root (through ".." or a symlink). The os package
// keeps that error unexported, so its text is the only handle; TestClassifyRootEscape fails if it ever changes.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

func unwrapAll(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

func slash(p string) string { return filepath.ToSlash(p) }
