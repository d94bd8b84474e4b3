# How `claude-account worktree new` makes an account's worktrees, and
# whether Claude Code's own worktrees go through it.
shared:
{
  name,
  config,
  lib,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;
  inherit (shared) calib;
in
{
  options = {
    worktreeDir = mkOption {
      type = types.str;
      default = ".claude/worktrees";
      example = "~/worktrees/{repo}";
      description = ''
        Where {command}`claude-account worktree new` creates worktrees:
        a path relative to the repository's top level, such as
        `".worktrees"`, or one that starts with `~/`, the home directory;
        `{repo}` is the repository's name, e.g. `"~/worktrees/{repo}"`.
        An absolute path is rejected, as is one with `..`.
      '';
    };

    symlinkDirectories = mkOption {
      type = types.listOf types.str;
      default = [ ];
      example = [ "node_modules" ];
      description = ''
        Directories of the main worktree linked into each new worktree
        instead of being rebuilt there, relative to the top level.
      '';
    };

    sparsePaths = mkOption {
      type = types.listOf types.str;
      default = [ ];
      example = [
        "services/api"
        "libs/common"
      ];
      description = ''
        When not empty, new worktrees are sparse checkouts of these paths.
      '';
    };

    useWorktreeHooks = mkOption {
      type = types.bool;
      default = false;
      example = true;
      description = ''
        Whether Claude Code's own worktrees ({command}`claude --worktree`,
        agents with `isolation: "worktree"`) are made and removed by
        {command}`claude-account hook worktree-create` and
        {command}`worktree-remove`, which the launcher gives each session
        as its `WorktreeCreate` and `WorktreeRemove` hooks (flag settings;
        never written into {file}`settings.json`; Claude Code 2.1.50 or
        later).
      '';
    };

  };
}
