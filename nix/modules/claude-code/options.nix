{
  config,
  options,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;

  calib = import ../../lib;
  topConfig = config;
  topOptions = options;
  accountTypes = import ./account/types.nix { inherit lib; };

  # programs.claude-code.accountDefaults, one module per definition, each
  # value a default the account's own value replaces (nix/lib/defaults.nix).
  # A set of account options is made defaults; a function is called with
  # the account's module arguments and its result made defaults; a module
  # with imports, options or config of its own is taken as it is.
  moduleKeys = [
    "_class"
    "_file"
    "config"
    "disabledModules"
    "freeformType"
    "imports"
    "key"
    "options"
  ];
  # `options` are the account's: a name that is none of them is left as
  # written, for the module system to report (calib.accountDefaultsOf).
  asDefaults =
    options: value:
    if lib.any (key: value ? ${key}) moduleKeys then
      value
    else
      { config = calib.accountDefaultsOf (lib.attrNames options) value; };
  defaultsModules = map (
    { file, value }:
    let
      module = if builtins.isPath value || builtins.isString value then import value else value;
    in
    {
      _file = "${file}, via option programs.claude-code.accountDefaults";
      imports = [
        (
          if lib.isFunction module then
            lib.setFunctionArgs (args: asDefaults args.options (module args)) (
              lib.functionArgs module // { options = false; }
            )
          else
            { options, ... }: asDefaults options module
        )
      ];
    }
  ) topOptions.programs.claude-code.accountDefaults.definitionsWithLocations;

  # The Claude Code under the `claude` that home-manager's own module puts
  # on PATH, when it is enabled with a package; else null. What it puts
  # there is its finalPackage: for a Claude Code older than 2.1.157, with
  # plugins or MCP servers of its own, a wrapper that passes them to every
  # `claude` it starts (`--plugin-dir`). An account with `package = null`
  # runs this instead, never the wrapper.
  upstreamClaude =
    if
      topOptions.programs.claude-code ? finalPackage && (topConfig.programs.claude-code.enable or false)
    then
      topConfig.programs.claude-code.package
    else
      null;

  accountModule = import ./account {
    inherit
      calib
      topConfig
      topOptions
      pkgs
      upstreamClaude
      defaultsModules
      ;
    inherit (accountTypes)
      jsonValue
      contentType
      mkContentOption
      mkDirOption
      ;
  };
in
{
  options.programs.claude-code = {
    accounts = mkOption {
      type = types.attrsOf (types.submodule accountModule);
      default = { };
      example = literalExpression ''
        {
          max = {
            settings.model = "opus";
            mcpServers.github = {
              type = "http";
              url = "https://api.githubcopilot.com/mcp/";
            };
            commands.review = ./commands/review.md;
          };
          work = {
            configDir = "~/work/.claude";
            package = null;
          };
        }
      '';
      description = ''
        Claude Code accounts, each with its own declared configuration and
        login. Every account gets its files in {option}`configDir` (default
        {file}`~/.claude-<name>`) and a launcher {command}`claude<name>`,
        which gives each git worktree its own writable runtime.
      '';
    };

    accountDefaults = mkOption {
      type = types.deferredModule;
      default = { };
      example = literalExpression ''
        {
          settings.permissions.allow = [ "Bash(git diff:*)" "Edit" ];
          mcpServers.github = {
            type = "http";
            url = "https://api.githubcopilot.com/mcp/";
          };
          hooks."pre-edit.sh" = ./hooks/pre-edit.sh;
          skills.pdf = ./skills/pdf;
        }
      '';
      description = ''
        Options every account gets: any option of
        {option}`programs.claude-code.accounts.<name>`. Each value here is a
        default that the account's own value replaces: an MCP server,
        command, agent, skill, hook, rule, output style, plugin, marketplace
        or LSP server of the same name whole, a {option}`settings` value of
        the same path (`permissions.allow`) alone, any other option whole;
        the rest is merged. A priority given here (`lib.mkForce`) is kept.
        A function (`{ name, ... }: { … }`) is called for each account.
        home-manager's own top-level {option}`programs.claude-code.settings`
        and {option}`programs.claude-code.mcpServers` reach no account by
        themselves; pass them on here if you want them to.
      '';
    };

    accountsPackage = mkOption {
      type = types.package;
      # From the overlay when it put claude-account into pkgs, else built
      # from this repository with the configuration's own nixpkgs: the
      # module works without the flake (npins, niv, channels) too.
      default = pkgs.claude-account or (pkgs.callPackage ../../package.nix { });
      defaultText = literalExpression "pkgs.claude-account or (pkgs.callPackage ./nix/package.nix { })";
      example = literalExpression "inputs.claude-account.packages.\${pkgs.stdenv.hostPlatform.system}.default";
      description = ''
        The claude-account package. It builds each account's files with
        {command}`claude-account generate` and is the launcher behind every
        account's command.
      '';
    };

    accountsGitIgnores = mkOption {
      type = types.bool;
      default = true;
      example = false;
      description = ''
        Whether to add `**/claude-runtime/` (each worktree's runtime, inside
        its git dir) to {option}`programs.git.ignores`. Turn it off when
        another module owns your git ignores.
      '';
    };
  };
}
