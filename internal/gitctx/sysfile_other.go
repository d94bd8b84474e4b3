//go:build !unix

package gitctx

import (
	"io"
	"io/fs"
	"os"
)

func readHead(path string, buf []byte) (n int, link bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0, false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return 0, true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	n, err = io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return n, false, err
}

func readFile(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if limit >= 0 {
		r = io.LimitReader(f, int64(limit)+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, nil
}
