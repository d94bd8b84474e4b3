# Tests of nix/lib, builtins only (no nixpkgs):
#   nix-instantiate --read-write-mode --eval --strict --json nix/tests/lib.nix
# evaluates to { passed = N; … } or throws listing the failures.
let
  l = import ../lib;
  runTests = import ./harness.nix;
  inherit (builtins) attrNames sort lessThan;

  home = "/home/u";
  # An account name one past the limit (181 characters).
  long = builtins.concatStringsSep "" (builtins.genList (_: "a") 181);
  account = {
    enable = true;
    command = "claudemax";
    configDir = "/home/u/.claude-max";
    commands = { };
    agents = { };
    skills = { };
  };
  problems = accounts: l.accountProblems { inherit home accounts; };

  fullSpec = l.mkSpec {
    name = "max";
    claude = "/opt/claude/bin/claude";
    settings.model = "opus";
    settingsMode = "link";
    mcpServers.github.url = "https://x/mcp";
    commands = {
      "git/new" = "text";
      review = ./fixtures/review.md;
    };
    agents.a = "agent";
    skills.pdf = ./fixtures/skills/pdf;
    memory = "memory";
    coalesceKeys = [ ];
    singleInstance = false;
    notify = true;
    usage = false;
    projectMcp = "never";
    worktreeDir = "wt";
    symlinkDirectories = [ "node_modules" ];
    sparsePaths = [ "src" ];
    useWorktreeHooks = true;
    # Options the spec does not carry are ignored.
    enable = true;
    package = null;
  };
  minimalSpec = l.mkSpec { name = "min"; };
