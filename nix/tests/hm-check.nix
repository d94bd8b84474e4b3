# A real home-manager configuration for the flake's checks: accounts beside
# home-manager's own programs.claude-code, both with package = null (no
# unfree claude-code to build). Its own assertions check the result; the
# module tests (nix/tests/module.nix) evaluate it with stand-ins too.
{ config, lib, ... }:
let
  files = config.home.file;
  has = name: files ? ${name};
in
{
  home = {
    username = "check";
    homeDirectory = "/home/check";
    stateVersion = "25.11";
  };

  programs.git.enable = true;

  programs.claude-code = {
    enable = true;
    package = null;
    settings.theme = "dark";
    accounts = {
      max = {
        package = null;
        settings.model = "opus";
        mcpServers.fs.command = "true";
        commands."git/review" = "Review the diff.\n";
        agents.reviewer = ./fixtures/review.md;
        skills.pdf = ./fixtures/skills/pdf;
        context = ./fixtures/memory.md;
      };
      work = {
        package = null;
        configDir = "~/work/claude";
        settingsMode = "link";
        settings.model = "sonnet";
      };
    };
  };

  assertions = [
    {
      assertion = lib.all has [
        "/home/check/.claude-max/account.toml"
        "/home/check/.claude-max/declared"
        "/home/check/.claude-max/commands"
        "/home/check/.claude-max/agents"
        "/home/check/.claude-max/skills/pdf" # one link per skill, in a real skills/ dir
        "/home/check/.claude-max/CLAUDE.md"
        "/home/check/work/claude/settings.json"
        "/home/check/.claude/settings.json"
      ];
      message = "check: expected home.file entries are missing: ${toString (lib.attrNames files)}";
    }
    {
      assertion =
        !lib.any has [
          "/home/check/.claude-max/settings.json"
          "/home/check/.claude-max/.claude.json"
          "/home/check/.claude-max/.credentials.json"
        ];
      message = "check: a file Claude writes is a home.file link";
    }
    {
      # Nothing here is deprecated or older than the launcher needs.
      assertion = !lib.any (lib.hasInfix "programs.claude-code.accounts") config.warnings;
      message = "check: the accounts warn: ${lib.concatStringsSep "; " config.warnings}";
    }
    {
      assertion = lib.elem "**/claude-runtime/" config.programs.git.ignores;
      message = "check: programs.git.ignores lacks **/claude-runtime/";
    }
    {
      assertion = lib.all (name: lib.any (p: (p.name or "") == name) config.home.packages) [
        "claudemax"
        "claudework"
      ];
      message = "check: a launcher is missing from home.packages";
    }
  ];
}
