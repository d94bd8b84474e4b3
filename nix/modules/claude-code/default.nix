# programs.claude-code.accounts.<name>: Claude Code accounts beside
# home-manager's own programs.claude-code options (this module evaluates with
# and without that module). Per account: layer 1 built in the store by
# `claude-account generate`, layer 2 as home.file links into configDir, and a
# launcher on home.packages. Layer 1 itself is each account's read-only
# option layer1 (account/default.nix).
{
  config,
  lib,
  pkgs,
  ...
}:
let
  calib = import ../../lib;

  cfg = config.programs.claude-code;
  home = toString config.home.homeDirectory;
  enabled = lib.filterAttrs (_: account: account.enable) cfg.accounts;

  # home-manager's own module, when it is imported and enabled: its
  # configDir, and the wrapper it makes of its package (finalPackage, when
  # that differs from the package), as a store path.
  upstream =
    if (cfg.enable or false) && cfg ? configDir then
      {
        inherit (cfg) configDir;
        wrapper =
          if
            cfg ? finalPackage
            && (cfg.package or null) != null
            && toString cfg.finalPackage != toString cfg.package
          then
            toString cfg.finalPackage
          else
            null;
      }
    else
      null;

  claudeAccount = lib.getExe cfg.accountsPackage;

  # The account dir as home.file names it. A relative one fails an assertion;
  # it is passed through so that the assertion, not a coercion error, reports it.
  accountDir =
    account:
    let
      dir = calib.resolveConfigDir home account.configDir;
    in
    if dir == null then account.configDir else dir;

  # Layer 2: links into the account dir; never one for a file Claude writes.
  # The content dirs (commands/, agents/, rules/, output-styles/, hooks/)
  # are real directories holding one link per declared file (recursive);
  # skills/ one link per skill or plugin directory (skillsEntries): Claude Code 2.1.330 finds per-file links (measured:
  # real-claude-linked-files), and a real directory lets Claude's own "create
  # agent" and your other home.file entries add files beside them.
  links =
    _name: account:
    let
      drv = account.layer1;
    in
    lib.mapAttrs' (
      rel: sub:
      lib.nameValuePair "${accountDir account}/${rel}" (
        {
          source = if sub == "" then "${drv}" else "${drv}/${sub}";
        }
        // lib.optionalAttrs (builtins.elem rel calib.contentDirs) { recursive = true; }
      )
    ) (calib.layer2LinksWith account.skills account.spec);

  # claude<name>: a link to claude-account (the program name selects the
  # account), or a small wrapper when the command or the account dir differ
  # from the defaults.
  launcher =
    name: account:
    if
      calib.launcherNeedsWrapper {
        inherit name home;
        inherit (account) command configDir;
      }
    then
      pkgs.writeShellScriptBin account.command (
        calib.launcherScript {
          inherit name home;
          inherit (account) configDir;
          program = claudeAccount;
        }
      )
    else
      pkgs.runCommand account.command
        {
          preferLocalBuild = true;
          allowSubstitutes = false;
          meta.mainProgram = account.command;
        }
        ''
          mkdir -p "$out/bin"
          ln -s ${lib.escapeShellArg claudeAccount} "$out/bin/"${lib.escapeShellArg account.command}
        '';
in
{
  # A home-manager module: imported straight into a NixOS or nix-darwin
  # configuration (instead of through home-manager.sharedModules), the
  # module system says so by name instead of "The option `home' does not
  # exist".
  _class = "homeManager";

  imports = [
    ./options.nix
    ./directories.nix
    ./vscode.nix
  ];

  config = lib.mkMerge [
    {
      assertions = calib.accountAssertions {
        inherit home upstream;
        inherit (cfg) accounts;
        # home-manager's targets are relative to the home directory.
        files = lib.mapAttrsToList (
          _: file: if lib.hasPrefix "/" file.target then file.target else "${home}/${file.target}"
        ) (lib.filterAttrs (_: file: file.enable or true) config.home.file);
      };
      warnings =
        lib.concatLists (lib.mapAttrsToList (_: account: account.warnings) cfg.accounts)
        # An account's Claude Code older than a release the launcher relies
        # on to share something per account (nix/lib/versions.nix).
        ++ lib.filter (warning: warning != null) (
          lib.mapAttrsToList (
            name: account:
            calib.versionWarning {
              inherit name;
              package = account.claudePackage;
              declaresPlugins = account.spec ? plugins || account.spec ? lspServers;
            }
          ) enabled
        );
    }
    (lib.mkIf (enabled != { }) {
      home.packages = [ cfg.accountsPackage ] ++ lib.mapAttrsToList launcher enabled;
      home.file = lib.mkMerge (lib.mapAttrsToList links enabled);
      programs.git.ignores = lib.mkIf cfg.accountsGitIgnores calib.gitIgnores;
    })
  ];
}
