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
  # A directory in two accounts' `directories` is bound to both: no
  # problem, and one line per account, sorted by account within it.
  testOneDirectoryTwoAccounts = {
    expr = b.bindingProblems {
      inherit home;
      accounts = {
        work.directories = [ "~/work" ];
        max.directories = [ "/home/u/work/" ];
        pro.directories = [ "~/pro" ];
      };
    };
    expected = [ ];
  };
  testOneDirectoryTwoAccountsTwoLines = {
    expr = b.bindingsText {
      inherit home;
      accounts = {
        work.directories = [
          "~/work"
          "/home/u/work"
        ];
        max.directories = [ "/home/u/work/" ];
        pro.directories = [ "~/pro" ];
      };
    };
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
      "/home/u/pro" = "pro"
      "/home/u/work" = "max"
      "/home/u/work" = "work"
    '';
  };
  # Three accounts, each listing the other two's directories in another
  # order: the same text whatever the order of the lists.
  testSharedDirectoriesDeterministic = {
    expr =
      let
        text =
          dirs:
          b.bindingsText {
            inherit home;
            accounts = {
              c.directories = dirs;
              a.directories = builtins.tail dirs ++ [ (builtins.head dirs) ];
              b.directories = [ "/home/u/y" ];
            };
          };
      in
      [
        (text [
          "~/x"
          "/home/u/y/"
        ])
        (text [
          "/home/u/y"
          "~/x/."
        ])
      ];
    expected =
      let
        text = ''
          # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
          "/home/u/x" = "a"
          "/home/u/x" = "c"
          "/home/u/y" = "a"
          "/home/u/y" = "b"
          "/home/u/y" = "c"
        '';
      in
      [
        text
        text
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
  # A relative directory beside a shared one: only the relative one is a
  # problem, and the text leaves it out.
  testRelativeBesideShared = {
    expr =
      let
        accounts = {
          work.directories = [
            "~/work"
            "work"
          ];
          max.directories = [ "~/work" ];
        };
      in
      {
        problems = b.bindingProblems { inherit home accounts; };
        text = b.bindingsText { inherit home accounts; };
      };
    expected = {
      problems = [
        "`programs.claude-code.accounts.work.directories`: `work` is a relative path; give an absolute path or one that starts with `~/`"
      ];
      text = ''
        # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
        "/home/u/work" = "max"
        "/home/u/work" = "work"
      '';
    };
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
