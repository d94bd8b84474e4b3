// Package writes is TestWritesCatchesBypasses' input: files replaced or
// moved outside package fsx, each on a line that wants its finding; the
// other lines do neither. It is under testdata, so no build sees it.
package writes

import (
	"io/ioutil"
	"os"
	xos "os"
	"syscall"
)

func forms(data []byte) {
	os.WriteFile("f", data, 0o600)     // want "os.WriteFile"
	xos.Rename("a", "b")               // want "os.Rename"
	ioutil.WriteFile("f", data, 0o600) // want "io/ioutil.WriteFile"
	syscall.Rename("a", "b")           // want "syscall.Rename"
	mv := os.Rename                    // want "os.Rename"
	_ = mv
	_, _ = os.ReadFile("f") // reading is no write
	_ = os.Remove("f")      // nor is removing
}
