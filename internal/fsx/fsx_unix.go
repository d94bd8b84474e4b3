package fsx

import (
	"errors"
	"syscall"
)

func isEROFS(err error) bool { return errors.Is(err, syscall.EROFS) }
