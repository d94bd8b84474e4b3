package out

import "io"

// Passed hands a terminal to a program of the user's own whose output is
// theirs to show as it is (an account's own status line command: its colours
// are its own), and remembers how that output ended, so that a line of ours
// after it starts on a line of its own.
type Passed struct {
	w    io.Writer
	last byte
}

// Pass is w for such a program.
func Pass(w io.Writer) *Passed { return &Passed{w: w} }

func (p *Passed) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if n > 0 {
		p.last = b[n-1]
	}
	return n, err
}

// Open reports whether the output ended inside a line.
func (p *Passed) Open() bool { return p.last != 0 && p.last != '\n' }
