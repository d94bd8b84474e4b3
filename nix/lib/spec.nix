# The spec: one account's declaration as `claude-account generate` reads it
# (field list in internal/generate/spec.go), and what the module derives
# from it: the layer-2 links and the launcher.
self:
let
  inherit (builtins)
    hasContext
    isAttrs
    isPath
    isString
    listToAttrs
    mapAttrs
    replaceStrings
    storeDir
    stringLength
    substring
    toJSON
    ;
  optionalAttrs = cond: attrs: if cond then attrs else { };
in
{
  # Whether a commands/agents/skills/memory value names a file to copy rather
  # than being the text itself: a Nix path, a derivation, or a string that
  # points into the store and carries its context ("${pkgs.foo}/x.md").
  # Plain strings are text, even when they start with "/".
  isSource =
    value:
    isPath value
    || (isAttrs value && value ? outPath)
    || (
      isString value
      && hasContext value
      && substring 0 (stringLength storeDir + 1) value == "${storeDir}/"
    );

  # A whole directory (the skills option, agentsDir, …) as evaluation can
  # read it without building anything, or null: a Nix path (read from the
  # source), or a string or source (`"''${./skills}"`, builtins.path,
  # lib.fileset.toSource) whose context holds only files already in the
  # store. Reading a build output would build it at evaluation (import from
  # derivation), and a string without context names a file that pure
  # evaluation may not read: for those `claude-account generate` checks
  # what evaluation cannot, when the account is built.
  readableDir =
    value:
    let
      string = if isAttrs value && value ? outPath then value.outPath else value;
    in
    if isPath value then
      value
    else if
      isString string
      && hasContext string
      && builtins.all (c: c == { path = true; }) (builtins.attrValues (builtins.getContext string))
    then
      string
    else
      null;

  # { text = …; } or { source = "/nix/store/…"; }; null (and "") stay null.
  mkContent =
    value:
    if value == null || value == "" then
      null
    else if self.isSource value then
      { source = "${value}"; }
    else
      { text = value; };

  # The spec of account `name` from its options (the option names of
  # programs.claude-code.accounts.<name>; missing ones take their defaults)
  # and `claude`, the Claude binary's path or null for `claude` on PATH.
  mkSpec =
    {
      name,
      claude ? null,
      ...
    }@account:
    {
      inherit name claude;
      settings = account.settings or { };
      settingsMode = account.settingsMode or "coalesce";
      mcpServers = account.mcpServers or { };
      commands = mapAttrs (_: self.mkContent) (account.commands or { });
      agents = mapAttrs (_: self.mkContent) (account.agents or { });
      skills =
        let
          skills = account.skills or { };
        in
        # A path (or package) is a directory of skills: skillsDir below.
        if isAttrs skills && !(skills ? outPath) then mapAttrs (_: self.mkContent) skills else { };
      memory = self.mkContent (account.context or account.memory or null);
      coalesceKeys = account.coalesceKeys or [ "mcpServers" ];
      singleInstance = account.singleInstance or true;
      projectMcp = account.projectMcp or "trusted";
      worktree = {
        dir = account.worktreeDir or ".claude/worktrees";
        symlinkDirectories = account.symlinkDirectories or [ ];
        sparsePaths = account.sparsePaths or [ ];
        useHooks = account.useWorktreeHooks or false;
      };
    }
    # Only when on, so an account without it keeps its store path.
    // optionalAttrs (account.notify or false) { notify = true; }
    # Only when declared (true or false): null leaves account.toml without
    # the key, the launcher's default.
    // optionalAttrs ((account.usage or null) != null) { inherit (account) usage; }
    # Only when declared, and only the fields set: an account without it
    # keeps its store path.
    // optionalAttrs ((account.identity or null) != null) {
      identity = self.identityFields account.identity;
    }
    # What home-manager's own programs.claude-code declares too: in the
    # spec only when set, so an account without them keeps its store path.
    // self.parityFields account;

  # The identity option's fields that are set (a submodule's value also
  # carries the module system's own attributes: picked by name).
  identityFields =
    identity:
    listToAttrs (
      builtins.concatMap (
        field:
        if (identity.${field} or null) == null then
          [ ]
        else
          [
            {
              name = field;
              value = identity.${field};
            }
          ]
      ) [ "email" "organization" ]
    );

  # The parity options as spec fields; unset ones are left out.
  parityFields =
    account:
    let
      contents = field: mapAttrs (_: self.mkContent) (account.${field} or { });
      dirSource = value: { source = "${value}"; };
      nonEmpty = field: value: optionalAttrs (value != { } && value != null) { ${field} = value; };
      skillsPath = account.skills or { };
    in
    nonEmpty "rules" (contents "rules")
    // nonEmpty "outputStyles" (contents "outputStyles")
    // nonEmpty "hooks" (contents "hooks")
    // nonEmpty "plugins" (
      mapAttrs (_: dirSource) (
        let
          plugins = account.plugins or { };
        in
        if builtins.isList plugins then self.namedPlugins plugins else plugins
      )
    )
    // nonEmpty "marketplaces" (mapAttrs (_: dirSource) (account.marketplaces or { }))
    // nonEmpty "lspServers" (account.lspServers or { })
    // listToAttrs (
      builtins.concatMap (
        field:
        let
          value = account.${field} or null;
        in
        if value == null then [ ] else [ { name = field; value = dirSource value; } ]
      ) [ "agentsDir" "commandsDir" "hooksDir" "rulesDir" ]
    )
    // optionalAttrs (!isAttrs skillsPath || skillsPath ? outPath) { skillsDir = dirSource skillsPath; };

  # plugins given as a list (home-manager's older form): each named by its
  # path's last component without the store hash, as home-manager does.
  namedPlugins =
    list:
    listToAttrs (
      map (plugin: {
        name = self.pluginName plugin;
        value = plugin;
      }) list
    );
  pluginName =
    plugin:
    let
      base = baseNameOf (builtins.unsafeDiscardStringContext (toString plugin));
      m = builtins.match "[0-9a-z]{32}-(.*)" base;
    in
    if m == null then base else builtins.head m;

  # The spec file's content (toJSON sorts keys: the same declaration always
  # gives the same bytes, and so the same store path).
  specJSON = spec: toJSON spec;

  # The top-level entries `claude-account generate` writes for a spec.
  layer1Entries =
    spec:
    builtins.sort builtins.lessThan (
      [ "account.toml" ]
      ++ (if spec.settings != { } || spec ? marketplaces then [ "settings.json" ] else [ ])
      ++ (if spec.mcpServers != { } then [ ".mcp.json" ] else [ ])
      ++ (if spec.commands != { } || spec ? commandsDir then [ "commands" ] else [ ])
      ++ (if spec.agents != { } || spec ? agentsDir then [ "agents" ] else [ ])
      ++ (
        if spec.skills != { } || spec ? plugins || spec ? lspServers || spec ? skillsDir then
          [ "skills" ]
        else
          [ ]
      )
      ++ (if spec.memory != null then [ "CLAUDE.md" ] else [ ])
      ++ (if spec ? rules || spec ? rulesDir then [ "rules" ] else [ ])
      ++ (if spec ? outputStyles then [ "output-styles" ] else [ ])
      ++ (if spec ? hooks || spec ? hooksDir then [ "hooks" ] else [ ])
    );

  # Layer 2: the links home-manager puts into the account dir, as
  # { <name relative to the account dir> = <path inside layer 1, "" for
  # layer 1 itself>; }. Never a link for a file Claude writes
  # (settings.json, .claude.json, .credentials.json), except settings.json
  # when the account asks for settingsMode = "link". skills/ gets one link
  # per skill or plugin directory (skillsEntries).
  layer2Links = self.layer2LinksWith null;
  # The same, given the account's skills option when it is a whole
  # directory (see skillsEntries).
  layer2LinksWith =
    skillsDir: spec:
    let
      entries = self.layer1Entries spec;
      skills = self.skillsEntries skillsDir spec;
      same = names: listToAttrs (map (name: { inherit name; value = name; }) names);
    in
    {
      "account.toml" = "account.toml";
      declared = "";
    }
    // same (builtins.filter (entry: builtins.elem entry (self.contentDirs ++ [ "CLAUDE.md" ])) entries)
    // (
      if !builtins.elem "skills" entries then
        { }
      else if skills == null then
        same [ "skills" ]
      else
        same (map (name: "skills/${name}") skills)
    )
    // optionalAttrs (spec.settingsMode == "link" && spec.settings != { }) {
      "settings.json" = "settings.json";
    };

  # The account's content directories: home-manager makes each a real
  # directory of per-file links, which Claude finds and can add to. Not
  # skills/: see skillsEntries.
  contentDirs = [
    "commands"
    "agents"
    "rules"
    "output-styles"
    "hooks"
  ];

  # skills/ holds skill and plugin directories: a real directory with one
  # link per skill or plugin directory. Per-file links would not do: a
  # plugin made of per-file links loses its commands and agents (Claude Code
  # 2.1.330, real-claude-plugin-links). `skillsDir` is the account's skills
  # option when it is a whole directory: one evaluation can read
  # (readableDir: a Nix path, or sources in the store) is read here, from
  # the source, without building; a build output is not, since that would
  # build at evaluation: then skills/ is one read-only link to the store
  # directory, and this is null.
  skillsEntries =
    skillsDir: spec:
    let
      readable = self.readableDir skillsDir;
    in
    if (spec.skillsDir or null) != null && readable == null then
      null
    else
      builtins.attrNames (spec.skills or { })
      ++ builtins.attrNames (spec.plugins or { })
      ++ (if (spec.lspServers or { }) != { } then [ self.lspPlugin ] else [ ])
      ++ (
        if (spec.skillsDir or null) != null then builtins.attrNames (builtins.readDir readable) else [ ]
      );

  # The plugin in skills/ that carries lspServers (generate's LSPPlugin).
  lspPlugin = "claude-account-lsp";

  # Files Claude writes itself: never a home-manager link.
  claudeOwnedFiles = [
    "settings.json"
    ".claude.json"
    ".credentials.json"
  ];

  # A plain link to claude-account named claude<name> selects the account by
  # its program name; any other command or account dir needs a wrapper.
  launcherNeedsWrapper =
    {
      name,
      command,
      configDir,
      home,
    }:
    command != self.defaultCommand name
    || self.resolveConfigDir home configDir != self.defaultConfigDir home name;

  shellQuote = s: "'" + replaceStrings [ "'" ] [ "'\\''" ] s + "'";

  # The body of the wrapper launcher (writeShellScriptBin adds the #!): it
  # names the account outright, so a CLAUDE_ACCOUNT inherited from another
  # account's session cannot pick the wrong one, points the launcher at a
  # non-default account dir, and runs claude-account under the program name
  # claude<name>.
  launcherScript =
    {
      name,
      configDir,
      home,
      program,
    }:
    let
      dir = self.resolveConfigDir home configDir;
    in
    ''
      export CLAUDE_ACCOUNT=${self.shellQuote name}
    ''
    + (
      if dir != self.defaultConfigDir home name then
        ''
          export CLAUDE_ACCOUNT_DIR=${self.shellQuote dir}
        ''
      else
        ""
    )
    + ''
      exec -a ${self.shellQuote (self.defaultCommand name)} ${self.shellQuote program} "$@"
    '';

  # What the module adds to programs.git.ignores: runtimes live inside
  # $GIT_DIR, but a runtime dir copied or moved into a work tree (a repository
  # copied with cp -r into another) must never be committed.
  gitIgnores = [ "**/claude-runtime/" ];

}
