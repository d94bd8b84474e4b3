# What an account declares for Claude Code to read: settings, MCP and
# language servers, commands, agents, skills, context, rules, output styles,
# hooks, plugins and marketplaces (layer 1 in the store, linked into the
# account dir by layer 2).
shared:
{
  name,
  config,
  lib,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  inherit (shared) jsonValue contentType mkContentOption mkDirOption;
in
{
  options = {
    settings = mkOption {
      type = types.attrsOf jsonValue;
      default = { };
      example = literalExpression ''
        {
          model = "opus";
          permissions = {
            allow = [ "Bash(git diff:*)" "Edit" ];
            deny = [ "WebFetch" ];
          };
          statusLine = {
            type = "command";
            command = "''${pkgs.git}/bin/git branch --show-current";
          };
        }
      '';
      description = ''
        The account's {file}`settings.json`. With {option}`settingsMode`
        `"coalesce"`, every key declared here is enforced at each launch
        and keys Claude Code writes itself ({command}`/model`,
        {command}`/config`) are kept.
      '';
    };

    settingsMode = mkOption {
      type = types.enum [
        "coalesce"
        "link"
      ];
      default = "coalesce";
      example = "link";
      description = ''
        How {file}`settings.json` reaches Claude Code. `"coalesce"`: a
        writable file, into which the launcher merges the declared keys
        at each launch. `"link"`: a read-only link into the store;
        Claude Code's own writes to it then fail.
      '';
    };

    mcpServers = mkOption {
      type = types.attrsOf (types.attrsOf jsonValue);
      default = { };
      example = literalExpression ''
        {
          github = {
            type = "http";
            url = "https://api.githubcopilot.com/mcp/";
          };
          filesystem = {
            command = "npx";
            args = [ "-y" "@modelcontextprotocol/server-filesystem" "/tmp" ];
          };
        }
      '';
      description = ''
        The account's MCP servers, written as {file}`.mcp.json` and
        merged at each launch into the `mcpServers` key of Claude Code's
        {file}`.claude.json` (where Claude Code reads user-scope servers).

        Every value home-manager's own
        {option}`programs.claude-code.mcpServers` takes: without `type`, a
        server is `"http"` when it has a `url` (or the older `serverUrl`),
        else `"stdio"`; numbers and booleans in `env` and `args` become
        strings; `env.NAME.file = "/run/secrets/…"` (sops-nix, agenix) is
        read when the server starts, by {command}`claude-account mcp-env`,
        so the secret is never copied into the store or
        {file}`.claude.json`; a server with `enabled = false` or
        `disabled = true` does not run and is added to the settings'
        `disabledMcpjsonServers`. A type Claude Code does not take
        (`"websocket"`: write `"ws"`), a stdio server without `command`, a
        file reference on a remote server, or one naming a file in the Nix
        store (a Nix path, `"''${./token}"`, a flake's `toString ./token`)
        fails evaluation: the store is readable by every user. A Nix path
        as a plain value (`env.CONFIG = ./config.json`) gives the variable
        the path of the file's copy in the store, as home-manager's own
        module does: never use it for a secret.
      '';
    };

    enableMcpIntegration = mkOption {
      type = types.bool;
      default = false;
      example = true;
      description = ''
        Whether the servers of home-manager's {option}`programs.mcp.servers`
        (when {option}`programs.mcp.enable`) join this account's
        {option}`mcpServers`, as home-manager's own
        {option}`programs.claude-code.enableMcpIntegration` does; a server
        the account declares itself wins by name. Without the
        {option}`programs.mcp` module, there are none to join.
      '';
    };

    commands = mkContentOption {
      what = "Custom slash commands";
      dir = "commands";
      example = literalExpression ''
        {
          "git/worktree-create" = '''
            ---
            description: Create a worktree for a task
            ---
            Run `claude-account worktree new $ARGUMENTS`.
          ''';
          review = ./commands/review.md;
        }
      '';
    };

    agents = mkContentOption {
      what = "Custom agents";
      dir = "agents";
      example = literalExpression ''
        {
          code-reviewer = '''
            ---
            name: code-reviewer
            description: Reviews a diff for bugs
            tools: Read, Grep
            ---
            You review code.
          ''';
        }
      '';
    };

    skills = mkOption {
      type = types.either (types.attrsOf contentType) types.path;
      default = { };
      example = literalExpression ''
        {
          pdf = ./skills/pdf;
          release-notes = '''
            ---
            name: release-notes
            description: Write release notes from the git log
            ---
            Read `git log` since the last tag.
          ''';
        }
      '';
      description = ''
        Skills of this account. The attribute name becomes the directory
        {file}`skills/<name>/`; the value is either the content of its
        {file}`SKILL.md` as a string, a path to that file, or a path to a
        whole skill directory, which is copied. A path instead of an
        attribute set is a directory holding one folder per skill.
      '';
    };

    context = mkOption {
      type = types.nullOr contentType;
      default = null;
      example = literalExpression "./CLAUDE.md";
      description = ''
        The account's global context, {file}`CLAUDE.md`: its content as a
        string, or a path to a file holding it. (Formerly `memory`, as in
        home-manager's own {option}`programs.claude-code.context`.)
      '';
    };

    rules = mkContentOption {
      what = "Modular rule files, loaded by Claude Code as memory,";
      dir = "rules";
      example = literalExpression ''
        {
          code-style = "Use the project's formatter; never reformat unrelated code.";
          security = ./rules/security.md;
        }
      '';
    };

    outputStyles = mkContentOption {
      what = "Custom output styles (select one with `settings.outputStyle`)";
      dir = "output-styles";
      example = literalExpression ''
        {
          concise = ./output-styles/concise.md;
        }
      '';
    };

    hooks = mkOption {
      type = types.attrsOf contentType;
      default = { };
      example = literalExpression ''
        {
          "pre-edit.sh" = '''
            #!/usr/bin/env bash
            echo "About to edit $1"
          ''';
        }
      '';
      description = ''
        Hook scripts of this account, made executable in
        {file}`hooks/<name>`; reference them from
        {option}`settings`' `hooks` as
        {file}`''${configDir}/hooks/<name>`. (In a worktree's runtime
        {file}`hooks/` links to the account's, so `$CLAUDE_CONFIG_DIR/hooks/<name>`
        works too.)
      '';
    };

    plugins = mkOption {
      type =
        with types;
        either (attrsOf (either package path)) (listOf (either package path));
      default = { };
      example = literalExpression ''
        {
          my-plugin = ./my-plugin;
          other = pkgs.fetchFromGitHub { owner = "o"; repo = "claude-plugin"; rev = "…"; hash = "…"; };
        }
      '';
      description = ''
        Plugins, as home-manager's own {option}`programs.claude-code.plugins`:
        each directory is copied to {file}`skills/<name>/`, where Claude
        Code (2.1.157 or later) loads it as a personal plugin with its
        skills, agents, commands, hooks and MCP servers; before 2.1.157
        the launcher passes it to each session with `--plugin-dir`. A
        directory without {file}`.claude-plugin/plugin.json` gets one
        naming the plugin. A list (the older form upstream still takes)
        names each by its path's last component, without the store hash.
      '';
    };

    marketplaces = mkOption {
      type = types.attrsOf (types.either types.package types.path);
      default = { };
      example = literalExpression "{ local = ./my-marketplace; }";
      description = ''
        Plugin marketplaces, added to {file}`settings.json`'s
        `extraKnownMarketplaces` as directory sources, and by the launcher
        to the account's {file}`plugins/known_marketplaces.json` at each
        launch, so that `claude plugin marketplace list` shows them before
        the first session.
      '';
    };

    lspServers = mkOption {
      type = types.attrsOf jsonValue;
      default = { };
      example = literalExpression ''
        {
          go = {
            command = "gopls";
            args = [ "serve" ];
            extensionToLanguage.".go" = "go";
          };
        }
      '';
      description = ''
        Language servers, carried to Claude Code by one generated plugin
        ({file}`skills/claude-account-lsp/.lsp.json`).
      '';
    };

    agentsDir = mkDirOption "agents";
    commandsDir = mkDirOption "commands";
    hooksDir = mkDirOption "hooks";
    rulesDir = mkDirOption "rules";
  };
}
