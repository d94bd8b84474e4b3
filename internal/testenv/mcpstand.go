package testenv

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// MCPStand stands in for a stdio MCP server, as Claude starts one: it
// appends "VAR=value" for each variable named to the file (one line each,
// then "started"), so a script sees what environment the server got, then
// answers JSON-RPC lines on stdin (initialize, the empty lists, ping) until
// stdin closes.
//
//	usage: mcpstand FILE [VAR…]
func MCPStand() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpstand FILE [VAR…]")
		os.Exit(2)
	}
	var seen strings.Builder
	for _, v := range os.Args[2:] {
		value, ok := os.LookupEnv(v)
		if !ok {
			value = "(unset)"
		}
		fmt.Fprintf(&seen, "%s=%s\n", v, value)
	}
	seen.WriteString("started\n")
	f, err := os.OpenFile(os.Args[1], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err == nil {
		_, err = f.WriteString(seen.String())
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpstand:", err)
		os.Exit(1)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<24)
	for in.Scan() {
		if reply := mcpReply(in.Bytes()); reply != nil {
			os.Stdout.Write(append(reply, '\n'))
		}
	}
}
