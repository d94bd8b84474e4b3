# An account's Claude Code and launcher: whether it is set up, the command
# on PATH, its directory and the Claude Code it runs.
shared:
{
  name,
  config,
  lib,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  inherit (shared) calib topConfig topOptions pkgs upstreamClaude;
in
{
  options = {
    enable = mkOption {
      type = types.bool;
      default = true;
      example = false;
      description = ''
        Whether to set up this account: its files in {option}`configDir`
        and its launcher {option}`command`.
      '';
    };

    command = mkOption {
      type = types.str;
      default = calib.defaultCommand name;
      defaultText = literalExpression ''"claude''${name}"'';
      example = "claude-work";
      description = ''
        Name of the launcher put on {env}`PATH`: it starts Claude Code
        with this account, in a runtime of its own for each git worktree.
        Any argument goes to {command}`claude`.
      '';
    };

    configDir = mkOption {
      type = types.str;
      default = calib.defaultConfigDir (toString topConfig.home.homeDirectory) name;
      defaultText = literalExpression ''"''${config.home.homeDirectory}/.claude-''${name}"'';
      example = literalExpression ''"''${config.xdg.configHome}/claude-work"'';
      description = ''
        The account's own directory (an absolute path or one starting with
        `~/`, inside the home directory). home-manager links the declared
        files into it; Claude Code keeps its login
        ({file}`.credentials.json`) and state ({file}`.claude.json`)
        there. Outside a git repository it is Claude's
        {env}`CLAUDE_CONFIG_DIR`. When it differs from the default, the
        launcher exports {env}`CLAUDE_ACCOUNT_DIR`.
      '';
    };

    package = mkOption {
      type = types.nullOr types.package;
      # home-manager's own programs.claude-code, when imported, names the
      # Claude Code the user chose, enabled or not; else pkgs.claude-code,
      # else claude on PATH. Its package, never its finalPackage: for a
      # Claude Code older than 2.1.157 upstream wraps that one with
      # `--plugin-dir` for its own plugins and MCP servers, which would
      # reach every account.
      default =
        if topOptions.programs.claude-code ? package then
          topConfig.programs.claude-code.package
        else
          pkgs.claude-code or null;
      defaultText = literalExpression "config.programs.claude-code.package or pkgs.claude-code";
      example = literalExpression "null";
      description = ''
        The Claude Code this account runs. The default is home-manager's
        own {option}`programs.claude-code.package` (not its wrapper,
        which carries that module's plugins and MCP servers), else
        `pkgs.claude-code`. `null` runs the {command}`claude` found on
        {env}`PATH`; while home-manager's own module is enabled with a
        package, that {command}`claude` is its wrapper, so the account
        runs the package under it instead. When the version is older
        than a release the launcher relies on, the switch warns, naming
        what is not shared.
      '';
    };

    claudePackage = mkOption {
      type = types.nullOr types.package;
      readOnly = true;
      internal = true;
      visible = false;
      description = ''
        The Claude Code the account runs: {option}`package`, or for
        `null` the one under home-manager's own wrapper on {env}`PATH`
        when there is one; `null` for {command}`claude` on {env}`PATH`.
      '';
    };

  };
}
