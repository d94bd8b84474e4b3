# The accounts-by-directory options of the claude-code module
# (nix/modules/claude-code/directories.nix) through the real lib.evalModules:
#   NIXPKGS_LIB=/path/to/nixpkgs/lib nix-instantiate --eval --strict --json nix/tests/module-directories.nix
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
}:
let
  runTests = import ./harness.nix;
  pkgs = import ./stubs/pkgs.nix { inherit lib; };
  inherit (builtins) filter head;

  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  # The module with `modules`; assertions and warnings forced.
  eval = modules: (evalModule { modules = [ ../modules/claude-code ] ++ modules; }).config;

  failed = config: map (a: a.message) (filter (a: !a.assertion) config.assertions);
  names = config: map (p: p.name) config.home.packages;
  exe = "${pkgs.claude-account}/bin/claude-account";
  declaredFile = "/home/u/.config/claude-account/bindings.declared";
  settingsOf = config: name: config.programs.claude-code.accounts.${name}.spec.settings;

  two = eval [
    {
      programs.claude-code.accounts = {
        work = {
          directories = [ "~/work" ];
          statusLine = true;
        };
        max = {
          directories = [ "/srv/oss" ];
          statusLine = true;
          settings.statusLine = {
            type = "command";
            command = "mine";
          };
        };
        plain = { };
      };
    }
  ];
  # ~/work in two accounts' directories: bound to both.
  shared = eval [
    {
      programs.claude-code.accounts = {
        work.directories = [ "~/work" ];
        max.directories = [ "/home/u/work/" ];
      };
    }
  ];
  launcherOn =
    extra:
    eval [
      {
        programs.claude-code.accounts.max = { };
        programs.claude-code.directoryLauncher = { enable = true; } // extra;
      }
    ];
in
runTests {
  testDeclaredBindingsFile = {
    expr = two.home.file.${declaredFile}.text;
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
      "/home/u/work" = "work"
      "/srv/oss" = "max"
    '';
  };
  testAccountDirsFile = {
    expr =
      (eval [
        {
          programs.claude-code.accounts = {
            work = {
              configDir = "~/.config/claude-work";
              directories = [ "~/work" ];
            };
            max = { };
          };
        }
      ]).home.file."/home/u/.config/claude-account/accounts.declared".text;
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.configDir).
      "work" = "/home/u/.config/claude-work"
    '';
  };
  testNoAccountDirsFileForDefaults = {
    expr = two.home.file ? "/home/u/.config/claude-account/accounts.declared";
    expected = false;
  };
  testNoDirectoriesNoFile = {
    expr = (launcherOn { }).home.file ? ${declaredFile};
    expected = false;
  };
  testNoAssertionFails = {
    expr = failed two;
    expected = [ ];
  };
  testOneDirectoryTwoAccounts = {
    expr = {
      failed = failed shared;
      text = shared.home.file.${declaredFile}.text;
    };
    expected = {
      failed = [ ];
      text = ''
        # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
        "/home/u/work" = "max"
        "/home/u/work" = "work"
      '';
    };
  };
  testRelativeDirectory = {
    expr = failed (eval [
      {
        programs.claude-code.accounts = {
          work.directories = [ "~/work" ];
          max.directories = [
            "~/work"
            "src"
          ];
        };
      }
    ]);
    expected = [
      "`programs.claude-code.accounts.max.directories`: `src` is a relative path; give an absolute path or one that starts with `~/`"
    ];
  };
  testStatusLineOption = {
    expr = (settingsOf two "work").statusLine;
    expected = {
      type = "command";
      command = "${exe} statusline";
    };
  };
  testStatusLineOwnWins = {
    expr = (settingsOf two "max").statusLine.command;
    expected = "mine";
  };
  testStatusLineOffByDefault = {
    expr = (settingsOf two "plain") ? statusLine;
    expected = false;
  };
  testLauncherOffByDefault = {
    expr = names two;
    expected = [
      "claude-account-0.1.0"
      "claudemax"
      "claudeplain"
      "claudework"
    ];
  };
  testLauncherDefaultName = {
    expr =
      let
        l = head (filter (p: p.name == "claude-here") (launcherOn { }).home.packages);
      in
      l.text;
    expected = ''
      unset CLAUDE_ACCOUNT CLAUDE_ACCOUNT_DIR
      exec ${exe} run -- "$@"
    '';
  };
  testLauncherNamed = {
    expr = builtins.elem "cl" (names (launcherOn { name = "cl"; }));
    expected = true;
  };
  testLauncherNameClash = {
    expr = failed (launcherOn { name = "claudemax"; });
    expected = [
      "`programs.claude-code.directoryLauncher.name` is `claudemax`, the launcher of an account already; pick another name"
    ];
  };
}
