//go:build !unix

package search

import "os"

// openName opens the entry name of directory d through its root.
func openName(d *dirRef, name string) (rawFile, error) {
	f, err := d.root.Open(name)
	if err != nil {
		return rawFile{}, err
	}
	return rawFile{f}, nil
}

type rawFile struct{ *os.File }

func (f rawFile) size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func dirFD(*os.File) int { return -1 }
