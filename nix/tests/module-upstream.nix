# The accounts module beside home-manager's real programs.claude-code
# (modules/programs/claude-code of a home-manager checkout; the flake's
# checks use the locked input), through nixpkgs' lib extended with
# home-manager's, and the stub pkgs. What the stand-in of upstream
# (stubs/hm-claude-code.nix) models, checked against the real thing; and
# parity: every option upstream declares is an account option or a listed
# difference, and each shared one takes upstream's own example.
#   nix-instantiate --eval --strict --json nix/tests/module-upstream.nix \
#     --argstr nixpkgsLib NIXPKGS_LIB --argstr hmSrc HOME_MANAGER_SRC
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  nixLib ? import (/. + nixpkgsLib),
  # a home-manager checkout: a directory name, or the flake input
  hmSrc ? builtins.getEnv "HOME_MANAGER_SRC",
}:
let
  runTests = import ./harness.nix;
  hm = rel: if builtins.isAttrs hmSrc then "${hmSrc}/${rel}" else /. + "${hmSrc}/${rel}";
  lib = import (hm "modules/lib/stdlib-extended.nix") nixLib;
  stub = import ./stubs/pkgs.nix { inherit lib; };
  pkgs = stub // {
    bash = stub.runCommand "bash-5.3" { } "";
    runCommandLocal = stub.runCommand;
  };
  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  inherit (builtins) filter head;

  claude = version: {
    type = "derivation";
    name = "claude-code-${version}";
    pname = "claude-code";
    inherit version;
    outPath = "${builtins.storeDir}/22222222222222222222222222222222-claude-code-${version}";
    meta.mainProgram = "claude";
  };

  # What upstream's module reads of the rest of home-manager.
  hmOptions =
    { lib, ... }:
    {
      options.meta.maintainers = lib.mkOption {
        type = lib.types.anything;
        default = [ ];
      };
      options.programs.mcp = {
        enable = lib.mkOption {
          type = lib.types.bool;
          default = false;
        };
        servers = lib.mkOption {
          type = lib.types.attrsOf lib.types.anything;
          default = { };
        };
      };
    };
  eval =
    modules:
    (evalModule {
      modules = [
        (hm "modules/programs/claude-code")
        ../modules/claude-code
        hmOptions
      ]
      ++ modules;
    }).config;
  failed = config: map (a: a.message) (filter (a: !a.assertion) config.assertions);

  # home-manager's real programs.mcp in place of hmOptions' stand-in: the
  # submodule that sets every server option it declares.
  evalWithMcp =
    modules:
    (evalModule {
      modules = [
        (hm "modules/programs/claude-code")
        (hm "modules/programs/mcp.nix")
        ../modules/claude-code
        (
          { lib, ... }:
          {
            options.meta.maintainers = lib.mkOption {
              type = lib.types.anything;
              default = [ ];
            };
            options.xdg.configFile = lib.mkOption {
              type = lib.types.attrsOf lib.types.anything;
              default = { };
            };
          }
        )
      ]
      ++ modules;
    }).config;
  mcpServers = {
    fs = {
      command = "mcp-fs";
      args = [ "/tmp" ];
    };
    remote.url = "https://r/mcp";
    headed = {
      url = "https://h/mcp";
      headers.X-Key = "k";
    };
    off = {
      command = "off";
      enabled = false;
    };
    secret = {
      command = "mcp-secret";
      env = {
        TOKEN.file = "/run/secrets/t";
        LEVEL = "debug";
      };
    };
  };

  # A Claude Code older than 2.1.157 with upstream's own plugins and MCP.
  older = eval [
    {
      programs.claude-code = {
        enable = true;
        package = claude "2.1.90";
        mcpServers.up.command = "up-server";
        plugins.upplugin = ./fixtures/plugin;
        accounts.max = { };
      };
    }
  ];
  # Every option of an account, beside upstream with its own.
  everything = eval [
    {
      programs.claude-code = {
        enable = true;
        package = claude "2.1.330";
        settings.theme = "dark";
        skills.up = "Upstream's skill.";
        accountDefaults.mcpServers.github.url = "https://x/mcp";
        accounts.max = {
          settings.model = "opus";
          mcpServers.fs.command = "true";
          commands.review = ./fixtures/review.md;
          agents.reviewer = "Review.";
          skills = ./fixtures/skills;
          context = ./fixtures/memory.md;
          rules.style = "Tabs.";
          outputStyles.pirate = ./fixtures/pirate.md;
          hooks."pre.sh" = "#!/bin/sh\n";
          plugins.hello = ./fixtures/plugin;
          marketplaces.local = ./fixtures/market;
          lspServers.go.command = "gopls";
          agentsDir = ./fixtures/commands;
          worktreeDir = "~/worktrees/{repo}";
          directories = [ "~/src" ];
          statusLine = true;
        };
      };
    }
  ];

  # The parity check: what upstream declares under programs.claude-code
  # (from its module evaluated alone, hidden options too: its older forms),
  # each as { path = [ "memory" "text" ]; option; }.
  upstreamOptions =
    let
      options =
        (evalModule {
          modules = [
            (hm "modules/programs/claude-code")
            hmOptions
          ];
        }).options.programs.claude-code;
      walk =
        prefix: set:
        lib.concatLists (
          lib.mapAttrsToList (
            name: value:
            if lib.isOption value then
              [
                {
                  path = prefix ++ [ name ];
                  option = value;
                }
              ]
            else if builtins.isAttrs value then
              walk (prefix ++ [ name ]) value
            else
              [ ]
          ) set
        );
    in
    walk [ ] options;
  # An account's options, ours beside upstream's module.
  accountOptions =
    (evalModule {
      modules = [
        (hm "modules/programs/claude-code")
        ../modules/claude-code
        hmOptions
      ];
    }).options.programs.claude-code.accounts.type.getSubOptions
      [ ];
  # The options a type holds (a submodule's, also inside nullOr or either).
  subOptionsOf =
    type:
    type.getSubOptions [ ]
    // lib.foldl' (acc: nested: acc // subOptionsOf nested) { } (lib.attrValues (type.nestedTypes or { }));
  accountHas =
    options: path:
    let
      first = head path;
      rest = builtins.tail path;
      option = options.${first};
    in
    options ? ${first}
    && (rest == [ ] || accountHas (if lib.isOption option then subOptionsOf option.type else option) rest);
  # Upstream's options no account has, on purpose, and why. A name listed
  # here that accounts have, or one upstream no longer declares, fails too.
  differences = {
    finalPackage = "upstream's wrapper of its package (read-only, internal); an account runs its `package` itself, never a wrapper, and its launcher is `claude<name>`";
  };
  showPath = lib.concatStringsSep ".";

  # An option's example as a value: a literalExpression is evaluated, its
  # relative paths read from fixtures/upstream-examples, `pkgs.<name>` and
  # fetchFromGitHub as packages of their own (store paths with context, as
  # real ones are).
  examples = ./fixtures/upstream-examples;
  fakePackage = name: {
    type = "derivation";
    inherit name;
    outPath = builtins.toFile name "";
    src = fakePackage "${name}-src";
  };
  exampleValue =
    example:
    if (example._type or null) == "literalExpression" then
      let
        text = example.text;
        relative = builtins.replaceStrings [ " ./" ] [ " ${toString examples}/" ] (
          if lib.hasPrefix "./" text then "${toString examples}/${lib.removePrefix "./" text}" else text
        );
        named = lib.unique (map head (filter builtins.isList (builtins.split "pkgs\\.([A-Za-z0-9_-]+)" text)));
      in
      builtins.scopedImport {
        inherit lib;
        pkgs = pkgs // lib.genAttrs named fakePackage;
        config = {
          home.homeDirectory = "/home/u";
          xdg.configHome = "/home/u/.config";
        };
        fetchFromGitHub = args: fakePackage "source-${args.repo}";
      } (builtins.toFile "example.nix" relative)
    else
      example;
  # What an account makes of one of upstream's examples: its failed
  # assertions (a refusal), with the spec generate reads and the account's
  # links forced.
  refusalsOf =
    path: value:
    let
      config = eval [
        {
          programs.claude-code.accounts.ex = lib.setAttrByPath path value;
        }
      ];
      account = config.programs.claude-code.accounts.ex;
      links = lib.filterAttrs (name: _: lib.hasPrefix "/home/u/" name) config.home.file;
    in
    builtins.deepSeq [
      (calib.specJSON account.spec)
      (lib.mapAttrs (_: file: file.source) links)
    ] (filter (lib.hasInfix "accounts.ex") (failed config));
  calib = import ../lib;
