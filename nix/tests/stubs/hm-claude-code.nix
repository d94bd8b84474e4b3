# A stand-in for home-manager's own Claude Code module
# (modules/programs/claude-code/{default,options}.nix in
# nix-community/home-manager): every option it declares under
# programs.claude-code, with the same types, the renames it imports, and the
# core of its config (package, the `--plugin-dir` wrapper it makes of a
# Claude Code older than 2.1.157, CLAUDE_CONFIG_DIR, settings.json,
# CLAUDE.md, agents/ and commands/ links). Enough to show that the accounts module
# evaluates beside it: both declare under programs.claude-code and
# lib.evalModules merges them.
{
  config,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  cfg = config.programs.claude-code;
  jsonFormat = pkgs.formats.json { };

  mkContentOption =
    { description }:
    mkOption {
      type = types.attrsOf (types.either types.lines types.path);
      default = { };
      inherit description;
    };
  mkDirOption =
    { description }:
    mkOption {
      type = types.nullOr types.path;
      default = null;
      inherit description;
    };
  mkMarkdownEntries =
    subdir: attrs:
    lib.mapAttrs' (
      name: content:
      lib.nameValuePair "${cfg.configDir}/${subdir}/${name}.md" (
        if builtins.isPath content then { source = content; } else { text = content; }
      )
    ) attrs;
in
{
  imports = [
    (lib.mkChangedOptionModule
      [ "programs" "claude-code" "memory" "text" ]
      [ "programs" "claude-code" "context" ]
      (config: lib.getAttrFromPath [ "programs" "claude-code" "memory" "text" ] config)
    )
    (lib.mkChangedOptionModule
      [ "programs" "claude-code" "memory" "source" ]
      [ "programs" "claude-code" "context" ]
      (config: lib.getAttrFromPath [ "programs" "claude-code" "memory" "source" ] config)
    )
    (lib.mkChangedOptionModule
      [ "programs" "claude-code" "skillsDir" ]
      [ "programs" "claude-code" "skills" ]
      (config: lib.getAttrFromPath [ "programs" "claude-code" "skillsDir" ] config)
    )
  ];

  options.programs.claude-code = {
    enable = lib.mkEnableOption "Claude Code, Anthropic's official CLI";
    package = lib.mkPackageOption pkgs "claude-code" { nullable = true; };
    finalPackage = mkOption {
      type = types.package;
      readOnly = true;
      internal = true;
      description = "Resulting customized claude-code package.";
    };
    enableMcpIntegration = mkOption {
      type = types.bool;
      default = false;
      description = "Whether to integrate {option}`programs.mcp.servers`.";
    };
    configDir = mkOption {
      type = types.str;
      default = "${config.home.homeDirectory}/.claude";
      defaultText = literalExpression ''"''${config.home.homeDirectory}/.claude"'';
      description = "Directory holding Claude Code's configuration files.";
    };
    settings = mkOption {
      inherit (jsonFormat) type;
      default = { };
      description = "JSON configuration for Claude Code settings.json";
    };
    context = mkOption {
      type = types.either types.lines types.path;
      default = "";
      description = "Global context for Claude Code.";
    };
    plugins = mkOption {
      type = with types; either (attrsOf (either package path)) (listOf (either package path));
      default = { };
      description = "Plugins to use when running Claude Code.";
    };
    marketplaces = mkOption {
      type = with types; attrsOf (either package path);
      default = { };
      description = "Custom marketplaces for Claude Code plugins.";
    };
    agents = mkContentOption { description = "Custom agents for Claude Code."; };
    commands = mkContentOption { description = "Custom commands for Claude Code."; };
    hooks = mkContentOption { description = "Custom hooks for Claude Code."; };
    rules = mkContentOption { description = "Modular rule files for Claude Code."; };
    rulesDir = mkDirOption { description = "Path to a directory containing rule files."; };
    agentsDir = mkDirOption { description = "Path to a directory containing agent files."; };
    commandsDir = mkDirOption { description = "Path to a directory containing command files."; };
    hooksDir = mkDirOption { description = "Path to a directory containing hook files."; };
    outputStyles = mkContentOption { description = "Custom output styles for Claude Code."; };
    skills = mkOption {
      type = with types; either (attrsOf (either lines path)) path;
      default = { };
      description = "Custom skills for Claude Code.";
    };
    lspServers = mkOption {
      type = types.attrsOf jsonFormat.type;
      default = { };
      description = "LSP servers configuration.";
    };
    mcpServers = mkOption {
      type = types.attrsOf jsonFormat.type;
      default = { };
      description = "MCP (Model Context Protocol) servers configuration";
    };
  };

  config = lib.mkIf cfg.enable {
    # Before Claude Code 2.1.157 (no personal plugins), upstream wraps the
    # package with `--plugin-dir` for its own plugins, MCP and LSP servers.
    programs.claude-code.finalPackage = lib.mkIf (cfg.package != null) (
      if
        (cfg.mcpServers != { } || cfg.lspServers != { } || (cfg.plugins != { } && cfg.plugins != [ ]))
        && !lib.versionAtLeast (lib.getVersion cfg.package) "2.1.157"
      then
        pkgs.symlinkJoin {
          name = "claude-code";
          paths = [ cfg.package ];
          postBuild = "exec .claude-wrapped --plugin-dir claude-code-hm-plugin";
          inherit (cfg.package) meta;
        }
      else
        cfg.package
    );
    home = {
      packages = lib.mkIf (cfg.package != null) [ cfg.finalPackage ];
      sessionVariables = lib.mkIf (cfg.configDir != "${config.home.homeDirectory}/.claude") {
        CLAUDE_CONFIG_DIR = cfg.configDir;
      };
      file = lib.mkMerge [
        (lib.mkIf (cfg.settings != { }) {
          "${cfg.configDir}/settings.json".source = jsonFormat.generate "claude-code-settings.json" (
            cfg.settings // { "$schema" = "https://json.schemastore.org/claude-code-settings.json"; }
          );
        })
        (lib.mkIf (cfg.context != "") { "${cfg.configDir}/CLAUDE.md".text = cfg.context; })
        (mkMarkdownEntries "agents" cfg.agents)
        (mkMarkdownEntries "commands" cfg.commands)
      ];
    };
  };
}
