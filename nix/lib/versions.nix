# Which Claude Code release each row of the sharing table needs: the
# launcher shares them per account through variables that Claude Code
# honours only from a given release (DESIGN.md facts 13-14, measured on the
# releases either side of each boundary). The module warns at
# `home-manager switch` when an account's package is older.
self:
let
  inherit (builtins)
    compareVersions
    concatStringsSep
    filter
    foldl'
    isAttrs
    isString
    length
    parseDrvName
    sort
    ;
in
{
  # One entry per row: `since` is the first release that shares it, `how`
  # the variable (if one), `before` what a user gets on an older release,
  # `go` the launcher's name for the same boundary in
  # internal/claudever/features.go (nix/tests/lib.nix checks they agree).
  sharingReleases = [
    {
      row = "task list";
      go = "TaskListID";
      since = "2.1.16";
      how = "CLAUDE_CODE_TASK_LIST_ID";
      before = "each session keeps a task list of its own";
    }
    {
      row = "memory";
      go = "RemoteMemoryDir";
      since = "2.1.38";
      how = "CLAUDE_CODE_REMOTE_MEMORY_DIR";
      before = "auto-memory is not kept outside git (and 2.0.x has no auto-memory)";
    }
    {
      row = "plugins";
      go = "PluginCacheDir";
      since = "2.1.42";
      how = "CLAUDE_CODE_PLUGIN_CACHE_DIR";
      before = "a plugin installed in one worktree is not shared with the others";
    }
    {
      row = "memory per repository";
      go = "MemoryPerRepository";
      since = "2.1.63";
      how = null;
      before = "each worktree keeps its own auto-memory";
    }
    {
      row = "login";
      go = "SecureStorageDir";
      since = "2.1.144";
      how = "CLAUDE_SECURESTORAGE_CONFIG_DIR";
      before = "on Linux the launcher keeps a copy of the account's login in each worktree's runtime, and on macOS each worktree logs in on its own";
    }
  ];

  # Only for an account that declares plugins or lspServers: Claude Code
  # loads a plugin directory in skills/ as a personal plugin from 2.1.157
  # (home-manager's own module draws the same line). Before, the launcher
  # passes each to the sessions it starts with --plugin-dir, which every
  # release from 2.0.77 takes (`go`: internal/claudever/features.go); an
  # older release loads them not at all.
  personalPluginsRelease = {
    row = "plugins and lspServers declared here";
    go = "PluginsInSkills";
    since = "2.1.157";
    how = "personal plugins in skills/";
    before = "the launcher passes them to each session it starts with --plugin-dir (not to `claude plugin list` nor to background sessions)";
  };
  pluginDirRelease = {
    row = "plugins and lspServers declared here";
    go = "PluginDirFlag";
    since = "2.0.77";
    how = "--plugin-dir";
    before = "Claude Code does not load them";
  };

  # The rows a Claude Code `version` does not share, oldest boundary first.
  degradedRows =
    {
      version,
      declaresPlugins ? false,
    }:
    let
      pluginRow =
        if compareVersions version self.pluginDirRelease.since < 0 then
          self.pluginDirRelease
        else
          self.personalPluginsRelease;
    in
    sort (a: b: compareVersions a.since b.since < 0) (
      filter (row: compareVersions version row.since < 0) (
        self.sharingReleases ++ (if declaresPlugins then [ pluginRow ] else [ ])
      )
    );

  # The version of a Claude Code package (its `version`, else the version in
  # its name), or null when it has none: a wrapper named "claude-code", a
  # path, or null (claude on PATH).
  claudeVersion =
    package:
    let
      fromName = (parseDrvName (package.name or "")).version;
      version = if isString (package.version or null) then package.version else fromName;
    in
    if !isAttrs package || version == "" then null else version;

  # The warning for account `name` whose `package` is older than a row
  # needs, or null.
  versionWarning =
    {
      name,
      package,
      declaresPlugins ? false,
    }:
    let
      version = self.claudeVersion package;
      rows = if version == null then [ ] else self.degradedRows { inherit version declaresPlugins; };
      newest = foldl' (a: row: if compareVersions row.since a > 0 then row.since else a) "0" rows;
      line =
        row:
        "  - ${row.row}: from Claude Code ${row.since}${
          if row.how == null then "" else " (${row.how})"
        }; before it, ${row.before}";
    in
    if rows == [ ] then
      null
    else
      "`${self.optionPath [ name "package" ]}` is Claude Code ${version}, which shares less of the account than the launcher can:\n"
      + concatStringsSep "\n" (map line rows)
      + "\nGive this account Claude Code ${newest} or later (its `package`, or `programs.claude-code.package`); `claude-account doctor` shows what a launch shares.";
}
