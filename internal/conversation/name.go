package conversation

import "strings"

// SessionFile is the session id a file in projects/<key>/ is the transcript
// of, and whether it is one: <id>.jsonl where id is a UUID, as Claude names
// them. Claude refuses anything else for --resume ("Session IDs must be in
// UUID format", 2.0.77; "is not a UUID and does not match any session
// title", 2.1.330), so a backup, notes or a subagent's agent-<id>.jsonl
// beside them is no conversation to list, import or resume.
func SessionFile(name string) (string, bool) {
	id, ok := strings.CutSuffix(name, ".jsonl")
	return id, ok && IsSessionID(id)
}

// IsSessionID reports whether s has a UUID's form: 8-4-4-4-12 hex digits.
func IsSessionID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}
