//go:build !unix

package trigram

import "os"

// mapFile reads path into memory where there is no mmap wrapper here.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	return data, func() error { return nil }, err
}
