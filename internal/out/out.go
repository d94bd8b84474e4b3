// Package out is the one way claude-account writes text for a person: lines
// on stdout and stderr, tables, and JSON for scripts. Much of what it prints
// comes from a repository — paths, branch and worktree names, the server
// names of a project's .mcp.json, git's messages — and a repository can put
// escape sequences in any of them: an OSC that retitles the terminal, a CSI
// that hides the rest of a line, a bidi override that shows "evil" as "live"
// at the very moment a user approves it. So every line is made inert before
// it is written (Inert), one line at a time, so that nothing inside a line
// can start another; JSON keeps every value exact, with those characters
// \u-escaped.
//
// No other package writes to a terminal (internal/guard's TestNoRawWrites
// fails on a raw write).
package out

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Inert returns s with every character that could act on a terminal or
// disguise text escaped visibly: the C0 controls (newline and tab among
// them), DEL, the C1 controls, and the Unicode format characters that
// reorder or hide text (bidi marks, embeddings, overrides and isolates,
// zero-width characters, the byte order mark). Invalid UTF-8 is escaped
// byte by byte. Everything else, other scripts and emoji included, is kept.
func Inert(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether r is a control or a format character that
// Inert escapes.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x180e, r == 0xfeff:
		return true // Arabic letter mark, Mongolian vowel separator, BOM
	case r >= 0x200b && r <= 0x200f:
		return true // zero-width space, joiners, LRM, RLM
	case r >= 0x2028 && r <= 0x202e:
		return true // line and paragraph separators, bidi embeddings and overrides
	case r >= 0x2060 && r <= 0x206f:
		return true // word joiner, invisible operators, bidi isolates, deprecated format controls
	}
	return false
}

// Printer writes lines to one stream.
type Printer struct{ w io.Writer }

// To is a Printer for w.
func To(w io.Writer) Printer { return Printer{w: w} }

// Line writes s, made inert, and a newline.
func (p Printer) Line(s string) {
	io.WriteString(p.w, Inert(s)+"\n")
}

// Linef writes one formatted line, made inert.
func (p Printer) Linef(format string, args ...any) {
	p.Line(fmt.Sprintf(format, args...))
}

// Lines writes each line of text (split at newlines), each made inert: for
// text of our own that spans lines, whose values were made inert already or
// hold no newline.
func (p Printer) Lines(text string) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		p.Line(l)
	}
}

// Fields writes one line of cells separated by tabs (for cut -f), each cell
// made inert: a tab inside a cell cannot make another field.
func (p Printer) Fields(cells ...string) {
	for i, c := range cells {
		cells[i] = Inert(c)
	}
	io.WriteString(p.w, strings.Join(cells, "\t")+"\n")
}

// Table writes rows of cells in aligned columns (two spaces between), each
// cell made inert: a tab in a cell cannot shift the columns.
type Table struct{ tw *tabwriter.Writer }

// Table starts a table; Flush writes it.
func (p Printer) Table() *Table {
	return &Table{tw: tabwriter.NewWriter(p.w, 0, 4, 2, ' ', 0)}
}

// Row adds a row.
func (t *Table) Row(cells ...string) {
	for i, c := range cells {
		cells[i] = Inert(c)
	}
	io.WriteString(t.tw, strings.Join(cells, "\t")+"\n")
}

// Flush writes the table.
func (t *Table) Flush() error { return t.tw.Flush() }

// JSON writes v as indented JSON, every value exact: what encoding/json
// leaves raw that Inert would escape (DEL, C1 controls, bidi and zero-width
// format characters) is written as a \u escape, which decodes to the same
// value and reaches no terminal as a control.
func (p Printer) JSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := p.w.Write(EscapeJSON(buf.Bytes()))
	return err
}

// EscapeJSON \u-escapes in encoded JSON the characters Inert would escape
// that encoding/json writes raw. JSON never holds them outside strings, so
// the document's value is unchanged.
func EscapeJSON(data []byte) []byte {
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError && unsafeRune(r) {
			break
		}
		i += n
	}
	if i == len(data) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	out = append(out, data[:i]...)
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError && unsafeRune(r) && r != '\n' {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, data[i:i+n]...)
		}
		i += n
	}
	return out
}
