package testenv

import (
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// clock NAME DURATION: $NAME is the Unix time DURATION (a Go duration such
// as 4h or -90m) from now, in seconds, and $NAME_UTC the same time in RFC
// 3339 (UTC), for figures that only hold relative to the clock, such as a
// rate-limit window's reset time, which the launcher believes only within
// the window's length from now. Write them into a file with subst.
func clock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: clock NAME DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	t := time.Now().Add(d).Truncate(time.Second).UTC()
	ts.Setenv(args[0], strconv.FormatInt(t.Unix(), 10))
	ts.Setenv(args[0]+"_UTC", t.Format(time.RFC3339))
}

// subst FILE...: each ${NAME} in FILE becomes the script's $NAME (a
// fixture written in the archive, with times from clock). Only the braced
// form: a bare $ is left as it is.
func subst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst FILE...")
	}
	ref := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
	for _, f := range args {
		path := ts.MkAbs(f)
		data, err := os.ReadFile(path)
		ts.Check(err)
		data = ref.ReplaceAllFunc(data, func(m []byte) []byte {
			name := string(ref.FindSubmatch(m)[1])
			v := ts.Getenv(name)
			if v == "" {
				ts.Fatalf("subst %s: $%s is not set", f, name)
			}
			return []byte(v)
		})
		ts.Check(os.WriteFile(path, data, 0o644))
	}
}
