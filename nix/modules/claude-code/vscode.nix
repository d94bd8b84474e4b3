# programs.claude-code.vscode.processWrapper: the VS Code extension's panel
# runs its bundled Claude through claude-account (claudeCode.claudeProcessWrapper),
# so every workspace's panel runs on the account bound to that workspace, in
# the worktree's runtime, as a terminal's claude<name> does.
{
  config,
  lib,
  options,
  ...
}:
let
  cfg = config.programs.claude-code;
  setting = {
    "claudeCode.claudeProcessWrapper" = lib.getExe cfg.accountsPackage;
  };
  # home-manager's programs.vscode: profiles (since 25.05), or the older
  # top-level userSettings; absent when its module is not imported. Read
  # from options, never config, so the choice cannot recurse.
  vscode = options.programs.vscode or { };
in
{
  options.programs.claude-code.vscode.processWrapper = lib.mkOption {
    type = lib.types.bool;
    default = false;
    example = true;
    description = ''
      Whether VS Code's Claude Code panel runs Claude through
      {command}`claude-account`: sets the extension's
      `claudeCode.claudeProcessWrapper` in
      {option}`programs.vscode.profiles.default.userSettings` (or the older
      {option}`programs.vscode.userSettings`) to the launcher. Each
      workspace's panel then runs on the account bound to it
      ({command}`claude-account bind ACCOUNT DIR`, or an account's
      {option}`directories`), in the worktree's runtime, and
      {command}`claude-account ps` lists its sessions.
    '';
  };

  config = lib.mkIf cfg.vscode.processWrapper (
    lib.mkMerge [
      {
        assertions = [
          {
            assertion = vscode ? profiles || vscode ? userSettings;
            message = "programs.claude-code.vscode.processWrapper sets VS Code's claudeCode.claudeProcessWrapper through programs.vscode, which this configuration does not declare; enable home-manager's programs.vscode, or set the setting by hand to ${lib.getExe cfg.accountsPackage}";
          }
        ];
      }
      (
        if vscode ? profiles then
          { programs.vscode.profiles.default.userSettings = setting; }
        else if vscode ? userSettings then
          { programs.vscode.userSettings = setting; }
        else
          { }
      )
    ]
  );
}
