# Accounts by directory (issue 14), kept apart from the rest of the module:
#   programs.claude-code.accounts.<name>.directories  bindings, declared
#   programs.claude-code.accounts.<name>.statusLine   `claude-account statusline`
#   programs.claude-code.directoryLauncher            one launcher for all
# The declared bindings go to their own read-only file,
# $XDG_CONFIG_HOME/claude-account/bindings.declared, beside the `bindings`
# file that `claude-account bind` and `unbind` write: a store link cannot be
# the file the launcher rewrites, and the launcher reads both.
{
  config,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  calib = import ../../lib;
  bindings = import ../../lib/bindings.nix calib;

  cfg = config.programs.claude-code;
  home = toString config.home.homeDirectory;
  configHome = config.xdg.configHome or "${home}/.config";
  claudeAccount = lib.getExe cfg.accountsPackage;
  enabled = lib.filterAttrs (_: account: account.enable) cfg.accounts;
  declared = bindings.bindingsText {
    inherit home;
    accounts = enabled;
  };
  accountDirs = bindings.accountDirsText {
    inherit home;
    accounts = enabled;
  };
  launcherName = cfg.directoryLauncher.name;
in
{
  options.programs.claude-code = {
    accounts = mkOption {
      type = types.attrsOf (
        types.submodule (
          { config, ... }:
          {
            options = {
              directories = mkOption {
                type = types.listOf types.str;
                default = [ ];
                example = [ "~/work" ];
                description = ''
                  Directories (absolute, or starting with `~/`) where this
                  account is used when no account is named: in them and
                  below, `claude-account run` and every other command pick
                  this account by the longest matching directory, symlinks
                  resolved. A directory listed by several accounts is bound
                  to all of them: there, {command}`claude-account run` with
                  no account named picks the one with the most headroom (the
                  five-hour window first, then the weekly one;
                  {command}`claude-account accounts` shows the figures) and
                  says which in one line, and other commands use the first of
                  them in the file (the first by name). Written to
                  {file}`$XDG_CONFIG_HOME/claude-account/bindings.declared`,
                  one line per directory and account;
                  {command}`claude-account bind` adds your own beside them.
                '';
              };
              statusLine = mkOption {
                type = types.bool;
                default = false;
                example = true;
                description = ''
                  Whether to show {command}`claude-account statusline`
                  (account, worktree or branch, git state, model) as Claude
                  Code's status line. A `statusLine` of your own in
                  {option}`settings` wins.
                '';
              };
            };
            config.settings = lib.mkIf config.statusLine {
              statusLine = lib.mkDefault {
                type = "command";
                command = "${claudeAccount} statusline";
              };
            };
          }
        )
      );
    };

    directoryLauncher = {
      enable = lib.mkEnableOption ''
        one launcher that runs {command}`claude-account run` with the
        account bound to the current directory (see the accounts'
        {option}`directories` and {command}`claude-account bind`)'';
      name = mkOption {
        type = types.str;
        default = "claude-here";
        example = "claude";
        description = ''
          The launcher's name on {env}`PATH`. Naming it `claude` hides
          Claude Code's own {command}`claude`; do so only on purpose.
        '';
      };
    };
  };

  config = lib.mkMerge [
    {
      assertions =
        map (message: {
          assertion = false;
          inherit message;
        }) (bindings.bindingProblems {
          inherit home;
          accounts = enabled;
        })
        ++ lib.optionals cfg.directoryLauncher.enable [
          {
            assertion = calib.isValidCommand launcherName;
            message = "`programs.claude-code.directoryLauncher.name` is `${launcherName}`, not a program name; use letters, digits, '.', '_', '+' and '-'";
          }
          {
            assertion = !lib.any (account: account.command == launcherName) (lib.attrValues enabled);
            message = "`programs.claude-code.directoryLauncher.name` is `${launcherName}`, the launcher of an account already; pick another name";
          }
        ];
    }
    (lib.mkIf (declared != "") {
      home.file."${configHome}/claude-account/bindings.declared".text = declared;
    })
    (lib.mkIf (accountDirs != "") {
      home.file."${configHome}/claude-account/accounts.declared".text = accountDirs;
    })
    (lib.mkIf cfg.directoryLauncher.enable {
      # A script, not a link: the program name must not select an account, and
      # an account inherited from a surrounding Claude session must not win
      # over the directory.
      home.packages = [
        (pkgs.writeShellScriptBin launcherName ''
          unset CLAUDE_ACCOUNT CLAUDE_ACCOUNT_DIR
          exec ${lib.escapeShellArg claudeAccount} run -- "$@"
        '')
      ];
    })
  ];
}
