package fsx

import "io/fs"

// Kind says what kind of file a mode is, for messages that refuse it: "a
// symbolic link", "a FIFO", "a directory". One wording everywhere, so a user
// who meets it in two commands reads the same words.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}
