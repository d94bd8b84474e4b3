# The accounts module in a real home-manager evaluation: home-manager's own
# modules/default.nix with its whole module list (files.nix, the real
# programs.claude-code and programs.git, its assertion check that throws
# "Failed assertions:"), on a stand-in pkgs (stubs/hm-pkgs.nix) since
# there is no nixpkgs here. Errors are checked by message
# (nix/tests/errors.nix); nix/tests/run passes every argument.
#   nixpkgsLib  nixpkgs' lib/          hmSrc  a home-manager checkout
#   nixpkgsPath a directory with lib/ and nixos/modules/misc/{assertions,meta}.nix
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
  hmSrc ? builtins.getEnv "HOME_MANAGER_SRC",
  nixpkgsPath,
  errorsDir ? "",
}:
let
  runTests = import ./harness.nix;
  hm = /. + hmSrc;
  pkgs = import ./stubs/hm-pkgs.nix {
    inherit lib;
    hmSrc = hm;
    path = /. + nixpkgsPath;
  };
  inherit (builtins) filter;

  # home-manager's own entry point, as homeManagerConfiguration calls it.
  home =
    configuration:
    import (hm + "/modules") {
      inherit pkgs lib;
      configuration = {
        imports = [
          ../modules/claude-code
          configuration
        ];
        _module.args.pkgs = lib.mkForce pkgs;
        home = {
          username = "u";
          homeDirectory = "/home/u";
          stateVersion = "25.11";
        };
      };
    };
  configOf = configuration: (home configuration).config;
  # What an error case evaluates: home-manager checks the assertions first.
  filesOf = configuration: lib.attrNames (configOf configuration).home.file;

  claude = version: {
    type = "derivation";
    name = "claude-code-${version}";
    pname = "claude-code";
    inherit version;
    outPath = "${builtins.storeDir}/22222222222222222222222222222222-claude-code-${version}";
    meta.mainProgram = "claude";
  };
  # upstream enabled with a Claude Code older than 2.1.157 and plugins and
  # MCP servers of its own: its finalPackage, on PATH, is a wrapper.
  wrapping = {
    enable = true;
    package = claude "2.1.90";
    mcpServers.up.command = "up-server";
    plugins.upplugin = ./fixtures/plugin;
  };

  accountFiles =
    config: dir:
    map (lib.removePrefix "${dir}/") (filter (lib.hasPrefix "${dir}/") (lib.attrNames config.home.file));

  cases = {
    # Upstream's wrapper given outright (issue 30).
    packageIsUpstreamsWrapper = {
      value = filesOf (
        { config, ... }:
        {
          programs.claude-code = wrapping // {
            accounts.max.package = config.programs.claude-code.finalPackage;
          };
        }
      );
      says = [
        "Failed assertions:"
        "- `programs.claude-code.accounts.max.package` is home-manager's wrapper of `programs.claude-code.package` (its `finalPackage`), which passes that module's own plugins and MCP servers to every Claude it starts; set it to `config.programs.claude-code.package`, or leave it unset"
      ];
    };
    # A skills directory given as a string of sources in the store, holding
    # a skill named like a plugin (issue 30).
    skillsStringClash = {
      value = filesOf {
        programs.claude-code.accounts.max = {
          skills = "${./fixtures/skills}";
          plugins.pdf = ./fixtures/plugin;
        };
      };
      says = [
        "- `programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`${./fixtures/skills}/pdf`) both become `skills/pdf/` in the account dir; give each its own name"
      ];
    };
    # configDir = "~" (issue 30).
    configDirIsHome = {
      value = filesOf {
        programs.claude-code.enable = true;
        programs.claude-code.accounts.max.configDir = "~";
        programs.claude-code.accounts.work = { };
      };
      says = [
        "- `programs.claude-code.accounts.max.configDir` is `~`, the home directory itself; give the account a directory of its own below it, such as `~/.claude-max`"
      ];
      never = [
        "outside the home directory"
        "must not nest"
      ];
    };
    # A relative directory in `directories`, beside one two accounts share
    # (issue 29): only the relative one is asserted.
    relativeDirectory = {
      value = filesOf {
        programs.claude-code.accounts.work.directories = [ "~/work" ];
        programs.claude-code.accounts.max.directories = [
          "~/work"
          "src"
        ];
      };
      says = [
        "Failed assertions:"
        "- `programs.claude-code.accounts.max.directories`: `src` is a relative path; give an absolute path or one that starts with `~/`"
      ];
      never = [ "/home/u/work" ];
    };
    # An option no account has, in accountDefaults (issue 30).
    accountDefaultsUnknownOption = {
      value = filesOf {
        programs.claude-code.accountDefaults.setings.model = "opus";
        programs.claude-code.accounts.max = { };
      };
      says = [
        "The option `programs.claude-code.accounts.max.setings' does not exist."
        "model = \"opus\";"
      ];
      never = [ "_type" ];
    };
    # A type Claude Code does not take, as upstream's own example writes it
    # (issue 42): refused at the switch, not at every launch.
    mcpWebsocket = {
      value = filesOf {
        programs.claude-code.accounts.max.mcpServers.s = {
          type = "websocket";
          url = "wss://example.com/mcp";
        };
      };
      says = [
        "Failed assertions:"
        "- `programs.claude-code.accounts.max.mcpServers.s.type` is \"websocket\", which Claude Code does not take; write \"ws\""
      ];
      never = [ ];
    };
  };
  errors = import ./errors.nix { inherit lib errorsDir cases; };
