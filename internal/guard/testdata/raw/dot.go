package raw

import (
	"fmt"
	. "os"
)

// The stream with no package name in sight.
func dot() {
	fmt.Fprintln(Stderr, "dot import") // want "os.Stderr" "fmt.Fprintln"
}
