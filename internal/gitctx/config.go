package gitctx

import (
	"fmt"
	"strings"
)

// coreConfig holds the only two keys discovery needs.
type coreConfig struct {
	bare        tristate
	worktree    string
	hasWorktree bool
}

type tristate int8

const (
	boolUnset tristate = iota
	boolFalse
	boolTrue
)

// configError is a line git would reject; git refuses the whole file then.
type configError struct {
	line    int
	problem string
}

func (e *configError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.problem) }

// parseConfig reads core.bare and core.worktree from a git config file,
// following git's parser (config.c) closely enough to agree with it on
// every file git accepts: case-insensitive section and key names, values
// with quotes, escapes and comments, "\r\n" line ends, a UTF-8 BOM, a key
// without "=" meaning true, the last value winning. Subsections
// ([core "x"]) are not core. Includes are not followed, as git's own
// repository format check does not follow them either.
//
// On a line git would reject it stops and returns what it has so far with
// a *configError.
func parseConfig(data []byte) (coreConfig, error) {
	var cfg coreConfig
	s := scanner{data: data, line: 1}
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		s.pos = 3
	}
	inCore := false
	comment := false
	var val []byte
	for {
		c := s.next()
		if c == '\n' {
			if s.eof {
				return cfg, nil
			}
			comment = false
			continue
		}
		if comment || isSpace(c) {
			continue
		}
		if c == '#' || c == ';' {
			comment = true
			continue
		}
		if c == '[' {
			core, ok := s.section()
			if !ok {
				return cfg, s.fail("bad section header")
			}
			inCore = core
			continue
		}
		if !isAlpha(c) {
			return cfg, s.fail("bad config line")
		}
		// The key: git lower-cases it; only "bare" and "worktree" matter,
		// so compare as we go instead of building a string.
		key := keyOther
		n := 0
		for ; ; n++ {
			key = key.step(n, lower(c))
			c = s.next()
			if s.eof || !isKeyChar(c) {
				break
			}
		}
		key = key.done(n + 1)
		for c == ' ' || c == '\t' {
			c = s.next()
		}
		hasValue := false
		if c != '\n' {
			if c != '=' {
				return cfg, s.fail("bad config line")
			}
			var ok bool
			if val, ok = s.value(val[:0]); !ok {
				return cfg, s.fail("bad config value")
			}
			hasValue = true
		}
		if !inCore {
			continue
		}
		switch key {
		case keyBare:
			b := true
			if hasValue {
				var ok bool
				if b, ok = parseBool(string(val)); !ok {
					return cfg, s.fail(fmt.Sprintf("bad boolean value %q for core.bare", val))
				}
			}
			cfg.bare = boolFalse
			if b {
				cfg.bare = boolTrue
			}
		case keyWorktree:
			if !hasValue || len(val) == 0 {
				return cfg, s.fail("core.worktree needs a value")
			}
			cfg.worktree = string(val)
			cfg.hasWorktree = true
		}
	}
}

// keyMatch tracks, one lower-cased byte at a time, whether a key is still
// a prefix of "bare" or "worktree".
type keyMatch int8

const (
	keyOther keyMatch = iota
	keyBare
	keyWorktree
)

func (k keyMatch) step(i int, c byte) keyMatch {
	if i == 0 {
		switch c {
		case 'b':
			return keyBare
		case 'w':
			return keyWorktree
		}
		return keyOther
	}
	switch k {
	case keyBare:
		if i < len("bare") && "bare"[i] == c {
			return k
		}
	case keyWorktree:
		if i < len("worktree") && "worktree"[i] == c {
			return k
		}
	}
	return keyOther
}

func (k keyMatch) done(n int) keyMatch {
	switch {
	case k == keyBare && n == len("bare"), k == keyWorktree && n == len("worktree"):
		return k
	}
	return keyOther
}

// scanner is git's get_next_char: "\r\n" reads as '\n', and the end of
// the data reads as '\n' with eof set.
type scanner struct {
	data []byte
	pos  int
	line int
	eof  bool
	nl   bool // the last byte read was a newline, already counted in line
}

