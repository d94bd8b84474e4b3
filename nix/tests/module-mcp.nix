# An account's MCP servers (nix/lib/mcp.nix) through the real lib.evalModules:
# every value home-manager's own programs.claude-code.mcpServers takes either
# reaches the spec as Claude Code takes it, or fails evaluation naming the
# option and the fix; enableMcpIntegration with a stand-in of programs.mcp
# (module-upstream.nix uses home-manager's real one).
#   NIXPKGS_LIB=/path/to/nixpkgs/lib nix-instantiate --eval --strict --json nix/tests/module-mcp.nix
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
}:
let
  runTests = import ./harness.nix;
  pkgs = import ./stubs/pkgs.nix { inherit lib; };
  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  eval = modules: (evalModule { modules = [ ../modules/claude-code ] ++ modules; }).config;
  failed = config: map (a: a.message) (builtins.filter (a: !a.assertion) config.assertions);
  exe = "${pkgs.claude-account}/bin/claude-account";

  # The account max with `account`: its spec, and the failed assertions.
  max = account: eval [ { programs.claude-code.accounts.max = account; } ];
  serversOf = account: (max account).programs.claude-code.accounts.max.spec.mcpServers;
  refusals = account: failed (max account);
  path = "programs.claude-code.accounts.max.mcpServers";

  # home-manager's programs.mcp, as far as this module reads it: its
  # servers submodule sets every option it declares (null, [ ], { }).
  programsMcp = {
    options.programs.mcp = {
      enable = lib.mkEnableOption "mcp";
      servers = lib.mkOption {
        type = lib.types.attrsOf lib.types.anything;
        default = { };
      };
    };
  };
  unset = {
    command = null;
    args = [ ];
    env = { };
    url = null;
    headers = { };
    enabled = null;
  };
  shared = {
    programs.mcp = {
      enable = true;
      servers = {
        fs = unset // {
          command = "mcp-fs";
          args = [ "/tmp" ];
        };
        remote = unset // {
          url = "https://r/mcp";
        };
        both = unset // {
          command = "shared-both";
        };
        off = unset // {
          command = "off";
          enabled = false;
        };
      };
    };
  };
  sharedExpected = {
    fs = {
      type = "stdio";
      command = "mcp-fs";
      args = [ "/tmp" ];
    };
    remote = {
      type = "http";
      url = "https://r/mcp";
    };
    both = {
      type = "stdio";
      command = "own-both";
    };
  };
