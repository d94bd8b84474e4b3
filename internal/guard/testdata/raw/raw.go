// Package raw is TestRawWritesCatchesBypasses' input: writes to a terminal
// in the forms a check of names let through, each on a line that wants its
// finding; the other lines are not writes to a terminal. It is under
// testdata, so no build sees it.
package raw

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	xos "os"
	"os/exec"
	"syscall"
	"text/tabwriter"
)

type Deps struct {
	Stdout, Stderr io.Writer
}

// Main is this package's wiring of the streams, as cli.Main is the
// program's: the test allows it.
func Main() {
	run(&Deps{Stdout: os.Stdout, Stderr: os.Stderr})
}

func run(d *Deps) {
	// TestNoRawWrites' own example: the stream under another name.
	w := d.Stdout
	fmt.Fprintln(w, "aliased") // want "fmt.Fprintln"

	// A parameter, a result, a struct of our own.
	through(d.Stderr)
	io.WriteString(pick(d), "returned") // want "io.WriteString"
	s := sink{out: d.Stdout}
	s.say("held in a field")

	// A writer made on it, and its methods.
	bw := bufio.NewWriter(d.Stdout) // want "bufio.NewWriter"
	bw.WriteString("buffered")      // want "WriteString"
	json.NewEncoder(w).Encode(1)    // want "encoding/json.NewEncoder"

	// Through an interface value, a slice, a method value, a closure.
	var iw io.Writer = d.Stderr
	iw.Write([]byte("iface")) // want "(io.Writer).Write"
	ws := []io.Writer{d.Stdout}
	for _, x := range ws {
		tabwriter.NewWriter(x, 0, 8, 1, ' ', 0) // want "text/tabwriter.NewWriter"
	}
	write := iw.Write // want "(io.Writer).Write"
	write(nil)
	get := func() io.Writer { return d.Stdout }
	fmt.Fprint(get(), "closure") // want "fmt.Fprint"

	// A function value: fmt.Fprintf by another name.
	f := fmt.Fprintf
	f(d.Stdout, "%s", "value") // want "a call of a function value"

	// Writes that need no stream to be named.
	fmt.Println("bare")             // want "fmt.Println"
	p := fmt.Printf                 // want "fmt.Printf"
	_ = p                           //
	println("builtin")              // want "println"
	syscall.Write(1, []byte("fd"))  // want "syscall.Write"
	tty, _ := os.Create("/dev/tty") // want "os.Create(/dev/tty)"
	fmt.Fprintln(tty, "tty")        // want "fmt.Fprintln"

	// Not writes to a terminal: a buffer, a child's own output, a
	// formatted value.
	var b bytes.Buffer
	fmt.Fprintln(&b, "buffer")
	io.WriteString(&b, fmt.Sprint(1))
	cmd := exec.Command("true")
	cmd.Stdout = d.Stdout
	_ = cmd.Run()
}

// An alias at package level, and a renamed import.
var out = os.Stdout // want "os.Stdout"

func alias() {
	fmt.Fprintf(out, "package var")   // want "fmt.Fprintf"
	xos.Stderr.WriteString("renamed") // want "os.Stderr" "WriteString"
}

func through(w io.Writer) {
	fmt.Fprint(w, "parameter") // want "fmt.Fprint"
}

func pick(d *Deps) (w io.Writer) {
	w = d.Stderr
	return
}

type sink struct{ out io.Writer }

func (s sink) say(m string) {
	s.out.Write([]byte(m)) // want "(io.Writer).Write"
}
