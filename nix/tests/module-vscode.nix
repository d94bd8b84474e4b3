# programs.claude-code.vscode.processWrapper (nix/modules/claude-code/vscode.nix)
# through the real lib.evalModules, beside stand-ins of home-manager's
# programs.vscode in both its shapes (profiles, and the older userSettings):
#   NIXPKGS_LIB=/path/to/nixpkgs/lib nix-instantiate --eval --strict --json nix/tests/module-vscode.nix
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
}:
let
  runTests = import ./harness.nix;
  pkgs = import ./stubs/pkgs.nix { inherit lib; };
  inherit (lib) mkOption types;

  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  eval = modules: (evalModule { modules = [ ../modules/claude-code ] ++ modules; }).config;
  failed = config: map (a: a.message) (builtins.filter (a: !a.assertion) config.assertions);
  exe = "${pkgs.claude-account}/bin/claude-account";

  # home-manager's programs.vscode, as its modules/programs/vscode.nix declares it.
  settingsType = types.attrsOf types.anything;
  profiles = {
    options.programs.vscode.profiles = mkOption {
      type = types.attrsOf (
        types.submodule {
          options.userSettings = mkOption {
            type = settingsType;
            default = { };
          };
        }
      );
      default = { };
    };
  };
  older = {
    options.programs.vscode.userSettings = mkOption {
      type = settingsType;
      default = { };
    };
  };
  on = {
    programs.claude-code.vscode.processWrapper = true;
  };
in
runTests {
  testProfilesSetting = {
    expr =
      (eval [
        profiles
        on
      ]).programs.vscode.profiles.default.userSettings;
    expected = {
      "claudeCode.claudeProcessWrapper" = exe;
    };
  };
  testProfilesKeepsOtherSettings = {
    expr =
      (eval [
        profiles
        on
        { programs.vscode.profiles.default.userSettings."editor.tabSize" = 2; }
      ]).programs.vscode.profiles.default.userSettings;
    expected = {
      "claudeCode.claudeProcessWrapper" = exe;
      "editor.tabSize" = 2;
    };
  };
  testOlderSetting = {
    expr =
      (eval [
        older
        on
      ]).programs.vscode.userSettings;
    expected = {
      "claudeCode.claudeProcessWrapper" = exe;
    };
  };
  testOffByDefault = {
    expr = (eval [ profiles ]).programs.vscode.profiles;
    expected = { };
  };
  testNoVscodeAsserted = {
    expr = failed (eval [ on ]);
    expected = [
      "programs.claude-code.vscode.processWrapper sets VS Code's claudeCode.claudeProcessWrapper through programs.vscode, which this configuration does not declare; enable home-manager's programs.vscode, or set the setting by hand to ${exe}"
    ];
  };
  testNoVscodeOffNothing = {
    expr = failed (eval [ ]);
    expected = [ ];
  };
}
