# One account's layer 1 built with builtins only (no nixpkgs): the spec from
# nix/lib, the builder `claude-account generate` itself.
#   nix-build nix/tests/layer1.nix --argstr bin /path/to/claude-account
# The flake's checks pass claudeAccount (the packaged binary) instead.
{
  bin ? null,
  system ? builtins.currentSystem,
  claudeAccount ? builtins.path {
    path = /. + bin;
    name = "claude-account";
  },
}:
let
  l = import ../lib;
  spec = l.mkSpec {
    name = "max";
    claude = "/opt/claude/bin/claude";
    settings = {
      model = "opus";
      permissions = {
        deny = [ "WebFetch" ];
        allow = [
          "Edit"
          "Bash(git diff:*)"
        ];
      };
      statusLine = {
        type = "command";
        command = "git branch --show-current";
        padding = 0;
      };
    };
    mcpServers = {
      github = {
        type = "http";
        url = "https://api.githubcopilot.com/mcp/";
      };
      filesystem = {
        command = "npx";
        args = [
          "-y"
          "@modelcontextprotocol/server-filesystem"
          "/tmp"
        ];
        env.DEBUG = "1";
      };
    };
    commands = {
      "git/worktree-create" = ''
        ---
        description: Create a worktree for a task
        ---
        Run `claude-account worktree new $ARGUMENTS`.
      '';
      review = ./fixtures/review.md;
    };
    agents.code-reviewer = ''
      ---
      name: code-reviewer
      description: Reviews a diff for bugs
      ---
      You review code.
    '';
    skills = {
      pdf = ./fixtures/skills/pdf;
      notes = "---\nname: notes\n---\nKeep notes.\n";
    };
    memory = ./fixtures/memory.md;
    coalesceKeys = [
      "mcpServers"
      "autoUpdates"
    ];
    singleInstance = false;
    projectMcp = "never";
    symlinkDirectories = [ "node_modules" ];
    sparsePaths = [ "src" ];
    # What home-manager's own programs.claude-code declares too.
    rules.style = "Use tabs.\n";
    outputStyles.pirate = ./fixtures/pirate.md;
    hooks."pre-edit.sh" = "#!/bin/sh\necho edit\n";
    plugins.hello = ./fixtures/plugin;
    marketplaces.local = ./fixtures/market;
    lspServers.go = {
      command = "gopls";
      extensionToLanguage.".go" = "go";
    };
  };
in
derivation {
  name = "claude-account-${spec.name}";
  inherit system;
  builder = "${claudeAccount}";
  args = [
    "generate"
    "--spec"
    (builtins.toFile "claude-account-${spec.name}-spec.json" (l.specJSON spec))
    "--out"
    (placeholder "out")
  ];
}
