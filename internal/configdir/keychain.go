package configdir

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/fsx"
)

// KeychainDefaultDir refuses, on macOS, an account whose dir is ~/.claude
// itself, Claude Code's own default. Claude names its keychain item for a
// hash of the dir only when CLAUDE_CONFIG_DIR (or, from 2.1.144,
// CLAUDE_SECURESTORAGE_CONFIG_DIR) is set; unset, it uses the plain item.
// So naming ~/.claude — as CLAUDE_CONFIG_DIR outside git, as the account's
// login dir inside — selects another login than plain claude's, though
// the dir is the same; and left unset, Claude would read ~/.claude.json,
// not the account's .claude.json. On Linux the login is the dir's file
// either way: nil.
func KeychainDefaultDir(accountDir, home string, c claudever.Binary) error {
	if !c.Keychain() || home == "" {
		return nil
	}
	def := filepath.Join(home, ".claude")
	if !fsx.SamePath(filepath.Clean(accountDir), def) {
		return nil
	}
	return fmt.Errorf("the account dir %s is Claude Code's own default dir: on macOS, naming it to Claude selects another keychain login than plain claude's; give the account a dir of its own ('claude-account init NAME --from %s' takes this one in)", accountDir, def)
}
