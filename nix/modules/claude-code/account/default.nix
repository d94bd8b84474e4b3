# programs.claude-code.accounts.<name>: one account, its options in the
# files beside this one, and what the module derives from them here: its
# warnings, the spec `claude-account generate` reads, and layer 1 built from it.
shared:
{
  name,
  config,
  options,
  lib,
  ...
}:
let
  inherit (lib) mkOption types;
  inherit (shared) calib contentType topConfig pkgs upstreamClaude;
  withShared = file: {
    _file = file;
    imports = [ (import file shared) ];
  };
in
{
  imports = shared.defaultsModules ++ map withShared [
    ./program.nix
    ./files.nix
    ./launch.nix
    ./worktrees.nix
  ];

  options = {
    # Warnings about this account; the module hands them on to
    # home-manager's warnings.
    warnings = mkOption {
      type = types.listOf types.str;
      default = [ ];
      internal = true;
      visible = false;
    };

    # `memory` is the old name of `context`, as upstream renamed it. Not
    # lib.mkRenamedOptionModule: its warning would not say which account.
    memory = mkOption {
      type = types.nullOr contentType;
      visible = false;
      description = "The old name of {option}`context`.";
    };

    spec = mkOption {
      type = types.attrs;
      readOnly = true;
      internal = true;
      visible = false;
      description = "The account's declaration as {command}`claude-account generate` reads it.";
    };

    mcp = mkOption {
      type = types.attrs;
      readOnly = true;
      internal = true;
      visible = false;
      description = ''
        The account's MCP servers as Claude Code takes them, its own and
        {option}`programs.mcp.servers` when {option}`enableMcpIntegration`
        (nix/lib/mcp.nix): `{ servers; disabled; problems; }`.
      '';
    };

    layer1 = mkOption {
      type = types.package;
      readOnly = true;
      internal = true;
      visible = false;
      description = ''
        The account's read-only files in the store, built from
        {option}`spec` by {command}`claude-account generate`; home-manager
        links them into {option}`configDir`.
      '';
    };
  };

  config = {
    context = lib.mkAliasDefinitions options.memory;
    warnings = lib.optional options.memory.isDefined "`${
      calib.optionPath [
        name
        "memory"
      ]
    }` is now `${
      calib.optionPath [
        name
        "context"
      ]
    }`, as in home-manager's own programs.claude-code; rename it";

    claudePackage = if config.package != null then config.package else upstreamClaude;

    mcp =
      let
        mcp = topConfig.programs.mcp or { };
      in
      calib.mcpAccount {
        inherit name;
        own = config.mcpServers;
        shared =
          if config.enableMcpIntegration && (mcp.enable or false) then mcp.servers or { } else { };
        launcher = lib.getExe topConfig.programs.claude-code.accountsPackage;
      };

    spec = calib.mkSpec (
      config
      // {
        inherit name;
        mcpServers = config.mcp.servers;
        settings = calib.mcpSettings config.settings config.mcp.disabled;
        claude =
          if config.claudePackage == null then null else lib.getExe' config.claudePackage "claude";
      }
    );

    layer1 =
      pkgs.runCommand "claude-account-${name}"
        {
          spec = calib.specJSON config.spec;
          passAsFile = [ "spec" ];
          preferLocalBuild = true;
          allowSubstitutes = false;
        }
        ''
          ${lib.getExe topConfig.programs.claude-code.accountsPackage} generate --spec "$specPath" --out "$out"
        '';
  };
}
