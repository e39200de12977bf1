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
		case errors.Is(fe.Err, files.ErrIsDir):
			e.Code = tool.CodeIsADirectory
			e.Message = fmt.Sprintf("is a directory: %s; use list_directory to see its entries", slash(fe.Path))
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

func classifyOS(err error, op, path string) *tool.Error {
	p := slash(path)
	e := &tool.Error{Path: p}
	switch {
	case errors.Is(err, session.ErrNoProject):
		e.Code, e.Message = tool.CodeNoProject, "no project is open: open a folder first"
	case errors.Is(err, session.ErrOutsideRoot), isEscape(err):
		e.Code = tool.CodeOutsideRoot
		e.Message = fmt.Sprintf("outside the project root: %s: paths must stay inside the project (no .., absolute or symlink escapes)", p)
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
