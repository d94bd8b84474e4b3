package fsx

import (
	"fmt"
	"io/fs"
	"runtime/debug"
	"syscall"
)

// mapMin is the size from which Map maps a file instead of reading it: below
// it a read is as cheap, above it reading means faulting in and copying every
// page of a fresh buffer (17 ms for a 20 MB .claude.json here, against a few
// for a populated mapping).
const mapMin = 1 << 20

// Map returns the content of path, mapped read-only when it is large (with
// its pages populated up front), read otherwise. release must be called when
// the bytes are no longer used; it is never nil. A missing file is an error
// that errors.Is(err, fs.ErrNotExist) recognises.
//
// A file truncated in place by another program while mapped would fault on
// access: callers read the bytes inside Guard, which turns that fault into an
// error. (Claude Code replaces .claude.json by rename, which never does this.)
func Map(path string) (data []byte, release func(), err error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	if err != nil {
		return nil, func() {}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size < mapMin {
		if err != nil {
			st = syscall.Stat_t{}
		}
		// Read from the open file: opening it again would cost two calls
		// and could read another file, renamed in between.
		data, err := readFd(fd, path, &st)
		syscall.Close(fd)
		return data, func() {}, err
	}
	data, err = syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_PRIVATE|mapPopulate)
	syscall.Close(fd) // the mapping keeps the file
	if err != nil {
		data, err := ReadFile(path)
		return data, func() {}, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}

// Guard runs f, turning a fault on mapped memory (the file shrank under the
// mapping) into an error instead of a crash.
func Guard(path string, f func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = fmt.Errorf("%s changed while it was being read; run again", path)
		}
	}()
	return f()
}