in
runTests {
  # Upstream wraps the older Claude Code with --plugin-dir for its own
  # plugins; the account runs the Claude Code itself.
  testOlderClaudeUnwrapped = {
    expr = {
      upstreamWraps = lib.hasInfix "--plugin-dir" (older.programs.claude-code.finalPackage.postBuild or "");
      account = older.programs.claude-code.accounts.max.spec.claude;
    };
    expected = {
      upstreamWraps = true;
      account = "${claude "2.1.90"}/bin/claude";
    };
  };
  # `package = null` is the `claude` on PATH, upstream's wrapper here
  # (issue 30): the account runs the Claude Code under it. Upstream's
  # wrapper given outright is an assertion with the fix.
  testPackageNullUnwrapped =
    let
      config = eval [
        (
          { config, ... }:
          {
            programs.claude-code = {
              enable = true;
              package = claude "2.1.90";
              mcpServers.up.command = "up-server";
              plugins.upplugin = ./fixtures/plugin;
              accounts.max.package = null;
              accounts.work.package = config.programs.claude-code.finalPackage;
            };
          }
        )
      ];
    in
    {
      expr = {
        onPath = map (p: p.postBuild or "") (filter (p: p.name == "claude-code") config.home.packages);
        max = config.programs.claude-code.accounts.max.spec.claude;
        assertions = filter (lib.hasInfix "accounts.") (failed config);
      };
      expected = {
        onPath = [ older.programs.claude-code.finalPackage.postBuild ];
        max = "${claude "2.1.90"}/bin/claude";
        assertions = [
          "`programs.claude-code.accounts.work.package` is home-manager's wrapper of `programs.claude-code.package` (its `finalPackage`), which passes that module's own plugins and MCP servers to every Claude it starts; set it to `config.programs.claude-code.package`, or leave it unset"
        ];
      };
    };
  testOlderClaudeWarns = {
    expr = map (w: head (lib.splitString "\n" w)) (
      filter (lib.hasInfix "programs.claude-code.accounts") older.warnings
    );
    expected = [
      "`programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:"
    ];
  };
  testEverythingEvaluates = {
    expr = {
      assertions = failed everything;
      warnings = everything.warnings;
      servers = lib.attrNames everything.programs.claude-code.accounts.max.spec.mcpServers;
      upstreamSettings = everything.home.file ? "/home/u/.claude/settings.json";
      accountLinks = map (lib.removePrefix "/home/u/.claude-max/") (
        filter (lib.hasPrefix "/home/u/.claude-max/") (lib.attrNames everything.home.file)
      );
    };
    expected = {
      assertions = [ ];
      warnings = [ ];
      servers = [
        "fs"
        "github"
      ];
      upstreamSettings = true;
      accountLinks = [
        "CLAUDE.md"
        "account.toml"
        "agents"
        "commands"
        "declared"
        "hooks"
        "output-styles"
        "rules"
        "skills/claude-account-lsp"
        "skills/hello"
        "skills/pdf"
      ];
    };
  };
  # programs.mcp's servers (the real submodule) reach the account as
  # upstream's own transformation (lib.hm.mcp at flake.lock's revision)
  # gives them to upstream's Claude, but for two differences: a server with
  # `env.X.file` runs through `claude-account mcp-env` where upstream writes
  # a shell wrapper, and a disabled server is left out where upstream keeps
  # it (both name it in disabledMcpjsonServers).
  testProgramsMcpParity =
    let
      config = evalWithMcp [
        {
          programs.mcp = {
            enable = true;
            servers = mcpServers;
          };
          programs.claude-code = {
            enable = true;
            enableMcpIntegration = true;
            accounts.max.enableMcpIntegration = true;
          };
        }
      ];
      spec = config.programs.claude-code.accounts.max.spec;
      upstream = lib.mapAttrs (
        _: server:
        lib.hm.mcp.transformMcpServer {
          inherit server;
          exclude = [ "enabled" ];
          extraTransforms = [ lib.hm.mcp.addType ];
        }
      ) config.programs.mcp.servers;
    in
    {
      expr = {
        assertions = failed config;
        same = lib.mapAttrs (name: server: spec.mcpServers.${name} == server) (
          removeAttrs upstream [
            "off"
            "secret"
          ]
        );
        secret = spec.mcpServers.secret;
        upstreamSecretEnv = upstream.secret.env;
        disabled = spec.settings.disabledMcpjsonServers;
        servers = lib.attrNames spec.mcpServers;
      };
      expected = {
        assertions = [ ];
        same = {
          fs = true;
          remote = true;
          headed = true;
        };
        secret = {
          type = "stdio";
          command = "${pkgs.claude-account}/bin/claude-account";
          args = [
            "mcp-env"
            "TOKEN=/run/secrets/t"
            "--"
            "mcp-secret"
          ];
          env.LEVEL = "debug";
        };
        upstreamSecretEnv = {
          LEVEL = "debug";
          TOKEN = "{file:/run/secrets/t}";
        };
        disabled = [ "off" ];
        servers = [
          "fs"
          "headed"
          "remote"
          "secret"
        ];
      };
    };
  # Upstream's own example of mcpServers, given to an account: its
  # "websocket" server is refused with the fix, the rest taken.
  testUpstreamExample = {
    expr = filter (lib.hasInfix "accounts.max") (failed (eval [
      {
        programs.claude-code.accounts.max.mcpServers =
          (import (hm "modules/programs/claude-code/options.nix") {
            inherit lib pkgs;
            config = { };
          }).options.programs.claude-code.mcpServers.example;
      }
    ]));
    expected = [
      "`programs.claude-code.accounts.max.mcpServers.customTransport.type` is \"websocket\", which Claude Code does not take; write \"ws\""
    ];
  };
  # The configuration the flake's checks build, beside the real upstream.
  testHmCheck = {
    expr =
      let
        config = eval [
          ./hm-check.nix
          { home.homeDirectory = lib.mkForce "/home/check"; }
        ];
      in
      {
        assertions = failed config;
        warnings = filter (lib.hasInfix "programs.claude-code.accounts") config.warnings;
      };
    expected = {
      assertions = [ ];
      warnings = [ ];
    };
  };
  # Parity with upstream's module at flake.lock's revision: every option it
  # declares under programs.claude-code is an account option of the same
  # name, or a listed difference. Fails when upstream gains an option.
  testParityEveryUpstreamOption =
    let
      names = map (o: showPath o.path) upstreamOptions;
    in
    {
      expr = {
        missing = filter (name: !(differences ? ${name})) (
          map (o: showPath o.path) (filter (o: !accountHas accountOptions o.path) upstreamOptions)
        );
        listedButShared = filter (name: accountHas accountOptions (lib.splitString "." name)) (
          lib.attrNames differences
        );
        listedButGone = filter (name: !(builtins.elem name names)) (lib.attrNames differences);
        # the walk found upstream's options, hidden ones too
        found = builtins.all (name: builtins.elem name names) [
          "settings"
          "memory.text"
          "skillsDir"
        ];
      };
      expected = {
        missing = [ ];
        listedButShared = [ ];
        listedButGone = [ ];
        found = true;
      };
    };
  # Each shared option given upstream's own example: the account evaluates
  # (its spec and links forced) and refuses nothing, except the options
  # listed in expectedRefusals, each refused with messages that all hold
  # the listed text.
  testParityUpstreamExamples =
    let
      # Upstream's own mcpServers example has a server of type "websocket",
      # which no Claude Code takes (it takes "ws").
      expectedRefusals = {
        mcpServers = "is \"websocket\", which Claude Code does not take; write \"ws\"";
      };
      shared = filter (o: accountHas accountOptions o.path && o.option ? example) upstreamOptions;
      refusals = lib.filterAttrs (_: messages: messages != [ ]) (
        lib.listToAttrs (
          map (o: lib.nameValuePair (showPath o.path) (refusalsOf o.path (exampleValue o.option.example))) shared
        )
      );
    in
    {
      expr = {
        # refused, with each message, where no refusal was expected or the
        # message does not say what was expected
        refused = lib.filterAttrs (
          name: messages: !(expectedRefusals ? ${name}) || !lib.all (lib.hasInfix expectedRefusals.${name}) messages
        ) refusals;
        notRefused = filter (name: !(refusals ? ${name})) (lib.attrNames expectedRefusals);
        # Upstream's options without an example: nothing to try there.
        withoutExample = map (o: showPath o.path) (
          filter (o: accountHas accountOptions o.path && !(o.option ? example)) upstreamOptions
        );
      };
      expected = {
        refused = { };
        notRefused = [ ];
        withoutExample = [
          "enableMcpIntegration"
          "memory.source"
          "memory.text"
          "package"
          "skillsDir"
        ];
      };
    };
  # A clash upstream asserts too: a skill and a plugin of one name.
  testSkillPluginClash = {
    expr = filter (lib.hasInfix "accounts.max") (failed (eval [
      {
        programs.claude-code.accounts.max = {
          skills.pdf = "A skill.";
          plugins.pdf = ./fixtures/plugin;
        };
      }
    ]));
    expected = [
      "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills.pdf` both become `skills/pdf/` in the account dir; give each its own name"
    ];
  };
}
