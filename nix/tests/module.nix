# The claude-code accounts module through the real lib.evalModules (nixpkgs'
# lib/, no pkgs): alone, and beside a stand-in of home-manager's own
# programs.claude-code module, with stand-ins for the home.* and
# programs.git options and a stub pkgs.
#   NIXPKGS_LIB=/path/to/nixpkgs/lib nix-instantiate --read-write-mode --eval --strict --json nix/tests/module.nix
# evaluates to { passed = N; … } or throws listing the failures.
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
  # a copy of nix/ elsewhere: a second checkout of the module
  otherCheckout ? "",
}:
let
  runTests = import ./harness.nix;
  calib = import ../lib;
  pkgs = import ./stubs/pkgs.nix { inherit lib; };
  inherit (builtins)
    attrNames
    elem
    filter
    fromJSON
    head
    match
    sort
    lessThan
    storeDir
    ;

  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  # The module with `modules`; assertions and warnings forced.
  eval =
    {
      upstream ? false,
      modules,
    }:
    evalModule {
      modules = [ ../modules/claude-code ] ++ lib.optional upstream ./stubs/hm-claude-code.nix ++ modules;
    };

  failedMessages =
    config: sort lessThan (map (a: a.message) (filter (a: !a.assertion) config.assertions));

  # "/nix/store/<hash>-claude-account-work/commands" -> "claude-account-work/commands"
  storeRel = path: head (match "${storeDir}/[a-z0-9]{32}-(.*)" "${path}");
  isStorePath = suffix: value: match "${storeDir}/[a-z0-9]{32}-${suffix}" value != null;

  claudeAccountExe = "${pkgs.claude-account}/bin/claude-account";

  parity =
    (eval {
      modules = [
        {
          programs.claude-code.accounts.max = {
            context = "context";
            rules.style = "Use tabs.";
            outputStyles.pirate = ./fixtures/pirate.md;
            hooks."pre.sh" = "#!/bin/sh\n";
            plugins.hello = ./fixtures/skills;
            marketplaces.local = ./fixtures;
            lspServers.go.command = "gopls";
            agentsDir = ./fixtures;
            rulesDir = ./fixtures;
            skills = ./fixtures/skills;
          };
        }
      ];
    }).config;

  customClaude = {
    type = "derivation";
    name = "claude-code-custom";
    outPath = "${storeDir}/00000000000000000000000000000000-claude-code-custom";
    meta.mainProgram = "claude";
  };
  olderClaude = {
    type = "derivation";
    name = "claude-code-2.1.90";
    pname = "claude-code";
    version = "2.1.90";
    outPath = "${storeDir}/11111111111111111111111111111111-claude-code-2.1.90";
    meta.mainProgram = "claude";
  };
  # The Claude binary account max runs, with upstream's options set to up.
  claudeOf =
    up:
    (eval {
      upstream = true;
      modules = [
        { programs.claude-code = up // { accounts.max = { }; }; }
      ];
    }).config.programs.claude-code.accounts.max.spec.claude;

  accounts = {
    programs.claude-code.accounts = {
      max = { };
      work = {
        configDir = "~/work/claude";
        package = null;
        settings.model = "opus";
        settingsMode = "link";
        mcpServers.github = {
          type = "http";
          url = "https://x/mcp";
        };
        commands."git/new" = "Create a worktree.\n";
        agents.reviewer = ./fixtures/review.md;
        skills.pdf = ./fixtures/skills/pdf;
        memory = ./fixtures/memory.md;
        coalesceKeys = [
          "mcpServers"
          "autoUpdates"
        ];
        singleInstance = false;
        projectMcp = "never";
        worktreeDir = "wt";
        symlinkDirectories = [ "node_modules" ];
        sparsePaths = [ "src" ];
        useWorktreeHooks = true;
      };
      cx.command = "cx";
      off = {
        enable = false;
        configDir = "/etc/nope";
      };
    };
  };

  ourFiles = [
    "/home/u/.claude-cx/account.toml"
    "/home/u/.claude-cx/declared"
    "/home/u/.claude-max/account.toml"
    "/home/u/.claude-max/declared"
    # work keeps its account in ~/work/claude: the launcher finds it there
    # when a directory or --account alone names it
    "/home/u/.config/claude-account/accounts.declared"
    "/home/u/work/claude/CLAUDE.md"
    "/home/u/work/claude/account.toml"
    "/home/u/work/claude/agents"
    "/home/u/work/claude/commands"
    "/home/u/work/claude/declared"
    "/home/u/work/claude/settings.json"
    "/home/u/work/claude/skills/pdf"
  ];

  alone = (eval { modules = [ accounts ]; }).config;
  beside =
    (eval {
      upstream = true;
      modules = [
        accounts
        {
          programs.claude-code = {
            enable = true;
            settings.theme = "dark";
            memory.text = "legacy memory option, renamed upstream";
            commands.up = "x";
          };
        }
      ];
    }).config;

  # The layer-1 derivation behind an account dir's `declared` link.
  layer1Of =
    config: file:
    head (
      filter (drv: "${drv}" == config.home.file.${file}.source) (
        lib.mapAttrsToList (_: account: account.layer1) config.programs.claude-code.accounts
      )
    );
  specOf = config: file: fromJSON (builtins.unsafeDiscardStringContext (layer1Of config file).env.spec);
  launcher = config: name: head (filter (p: p.name == name) config.home.packages);

  # The same declaration split over two modules in another order.
  reordered =
    (eval {
      modules = [
        {
          programs.claude-code.accounts.work = {
            useWorktreeHooks = true;
            sparsePaths = [ "src" ];
            symlinkDirectories = [ "node_modules" ];
            worktreeDir = "wt";
            projectMcp = "never";
            singleInstance = false;
            coalesceKeys = [
              "mcpServers"
              "autoUpdates"
            ];
            memory = ./fixtures/memory.md;
            skills.pdf = ./fixtures/skills/pdf;
          };
        }
        {
          programs.claude-code.accounts.work = {
            agents.reviewer = ./fixtures/review.md;
            commands."git/new" = "Create a worktree.\n";
            mcpServers.github = {
              url = "https://x/mcp";
              type = "http";
            };
            settingsMode = "link";
            settings.model = "opus";
            package = null;
            configDir = "~/work/claude";
          };
        }
      ];
    }).config;
  changed =
    (eval {
      modules = [
        accounts
        { programs.claude-code.accounts.work.settings.theme = "light"; }
      ];
    }).config;

  assertionMessages =
    upstream: declared:
    failedMessages
      (eval {
        inherit upstream;
        modules = [ declared ];
      }).config;
in
# A test that is {} does not apply here and is left out.
runTests (lib.filterAttrs (_: test: test != { }) {
  testAloneHomeFiles = {
    expr = attrNames alone.home.file;
    expected = ourFiles;
  };
  testAloneAccountDirs = {
    expr = alone.home.file."/home/u/.config/claude-account/accounts.declared".text;
    expected = ''
      # Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.configDir).
      "work" = "/home/u/work/claude"
    '';
  };
  testAloneLinkTargets = {
    expr = lib.mapAttrs (_: file: storeRel file.source) alone.home.file;
    expected = {
      "/home/u/.claude-cx/account.toml" = "claude-account-cx/account.toml";
      "/home/u/.claude-cx/declared" = "claude-account-cx";
      "/home/u/.claude-max/account.toml" = "claude-account-max/account.toml";
      "/home/u/.claude-max/declared" = "claude-account-max";
      "/home/u/.config/claude-account/accounts.declared" = "hm-stub-text";
      "/home/u/work/claude/CLAUDE.md" = "claude-account-work/CLAUDE.md";
      "/home/u/work/claude/account.toml" = "claude-account-work/account.toml";
      "/home/u/work/claude/agents" = "claude-account-work/agents";
      "/home/u/work/claude/commands" = "claude-account-work/commands";
      "/home/u/work/claude/declared" = "claude-account-work";
      "/home/u/work/claude/settings.json" = "claude-account-work/settings.json";
      "/home/u/work/claude/skills/pdf" = "claude-account-work/skills/pdf";
    };
  };
  testNoLinkForFilesClaudeWrites = {
    # settings.json only for the account in settingsMode "link".
    expr = filter (
      file:
      elem (baseNameOf file) [
        "settings.json"
        ".claude.json"
        ".credentials.json"
      ]
    ) (attrNames alone.home.file);
    expected = [ "/home/u/work/claude/settings.json" ];
  };
  testLayer1Builder = {
    expr =
      let
        drv = layer1Of alone "/home/u/.claude-max/declared";
      in
      {
        inherit (drv) name builder script;
        inherit (drv.env) passAsFile preferLocalBuild allowSubstitutes;
      };
    expected = {
      name = "claude-account-max";
      builder = "runCommand";
      script = ''
        ${claudeAccountExe} generate --spec "$specPath" --out "$out"
      '';
      passAsFile = [ "spec" ];
      preferLocalBuild = true;
      allowSubstitutes = false;
    };
  };
  testSpecDefaults = {
    expr = specOf alone "/home/u/.claude-max/declared";
    expected = {
      name = "max";
      claude = "${pkgs.claude-code}/bin/claude";
      settings = { };
      settingsMode = "coalesce";
      mcpServers = { };
      commands = { };
      agents = { };
      skills = { };
      memory = null;
      coalesceKeys = [ "mcpServers" ];
      singleInstance = true;
      projectMcp = "trusted";
      worktree = {
        dir = ".claude/worktrees";
        symlinkDirectories = [ ];
        sparsePaths = [ ];
        useHooks = false;
      };
    };
  };
  testSpecEveryOption = {
    expr =
      let
        spec = specOf alone "/home/u/work/claude/declared";
      in
      spec
      // {
        agents.reviewer = isStorePath "review.md" spec.agents.reviewer.source;
        skills.pdf = isStorePath "pdf" spec.skills.pdf.source;
        memory = isStorePath "memory.md" spec.memory.source;
      };
    expected = {
      name = "work";
      claude = null;
      settings.model = "opus";
      settingsMode = "link";
      mcpServers.github = {
        type = "http";
        url = "https://x/mcp";
      };
      commands."git/new".text = "Create a worktree.\n";
      agents.reviewer = true;
      skills.pdf = true;
      memory = true;
      coalesceKeys = [
        "mcpServers"
        "autoUpdates"
      ];
      singleInstance = false;
      projectMcp = "never";
      worktree = {
        dir = "wt";
        symlinkDirectories = [ "node_modules" ];
        sparsePaths = [ "src" ];
        useHooks = true;
      };
    };
  };
  testSpecReadOnlyOption = {
    expr = alone.programs.claude-code.accounts.max.spec.name;
    expected = "max";
  };
  testLaunchers = {
    expr = map (p: p.name) alone.home.packages;
    expected = [
      "claude-account-0.1.0"
      "cx"
      "claudemax"
      "claudework"
    ];
  };
  testLauncherDefaultIsALink = {
    expr =
      let
        l = launcher alone "claudemax";
      in
      {
        inherit (l) builder script;
        inherit (l.env) preferLocalBuild;
        mainProgram = l.env.meta.mainProgram;
      };
    expected = {
      builder = "runCommand";
      script = ''
        mkdir -p "$out/bin"
        ln -s ${claudeAccountExe} "$out/bin/"claudemax
      '';
      preferLocalBuild = true;
      mainProgram = "claudemax";
    };
  };
  testLauncherCustomDirIsAWrapper = {
    expr = (launcher alone "claudework").text;
    expected = ''
      export CLAUDE_ACCOUNT='work'
      export CLAUDE_ACCOUNT_DIR='/home/u/work/claude'
      exec -a 'claudework' '${claudeAccountExe}' "$@"
    '';
  };
  testLauncherCustomCommandIsAWrapper = {
    expr = (launcher alone "cx").text;
    expected = ''
      export CLAUDE_ACCOUNT='cx'
      exec -a 'claudecx' '${claudeAccountExe}' "$@"
    '';
  };
  testGitIgnores = {
    expr = alone.programs.git.ignores;
    expected = [ "**/claude-runtime/" ];
  };
  testAloneNoAssertionFails = {
    expr = failedMessages alone;
    expected = [ ];
  };
  testAloneHasNoUpstreamOptions = {
    expr = (eval { modules = [ ]; }).options.programs.claude-code ? enable;
    expected = false;
  };
  testNothingDeclared = {
    expr =
      let
        config = (eval { modules = [ ]; }).config;
      in
      {
        inherit (config.home) file packages;
        inherit (config.programs.git) ignores;
        assertions = failedMessages config;
      };
    expected = {
      file = { };
      packages = [ ];
      ignores = [ ];
      assertions = [ ];
    };
  };
  testHomeDirectoryAsPath = {
    # A path literal is a directory name, never copied to the store.
    expr = attrNames (
      (eval {
        modules = [
          {
            home.homeDirectory = lib.mkForce /home/v;
            programs.claude-code.accounts.max = { };
          }
        ];
      }).config.home.file
    );
    expected = [
      "/home/v/.claude-max/account.toml"
      "/home/v/.claude-max/declared"
    ];
  };
  testDisabledOnly = {
    expr =
      let
        config =
          (eval {
            modules = [
              {
                programs.claude-code.accounts.off = {
                  enable = false;
                  configDir = "relative";
                };
              }
            ];
          }).config;
      in
      [
        config.home.file
        config.home.packages
        (failedMessages config)
      ];
    expected = [
      { }
      [ ]
      [ ]
    ];
  };

  # Beside home-manager's own programs.claude-code.
  testBesideHomeFiles = {
    expr = attrNames beside.home.file;
    expected = sort lessThan (
      ourFiles
      ++ [
        "/home/u/.claude/CLAUDE.md"
        "/home/u/.claude/commands/up.md"
        "/home/u/.claude/settings.json"
      ]
    );
  };
  testBesideUpstreamStillWorks = {
    expr = {
      context = beside.programs.claude-code.context;
      settings = storeRel beside.home.file."/home/u/.claude/settings.json".source;
      packages = map (p: p.name) beside.home.packages;
    };
    expected = {
      context = "legacy memory option, renamed upstream";
      settings = "claude-code-settings.json";
      packages = [
        "claude-code-2.1.328"
        "claude-account-0.1.0"
        "cx"
        "claudemax"
        "claudework"
      ];
    };
  };
  # The same accounts beside upstream, but for `work` (package = null):
  # upstream, enabled, puts its wrapper on PATH, so work runs the Claude
  # Code under it (testPackageNullBesideUpstream).
  testBesideSameAccounts =
    let
      notWork = lib.filterAttrs (name: _: !lib.hasPrefix "/home/u/work/claude/" name);
      work = config: specOf config "/home/u/work/claude/declared";
    in
    {
      expr = {
        files = notWork (
          lib.filterAttrs (name: _: elem name ourFiles) (lib.mapAttrs (_: file: "${file.source}") beside.home.file)
        );
        work = work beside // { claude = null; };
        workClaude = (work beside).claude;
      };
      expected = {
        files = notWork (lib.mapAttrs (_: file: "${file.source}") alone.home.file);
        work = work alone;
        workClaude = "${pkgs.claude-code}/bin/claude";
      };
    };
  testBesideNoAssertionFails = {
    expr = failedMessages beside;
    expected = [ ];
  };
  testBesideOptionsMerged = {
    expr =
      let
        options = (eval { upstream = true; modules = [ ]; }).options.programs.claude-code;
      in
      map (name: options ? ${name}) [
        "enable"
        "package"
        "configDir"
        "settings"
        "memory"
        "accounts"
        "accountsPackage"
      ];
    expected = [
      true
      true
      true
      true
      true
      true
      true
    ];
  };
  testBesideNothingDeclared = {
    expr =
      let
        config =
          (eval {
            upstream = true;
            modules = [ { programs.claude-code.enable = true; } ];
          }).config;
      in
      {
        files = attrNames config.home.file;
        packages = map (p: p.name) config.home.packages;
        inherit (config.programs.git) ignores;
      };
    expected = {
      files = [ ];
      packages = [ "claude-code-2.1.328" ];
      ignores = [ ];
    };
  };
  testBesideUpstreamDisabled = {
    expr = attrNames (
      (eval {
        upstream = true;
        modules = [
          accounts
          { programs.claude-code.settings.theme = "dark"; }
        ];
      }).config.home.file
    );
    expected = ourFiles;
  };

  # Determinism: the store path follows the declaration, nothing else.
  testSameDeclarationSamePath = {
    expr =
      layer1Of reordered "/home/u/work/claude/declared" == layer1Of alone "/home/u/work/claude/declared";
    expected = true;
  };
  testChangedDeclarationNewPath = {
    expr = [
      ("${layer1Of changed "/home/u/work/claude/declared"}" == "${layer1Of alone "/home/u/work/claude/declared"}")
      ("${layer1Of changed "/home/u/.claude-max/declared"}" == "${layer1Of alone "/home/u/.claude-max/declared"}")
    ];
    expected = [
      false
      true
    ];
  };

  # Assertions, by message.
  testAssertionMessages = {
    expr = assertionMessages false {
      programs.claude-code.accounts = {
        Max = { };
        a.command = "claudex";
        b.command = "claudex";
        c.configDir = "/etc/claude";
        d.configDir = "relative";
        e.commands."../x" = "t";
        f.command = "claude-account";
        g.skills."a/b" = "t";
        auto = { };
      };
    };
    expected = sort lessThan [
      "`programs.claude-code.accounts.auto`: \"auto\" cannot name an account: --account auto picks the account with the most headroom; choose another name"
      "`programs.claude-code.accounts.Max`: the account name `Max` must match [a-z0-9][a-z0-9_-]* (lower-case letters, digits, '-' and '_'); it names the account dir and the launcher"
      "`programs.claude-code.accounts.a.command` and `programs.claude-code.accounts.b.command` are both `claudex`; give each account its own command"
      "`programs.claude-code.accounts.c.configDir` is `/etc/claude`, outside the home directory `/home/u`; home-manager links files only below it"
      "`programs.claude-code.accounts.d.configDir` is `relative`, a relative path; give an absolute path or one that starts with `~/`"
      ''`programs.claude-code.accounts.e.commands."../x"`: the name has a ".." segment; names stay inside their directory''
      "`programs.claude-code.accounts.f.command` is `claude-account`, which another program already uses; pick another name, such as `claudef`"
      "`programs.claude-code.accounts.g.skills.\"a/b\"`: a skill name is one path segment, without '/'"
    ];
  };
  # configDir = "~" (issue 30): the home directory itself, said so, and
  # the other account is not said to nest in it.
  testConfigDirIsHome = {
    expr = assertionMessages true {
      programs.claude-code = {
        enable = true;
        accounts.max.configDir = "~";
        accounts.work = { };
      };
    };
    expected = [
      "`programs.claude-code.accounts.max.configDir` is `~`, the home directory itself; give the account a directory of its own below it, such as `~/.claude-max`"
    ];
  };
  # skills given as a directory (a documented form) evaluates, assertions
  # included (nix/lib/assertions.nix read its entry names as a set).
  testSkillsAsPath = {
    expr =
      let
        config =
          (eval { modules = [ { programs.claude-code.accounts.max.skills = ./fixtures/skills; } ]; }).config;
      in
      {
        assertions = failedMessages config;
        links = builtins.filter (lib.hasPrefix "/home/u/.claude-max/skills") (attrNames config.home.file);
      };
    expected = {
      assertions = [ ];
      links = [ "/home/u/.claude-max/skills/pdf" ];
    };
  };
  # skills given as a string, or as a build output, holding a skill named
  # like a plugin (issue 30): a string of sources in the store is read at
  # evaluation (assertion, and one link per entry as for a Nix path); a
  # build output is not (that would build at evaluation): skills/ is one
  # link, and `claude-account generate` fails the build naming both options
  # (internal/generate TestRunSkillsDirClash).
  testSkillsDirNotAPath =
    let
      skillsOf =
        skills:
        (eval {
          modules = [
            {
              programs.claude-code.accounts.max = {
                inherit skills;
                plugins.pdf = ./fixtures/plugin;
              };
            }
          ];
        }).config;
      shape = config: {
        assertions = failedMessages config;
        links = map (lib.removePrefix "/home/u/.claude-max/") (
          builtins.filter (lib.hasPrefix "/home/u/.claude-max/skills") (attrNames config.home.file)
        );
      };
      string = "${./fixtures/skills}";
    in
    {
      expr = {
        string = shape (skillsOf string);
        source = shape (skillsOf (builtins.path {
          path = ./fixtures/skills;
          name = "skills";
        }));
        buildOutput = shape (skillsOf (pkgs.runCommand "skills" { } "cp -r ${./fixtures/skills} $out"));
      };
      expected = {
        string = {
          assertions = [
            "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`${string}/pdf`) both become `skills/pdf/` in the account dir; give each its own name"
          ];
          links = [ "skills/pdf" ];
        };
        source = {
          assertions = [
            "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`${builtins.path { path = ./fixtures/skills; name = "skills"; }}/pdf`) both become `skills/pdf/` in the account dir; give each its own name"
          ];
          links = [ "skills/pdf" ];
        };
        buildOutput = {
          assertions = [ ];
          links = [ "skills" ];
        };
      };
    };
  # identity: who the login must be reaches the spec with the fields set
  # (generate writes account.toml's [identity] from it), nothing when null;
  # a wrong one is an assertion quoting the option path.
  testIdentity = {
    expr =
      let
        accounts =
          (eval {
            modules = [
              {
                programs.claude-code.accounts = {
                  max.identity.email = "me@example.com";
                  work.identity = {
                    email = "me@work.example";
                    organization = "Acme";
                  };
                  pro = { };
                };
              }
            ];
          }).config.programs.claude-code.accounts;
      in
      {
        specs = lib.mapAttrs (_: account: account.spec.identity or null) accounts;
        wrong = assertionMessages false {
          programs.claude-code.accounts.max.identity = {
            email = "boss";
            organization = "";
          };
          programs.claude-code.accounts.pro.identity = { };
        };
      };
    expected = {
      specs = {
        max.email = "me@example.com";
        work = {
          email = "me@work.example";
          organization = "Acme";
        };
        pro = null;
      };
      wrong = [
        "`programs.claude-code.accounts.max.identity.email` is `boss`, not an email address; write the address the account logs in with"
        "`programs.claude-code.accounts.max.identity.organization` is empty; write the organization's name or uuid as Claude Code shows it, or leave it null"
        "`programs.claude-code.accounts.pro.identity` declares nothing; set `programs.claude-code.accounts.pro.identity.email` and/or `programs.claude-code.accounts.pro.identity.organization` (its name or uuid), or leave it null"
      ];
    };
  };
  # Names that would merge or clash in the account's files: an assertion at
  # evaluation, quoting the option, never a failure when the account is built.
  testAssertionNameClashes = {
    expr = assertionMessages false {
      programs.claude-code.accounts.max = {
        skills.pdf = "skill";
        plugins.pdf = ./fixtures/plugin;
        commands.review = "mine";
        commandsDir = ./fixtures/commands;
        hooks."../h.sh" = "t";
        rules."../r" = "t";
        plugins."my plugin" = ./fixtures/plugin;
      };
    };
    expected = sort lessThan [
      "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills.pdf` both become `skills/pdf/` in the account dir; give each its own name"
      "`programs.claude-code.accounts.max.commands.review` and `programs.claude-code.accounts.max.commandsDir` both declare `commands/review.md`; keep one of them"
      "`programs.claude-code.accounts.max.hooks.\"../h.sh\"`: a hook name is one path segment, without '/'"
      ''`programs.claude-code.accounts.max.rules."../r"`: the name has a ".." segment; names stay inside their directory''
      "`programs.claude-code.accounts.max.plugins.\"my plugin\"`: Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. \"my-plugin\""
    ];
  };
  # Account dirs that nest, and a hand-written home.file for a file Claude
  # writes in an account dir (relative and absolute targets).
  testAssertionNestingAndClaudeFiles = {
    expr = assertionMessages true {
      programs.claude-code = {
        enable = true;
        accounts = {
          max = { };
          inner.configDir = "~/.claude-max/inner";
          sub.configDir = "~/.claude/sub";
        };
      };
      home.file.".claude-max/settings.json".text = "{}";
      home.file."/home/u/.claude-max/.credentials.json".text = "{}";
      home.file.".claude-max/commands/extra.md".text = "fine";
    };
    expected = sort lessThan [
      "`programs.claude-code.accounts.inner.configDir` is `/home/u/.claude-max/inner`, inside `/home/u/.claude-max`, the directory of `programs.claude-code.accounts.max.configDir`; account dirs must not nest, so move one out of the other"
      "`programs.claude-code.accounts.sub.configDir` is `/home/u/.claude/sub`, inside `/home/u/.claude`, Claude Code's own directory; give the account a directory outside it"
      "`home.file` links `/home/u/.claude-max/settings.json`, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); declare it with `programs.claude-code.accounts.max.settings` instead"
      "`home.file` links `/home/u/.claude-max/.credentials.json`, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); remove the entry and log in once with `claudemax`"
    ];
  };
  # worktreeDir: every example its description gives passes the assertion,
  # and the assertion's message offers the form that does (an absolute path
  # is rejected, as by `claude-account generate`).
  testWorktreeDirDescription = {
    expr =
      let
        description =
          ((eval { modules = [ ]; }).options.programs.claude-code.accounts.type.getSubOptions [ ])
          .worktreeDir.description;
        examples = map head (
          filter builtins.isList (builtins.split "\"([^\"]+)\"" description)
        );
      in
      {
        # what the description says of absolute paths
        absoluteSaid = filter (sentence: lib.hasInfix "absolute" sentence) (
          filter builtins.isString (builtins.split "\\. " (builtins.replaceStrings [ "\n" ] [ " " ] description))
        );
        examplesOk = map (dir: assertionMessages false { programs.claude-code.accounts.max.worktreeDir = dir; }) examples;
        absolute = assertionMessages false { programs.claude-code.accounts.max.worktreeDir = "/srv/wt"; };
      };
    expected = {
      absoluteSaid = [ "An absolute path is rejected, as is one with `..`" ];
      examplesOk = [
        [ ]
        [ ]
      ];
      absolute = [
        "`programs.claude-code.accounts.max.worktreeDir`: `/srv/wt` is absolute; give a path relative to the repository's top level, or one that starts with `~/`"
      ];
    };
  };
  # The configuration the flake's checks build with the real home-manager
  # (nix/tests/hm-check.nix), here with the stand-ins: its own assertions
  # hold, and nothing warns (it used `memory`, context's old name).
  testHmCheck = {
    expr =
      let
        config =
          (eval {
            upstream = true;
            modules = [
              ./hm-check.nix
              { home.homeDirectory = lib.mkForce "/home/check"; }
            ];
          }).config;
      in
      {
        assertions = failedMessages config;
        inherit (config) warnings;
      };
    expected = {
      assertions = [ ];
      warnings = [ ];
    };
  };
  # settingsMode = "link": the module's own settings.json link is no problem.
  testLinkModeSettingsIsOurs = {
    expr = assertionMessages false {
      programs.claude-code.accounts.max = {
        settingsMode = "link";
        settings.model = "opus";
      };
    };
    expected = [ ];
  };
  testAssertionUpstreamConfigDir = {
    expr = assertionMessages true {
      programs.claude-code = {
        enable = true;
        accounts.max.configDir = "~/.claude";
      };
    };
    expected = [
      "`programs.claude-code.accounts.max.configDir` is `/home/u/.claude`, the directory of `programs.claude-code.configDir` that home-manager's own Claude Code module manages; give the account its own directory"
    ];
  };
  testAssertionUpstreamDisabledSharesDir = {
    # home-manager's module present but off: ~/.claude is free to take.
    expr = assertionMessages true { programs.claude-code.accounts.max.configDir = "~/.claude"; };
    expected = [ ];
  };

  # The option docs render (defaultText, literalExpression, descriptions).
  # Every option of ours shown in the docs has an example (issue 30:
  # package, projectMcp, settingsMode, singleInstance, useWorktreeHooks and
  # accountsPackage had none).
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
      ) (lib.optionAttrSetToDocList (eval { modules = [ ]; }).options)
    );
    expected = [ ];
  };
  testOptionDocs = {
    expr =
      let
        docs = filter (
          opt: lib.hasPrefix "programs.claude-code.account" opt.name && opt.visible && !opt.internal
        ) (
          lib.optionAttrSetToDocList (eval { modules = [ ]; }).options
        );
        byName = lib.listToAttrs (map (opt: lib.nameValuePair opt.name opt) docs);
      in
      builtins.deepSeq docs {
        names = map (opt: opt.name) docs;
        command = byName."programs.claude-code.accounts.<name>.command".default.text;
        configDir = byName."programs.claude-code.accounts.<name>.configDir".default.text;
        package = byName."programs.claude-code.accounts.<name>.package".default.text;
        accountsPackage = byName."programs.claude-code.accountsPackage".default.text;
      };
    expected = {
      names =
        [
          "programs.claude-code.accountDefaults"
          "programs.claude-code.accounts"
        ]
        ++ map (name: "programs.claude-code.accounts.<name>.${name}") [
          "agents"
          "agentsDir"
          "coalesceKeys"
          "command"
          "commands"
          "commandsDir"
          "configDir"
          "context"
          "directories"
          "enable"
          "enableMcpIntegration"
          "hooks"
          "hooksDir"
          "identity"
          "identity.email"
          "identity.organization"
          "lspServers"
          "marketplaces"
          "mcpServers"
          "notify"
          "outputStyles"
          "package"
          "plugins"
          "projectMcp"
          "rules"
          "rulesDir"
          "settings"
          "settingsMode"
          "singleInstance"
          "skills"
          "sparsePaths"
          "statusLine"
          "symlinkDirectories"
          "usage"
          "useWorktreeHooks"
          "worktreeDir"
        ]
        ++ [
          "programs.claude-code.accountsGitIgnores"
          "programs.claude-code.accountsPackage"
        ];
      command = ''"claude''${name}"'';
      configDir = ''"''${config.home.homeDirectory}/.claude-''${name}"'';
      package = "config.programs.claude-code.package or pkgs.claude-code";
      accountsPackage = "pkgs.claude-account or (pkgs.callPackage ./nix/package.nix { })";
    };
  };

  # The account's Claude Code follows home-manager's own programs.claude-code.
  testPackageFromUpstreamPackage = {
    expr = claudeOf {
      enable = true;
      package = customClaude;
    };
    expected = "${customClaude}/bin/claude";
  };
  testPackageUpstreamDisabled = {
    expr = claudeOf {
      enable = false;
      package = customClaude;
    };
    expected = "${customClaude}/bin/claude";
  };
  # Before 2.1.157 upstream wraps its package with its own plugins and MCP
  # servers (`--plugin-dir …claude-code-hm-plugin`): an account runs the
  # Claude Code itself, never upstream's configuration.
  testPackageNotUpstreamsWrapper = {
    expr =
      let
        up = {
          enable = true;
          package = olderClaude;
          mcpServers.up.command = "up-server";
          plugins.up = ./fixtures/plugin;
        };
        config =
          (eval {
            upstream = true;
            modules = [ { programs.claude-code = up // { accounts.max = { }; }; } ];
          }).config;
      in
      {
        upstreamWraps = config.programs.claude-code.finalPackage.builder or null;
        account = claudeOf up;
      };
    expected = {
      upstreamWraps = "symlinkJoin";
      account = "${olderClaude}/bin/claude";
    };
  };
  # `package = null` is the `claude` on PATH; beside home-manager's own
  # module, enabled with a package, that is upstream's wrapper (issue 30):
  # the account runs the package under it, and the switch warns about its
  # version as for any account's.
  testPackageNullBesideUpstream =
    let
      claudeOfNull =
        up:
        (eval {
          upstream = true;
          modules = [ { programs.claude-code = up // { accounts.max.package = null; }; } ];
        }).config;
      wrapped = claudeOfNull {
        enable = true;
        package = olderClaude;
        mcpServers.up.command = "up-server";
        plugins.up = ./fixtures/plugin;
      };
    in
    {
      expr = {
        wrapped = wrapped.programs.claude-code.accounts.max.spec.claude;
        upstreamWraps = wrapped.programs.claude-code.finalPackage.builder or null;
        warned = map (w: head (lib.splitString "\n" w)) (filter (lib.hasInfix "accounts.max") wrapped.warnings);
        notWrapped =
          (claudeOfNull {
            enable = true;
            package = customClaude;
          }).programs.claude-code.accounts.max.spec.claude;
        # upstream puts nothing on PATH: the claude there is the user's
        upstreamDisabled =
          (claudeOfNull {
            enable = false;
            package = olderClaude;
          }).programs.claude-code.accounts.max.spec.claude;
        upstreamNull =
          (claudeOfNull {
            enable = true;
            package = null;
          }).programs.claude-code.accounts.max.spec.claude;
      };
      expected = {
        wrapped = "${olderClaude}/bin/claude";
        upstreamWraps = "symlinkJoin";
        warned = [
          "`programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:"
        ];
        notWrapped = "${customClaude}/bin/claude";
        upstreamDisabled = null;
        upstreamNull = null;
      };
    };
  # Upstream's wrapper given outright: an assertion with the fix.
  testPackageUpstreamsWrapperAsserted = {
    expr = assertionMessages true (
      { config, ... }:
      {
        programs.claude-code = {
          enable = true;
          package = olderClaude;
          mcpServers.up.command = "up-server";
          accounts.max.package = config.programs.claude-code.finalPackage;
          accounts.work.package = config.programs.claude-code.package;
        };
      }
    );
    expected = [
      "`programs.claude-code.accounts.max.package` is home-manager's wrapper of `programs.claude-code.package` (its `finalPackage`), which passes that module's own plugins and MCP servers to every Claude it starts; set it to `config.programs.claude-code.package`, or leave it unset"
    ];
  };
  # An account's Claude Code older than a release the launcher relies on:
  # the switch warns, naming the account, the version and each row.
  testVersionWarnings = {
    expr =
      let
        warningsOf =
          modules:
          (eval {
            upstream = true;
            inherit modules;
          }).config.warnings;
        # The first line and the rows each warning names.
        shape =
          warning:
          let
            lines = lib.splitString "\n" warning;
          in
          {
            first = head lines;
            rows = map (line: head (match "  - ([^:]*):.*" line)) (filter (lib.hasPrefix "  - ") lines);
          };
      in
      lib.mapAttrs (_: map shape) {
        fromUpstream = warningsOf [
          {
            programs.claude-code = {
              package = olderClaude;
              accounts.max.plugins.hello = ./fixtures/plugin;
              accounts.off = {
                enable = false;
                configDir = "~/.claude-off";
              };
            };
          }
        ];
        perAccount = warningsOf [
          {
            programs.claude-code.accounts = {
              max.package = olderClaude;
              work.package = null;
              new = { };
            };
          }
        ];
      };
    expected = {
      fromUpstream = [
        {
          first = "`programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:";
          rows = [ "login" "plugins and lspServers declared here" ];
        }
      ];
      perAccount = [
        {
          first = "`programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:";
          rows = [ "login" ];
        }
      ];
    };
  };
  # What the switch says of declared plugins per release (issue 42): on
  # 2.1.90 the launcher passes them with --plugin-dir; before 2.0.77 they
  # are not loaded; from 2.1.157 nothing is said.
  testVersionWarningPluginsPerRelease = {
    expr =
      let
        claudeOf = version: olderClaude // {
          name = "claude-code-${version}";
          inherit version;
        };
        pluginLine =
          version:
          filter (lib.hasPrefix "  - plugins and lspServers") (
            lib.concatMap (lib.splitString "\n")
              (eval {
                upstream = true;
                modules = [
                  {
                    programs.claude-code.accounts.max = {
                      package = claudeOf version;
                      plugins.hello = ./fixtures/plugin;
                    };
                  }
                ];
              }).config.warnings
          );
      in
      map pluginLine [ "2.0.76" "2.1.90" "2.1.157" ];
    expected = [
      [ "  - plugins and lspServers declared here: from Claude Code 2.0.77 (--plugin-dir); before it, Claude Code does not load them" ]
      [ "  - plugins and lspServers declared here: from Claude Code 2.1.157 (personal plugins in skills/); before it, the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)" ]
      [ ]
    ];
  };
  testPackageUpstreamNull = {
    expr = claudeOf {
      enable = true;
      package = null;
    };
    expected = null;
  };

  # Imported twice (the flake's default and claude-code are one path): one module.
  testDoubleImport = {
    expr =
      let
        config =
          (eval {
            modules = [
              ../modules/claude-code
              accounts
            ];
          }).config;
      in
      map (p: p.name) config.home.packages;
    expected = map (p: p.name) alone.home.packages;
  };

  # Two checkouts of the module (two flakes pinning different revisions)
  # are two modules: evaluation fails ("already declared"), as README says.
  # (Only when nix/tests/run gives a copy of nix/ as otherCheckout.)
  testTwoCheckoutsFail = lib.optionalAttrs (otherCheckout != "") {
    expr =
      let
        config =
          (eval {
            modules = [
              (/. + otherCheckout + "/modules/claude-code")
              accounts
            ];
          }).config;
      in
      (builtins.tryEval (builtins.deepSeq (map (p: p.name) config.home.packages) true)).success;
    expected = false;
  };

  testGitIgnoresSwitchedOff = {
    expr =
      (eval {
        modules = [
          accounts
          { programs.claude-code.accountsGitIgnores = false; }
        ];
      }).config.programs.git.ignores;
    expected = [ ];
  };

  # usage (account.toml's `usage`): in the spec, and so in account.toml,
  # only when declared; null leaves the key out and the store path as it was.
  testUsageOption =
    let
      specWith =
        account: (eval { modules = [ { programs.claude-code.accounts.max = account; } ]; }).config.programs.claude-code.accounts.max.spec;
    in
    {
      expr = {
        off = (specWith { usage = false; }).usage;
        on = (specWith { usage = true; }).usage;
        unset = (specWith { }) ? usage;
        null = specWith { usage = null; } == specWith { };
      };
      expected = {
        off = false;
        on = true;
        unset = false;
        null = true;
      };
    };

  # Every field of the spec `claude-account generate` reads (knownFields in
  # internal/generate/spec.go, read from the source: a field added there
  # fails here until an account option makes it) comes from an account
  # option: the one of the same name, or those named here. Go's
  # TestEveryAccountKeyHasASpecField checks that every account.toml key
  # comes from a spec field.
  testEverySpecFieldHasAnOption =
    let
      source = builtins.readFile ../../internal/generate/spec.go;
      block = head (match ".*\nvar knownFields = \\[]string\\{([^}]*)}.*" source);
      fields = map head (filter builtins.isList (builtins.split "\"([A-Za-z]+)\"" block));
      optionsFor = {
        name = [ ]; # the account's attribute name
        claude = [ "package" ];
        memory = [ "context" ];
        skillsDir = [ "skills" ]; # a path: a directory of skills
        worktree = [
          "worktreeDir"
          "symlinkDirectories"
          "sparsePaths"
          "useWorktreeHooks"
        ];
      };
      accountOptions =
        (eval { modules = [ ]; }).options.programs.claude-code.accounts.type.getSubOptions
          [ ];
    in
    {
      expr = {
        parsed = builtins.length fields >= 27;
        missing = filter (
          field: !lib.all (option: accountOptions ? ${option}) (optionsFor.${field} or [ field ])
        ) fields;
      };
      expected = {
        parsed = true;
        missing = [ ];
      };
    };

  # Every option home-manager's own programs.claude-code has, per account.
  testParitySpec = {
    expr =
      let
        spec = parity.programs.claude-code.accounts.max.spec;
      in
      {
        rules = spec.rules;
        outputStyles = lib.mapAttrs (_: c: storeRel c.source) spec.outputStyles;
        hooks = spec.hooks;
        plugins = lib.mapAttrs (_: c: storeRel c.source) spec.plugins;
        marketplaces = lib.mapAttrs (_: c: storeRel c.source) spec.marketplaces;
        lspServers = spec.lspServers;
        dirs = map (f: storeRel spec.${f}.source) [ "agentsDir" "rulesDir" "skillsDir" ];
        memory = spec.memory;
      };
    expected = {
      rules.style.text = "Use tabs.";
      outputStyles.pirate = "pirate.md";
      hooks."pre.sh".text = "#!/bin/sh\n";
      plugins.hello = "skills";
      marketplaces.local = "fixtures";
      lspServers.go.command = "gopls";
      dirs = [ "fixtures" "fixtures" "skills" ];
      memory.text = "context";
    };
  };
  testParityLinks = {
    expr = builtins.filter (f: lib.hasPrefix "/home/u/.claude-max/" f) (attrNames parity.home.file);
    expected = [
      "/home/u/.claude-max/CLAUDE.md"
      "/home/u/.claude-max/account.toml"
      "/home/u/.claude-max/agents"
      "/home/u/.claude-max/declared"
      "/home/u/.claude-max/hooks"
      "/home/u/.claude-max/output-styles"
      "/home/u/.claude-max/rules"
      "/home/u/.claude-max/skills/claude-account-lsp"
      "/home/u/.claude-max/skills/hello"
      "/home/u/.claude-max/skills/pdf"
    ];
  };
  # memory is context's old name: it still works, with home-manager's warning.
  testMemoryRenamed = {
    expr =
      let
        config = (eval { modules = [ { programs.claude-code.accounts.max.memory = "old name"; } ]; }).config;
      in
      {
        memory = config.programs.claude-code.accounts.max.spec.memory;
        inherit (config) warnings;
      };
    expected = {
      memory.text = "old name";
      # The warning names the account.
      warnings = [
        "`programs.claude-code.accounts.max.memory` is now `programs.claude-code.accounts.max.context`, as in home-manager's own programs.claude-code; rename it"
      ];
    };
  };

  # Upstream's older forms, as its mkChangedOptionModule reads them:
  # memory.text and memory.source are context, skillsDir is skills; each
  # warns, naming the account's option and the new name.
  testUpstreamOlderForms =
    let
      config =
        (eval {
          modules = [
            {
              programs.claude-code.accounts = {
                text.memory.text = "old text";
                source.memory.source = ./fixtures/memory.md;
                dir.skillsDir = ./fixtures/skills;
              };
            }
          ];
        }).config;
      spec = name: config.programs.claude-code.accounts.${name}.spec;
    in
    {
      expr = {
        text = (spec "text").memory;
        source = storeRel (spec "source").memory.source;
        skillsDir = storeRel (spec "dir").skillsDir.source;
        skillLinks = filter (lib.hasPrefix "/home/u/.claude-dir/skills") (attrNames config.home.file);
        inherit (config) warnings;
      };
      expected = {
        text.text = "old text";
        source = "memory.md";
        skillsDir = "skills";
        skillLinks = [ "/home/u/.claude-dir/skills/pdf" ];
        warnings = [
          "`programs.claude-code.accounts.dir.skillsDir` is now `programs.claude-code.accounts.dir.skills`, as in home-manager's own programs.claude-code; rename it"
          "`programs.claude-code.accounts.source.memory.source` is now `programs.claude-code.accounts.source.context`, as in home-manager's own programs.claude-code; rename it"
          "`programs.claude-code.accounts.text.memory.text` is now `programs.claude-code.accounts.text.context`, as in home-manager's own programs.claude-code; rename it"
        ];
      };
    };
  # A value given in accountDefaults under an old name keeps its priority:
  # the account's own context (or skills) replaces it, as it would the new name's.
  testOlderFormsKeepPriority = {
    expr =
      let
        config =
          (eval {
            modules = [
              {
                programs.claude-code.accountDefaults = {
                  memory.text = "default";
                  skillsDir = ./fixtures/skills;
                };
                programs.claude-code.accounts.max = {
                  context = "own";
                  skills.own = "Own skill.";
                };
              }
            ];
          }).config;
        spec = config.programs.claude-code.accounts.max.spec;
      in
      {
        memory = spec.memory;
        skills = attrNames spec.skills;
        skillsDir = spec ? skillsDir;
      };
    expected = {
      memory.text = "own";
      skills = [ "own" ];
      skillsDir = false;
    };
  };

  # The same for our own old name: accountDefaults.memory gave `context` a
  # definition of normal priority, and the account's own context was joined
  # to it ("x\ny").
  testMemoryDefaultGivesWay = {
    expr =
      (eval {
        modules = [
          {
            programs.claude-code.accountDefaults.memory = "default";
            programs.claude-code.accounts.max.context = "own";
          }
        ];
      }).config.programs.claude-code.accounts.max.spec.memory;
    expected.text = "own";
  };

  # programs.claude-code.accountDefaults: what every account gets; each
  # account's own values win, entry by entry and settings leaf by leaf.
  testAccountDefaults = {
    expr =
      let
        accounts =
          (eval {
            modules = [
              {
                programs.claude-code.accountDefaults = {
                  settings = {
                    model = "sonnet";
                    permissions.allow = [ "Edit" ];
                  };
                  mcpServers.github = {
                    type = "http";
                    url = "https://x/mcp";
                  };
                  hooks."pre.sh" = "#!/bin/sh\n";
                  skills.pdf = "A skill.";
                  singleInstance = false;
                  notify = true;
                  symlinkDirectories = [ "node_modules" ];
                };
              }
              {
                programs.claude-code.accounts = {
                  max = { };
                  work = {
                    settings.model = "opus";
                    settings.permissions.deny = [ "WebFetch" ];
                    mcpServers.github.command = "gh-mcp";
                    mcpServers.jira.url = "https://jira/mcp";
                    singleInstance = true;
                    notify = false;
                    symlinkDirectories = [ ".venv" ];
                  };
                };
              }
            ];
          }).config.programs.claude-code.accounts;
        pick = spec: {
          inherit (spec) settings mcpServers singleInstance;
          notify = spec.notify or null;
          hooks = spec.hooks or null;
          skills = spec.skills;
          inherit (spec.worktree) symlinkDirectories;
        };
      in
      lib.mapAttrs (_: account: pick account.spec) accounts;
    expected = {
      max = {
        settings = {
          model = "sonnet";
          permissions.allow = [ "Edit" ];
        };
        mcpServers.github = {
          type = "http";
          url = "https://x/mcp";
        };
        hooks."pre.sh".text = "#!/bin/sh\n";
        skills.pdf.text = "A skill.";
        singleInstance = false;
        notify = true;
        symlinkDirectories = [ "node_modules" ];
      };
      work = {
        settings = {
          model = "opus";
          permissions = {
            allow = [ "Edit" ];
            deny = [ "WebFetch" ];
          };
        };
        # whole, and as Claude Code takes them (nix/lib/mcp.nix)
        mcpServers = {
          github = {
            type = "stdio";
            command = "gh-mcp";
          };
          jira = {
            type = "http";
            url = "https://jira/mcp";
          };
        };
        hooks."pre.sh".text = "#!/bin/sh\n";
        skills.pdf.text = "A skill.";
        singleInstance = true;
        notify = null; # off: left out of the spec
        symlinkDirectories = [ ".venv" ];
      };
    };
  };
  # A function is called with each account's name; several definitions
  # merge; a priority given in the defaults (lib.mkForce) is kept; home-
  # manager's own top-level settings reach the accounts through it.
  testAccountDefaultsForms = {
    expr =
      let
        accounts =
          (eval {
            upstream = true;
            modules = [
              (
                { config, ... }:
                {
                  programs.claude-code.settings.theme = "dark";
                  programs.claude-code.accountDefaults.settings = config.programs.claude-code.settings;
                }
              )
              {
                programs.claude-code.accountDefaults =
                  { name, ... }:
                  {
                    settings.env.ACCOUNT = name;
                    settings.model = lib.mkForce "haiku";
                  };
              }
              {
                programs.claude-code.accounts = {
                  max.settings.model = "opus";
                  work = { };
                };
              }
            ];
          }).config.programs.claude-code.accounts;
      in
      lib.mapAttrs (_: account: account.spec.settings) accounts;
    expected = {
      max = {
        env.ACCOUNT = "max";
        model = "haiku";
        theme = "dark";
      };
      work = {
        env.ACCOUNT = "work";
        model = "haiku";
        theme = "dark";
      };
    };
  };
  testMkDefaultIsLibs = {
    expr = calib.mkDefault [ 1 ] == lib.mkDefault [ 1 ];
    expected = true;
  };

  # Content dirs are real dirs of per-file links; skills/ a real dir of one
  # link per skill and plugin (a plugin of per-file links loses its commands
  # and agents); layer 1 itself one link.
  testContentDirsRecursive = {
    expr = lib.mapAttrs (_: f: f.recursive or false) (
      lib.filterAttrs (name: _: lib.hasPrefix "/home/u/.claude-max/" name) parity.home.file
    );
    expected = {
      "/home/u/.claude-max/CLAUDE.md" = false;
      "/home/u/.claude-max/account.toml" = false;
      "/home/u/.claude-max/agents" = true;
      "/home/u/.claude-max/declared" = false;
      "/home/u/.claude-max/hooks" = true;
      "/home/u/.claude-max/output-styles" = true;
      "/home/u/.claude-max/rules" = true;
      "/home/u/.claude-max/skills/claude-account-lsp" = false;
      "/home/u/.claude-max/skills/hello" = false;
      "/home/u/.claude-max/skills/pdf" = false;
    };
  };
})
