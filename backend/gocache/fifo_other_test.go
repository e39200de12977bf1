//go:build !unix

package gocache

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
