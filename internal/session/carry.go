package session

import "strings"

// notCarried are the options of a session's arguments that name what it
// continues, or end it by itself: a session that hands its conversation on
// (resume --next) gives the next one its own --resume, and its prompt is the
// refused one, sent again.
var notCarried = map[string]bool{
	"-r": true, "--resume": true, "-c": true, "--continue": true, "-p": true, "--print": true,
	"--fork-session": true, "--session-id": true, "--resume-session-at": true, "--from-pr": true,
	"--teleport": true, "-w": true, "--worktree": true, "--bg": true, "--background": true,
}

// Carried splits a session's Claude arguments into those another session
// of the same conversation keeps (--model opus, --add-dir /tmp, …) and
// those it drops: the options of notCarried with their values, the prompt
// and everything after it, and, from an option Classify does not know on,
// the rest (Claude's parser would not read them as options either).
func Carried(args []string) (kept, dropped []string) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !looksLikeOption(arg) {
			return kept, append(dropped, args[i:]...)
		}
		name, _, inline := strings.Cut(arg, "=")
		if !strings.HasPrefix(arg, "--") && len(arg) > 2 {
			// A cluster of short options (-pc, -dapi): kept unless one of
			// its letters is not carried.
			if strings.ContainsAny(arg[1:], "prcw") {
				dropped = append(dropped, arg)
			} else {
				kept = append(kept, arg)
			}
			continue
		}
		a, known := options[name]
		if !known {
			return kept, append(dropped, args[i:]...)
		}
		end := i + 1
		if !inline {
			switch a {
			case required:
				end = min(i+2, len(args))
			case optional:
				if i+1 < len(args) && !looksLikeOption(args[i+1]) {
					end = i + 2
				}
			case variadic:
				for end < len(args) && !looksLikeOption(args[end]) {
					end++
				}
			}
		}
		if notCarried[name] {
			dropped = append(dropped, args[i:end]...)
		} else {
			kept = append(kept, args[i:end]...)
		}
		i = end - 1
	}
	return kept, dropped
}
