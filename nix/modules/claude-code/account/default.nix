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
  # memory given in upstream's older form, memory.text or memory.source: a
  # set that is neither a path nor a package.
  oldMemory =
    options.memory.isDefined && builtins.isAttrs config.memory && !(config.memory ? outPath);
  renamed =
    from: to:
    "`${calib.optionPath ([ name ] ++ from)}` is now `${
      calib.optionPath [
        name
        to
      ]
    }`, as in home-manager's own programs.claude-code; rename it";
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

    # Old names, as upstream renamed them: `memory` (ours, and upstream's
    # `memory.text` and `memory.source`) is now `context`, upstream's
    # `skillsDir` is `skills`. Not lib.mkRenamedOptionModule or upstream's
    # mkChangedOptionModule: their warnings would not say which account,
    # and a value of the wrong type would be reported on the new option,
    # defined in this file, instead of on the user's own line.
    memory = mkOption {
      type = types.nullOr (
        types.either contentType (
          types.submodule {
            options = {
              text = mkOption {
                type = types.nullOr contentType;
                default = null;
                description = "Upstream's older name of {option}`context`.";
              };
              source = mkOption {
                type = types.nullOr contentType;
                default = null;
                description = "Upstream's older name of {option}`context`.";
              };
            };
          }
        )
      );
      visible = false;
      description = "The old name of {option}`context`.";
    };

    skillsDir = mkOption {
      type = types.nullOr types.path;
      visible = false;
      description = "Upstream's older name of {option}`skills` given a directory.";
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
    # Each old name's value, at its own priority: one given in
    # accountDefaults (a default) gives way to the account's new name.
    context = lib.mkIf options.memory.isDefined (
      lib.mkMerge (
        map (lib.mkOverride options.memory.highestPrio) (
          if oldMemory then
            lib.filter (value: value != null) [
              config.memory.text
              config.memory.source
            ]
          else
            [ config.memory ]
        )
      )
    );
    skills = lib.mkIf (options.skillsDir.isDefined && config.skillsDir != null) (
      lib.mkOverride options.skillsDir.highestPrio config.skillsDir
    );
    warnings = map (old: renamed old.from old.to) (
      lib.filter (old: old.defined) [
        {
          defined = options.skillsDir.isDefined;
          from = [ "skillsDir" ];
          to = "skills";
        }
        {
          defined = oldMemory && config.memory.source != null;
          from = [
            "memory"
            "source"
          ];
          to = "context";
        }
        {
          defined = oldMemory && config.memory.text != null;
          from = [
            "memory"
            "text"
          ];
          to = "context";
        }
        {
          defined = options.memory.isDefined && !oldMemory;
          from = [ "memory" ];
          to = "context";
        }
      ]
    );

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
