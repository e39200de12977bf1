package main

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeInherited closes the descriptors above stderr this process was started with: one a parent leaked without
// close-on-exec (C libraries in the window's process may) would hand the parsers a file or socket that Landlock
// and the filter, which govern opening and creating them, never see. The Go runtime's poller (an epoll and an
// eventfd, made when a standard descriptor is non-blocking) is kept. Without /proc (a bare chroot) there is no
// list to go by, and nothing is closed.
func closeInherited() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		link, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || link == "anon_inode:[eventpoll]" || link == "anon_inode:[eventfd]" {
			continue // the listing's own descriptor, closed by now, or the runtime's poller
		}
		unix.Close(fd)
	}
}
