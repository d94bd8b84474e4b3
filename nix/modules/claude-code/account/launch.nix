# How the launcher treats an account at each launch: the keys of
# .claude.json it owns, one instance per workspace, notifications, usage
# recording, the login's identity and a repository's own MCP servers
# (account.toml's keys).
shared:
{
  name,
  config,
  lib,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  inherit (shared) calib;
in
{
  options = {
    coalesceKeys = mkOption {
      type = types.listOf types.nonEmptyStr;
      default = [ "mcpServers" ];
      example = [
        "mcpServers"
        "autoUpdates"
      ];
      description = ''
        Top-level keys of Claude Code's {file}`.claude.json` that the
        account owns: the launcher replaces them with the declared values
        at each launch and keeps every other key.
      '';
    };

    singleInstance = mkOption {
      type = types.bool;
      default = true;
      example = false;
      description = ''
        Whether only one Claude Code of this account may run per
        workspace; a second launch then fails at once and names the
        running one.
      '';
    };

    notify = mkOption {
      type = types.bool;
      default = false;
      example = true;
      description = ''
        Whether a desktop notification tells you when a session of this
        account starts to wait for you (its answer ended, a permission
        dialog opened), naming the account, the worktree and why:
        {command}`notify-send` where it is on PATH, {command}`osascript`
        on macOS, nothing without either; at most one per session in 10
        seconds. {file}`account.toml`: `notify = true`.
      '';
    };

    usage = mkOption {
      type = types.nullOr types.bool;
      default = null;
      example = false;
      description = ''
        Whether sessions of this account record its rate limits (the
        five-hour and weekly figures that {command}`claude-account accounts`,
        {command}`ps`, the status line's warning row and `--account auto`
        read). Claude Code gives them only to a status-line command, so
        every session gets one from the launcher; an account without a
        status line of its own (see {option}`statusLine`) then shows a
        blank row. `false` records nothing and gives the row back; `null`
        leaves the key out of {file}`account.toml`, which records.
        {file}`account.toml`: `usage = false`.
      '';
    };

    identity = mkOption {
      type = types.nullOr (
        types.submodule {
          options = {
            email = mkOption {
              type = types.nullOr types.str;
              default = null;
              example = "me@example.com";
              description = ''
                The address the account's login must have, as Claude Code
                records it (`oauthAccount.emailAddress` in
                {file}`.claude.json`); case does not matter. `null`
                checks no address; `""` is refused.
              '';
            };
            organization = mkOption {
              type = types.nullOr types.str;
              default = null;
              example = "Acme";
              description = ''
                The organization the account's login must belong to: its
                name or its uuid, as Claude Code records them
                (`oauthAccount.organizationName`, `organizationUuid`);
                case does not matter. `null` checks no organization; `""`
                is refused.
              '';
            };
          };
        }
      );
      default = null;
      example = literalExpression ''{ email = "me@example.com"; organization = "Acme"; }'';
      description = ''
        Who this subscription account's login must be. A session whose
        login Claude Code recorded as someone else is refused before
        Claude starts, naming both and how to log in again; one that
        cannot be checked (no login yet, an API key, which carries no
        identity) starts and says so once. {command}`claude-account doctor`
        and {command}`claude-account accounts` show the login's identity.
        {file}`account.toml`: `[identity]` with `email` and `organization`.
      '';
    };

    projectMcp = mkOption {
      type = types.enum [
        "trusted"
        "never"
      ];
      default = "trusted";
      example = "never";
      description = ''
        Whether a repository's own {file}`.claude/.mcp.json` is merged
        into the account's servers: `"trusted"` once approved with
        {command}`claude-account trust`, `"never"` not at all.
      '';
    };
  };
}