in
{
  inherit cases;
  inherit (errors) caseNames;
  tests = runTests (
    errors.tests
    // {
      # Accounts beside upstream's module, in the whole of home-manager:
      # nothing asserted, nothing warned, each file where it belongs.
      testEvaluates =
        let
          config = configOf {
            programs.git.enable = true;
            programs.claude-code = {
              enable = true;
              settings.theme = "dark";
              accounts.max = {
                settings.model = "opus";
                commands.review = ./fixtures/review.md;
                skills = ./fixtures/skills;
                plugins.hello = ./fixtures/plugin;
              };
              accounts.work.configDir = "~/work/claude";
            };
          };
        in
        {
          expr = {
            warnings = config.warnings;
            max = accountFiles config "/home/u/.claude-max";
            work = accountFiles config "/home/u/work/claude";
            upstream = config.home.file ? "/home/u/.claude/settings.json";
            launchers = filter (lib.hasPrefix "claude") (map (p: p.name) config.home.packages);
            ignores = lib.elem "**/claude-runtime/" config.programs.git.ignores;
          };
          expected = {
            warnings = [ ];
            max = [
              "account.toml"
              "commands"
              "declared"
              "skills/hello"
              "skills/pdf"
            ];
            work = [
              "account.toml"
              "declared"
            ];
            upstream = true;
            launchers = [
              "claude-account-0.1.0"
              "claudemax"
              "claudework"
              "claude-code-2.1.328"
            ];
            ignores = true;
          };
        };
      # `package = null` beside upstream's wrapper (issue 30): the account
      # runs the Claude Code under it, and is warned about as any other.
      testPackageNullUnwrapped =
        let
          config = configOf { programs.claude-code = wrapping // { accounts.max.package = null; }; };
        in
        {
          expr = {
            onPath = lib.hasInfix "--plugin-dir" (
              lib.concatMapStrings (p: p.postBuild or "") (filter (p: p.name == "claude-code") config.home.packages)
            );
            claude = config.programs.claude-code.accounts.max.spec.claude;
            warned = map (w: lib.head (lib.splitString "\n" w)) (filter (lib.hasInfix "accounts.max") config.warnings);
          };
          expected = {
            onPath = true;
            claude = "${claude "2.1.90"}/bin/claude";
            warned = [
              "`programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:"
            ];
          };
        };
      # A skills directory that is a build output: not read at evaluation
      # (that would build it); skills/ is one link, and the build checks it
      # (internal/generate TestRunSkillsDirClash).
      testSkillsBuildOutput = {
        expr = accountFiles (configOf {
          programs.claude-code.accounts.max = {
            skills = pkgs.runCommand "skills" { } "cp -r ${./fixtures/skills} $out";
            plugins.pdf = ./fixtures/plugin;
          };
        }) "/home/u/.claude-max";
        expected = [
          "account.toml"
          "declared"
          "skills"
        ];
      };
      # One directory in two accounts' `directories` (issue 29): bound to
      # both, one line each; home-manager asserts nothing.
      testSharedDirectory = {
        expr =
          (configOf {
            programs.claude-code.accounts.work.directories = [ "~/work" ];
            programs.claude-code.accounts.max.directories = [ "/home/u/work/" ];
          }).home.file."/home/u/.config/claude-account/bindings.declared".text;
        expected = ''
          # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).
          "/home/u/work" = "max"
          "/home/u/work" = "work"
        '';
      };
      # home-manager's real programs.mcp joins the account's servers
      # (enableMcpIntegration), each as Claude Code takes it; the issue's
      # two measures (a url without type, env.TOKEN.file) among them.
      testProgramsMcpIntegration =
        let
          config = configOf {
            programs.mcp = {
              enable = true;
              servers = {
                gh = {
                  command = "gh-mcp";
                  env.TOKEN.file = "/run/secrets/gh";
                };
                ctx.url = "https://ctx/mcp";
              };
            };
            programs.claude-code.accounts.max = {
              enableMcpIntegration = true;
              mcpServers.s.url = "http://127.0.0.1:9/mcp";
            };
          };
        in
        {
          expr = {
            inherit (config) warnings;
            servers = config.programs.claude-code.accounts.max.spec.mcpServers;
          };
          expected = {
            warnings = [ ];
            servers = {
              gh = {
                type = "stdio";
                command = "${pkgs.claude-account}/bin/claude-account";
                args = [
                  "mcp-env"
                  "TOKEN=/run/secrets/gh"
                  "--"
                  "gh-mcp"
                ];
              };
              ctx = {
                type = "http";
                url = "https://ctx/mcp";
              };
              s = {
                type = "http";
                url = "http://127.0.0.1:9/mcp";
              };
            };
          };
        };
      # Every option of ours has an example in home-manager's docs.
      testOptionExamples = {
        expr = map (opt: opt.name) (
          filter (
            opt:
            (
              lib.hasPrefix "programs.claude-code.account" opt.name
              || lib.hasPrefix "programs.claude-code.directoryLauncher" opt.name
            )
            && opt.visible
            && !opt.internal
            && !(opt ? example)
          ) (lib.optionAttrSetToDocList (home { }).options.programs.claude-code)
        );
        expected = [ ];
      };
    }
  );
}
