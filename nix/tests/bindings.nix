# Tests of nix/lib/bindings.nix, builtins only:
#   nix-instantiate --eval --strict --json nix/tests/bindings.nix
let
  calib = import ../lib;
  b = import ../lib/bindings.nix calib;
  runTests = import ./harness.nix;
  home = "/home/u";
in
runTests {
  testNoDirectoriesNoFile = {
    expr = b.bindingsText {
      inherit home;
      accounts.max = { };
    };
    expected = "";
  };
  testBindingsText = {
    expr = b.bindingsText {
      inherit home;
      accounts = {
        work.directories = [
          "~/work"
          "/srv/work/"
        ];
        max.directories = [ "~/oss/./x" ];
        off = {
          enable = false;
          directories = [ "/off" ];
        };
      };
    };
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
      "/home/u/oss/x" = "max"
      "/home/u/work" = "work"
      "/srv/work" = "work"
    '';
  };
  testAccountDirsText = {
    expr = b.accountDirsText {
      inherit home;
      accounts = {
        work.configDir = "~/.config/claude-work";
        max.configDir = "/home/u/.claude-max";
        pro = { };
        off = {
          enable = false;
          configDir = "/elsewhere";
        };
      };
    };
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.configDir).
      "work" = "/home/u/.config/claude-work"
    '';
  };
  testAccountDirsNoneMoved = {
    expr = b.accountDirsText {
      inherit home;
      accounts.max = { };
    };
    expected = "";
  };
  testOneDirectoryTwoAccounts = {
    expr = b.bindingProblems {
      inherit home;
      accounts = {
        work.directories = [ "~/work" ];
        max.directories = [ "/home/u/work/" ];
        pro.directories = [ "~/pro" ];
      };
    };
    expected = [
      "`programs.claude-code.accounts.max.directories` and `programs.claude-code.accounts.work.directories` both bind `/home/u/work`; a directory can use only one account, so keep it in one account's `directories`"
    ];
  };
  testSameAccountTwiceIsFine = {
    expr = b.bindingProblems {
      inherit home;
      accounts.work.directories = [
        "~/work"
        "/home/u/work"
      ];
    };
    expected = [ ];
  };
  testSameAccountTwiceOneLine = {
    expr = b.bindingsText {
      inherit home;
      accounts.work.directories = [
        "~/work"
        "/home/u/work/"
      ];
    };
    expected = "# Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).\n\"/home/u/work\" = \"work\"\n";
  };
  testRelativeDirectory = {
    expr = b.bindingProblems {
      inherit home;
      accounts.work.directories = [ "work" ];
    };
    expected = [
      "`programs.claude-code.accounts.work.directories`: `work` is a relative path; give an absolute path or one that starts with `~/`"
    ];
  };
  testDisabledAccountIgnored = {
    expr = b.bindingProblems {
      inherit home;
      accounts = {
        work.directories = [ "~/w" ];
        max = {
          enable = false;
          directories = [ "~/w" ];
        };
      };
    };
    expected = [ ];
  };
}
