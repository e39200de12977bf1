//go:build !linux

package walk

// openBeneath is Linux's alone (openat2): elsewhere the caller resolves rel through the project's root.
func (h handle) openBeneath(rel string) (sub handle, ok bool, err error) { return handle{}, false, nil }