in
runTests {
  # names
  testValidNames = {
    expr = map l.isValidName [
      "max"
      "a"
      "0"
      "work-2"
      "a_b"
      "Max"
      "-x"
      "_x"
      ""
      "a.b"
      "a/b"
      "a b"
      (builtins.concatStringsSep "" (builtins.genList (_: "a") 180))
      (builtins.concatStringsSep "" (builtins.genList (_: "a") 181))
      "auto"
      "autoz"
    ];
    expected = [
      true
      true
      true
      true
      true
      false
      false
      false
      false
      false
      false
      false
      true
      false
      false
      true
    ];
  };
  testDefaultCommand = {
    expr = l.defaultCommand "max";
    expected = "claudemax";
  };
  testValidCommands = {
    expr = map l.isValidCommand [
      "claudemax"
      "claude-work"
      "c.x"
      "c+x"
      ""
      "a b"
      "a/b"
      "."
      ".."
      ".hidden"
      "x;rm"
    ];
    expected = [
      true
      true
      true
      true
      false
      false
      false
      false
      false
      false
      false
    ];
  };
  testEntryNames = {
    expr = map (l.entryNameProblem { }) [
      "review"
      "git/worktree-create"
      ""
      "/etc/x"
      "a//b"
      "a/"
      "./a"
      "a/../b"
      "a\\b"
    ];
    expected = [
      null
      null
      "the name is empty"
      "the name is an absolute path; use a relative name"
      "the name has an empty path segment ('//' or a trailing '/')"
      "the name has an empty path segment ('//' or a trailing '/')"
      ''the name has a "." segment; names stay inside their directory''
      ''the name has a ".." segment; names stay inside their directory''
      "the name holds a backslash, NUL or newline"
    ];
  };
  testSkillNamesOneSegment = {
    expr = map (l.entryNameProblem { oneSegment = true; }) [
      "pdf"
      "a/b"
    ];
    expected = [
      null
      "a skill name is one path segment, without '/'"
    ];
  };
  # What Claude Code refuses in a plugin's manifest name (2.0.77 to 2.1.332:
  # a space; 2.1.332: control and bidirectional-formatting characters) is
  # refused in a plugin's attribute name, which generate writes there;
  # other names take their own rules only.
  testPluginNames =
    let
      char = code: builtins.fromJSON ''"\u${code}"'';
      space = "Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. \"my-pdf-tools\"";
      control = "Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it";
    in
    {
      expr =
        map
          (l.entryNameProblem {
            oneSegment = true;
            plugin = true;
            what = "a plugin name";
          })
          [
            "pdf"
            "my pdf tools"
            "a\tb"
            "a${char "007f"}b"
            "a${char "0085"}b"
            "a${char "009f"}b"
            "a${char "200e"}b"
            "a${char "202e"}b"
            "a${char "2069"}b"
            "Ünï.b"
            "a${char "00a0"}b"
            "a${char "2070"}b"
          ]
        ++ [ ((l.entryNameProblem { }) "my pdf tools") ];
      expected = [
        null
        space
        control
        control
        control
        control
        control
        control
        control
        null
        null
        null
        null
      ];
    };
  testOptionPath = {
    expr = [
      (l.optionPath [ "max" ])
      (l.optionPath [
        "max"
        "commands"
        "git/new"
      ])
      (l.optionPath [ "Max.x" ])
    ];
    expected = [
      "programs.claude-code.accounts.max"
      ''programs.claude-code.accounts.max.commands."git/new"''
      ''programs.claude-code.accounts."Max.x"''
    ];
  };

  # paths
  testNormalizePath = {
    expr = map l.normalizePath [
      "/a//b/./c/../d/"
      "/"
      "/.."
      "/a/../../b"
    ];
    expected = [
      "/a/b/d"
      "/"
      "/"
      "/b"
    ];
  };
  testExpandHome = {
    expr = map (l.expandHome home) [
      "~"
      "~/x"
      "/abs"
      "rel"
      "~other/x"
    ];
    expected = [
      "/home/u"
      "/home/u/x"
      "/abs"
      "rel"
      "~other/x"
    ];
  };
  testIsInside = {
    expr = map (l.isInside home) [
      "/home/u/.claude-max"
      "/home/u/a/b"
      "/home/u"
      "/home/u/"
      "/home/uv/x"
      "/home/u/../v"
      "/etc"
    ];
    expected = [
      true
      true
      false
      false
      false
      false
      false
    ];
  };
  testResolveConfigDir = {
    expr = map (l.resolveConfigDir home) [
      "~/.claude-max"
      "/home/u/x/"
      "relative"
    ];
    expected = [
      "/home/u/.claude-max"
      "/home/u/x"
      null
    ];
  };
  testDefaultConfigDir = {
    expr = l.defaultConfigDir "/home/u/" "max";
    expected = "/home/u/.claude-max";
  };
  testRelativePaths = {
    expr = map l.relativePathProblem [
      ".claude/worktrees"
      "node_modules"
      ""
      "/abs"
      "../x"
      "a/../../x"
      "."
    ];
    expected = [
      null
      null
      "is empty"
      "`/abs` is absolute; give a path relative to the repository's top level"
      "`../x` climbs out of the repository with '..'"
      "`a/../../x` climbs out of the repository with '..'"
      "`.` is the repository's top level itself"
    ];
  };

  # contents
  testIsSource = {
    expr = map l.isSource [
      ./fixtures/review.md
      "${./fixtures/review.md}"
      { outPath = "/nix/store/x-y"; }
      "plain text"
      "/home/u/not-a-store-path"
      "${builtins.storeDir}/but-no-context"
    ];
    expected = [
      true
      true
      true
      false
      false
      false
    ];
  };
  testMkContent = {
    expr = [
      (l.mkContent null)
      (l.mkContent "")
      (l.mkContent "hi\n")
      (builtins.match "${builtins.storeDir}/[a-z0-9]{32}-review.md" (l.mkContent ./fixtures/review.md).source
        != null
      )
    ];
    expected = [
      null
      null
      { text = "hi\n"; }
      true
    ];
  };

  # the spec
  testMinimalSpec = {
    expr = minimalSpec;
    expected = {
      name = "min";
      claude = null;
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
  # notify is in the spec only when on: other accounts keep their store path.
  testNotifyOffLeftOut = {
    expr = l.mkSpec {
      name = "min";
      notify = false;
    } == minimalSpec;
    expected = true;
  };
  # usage is in the spec only when declared, true or false: null leaves
  # account.toml's key out (the launcher records), and the store path as it was.
  testUsageNullLeftOut = {
    expr = {
      null = l.mkSpec {
        name = "min";
        usage = null;
      } == minimalSpec;
      on =
        (l.mkSpec {
          name = "min";
          usage = true;
        }).usage;
    };
    expected = {
      null = true;
      on = true;
    };
  };
  testMinimalSpecJSON = {
    expr = l.specJSON minimalSpec;
    expected = ''{"agents":{},"claude":null,"coalesceKeys":["mcpServers"],"commands":{},"mcpServers":{},"memory":null,"name":"min","projectMcp":"trusted","settings":{},"settingsMode":"coalesce","singleInstance":true,"skills":{},"worktree":{"dir":".claude/worktrees","sparsePaths":[],"symlinkDirectories":[],"useHooks":false}}'';
  };
  testFullSpecFields = {
    expr = attrNames fullSpec;
    expected = [
      "agents"
      "claude"
      "coalesceKeys"
      "commands"
      "mcpServers"
      "memory"
      "name"
      "notify"
      "projectMcp"
      "settings"
      "settingsMode"
      "singleInstance"
      "skills"
      "usage"
      "worktree"
    ];
  };
  testFullSpecValues = {
    expr = {
      inherit (fullSpec)
        claude
        settings
        settingsMode
        mcpServers
        agents
        memory
        coalesceKeys
        singleInstance
        notify
        usage
        projectMcp
        worktree
        ;
      gitNew = fullSpec.commands."git/new";
      reviewIsStorePath = builtins.isString fullSpec.commands.review.source;
      pdfIsStorePath = builtins.match "${builtins.storeDir}/.*-pdf" fullSpec.skills.pdf.source != null;
    };
    expected = {
      claude = "/opt/claude/bin/claude";
      settings.model = "opus";
      settingsMode = "link";
      mcpServers.github.url = "https://x/mcp";
      agents.a.text = "agent";
      memory.text = "memory";
      coalesceKeys = [ ];
      singleInstance = false;
      notify = true;
      usage = false;
      projectMcp = "never";
      worktree = {
        dir = "wt";
        symlinkDirectories = [ "node_modules" ];
        sparsePaths = [ "src" ];
        useHooks = true;
      };
      gitNew.text = "text";
      reviewIsStorePath = true;
      pdfIsStorePath = true;
    };
  };
  testSpecDeterministic = {
    # The same declaration written in another order is the same spec file.
    expr =
      l.specJSON (
        l.mkSpec {
          settings = {
            b = 1;
            a = 2;
          };
          name = "x";
        }
      ) == l.specJSON (
        l.mkSpec {
          name = "x";
          settings = {
            a = 2;
            b = 1;
          };
        }
      );
    expected = true;
  };

  # layers
  testLayer1Entries = {
    expr = [
      (l.layer1Entries minimalSpec)
      (l.layer1Entries fullSpec)
    ];
    expected = [
      [ "account.toml" ]
      [
        ".mcp.json"
        "CLAUDE.md"
        "account.toml"
        "agents"
        "commands"
        "settings.json"
        "skills"
      ]
    ];
  };
  testLayer2LinksMinimal = {
    expr = l.layer2Links minimalSpec;
    expected = {
      "account.toml" = "account.toml";
      declared = "";
    };
  };
  testLayer2LinksFullLinkMode = {
    expr = l.layer2Links fullSpec;
    expected = {
      "account.toml" = "account.toml";
      declared = "";
      commands = "commands";
      agents = "agents";
      "skills/pdf" = "skills/pdf";
      "CLAUDE.md" = "CLAUDE.md";
      "settings.json" = "settings.json";
    };
  };
  testLayer2LinksCoalesceNeverClaudeFiles = {
    # In the default mode no link for a file Claude writes, however much is declared.
    expr = builtins.filter (name: builtins.elem name l.claudeOwnedFiles) (
      attrNames (l.layer2Links (fullSpec // { settingsMode = "coalesce"; }))
    );
    expected = [ ];
  };

  testPluginList = {
    # plugins as a list, home-manager's older form: named by the last path
    # component, the store hash dropped.
    expr = builtins.attrNames
      (l.mkSpec {
        name = "p";
        plugins = [
          ./fixtures/skills/pdf
          "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-formatter"
        ];
      }).plugins;
    expected = [
      "formatter"
      "pdf"
    ];
  };

  # launchers
  testLauncherNeedsWrapper = {
    expr =
      map
        (
          a:
          l.launcherNeedsWrapper (
            {
              name = "max";
              command = "claudemax";
              configDir = "/home/u/.claude-max";
              inherit home;
            }
            // a
          )
        )
        [
          { }
          { configDir = "~/.claude-max"; }
          { configDir = "/home/u/.claude-max/"; }
          { configDir = "/home/u/work/claude"; }
          { command = "cm"; }
        ];
    expected = [
      false
      false
      false
      true
      true
    ];
  };
  testLauncherScriptCustomDir = {
    expr = l.launcherScript {
      name = "max";
      configDir = "~/it's/claude";
      inherit home;
      program = "/nix/store/x-claude-account/bin/claude-account";
    };
    expected = ''
      export CLAUDE_ACCOUNT='max'
      export CLAUDE_ACCOUNT_DIR='/home/u/it'\'''s/claude'
      exec -a 'claudemax' '/nix/store/x-claude-account/bin/claude-account' "$@"
    '';
  };
  testLauncherScriptDefaultDir = {
    expr = l.launcherScript {
      name = "max";
      configDir = "/home/u/.claude-max";
      inherit home;
      program = "/p";
    };
    expected = ''
      export CLAUDE_ACCOUNT='max'
      exec -a 'claudemax' '/p' "$@"
    '';
  };
  testGitIgnores = {
    expr = l.gitIgnores;
    expected = [ "**/claude-runtime/" ];
  };

  # assertions
  testNoProblems = {
    expr = problems {
      max = account;
      work = account // {
        command = "claudework";
        configDir = "~/work/claude";
      };
    };
    expected = [ ];
  };
  testDisabledAccountsAreNotChecked = {
    expr = problems {
      "Bad Name" = account // {
        enable = false;
        configDir = "/etc";
      };
    };
    expected = [ ];
  };
  testProblems = {
    expr = sort lessThan (problems {
      Max = account // {
        command = "claudeMax";
        configDir = "/home/u/.claude-Max";
      };
      ${long} = account // {
        command = "claudelong";
        configDir = "/home/u/long";
      };
      a = account // {
        command = "claudex";
        configDir = "/home/u/a";
      };
      b = account // {
        command = "claudex";
        configDir = "/home/u/b";
      };
      c = account // {
        command = "claudec";
        configDir = "/etc/claude";
      };
      d = account // {
        command = "clauded";
        configDir = "relative/x";
      };
      e = account // {
        command = "claudee";
        configDir = "/home/u/e";
        commands."../x" = "t";
        agents."/abs" = "t";
        skills."a/b" = "t";
      };
      f = account // {
        command = "claude";
        configDir = "/home/u/f";
      };
      g = account // {
        command = "a b";
        configDir = "/home/u/g";
      };
      h = account // {
        command = "claudeh";
        configDir = "/home/u/h";
        worktreeDir = "/abs";
        symlinkDirectories = [ "../up" ];
      };
      i = account // {
        command = "claudei";
        configDir = "~/shared";
      };
      j = account // {
        command = "claudej";
        configDir = "/home/u/shared/";
      };
    });
    expected = sort lessThan [
      "`programs.claude-code.accounts.Max`: the account name `Max` must match [a-z0-9][a-z0-9_-]* (lower-case letters, digits, '-' and '_'); it names the account dir and the launcher"
      "`programs.claude-code.accounts.${long}`: the account name is 181 characters long; the limit is 180 (it is part of each session's id)"
      "`programs.claude-code.accounts.a.command` and `programs.claude-code.accounts.b.command` are both `claudex`; give each account its own command"
      "`programs.claude-code.accounts.c.configDir` is `/etc/claude`, outside the home directory `/home/u`; home-manager links files only below it"
      "`programs.claude-code.accounts.d.configDir` is `relative/x`, a relative path; give an absolute path or one that starts with `~/`"
      ''`programs.claude-code.accounts.e.commands."../x"`: the name has a ".." segment; names stay inside their directory''
      ''`programs.claude-code.accounts.e.agents."/abs"`: the name is an absolute path; use a relative name''
      "`programs.claude-code.accounts.e.skills.\"a/b\"`: a skill name is one path segment, without '/'"
      "`programs.claude-code.accounts.f.command` is `claude`, which another program already uses; pick another name, such as `claudef`"
      "`programs.claude-code.accounts.g.command` is `a b`, not a program name; use letters, digits, '.', '_', '+' and '-'"
      "`programs.claude-code.accounts.h.worktreeDir`: `/abs` is absolute; give a path relative to the repository's top level, or one that starts with `~/`"
      "`programs.claude-code.accounts.h.symlinkDirectories`: `../up` climbs out of the repository with '..'"
      "`programs.claude-code.accounts.i.configDir` and `programs.claude-code.accounts.j.configDir` are both `/home/u/shared`; give each account its own directory"
    ];
  };
  testThreeDuplicates = {
    expr = problems {
      a = account // {
        configDir = "/home/u/a";
      };
      b = account // {
        configDir = "/home/u/b";
      };
      c = account // {
        configDir = "/home/u/c";
      };
    };
    expected = [
      "`programs.claude-code.accounts.a.command`, `programs.claude-code.accounts.b.command` and `programs.claude-code.accounts.c.command` are all `claudemax`; give each account its own command"
    ];
  };
  # identity: in the spec only when declared, with the fields set; the
  # submodule's value (nulls, and the module system's own attributes) is
  # read by field name.
  testIdentityInSpec = {
    expr =
      (l.mkSpec {
        name = "max";
        identity = {
          email = "me@example.com";
          organization = null;
          _module.args = { };
        };
      }).identity;
    expected.email = "me@example.com";
  };
  testIdentityNullLeftOut = {
    expr = l.mkSpec {
      name = "min";
      identity = null;
    } == minimalSpec;
    expected = true;
  };
  testIdentityProblems = {
    expr = problems {
      max = account // {
        identity = {
          email = "boss";
          organization = " Acme";
        };
      };
      pro = account // {
        command = "claudepro";
        configDir = "/home/u/.claude-pro";
        identity = {
          email = null;
          organization = null;
        };
      };
      blank = account // {
        command = "claudeblank";
        configDir = "/home/u/.claude-blank";
        identity = {
          email = "";
          organization = "";
        };
      };
      ok = account // {
        command = "claudeok";
        configDir = "/home/u/.claude-ok";
        identity = {
          email = "me@example.com";
          organization = "00000000-0000-4000-8000-000000000002";
        };
      };
    };
    expected = [
      "`programs.claude-code.accounts.blank.identity.email` is empty; write the address the account logs in with, or leave it null"
      "`programs.claude-code.accounts.blank.identity.organization` is empty; write the organization's name or uuid as Claude Code shows it, or leave it null"
      "`programs.claude-code.accounts.max.identity.email` is `boss`, not an email address; write the address the account logs in with"
      "`programs.claude-code.accounts.max.identity.organization` is ` Acme`, with surrounding spaces or a line break; write the organization's name or uuid as Claude Code shows it"
      "`programs.claude-code.accounts.pro.identity` declares nothing; set `programs.claude-code.accounts.pro.identity.email` and/or `programs.claude-code.accounts.pro.identity.organization` (its name or uuid), or leave it null"
    ];
  };
  testUpstreamConfigDir = {
    expr = l.accountProblems {
      inherit home;
      accounts.max = account // {
        configDir = "~/.claude";
      };
      upstream.configDir = "/home/u/.claude";
    };
    expected = [
      "`programs.claude-code.accounts.max.configDir` is `/home/u/.claude`, the directory of `programs.claude-code.configDir` that home-manager's own Claude Code module manages; give the account its own directory"
    ];
  };
  # Which whole directories evaluation reads (a skills dir, agentsDir, …):
  # a Nix path and sources in the store; never a build output (that would
  # build at evaluation) or a string without context (pure evaluation may
  # not read it): `claude-account generate` checks those.
  testReadableDir =
    let
      drv = derivation {
        name = "skills";
        system = "x86_64-linux";
        builder = "/bin/sh";
      };
      source = builtins.path {
        path = ./fixtures/skills;
        name = "skills";
      };
    in
    {
      expr = map (v: l.readableDir v != null) [
        ./fixtures/skills
        "${./fixtures/skills}"
        "${./fixtures}/skills"
        source
        { outPath = source; }
        drv
        "${drv}/skills"
        "/home/u/skills"
        { }
        null
      ];
      expected = [
        true
        true
        true
        true
        true
        false
        false
        false
        false
        false
      ];
    };
  # An account given upstream's wrapper as its package (issue 30).
  testUpstreamWrapperAsPackage = {
    expr = l.accountProblems {
      inherit home;
      accounts = {
        max = account // {
          package = "/nix/store/00000000000000000000000000000000-claude-code";
        };
        work = account // {
          command = "claudework";
          configDir = "/home/u/.claude-work";
          package = "/nix/store/11111111111111111111111111111111-claude-code-2.1.90";
        };
        path = account // {
          command = "claudepath";
          configDir = "/home/u/.claude-path";
          package = null;
        };
      };
      upstream = {
        configDir = "/home/u/.claude";
        wrapper = "/nix/store/00000000000000000000000000000000-claude-code";
      };
    };
    expected = [
      "`programs.claude-code.accounts.max.package` is home-manager's wrapper of `programs.claude-code.package` (its `finalPackage`), which passes that module's own plugins and MCP servers to every Claude it starts; set it to `config.programs.claude-code.package`, or leave it unset"
    ];
  };
  # The home directory itself as an account dir, however spelled (issue
  # 30): one message that says so, not "outside the home directory", and no
  # other account said to nest in it.
  testConfigDirIsHome = {
    expr = sort lessThan (
      l.accountProblems {
        inherit home;
        accounts = {
          a = account // {
            command = "claudea";
            configDir = "~";
          };
          b = account // {
            command = "claudeb";
            configDir = "/home/u/";
          };
          c = account // {
            command = "claudec";
            configDir = "~/.claude-c/..";
          };
          max = account;
        };
        upstream.configDir = "/home/u/.claude";
      }
    );
    expected = sort lessThan [
      "`programs.claude-code.accounts.a.configDir` is `~`, the home directory itself; give the account a directory of its own below it, such as `~/.claude-a`"
      "`programs.claude-code.accounts.b.configDir` is `/home/u/`, the home directory itself; give the account a directory of its own below it, such as `~/.claude-b`"
      "`programs.claude-code.accounts.c.configDir` is `~/.claude-c/..`, the home directory itself; give the account a directory of its own below it, such as `~/.claude-c`"
      "`programs.claude-code.accounts.a.configDir`, `programs.claude-code.accounts.b.configDir` and `programs.claude-code.accounts.c.configDir` are all `/home/u`; give each account its own directory"
    ];
  };
  # skills given as a directory (a documented form): no entry names to check.
  testSkillsAsPathHasNoProblems = {
    expr = problems {
      max = account // {
        skills = ./fixtures/skills;
      };
    };
    expected = [ ];
  };
  # Every field whose names become paths is checked, each with its own words.
  testEntryNamesOfEveryField = {
    expr = sort lessThan (problems {
      max = account // {
        rules."../r" = "t";
        outputStyles."a/../../o" = "t";
        hooks."../h" = "t";
        plugins."../p" = ./fixtures/plugin;
        plugins."my p" = ./fixtures/plugin;
        marketplaces."m/n" = ./fixtures/market;
      };
      work = account // {
        command = "claudework";
        configDir = "/home/u/.claude-work";
        hooks."sub/h.sh" = "t";
        plugins = [ ./fixtures/plugin ];
      };
    });
    expected = sort lessThan [
      ''`programs.claude-code.accounts.max.rules."../r"`: the name has a ".." segment; names stay inside their directory''
      ''`programs.claude-code.accounts.max.outputStyles."a/../../o"`: the name has a ".." segment; names stay inside their directory''
      "`programs.claude-code.accounts.max.hooks.\"../h\"`: a hook name is one path segment, without '/'"
      "`programs.claude-code.accounts.max.plugins.\"../p\"`: a plugin name is one path segment, without '/'"
      "`programs.claude-code.accounts.max.plugins.\"my p\"`: Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. \"my-p\""
      "`programs.claude-code.accounts.max.marketplaces.\"m/n\"`: a marketplace name is one path segment, without '/'"
      "`programs.claude-code.accounts.work.hooks.\"sub/h.sh\"`: a hook name is one path segment, without '/'"
    ];
  };
  # Names that end up in one directory of the account.
  testSkillPluginClash = {
    expr = sort lessThan (problems {
      max = account // {
        skills = {
          pdf = "skill";
          claude-account-lsp = "skill";
        };
        plugins.pdf = ./fixtures/plugin;
        lspServers.go.command = "gopls";
      };
      work = account // {
        command = "claudework";
        configDir = "/home/u/.claude-work";
        skills = ./fixtures/skills;
        plugins = [
          ./fixtures/plugin
          ./fixtures/skills/pdf
        ];
      };
    });
    expected = sort lessThan [
      "`programs.claude-code.accounts.max.lspServers` (its plugin) and `programs.claude-code.accounts.max.skills.claude-account-lsp` both become `skills/claude-account-lsp/` in the account dir; give each its own name"
      "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills.pdf` both become `skills/pdf/` in the account dir; give each its own name"
      "`programs.claude-code.accounts.work.plugins` (`${toString ./fixtures/skills/pdf}`) and `programs.claude-code.accounts.work.skills` (`${toString ./fixtures/skills}/pdf`) both become `skills/pdf/` in the account dir; give each its own name"
    ];
  };
  testContentAndDirClash = {
    expr = sort lessThan (problems {
      max = account // {
        commands = {
          review = "mine";
          "git/new" = "mine";
          other = "fine";
        };
        commandsDir = ./fixtures/commands;
        agents.review = "mine";
        agentsDir = ./fixtures/commands;
        rules.review = "fine: rulesDir is not a Nix path";
        rulesDir = "/nix/store/00000000000000000000000000000000-rules";
        hooks."review.md" = "mine";
        hooksDir = ./fixtures/commands;
      };
    });
    expected = sort lessThan [
      ''`programs.claude-code.accounts.max.commands."git/new"` and `programs.claude-code.accounts.max.commandsDir` both declare `commands/git/new.md`; keep one of them''
      "`programs.claude-code.accounts.max.commands.review` and `programs.claude-code.accounts.max.commandsDir` both declare `commands/review.md`; keep one of them"
      "`programs.claude-code.accounts.max.agents.review` and `programs.claude-code.accounts.max.agentsDir` both declare `agents/review.md`; keep one of them"
      ''`programs.claude-code.accounts.max.hooks."review.md"` and `programs.claude-code.accounts.max.hooksDir` both declare `hooks/review.md`; keep one of them''
    ];
  };
  # The same clashes in directories given as strings of sources in the
  # store, which evaluation reads too (issue 30); a build output is left to
  # `claude-account generate`.
  testClashesInStringDirs = {
    expr = sort lessThan (problems {
      max = account // {
        skills = "${./fixtures/skills}";
        plugins.pdf = ./fixtures/plugin;
        agents.review = "mine";
        agentsDir = "${./fixtures/commands}";
      };
      work = account // {
        command = "claudework";
        configDir = "/home/u/.claude-work";
        skills = "${derivation { name = "skills"; system = "x86_64-linux"; builder = "/bin/sh"; }}";
        plugins.pdf = ./fixtures/plugin;
      };
    });
    expected = sort lessThan [
      "`programs.claude-code.accounts.max.agents.review` and `programs.claude-code.accounts.max.agentsDir` both declare `agents/review.md`; keep one of them"
      "`programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`${./fixtures/skills}/pdf`) both become `skills/pdf/` in the account dir; give each its own name"
    ];
  };
  # Account dirs inside each other or inside Claude Code's own directory.
  testNestedDirs = {
    expr = sort lessThan (problems {
      max = account;
      inner = account // {
        command = "claudeinner";
        configDir = "~/.claude-max/inner";
      };
      deep = account // {
        command = "claudedeep";
        configDir = "~/.claude-max/inner/deep";
      };
      home = account // {
        command = "claudehome";
        configDir = "~/.claude/work";
      };
      own = account // {
        command = "claudeown";
        configDir = "~/.claude";
      };
    });
    expected = sort lessThan [
      "`programs.claude-code.accounts.inner.configDir` is `/home/u/.claude-max/inner`, inside `/home/u/.claude-max`, the directory of `programs.claude-code.accounts.max.configDir`; account dirs must not nest, so move one out of the other"
      "`programs.claude-code.accounts.deep.configDir` is `/home/u/.claude-max/inner/deep`, inside `/home/u/.claude-max`, the directory of `programs.claude-code.accounts.max.configDir`; account dirs must not nest, so move one out of the other"
      "`programs.claude-code.accounts.deep.configDir` is `/home/u/.claude-max/inner/deep`, inside `/home/u/.claude-max/inner`, the directory of `programs.claude-code.accounts.inner.configDir`; account dirs must not nest, so move one out of the other"
      "`programs.claude-code.accounts.home.configDir` is `/home/u/.claude/work`, inside `/home/u/.claude`, the directory of `programs.claude-code.accounts.own.configDir`; account dirs must not nest, so move one out of the other"
      "`programs.claude-code.accounts.home.configDir` is `/home/u/.claude/work`, inside `/home/u/.claude`, Claude Code's own directory; give the account a directory outside it"
    ];
  };
  testNestedInUpstreamConfigDir = {
    expr = sort lessThan (l.accountProblems {
      inherit home;
      accounts = {
        max = account // {
          configDir = "~/.config/claude/max";
        };
        work = account // {
          command = "claudework";
          configDir = "~/.claude-work";
        };
      };
      upstream.configDir = "/home/u/.claude-work/up";
    });
    expected = sort lessThan [
      "`programs.claude-code.configDir` is `/home/u/.claude-work/up`, inside `/home/u/.claude-work`, the directory of `programs.claude-code.accounts.work.configDir`; keep home-manager's own Claude Code directory out of the account's"
    ];
  };
  # A home.file entry for a file Claude and the launcher write.
  testHandWrittenClaudeFiles = {
    expr = sort lessThan (l.accountProblems {
      inherit home;
      accounts = {
        max = account;
        link = account // {
          command = "claudelink";
          configDir = "/home/u/.claude-link";
          settingsMode = "link";
          settings.model = "opus";
        };
      };
      files = [
        "/home/u/.claude-max/settings.json"
        "/home/u/.claude-max/.claude.json"
        "/home/u/.claude-max/.credentials.json"
        "/home/u/.claude-max/commands/extra.md"
        "/home/u/.claude-link/settings.json"
      ];
    });
    expected = sort lessThan [
      "`home.file` links `/home/u/.claude-max/settings.json`, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); declare it with `programs.claude-code.accounts.max.settings` instead"
      "`home.file` links `/home/u/.claude-max/.claude.json`, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); declare it with `programs.claude-code.accounts.max.mcpServers` and `programs.claude-code.accounts.max.coalesceKeys` instead"
      "`home.file` links `/home/u/.claude-max/.credentials.json`, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); remove the entry and log in once with `claudemax`"
    ];
  };
  # What each Claude Code release shares (DESIGN.md facts 13-14): the rows
  # not shared, for the releases either side of every boundary.
  testDegradedRows = {
    expr = map (version: map (row: row.row) (l.degradedRows { inherit version; })) [
      "2.0.77"
      "2.1.15"
      "2.1.16"
      "2.1.37"
      "2.1.38"
      "2.1.41"
      "2.1.42"
      "2.1.62"
      "2.1.63"
      "2.1.143"
      "2.1.144"
      "2.1.330"
    ];
    expected = [
      [ "task list" "memory" "plugins" "memory per repository" "login" ]
      [ "task list" "memory" "plugins" "memory per repository" "login" ]
      [ "memory" "plugins" "memory per repository" "login" ]
      [ "memory" "plugins" "memory per repository" "login" ]
      [ "plugins" "memory per repository" "login" ]
      [ "plugins" "memory per repository" "login" ]
      [ "memory per repository" "login" ]
      [ "memory per repository" "login" ]
      [ "login" ]
      [ "login" ]
      [ ]
      [ ]
    ];
  };
  testDegradedRowsDeclaredPlugins = {
    expr = map (version: map (row: row.since) (l.degradedRows {
      inherit version;
      declaresPlugins = true;
    })) [ "2.1.144" "2.1.156" "2.1.157" ];
    expected = [
      [ "2.1.157" ]
      [ "2.1.157" ]
      [ ]
    ];
  };
  # What a release does with declared plugins (issue 42): before 2.0.77 not
  # loaded; to 2.1.156 passed with --plugin-dir by the launcher; from
  # 2.1.157 loaded from skills/ (no row).
  testDegradedRowsPluginsPerRelease = {
    expr = map (version: map (row: "${row.since}: ${row.before}") (
      builtins.filter (row: row.row == "plugins and lspServers declared here") (l.degradedRows {
        inherit version;
        declaresPlugins = true;
      })
    )) [ "2.0.76" "2.0.77" "2.1.90" "2.1.156" "2.1.157" ];
    expected = [
      [ "2.0.77: Claude Code does not load them" ]
      [ "2.1.157: the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)" ]
      [ "2.1.157: the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)" ]
      [ "2.1.157: the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)" ]
      [ ]
    ];
  };
  # The launcher's own table (internal/claudever/features.go) draws every
  # boundary where nix/lib does.
  # generate (for a spec not made here) refuses plugin names in the words
  # of names.nix: each message, up to the name it suggests, is in its source.
  testPluginNameWordsAgreeWithGenerate = {
    expr =
      let
        go = builtins.readFile ../../internal/generate/specfields.go;
        control = l.pluginNameProblem "a\tb";
        space = builtins.head (builtins.split " e\\.g\\. " (l.pluginNameProblem "a b"));
      in
      map (m: builtins.match ".*${builtins.replaceStrings [ "." "(" ")" ] [ "\\." "\\(" "\\)" ] m}.*" go != null) [
        control
        space
      ];
    expected = [
      true
      true
    ];
  };
  testReleasesAgreeWithLauncher = {
    expr =
      let
        go = builtins.readFile ../../internal/claudever/features.go;
        found = builtins.filter builtins.isList (
          builtins.split "([A-Za-z]+) = V\\(([0-9]+), ([0-9]+), ([0-9]+)\\)" go
        );
        launcher = builtins.listToAttrs (
          map (m: {
            name = builtins.elemAt m 0;
            value = builtins.concatStringsSep "." (builtins.tail m);
          }) found
        );
      in
      map (row: {
        inherit (row) row since;
        launcher = launcher.${row.go} or "missing in internal/claudever/features.go";
      }) (l.sharingReleases ++ [ l.personalPluginsRelease l.pluginDirRelease ]);
    expected = map (row: {
      inherit (row) row since;
      launcher = row.since;
    }) (l.sharingReleases ++ [ l.personalPluginsRelease l.pluginDirRelease ]);
  };
  testClaudeVersion = {
    expr = map l.claudeVersion [
      null
      { version = "2.1.90"; name = "claude-code-2.1.90"; }
      { name = "claude-code-bin-2.1.63"; }
      { name = "claude-code"; }
      { version = ""; name = "claude-code"; }
      "/nix/store/00000000000000000000000000000000-claude-code-2.1.90"
    ];
    expected = [
      null
      "2.1.90"
      "2.1.63"
      null
      null
      null
    ];
  };
  testVersionWarning = {
    expr = l.versionWarning {
      name = "max";
      package = { version = "2.1.90"; };
      declaresPlugins = true;
    };
    expected = ''
      `programs.claude-code.accounts.max.package` is Claude Code 2.1.90, which shares less of the account than the launcher can:
        - login: from Claude Code 2.1.144 (CLAUDE_SECURESTORAGE_CONFIG_DIR); before it, on Linux the launcher keeps a copy of the account's login in each worktree's runtime, and on macOS each worktree logs in on its own
        - plugins and lspServers declared here: from Claude Code 2.1.157 (personal plugins in skills/); before it, the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)
      Give this account Claude Code 2.1.157 or later (its `package`, or `programs.claude-code.package`); `claude-account doctor` shows what a launch shares.'';
  };
  testVersionWarningEveryRow = {
    expr = l.versionWarning {
      name = "old";
      package = { name = "claude-code-2.0.77"; };
    };
    expected = ''
      `programs.claude-code.accounts.old.package` is Claude Code 2.0.77, which shares less of the account than the launcher can:
        - task list: from Claude Code 2.1.16 (CLAUDE_CODE_TASK_LIST_ID); before it, each session keeps a task list of its own
        - memory: from Claude Code 2.1.38 (CLAUDE_CODE_REMOTE_MEMORY_DIR); before it, auto-memory is not kept outside git (and 2.0.x has no auto-memory)
        - plugins: from Claude Code 2.1.42 (CLAUDE_CODE_PLUGIN_CACHE_DIR); before it, a plugin installed in one worktree is not shared with the others
        - memory per repository: from Claude Code 2.1.63; before it, each worktree keeps its own auto-memory
        - login: from Claude Code 2.1.144 (CLAUDE_SECURESTORAGE_CONFIG_DIR); before it, on Linux the launcher keeps a copy of the account's login in each worktree's runtime, and on macOS each worktree logs in on its own
      Give this account Claude Code 2.1.144 or later (its `package`, or `programs.claude-code.package`); `claude-account doctor` shows what a launch shares.'';
  };
  testNoVersionWarning = {
    expr = map l.versionWarning [
      { name = "max"; package = null; }
      { name = "max"; package = { name = "claude-code"; }; }
      { name = "max"; package = { version = "2.1.144"; }; }
      { name = "max"; package = { version = "2.1.330"; }; declaresPlugins = true; }
    ];
    expected = [ null null null null ];
  };
  # Given the account's option names, a name that is none of them keeps its
  # value as written, for the module system's "does not exist" to show
  # (issue 30); through mkIf too.
  testAccountDefaultsUnknownOption = {
    expr = l.accountDefaultsOf [ "settings" "singleInstance" ] {
      setings.model = "opus";
      singleInstance = false;
      settings.model = "opus";
      also = {
        _type = "if";
        condition = true;
        content = 1;
      };
    };
    expected = {
      setings.model = "opus";
      singleInstance = l.mkDefault false;
      settings.model = l.mkDefault "opus";
      also = {
        _type = "if";
        condition = true;
        content = 1;
      };
    };
  };
  # accountDefaults: every value a default (lib.mkDefault), per entry of a
  # set of entries and per leaf of settings; a priority given is kept.
  testAccountDefaults = {
    expr = l.accountDefaults {
      settings = {
        model = "sonnet";
        permissions.allow = [ "Edit" ];
        env = { };
        forced = {
          _type = "override";
          priority = 50;
          content = "mine";
        };
      };
      mcpServers.github = {
        type = "http";
        url = "u";
      };
      plugins = [ "/p" ];
      singleInstance = false;
      symlinkDirectories = [ "node_modules" ];
      hooks = {
        _type = "if";
        condition = true;
        content."pre.sh" = "x";
      };
    };
    expected = {
      settings = {
        model = l.mkDefault "sonnet";
        permissions.allow = l.mkDefault [ "Edit" ];
        env = l.mkDefault { };
        forced = {
          _type = "override";
          priority = 50;
          content = "mine";
        };
      };
      mcpServers.github = l.mkDefault {
        type = "http";
        url = "u";
      };
      plugins = l.mkDefault [ "/p" ];
      singleInstance = l.mkDefault false;
      symlinkDirectories = l.mkDefault [ "node_modules" ];
      hooks = {
        _type = "if";
        condition = true;
        content."pre.sh" = l.mkDefault "x";
      };
    };
  };
  testMkDefaultShape = {
    expr = l.mkDefault 1;
    expected = {
      _type = "override";
      priority = 1000;
      content = 1;
    };
  };
  testAccountAssertionsShape = {
    expr = l.accountAssertions {
      inherit home;
      accounts.max = account // {
        configDir = "/tmp/x";
      };
    };
    expected = [
      {
        assertion = false;
        message = "`programs.claude-code.accounts.max.configDir` is `/tmp/x`, outside the home directory `/home/u`; home-manager links files only below it";
      }
    ];
  };

  # The options home-manager's own programs.claude-code has too.
  testParityFieldsOnlyWhenSet = {
    # An account without them keeps its spec, and so its store path.
    expr = l.parityFields { name = "max"; };
    expected = { };
  };
  testParityFields = {
    expr = l.parityFields {
      rules.style = "Use tabs.";
      outputStyles.pirate = "Arr.";
      hooks."pre.sh" = "#!/bin/sh";
      plugins.hello = "/nix/store/00000000000000000000000000000000-hello";
      marketplaces.local = "/nix/store/00000000000000000000000000000000-market";
      lspServers.go.command = "gopls";
      agentsDir = "/nix/store/00000000000000000000000000000000-agents";
      commandsDir = null;
      skills = "/nix/store/00000000000000000000000000000000-skills";
    };
    expected = {
      rules.style.text = "Use tabs.";
      outputStyles.pirate.text = "Arr.";
      hooks."pre.sh".text = "#!/bin/sh";
      plugins.hello.source = "/nix/store/00000000000000000000000000000000-hello";
      marketplaces.local.source = "/nix/store/00000000000000000000000000000000-market";
      lspServers.go.command = "gopls";
      agentsDir.source = "/nix/store/00000000000000000000000000000000-agents";
      skillsDir.source = "/nix/store/00000000000000000000000000000000-skills";
    };
  };
  testParityLayerEntries = {
    expr =
      let
        spec =
          minimalSpec
          // {
            rules.a.text = "x";
            outputStyles.b.text = "y";
            hooksDir.source = "/x";
            plugins.p.source = "/p";
            marketplaces.m.source = "/m";
          };
      in
      {
        layer1 = l.layer1Entries spec;
        layer2 = attrNames (l.layer2Links spec);
      };
    expected = {
      layer1 = [
        "account.toml"
        "hooks"
        "output-styles"
        "rules"
        "settings.json"
        "skills"
      ];
      layer2 = [
        "account.toml"
        "declared"
        "hooks"
        "output-styles"
        "rules"
        "skills/p"
      ];
    };
  };
  # nix/lib/mcp.nix, builtins only: the account's servers win by name over
  # programs.mcp's, and a disabled server is named, not run.
  testMcpAccount = {
    expr = l.mcpAccount {
      name = "max";
      launcher = "/bin/claude-account";
      own = {
        a.command = "own-a";
        b = {
          url = "https://b";
          enabled = false;
        };
      };
      shared = {
        a = {
          command = "shared-a";
          args = [ ];
          env = { };
          url = null;
        };
        c = {
          url = null;
          serverUrl = "https://c";
          disabled = false;
        };
      };
    };
    expected = {
      servers = {
        a = {
          type = "stdio";
          command = "own-a";
        };
        c = {
          type = "http";
          url = "https://c";
        };
      };
      disabled = [ "b" ];
      problems = [ ];
    };
  };
  testMcpSettings = {
    expr = {
      merged = l.mcpSettings {
        model = "opus";
        disabledMcpjsonServers = [
          "x"
          "b"
        ];
      } [ "b" "c" ];
      none = l.mcpSettings { model = "opus"; } [ ];
      notAList = l.mcpSettings { disabledMcpjsonServers = "x"; } [ "b" ];
    };
    expected = {
      merged = {
        model = "opus";
        disabledMcpjsonServers = [
          "x"
          "b"
          "c"
        ];
      };
      none.model = "opus";
      notAList.disabledMcpjsonServers = "x";
    };
  };
}