in
runTests {
  # The issue's first measure: no type and a url is an http server.
  testUrlWithoutTypeIsHttp = {
    expr = serversOf { mcpServers.s.url = "http://127.0.0.1:9/mcp"; };
    expected.s = {
      type = "http";
      url = "http://127.0.0.1:9/mcp";
    };
  };
  testServerUrlIsRenamedUrl = {
    expr = serversOf { mcpServers.s.serverUrl = "https://x/mcp"; };
    expected.s = {
      type = "http";
      url = "https://x/mcp";
    };
  };
  testCommandWithoutTypeIsStdio = {
    expr = serversOf { mcpServers.s.command = "srv"; };
    expected.s = {
      type = "stdio";
      command = "srv";
    };
  };
  testDeclaredTypesKept = {
    expr = serversOf {
      mcpServers = {
        w = {
          type = "ws";
          url = "wss://w/mcp";
        };
        e = {
          type = "sse";
          url = "https://e/sse";
          headers.X = "y";
        };
      };
    };
    expected = {
      w = {
        type = "ws";
        url = "wss://w/mcp";
      };
      e = {
        type = "sse";
        url = "https://e/sse";
        headers.X = "y";
      };
    };
  };
  # Claude's schema takes strings only: 2.0.77 drops every server of the
  # file over one number, 2.1.332 skips that server.
  testNumbersAndBooleansBecomeStrings = {
    expr = serversOf {
      mcpServers.s = {
        command = "srv";
        args = [
          "--port"
          8080
          true
        ];
        env = {
          PORT = 8080;
          DEBUG = false;
          RATIO = 1.5;
          NAME = "x";
        };
      };
    };
    expected.s = {
      type = "stdio";
      command = "srv";
      args = [
        "--port"
        "8080"
        "true"
      ];
      env = {
        PORT = "8080";
        DEBUG = "false";
        RATIO = "1.5";
        NAME = "x";
      };
    };
  };
  testHeaderNumbersBecomeStrings = {
    expr = serversOf {
      mcpServers.s = {
        url = "https://x/mcp";
        headers = {
          X-Port = 8080;
          X-Key = "k";
        };
      };
    };
    expected.s = {
      type = "http";
      url = "https://x/mcp";
      headers = {
        X-Port = "8080";
        X-Key = "k";
      };
    };
  };
  testRefusesHeaderList = {
    expr = refusals {
      mcpServers.s = {
        url = "https://x/mcp";
        headers.X = [ "a" ];
      };
    };
    expected = [ "`${path}.s.headers.X` is a list; give a string" ];
  };
  # The issue's second measure: the secret is read when the server starts.
  testEnvFileRunsThroughMcpEnv = {
    expr = serversOf {
      mcpServers.s = {
        command = "srv";
        args = [ "-v" ];
        env = {
          TOKEN.file = "/run/secrets/t";
          OTHER.file = "/run/agenix/o";
          LEVEL = "debug";
        };
      };
    };
    expected.s = {
      type = "stdio";
      command = exe;
      args = [
        "mcp-env"
        "OTHER=/run/agenix/o"
        "TOKEN=/run/secrets/t"
        "--"
        "srv"
        "-v"
      ];
      env.LEVEL = "debug";
    };
  };
  testEnvFileOnlyLeavesNoEnv = {
    expr = serversOf {
      mcpServers.s = {
        command = "srv";
        env.TOKEN.file = "/run/secrets/t";
      };
    };
    expected.s = {
      type = "stdio";
      command = exe;
      args = [
        "mcp-env"
        "TOKEN=/run/secrets/t"
        "--"
        "srv"
      ];
    };
  };
  testDisabledServersLeftOutAndNamed =
    let
      account = max {
        settings.disabledMcpjsonServers = [
          "project-one"
          "a"
        ];
        mcpServers = {
          a = {
            command = "a";
            enabled = false;
          };
          b = {
            disabled = true;
          };
          c = {
            command = "c";
            enabled = true;
            disabled = false;
          };
        };
      };
    in
    {
      expr = {
        inherit (account.programs.claude-code.accounts.max.spec) mcpServers;
        inherit (account.programs.claude-code.accounts.max.spec.settings) disabledMcpjsonServers;
        failed = failed account;
      };
      expected = {
        mcpServers.c = {
          type = "stdio";
          command = "c";
        };
        disabledMcpjsonServers = [
          "project-one"
          "a"
          "b"
        ];
        failed = [ ];
      };
    };
  testNoDisabledServerNoSettingsKey = {
    expr = (max { mcpServers.s.command = "s"; }).programs.claude-code.accounts.max.spec.settings;
    expected = { };
  };

  testIntegrationJoinsProgramsMcp = {
    expr =
      (eval [
        programsMcp
        shared
        {
          programs.claude-code.accounts.max = {
            enableMcpIntegration = true;
            mcpServers.both.command = "own-both";
          };
        }
      ]).programs.claude-code.accounts.max.spec;
    expected = (max { }).programs.claude-code.accounts.max.spec // {
      mcpServers = sharedExpected;
      settings.disabledMcpjsonServers = [ "off" ];
    };
  };
  testIntegrationOffByDefault = {
    expr =
      (eval [
        programsMcp
        shared
        { programs.claude-code.accounts.max = { }; }
      ]).programs.claude-code.accounts.max.spec.mcpServers;
    expected = { };
  };
  testIntegrationNeedsProgramsMcpEnabled = {
    expr =
      (eval [
        programsMcp
        shared
        { programs.mcp.enable = lib.mkForce false; }
        { programs.claude-code.accounts.max.enableMcpIntegration = true; }
      ]).programs.claude-code.accounts.max.spec.mcpServers;
    expected = { };
  };
  testIntegrationThroughAccountDefaults = {
    expr =
      (eval [
        programsMcp
        shared
        {
          programs.claude-code.accountDefaults.enableMcpIntegration = true;
          programs.claude-code.accounts.max.mcpServers.both.command = "own-both";
        }
      ]).programs.claude-code.accounts.max.spec.mcpServers;
    expected = sharedExpected;
  };
  # Without home-manager's programs.mcp (this module alone) there is none.
  testIntegrationWithoutProgramsMcp = {
    expr = serversOf {
      enableMcpIntegration = true;
      mcpServers.s.command = "s";
    };
    expected.s = {
      type = "stdio";
      command = "s";
    };
  };

  testRefusesWebsocket = {
    expr = refusals {
      mcpServers.s = {
        type = "websocket";
        url = "wss://example.com/mcp";
      };
    };
    expected = [ "`${path}.s.type` is \"websocket\", which Claude Code does not take; write \"ws\"" ];
  };
  testRefusesUnknownType = {
    expr = refusals {
      mcpServers.s = {
        type = "grpc";
        url = "x";
      };
    };
    expected = [
      "`${path}.s.type` is \"grpc\", which Claude Code does not take; give one of \"stdio\", \"http\", \"sse\" or \"ws\""
    ];
  };
  testRefusesStdioWithoutCommand = {
    expr = refusals { mcpServers.s.args = [ "-v" ]; };
    expected = [
      "`${path}.s` is a stdio server without `command`; give the program to run as `command`, or the server's `url` (with `type = \"http\"`, \"sse\" or \"ws\") for a remote one"
    ];
  };
  testRefusesRemoteWithoutUrl = {
    expr = refusals { mcpServers.s.type = "sse"; };
    expected = [ "`${path}.s` is a server of type \"sse\" without `url`; give the server's address as `url`" ];
  };
  # What the launcher would refuse at every launch (internal/mcp).
  testRefusesEmptyCommandAndUrl = {
    expr = refusals {
      mcpServers = {
        c.command = "";
        u = {
          type = "sse";
          url = "";
        };
      };
    };
    expected = [
      "`${path}.c.command` is empty; give the program to run"
      "`${path}.u.url` is empty; give the server's address"
    ];
  };
  testRefusesFileOnRemote = {
    expr = refusals {
      mcpServers.s = {
        url = "https://x/mcp";
        env.TOKEN.file = "/run/secrets/t";
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file`: Claude Code starts no process for a server of type \"http\", so nothing reads the file; pass the secret in a header printed by a `headersHelper` command instead"
    ];
  };
  testRefusesRelativeFile = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = "run/t";
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file` is \"run/t\", not an absolute path; give the secret's absolute path"
    ];
  };
  testRefusesFileAsNixPath = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = ./fixtures/memory.md;
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file` is a path; give the secret's path as a string (\"/run/secrets/…\"): a Nix path would copy the secret into the store"
    ];
  };
  # A secret in the store is readable by every user of the machine: an
  # interpolated Nix path (string context) and a flake's own file as
  # `toString ./secrets/token` gives it (a store path without context) are
  # refused like a bare Nix path.
  testRefusesFileInStoreInterpolated = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = "${./fixtures/memory.md}";
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file` names a file in the Nix store, which every user can read; give the path where sops-nix or agenix deploy the secret outside the store (\"/run/secrets/…\"), not a file of your configuration"
    ];
  };
  testRefusesFileInStoreWithoutContext = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = "${builtins.storeDir}/00000000000000000000000000000000-source/secrets/token";
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file` names a file in the Nix store, which every user can read; give the path where sops-nix or agenix deploy the secret outside the store (\"/run/secrets/…\"), not a file of your configuration"
    ];
  };
  # A string that carries a store path's context is built from it: refused
  # wherever it points.
  testRefusesFileWithContextOutsideStore = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = "/run/secrets/t" + builtins.substring 0 0 "${./fixtures/memory.md}";
      };
    };
    expected = [
      "`${path}.s.env.TOKEN.file` names a file in the Nix store, which every user can read; give the path where sops-nix or agenix deploy the secret outside the store (\"/run/secrets/…\"), not a file of your configuration"
    ];
  };
  # Only the store itself: a directory whose name starts like it is not.
  testFileBesideStoreAccepted = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.TOKEN.file = "${builtins.storeDir}-secrets/t";
      };
    };
    expected = [ ];
  };
  # mcp-env refuses an empty variable name at every start of the server.
  testRefusesEmptyVariableName = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env."".file = "/run/secrets/t";
      };
    };
    expected = [ "`${path}.s.env.\"\"` has an empty name; name the variable the server reads" ];
  };
  # A Nix path as a literal value is not a secret reference: the variable
  # holds the path of the file's copy in the store, as home-manager's own
  # module gives it (a configuration file, say).
  testEnvNixPathIsStorePath = {
    expr =
      let
        s = (serversOf {
          mcpServers.s = {
            command = "s";
            env.CONFIG = ./fixtures/memory.md;
          };
        }).s;
      in
      builtins.match "${builtins.storeDir}/[a-z0-9]{32}-memory.md" (builtins.unsafeDiscardStringContext "${s.env.CONFIG}") != null;
    expected = true;
  };
  testRefusesEnvList = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        env.X = [ "a" ];
      };
    };
    expected = [
      "`${path}.s.env.X` is a list; give a string, or `{ file = \"/run/secrets/…\"; }` for a secret read when the server starts"
    ];
  };
  testRefusesArgsObject = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        args = [ { a = 1; } ];
      };
    };
    expected = [ "`${path}.s.args` item 1 is an attribute set; give a string" ];
  };
  testRefusesEnabledNotBool = {
    expr = refusals {
      mcpServers.s = {
        command = "s";
        enabled = "no";
      };
    };
    expected = [ "`${path}.s.enabled` is \"no\"; set it to true or false" ];
  };
  # A disabled server never reaches Claude: its shape is not checked.
  testDisabledServerNotChecked = {
    expr = refusals {
      mcpServers.s = {
        type = "websocket";
        enabled = false;
      };
    };
    expected = [ ];
  };
  testRefusesProgramsMcpServerByItsPath = {
    expr = failed (eval [
      programsMcp
      {
        programs.mcp = {
          enable = true;
          servers.bad = unset // {
            url = "wss://x";
            type = "websocket";
          };
        };
        programs.claude-code.accounts.max.enableMcpIntegration = true;
      }
    ]);
    expected = [
      "`programs.mcp.servers.bad.type` is \"websocket\", which Claude Code does not take; write \"ws\""
    ];
  };
}