func (s *scanner) next() byte {
	s.nl = false
	if s.pos >= len(s.data) {
		s.eof = true
		return '\n'
	}
	c := s.data[s.pos]
	s.pos++
	if c == '\r' && s.pos < len(s.data) && s.data[s.pos] == '\n' {
		s.pos++
		c = '\n'
	}
	if c == '\n' {
		s.line++
		s.nl = true
	}
	return c
}

func (s *scanner) fail(problem string) error {
	line := s.line
	if s.nl {
		line--
	}
	return &configError{line: line, problem: problem}
}

// section parses a header after '[' (git's get_base_var) and reports
// whether it is exactly [core].
func (s *scanner) section() (core, ok bool) {
	const want = "core"
	n := 0
	prefix := true
	for {
		c := s.next()
		if s.eof {
			return false, false
		}
		if c == ']' {
			return prefix && n == len(want), n > 0
		}
		if isSpace(c) {
			// [section "subsection"]: never core, but must be well formed.
			return false, n > 0 && s.subsection(c)
		}
		if !isKeyChar(c) && c != '.' {
			return false, false
		}
		if n >= len(want) || want[n] != lower(c) {
			prefix = false
		}
		n++
	}
}

// subsection is git's get_extended_base_var after the first space.
func (s *scanner) subsection(c byte) bool {
	for {
		if c == '\n' {
			return false
		}
		c = s.next()
		if !isSpace(c) {
			break
		}
	}
	if c != '"' {
		return false
	}
	for {
		c := s.next()
		if c == '\n' {
			return false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = s.next(); c == '\n' {
				return false
			}
		}
	}
	return s.next() == ']'
}

// value is git's parse_value, appending to buf: leading and trailing
// blanks dropped, inner runs of blanks kept (each as a space), quotes
// toggled, comments outside quotes, escapes \\ \" \n \t \b and a
// backslash-newline continuation. It fails on an unknown escape or a
// newline inside quotes.
func (s *scanner) value(buf []byte) ([]byte, bool) {
	quote, comment := false, false
	space := 0
	for {
		c := s.next()
		if c == '\n' {
			return buf, !quote
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if len(buf) > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			buf = append(buf, ' ')
		}
		switch c {
		case '\\':
			switch c = s.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return buf, false
			}
			buf = append(buf, c)
		case '"':
			quote = !quote
		default:
			buf = append(buf, c)
		}
	}
}

// parseBool is git_parse_maybe_bool: true/yes/on, false/no/off and the
// empty string, any case, or an int that is true when non-zero.
func parseBool(s string) (bool, bool) {
	switch {
	case strings.EqualFold(s, "true"), strings.EqualFold(s, "yes"), strings.EqualFold(s, "on"):
		return true, true
	case s == "", strings.EqualFold(s, "false"), strings.EqualFold(s, "no"), strings.EqualFold(s, "off"):
		return false, true
	}
	v, ok := parseInt(s)
	return v != 0, ok
}

// parseInt is git_parse_int: C's strtoimax in base 0 (leading blanks, a
// sign, 0x for hex, a leading 0 for octal), then an optional k, m or g
// unit, and the result must fit in a C int.
func parseInt(s string) (int64, bool) {
	const max = 1<<31 - 1
	i := 0
	for i < len(s) && (s[i] == ' ' || '\t' <= s[i] && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := int64(10)
	if i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && digit(s[i+2]) < 16 {
		base = 16
		i += 2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	start := i
	var v int64
	for ; i < len(s) && digit(s[i]) < base; i++ {
		if v > max { // far out of range already; keep consuming digits
			continue
		}
		v = v*base + digit(s[i])
	}
	if i == start {
		return 0, false
	}
	var factor int64
	switch s[i:] {
	case "":
		factor = 1
	case "k", "K":
		factor = 1 << 10
	case "m", "M":
		factor = 1 << 20
	case "g", "G":
		factor = 1 << 30
	default:
		return 0, false
	}
	if v > max/factor {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v * factor, true
}

// digit is the value of a hex digit, or 99.
func digit(c byte) int64 {
	switch {
	case '0' <= c && c <= '9':
		return int64(c - '0')
	case 'a' <= c && c <= 'f':
		return int64(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int64(c-'A') + 10
	}
	return 99
}

// Git's own character classes (sane_ctype), ASCII only.
func isSpace(c byte) bool   { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isAlpha(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
