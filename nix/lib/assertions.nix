# The module's assertions, as data: each message quotes the option path in
# backticks, says what is wrong and what to do.
self:
let
  inherit (builtins)
    attrNames
    concatLists
    concatStringsSep
    elem
    filter
    groupBy
    length
    match
    stringLength
    ;
  quote = s: "`${s}`";
  # "a", "a and b", "a, b and c"
  enumerate =
    list:
    let
      n = length list;
    in
    if n <= 1 then
      concatStringsSep "" list
    else
      concatStringsSep ", " (builtins.genList (builtins.elemAt list) (n - 1))
      + " and "
      + builtins.elemAt list (n - 1);
in
{
  # The problems of the enabled accounts, one message each.
  #   home      config.home.homeDirectory
  #   accounts  { <name> = { enable, command, configDir, commands, agents,
  #             skills, worktreeDir, symlinkDirectories, … }; }
  #   upstream  null, or home-manager's own module when enabled:
  #             { configDir; wrapper = <its finalPackage's store path, when
  #             that wraps its package>, or null; }
  #   files     the absolute targets of every home.file entry
  accountProblems =
    {
      home,
      accounts,
      upstream ? null,
      files ? [ ],
    }:
    let
      names = filter (name: accounts.${name}.enable or true) (attrNames accounts);
      opt = self.optionPath;
      dirOf = name: self.resolveConfigDir home accounts.${name}.configDir;

      perAccount =
        name:
        let
          account = accounts.${name};
          dir = dirOf name;
          entryProblems =
            field: what:
            concatLists (
              map (
                entry:
                let
                  problem = self.entryNameProblem {
                    oneSegment = what != null;
                    plugin = field == "plugins";
                    inherit what;
                  } entry;
                in
                if problem == null then [ ] else [ "${quote (opt [ name field entry ])}: ${problem}" ]
              ) (self.entryNames account field)
            );
          relativeProblems =
            field: paths:
            concatLists (
              map (
                path:
                let
                  problem = self.relativePathProblem path;
                  # worktreeDir may also start with "~/" (the launcher
                  # expands it); symlinkDirectories may not.
                  home = if field == "worktreeDir" && self.isAbsolute path then ", or one that starts with `~/`" else "";
                in
                if problem == null then [ ] else [ "${quote (opt [ name field ])}: ${problem}${home}" ]
              ) paths
            );
        in
        (
          if self.isValidName name then
            [ ]
          else if elem name self.reservedNames then
            [
              "${quote (opt [ name ])}: \"${name}\" cannot name an account: --account ${name} picks the account with the most headroom; choose another name"
            ]
          else if match self.namePattern name != null then
            [
              "${quote (opt [ name ])}: the account name is ${toString (stringLength name)} characters long; the limit is ${toString self.maxNameLength} (it is part of each session's id)"
            ]
          else
            [
              "${quote (opt [ name ])}: the account name ${quote name} must match ${self.namePattern} (lower-case letters, digits, '-' and '_'); it names the account dir and the launcher"
            ]
        )
        ++ (
          if self.isValidCommand account.command then
            [ ]
          else
            [
              "${quote (opt [ name "command" ])} is ${quote account.command}, not a program name; use letters, digits, '.', '_', '+' and '-'"
            ]
        )
        ++ (
          if elem account.command self.reservedCommands then
            [
              "${quote (opt [ name "command" ])} is ${quote account.command}, which another program already uses; pick another name, such as ${quote (self.defaultCommand name)}"
            ]
          else
            [ ]
        )
        ++ (
          if dir == null then
            [
              "${quote (opt [ name "configDir" ])} is ${quote account.configDir}, a relative path; give an absolute path or one that starts with `~/`"
            ]
          else if dir == self.normalizePath home then
            [
              "${quote (opt [ name "configDir" ])} is ${quote account.configDir}, the home directory itself; give the account a directory of its own below it, such as `~/.claude-${name}`"
            ]
          else if !self.isInside home dir then
            [
              "${quote (opt [ name "configDir" ])} is ${quote dir}, outside the home directory ${quote home}; home-manager links files only below it"
            ]
          else if upstream != null && dir == self.resolveConfigDir home upstream.configDir then
            [
              "${quote (opt [ name "configDir" ])} is ${quote dir}, the directory of `programs.claude-code.configDir` that home-manager's own Claude Code module manages; give the account its own directory"
            ]
          else
            [ ]
        )
        ++ (
          if
            (upstream.wrapper or null) != null
            && (account.package or null) != null
            && toString account.package == upstream.wrapper
          then
            [
              "${quote (opt [ name "package" ])} is home-manager's wrapper of `programs.claude-code.package` (its `finalPackage`), which passes that module's own plugins and MCP servers to every Claude it starts; set it to `config.programs.claude-code.package`, or leave it unset"
            ]
          else
            [ ]
        )
        ++ entryProblems "commands" null
        ++ entryProblems "agents" null
        ++ entryProblems "skills" "a skill name"
        ++ entryProblems "rules" null
        ++ entryProblems "outputStyles" null
        ++ entryProblems "hooks" "a hook name"
        ++ entryProblems "plugins" "a plugin name"
        ++ entryProblems "marketplaces" "a marketplace name"
        ++ self.skillsClashes name account
        ++ concatLists (
          map (field: self.dirClashes name account field) [
            "commands"
            "agents"
            "rules"
            "hooks"
          ]
        )
        ++ self.identityProblems name (account.identity or null)
        # The account's MCP servers, its own and programs.mcp's
        # (nix/lib/mcp.nix, computed by the module as the option `mcp`).
        ++ (account.mcp.problems or [ ])
        ++ claudeFileProblems name account dir
        ++ relativeProblems "worktreeDir" [ (account.worktreeDir or ".claude/worktrees") ]
        ++ relativeProblems "symlinkDirectories" (account.symlinkDirectories or [ ]);

      # A home.file entry for a file Claude writes in the account dir: the
      # launcher replaces the link with a real file, and the next switch
      # fails with "would be clobbered".
      targets = builtins.listToAttrs (
        map (file: {
          name = self.normalizePath file;
          value = null;
        }) files
      );
      instead = name: account: {
        "settings.json" = "declare it with ${quote (opt [ name "settings" ])} instead";
        ".claude.json" =
          "declare it with ${quote (opt [ name "mcpServers" ])} and ${quote (opt [ name "coalesceKeys" ])} instead";
        ".credentials.json" = "remove the entry and log in once with `${account.command}`";
      };
      claudeFileProblems =
        name: account: dir:
        if dir == null then
          [ ]
        else
          concatLists (
            map (
              file:
              let
                linkedByUs =
                  file == "settings.json"
                  && (account.settingsMode or "coalesce") == "link"
                  && (account.settings or { }) != { };
              in
              if targets ? "${dir}/${file}" && !linkedByUs then
                [
                  "`home.file` links ${quote "${dir}/${file}"}, a file the launcher and Claude Code write (the launcher replaces the link, and the next switch fails with \"would be clobbered\"); ${
                    (instead name account).${file}
                  }"
                ]
              else
                [ ]
            ) self.claudeOwnedFiles
          );

      # Account dirs inside one another, or inside Claude Code's own
      # directory: a directory is one account's, or Claude's, whole. Among
      # dirs inside the home directory: one that is not has its message
      # above, and the home directory itself would hold every other.
      withDirs = filter (name: dirOf name != null && self.isInside home (dirOf name)) names;
      claudeDir = "${self.normalizePath home}/.claude";
      upstreamDir = if upstream == null then null else self.resolveConfigDir home upstream.configDir;
      nesting = concatLists (
        map (
          inner:
          let
            dir = dirOf inner;
            path = quote (opt [ inner "configDir" ]);
          in
          concatLists (
            map (
              outer:
              if self.isInside (dirOf outer) dir then
                [
                  "${path} is ${quote dir}, inside ${quote (dirOf outer)}, the directory of ${quote (opt [ outer "configDir" ])}; account dirs must not nest, so move one out of the other"
                ]
              else
                [ ]
            ) withDirs
          )
          ++ (
            if self.isInside claudeDir dir then
              [
                "${path} is ${quote dir}, inside ${quote claudeDir}, Claude Code's own directory; give the account a directory outside it"
              ]
            else
              [ ]
          )
          ++ (
            if upstreamDir != null && upstreamDir != claudeDir && self.isInside upstreamDir dir then
              [
                "${path} is ${quote dir}, inside ${quote upstreamDir}, the directory of `programs.claude-code.configDir` that home-manager's own Claude Code module manages; give the account a directory outside it"
              ]
            else
              [ ]
          )
          ++ (
            if upstreamDir != null && self.isInside dir upstreamDir then
              [
                "`programs.claude-code.configDir` is ${quote upstreamDir}, inside ${quote dir}, the directory of ${quote (opt [ inner "configDir" ])}; keep home-manager's own Claude Code directory out of the account's"
              ]
            else
              [ ]
          )
        ) withDirs
      );

      duplicates =
        field: what: key:
        let
          groups = groupBy key names;
        in
        concatLists (
          map (
            value:
            let
              owners = groups.${value};
            in
            if length owners < 2 then
              [ ]
            else
              [
                "${enumerate (map (name: quote (opt [ name field ])) owners)} are ${
                  if length owners == 2 then "both" else "all"
                } ${quote value}; give each account its own ${what}"
              ]
          ) (attrNames groups)
        );
    in
    concatLists (map perAccount names)
    ++ nesting
    ++ duplicates "command" "command" (name: accounts.${name}.command)
    ++ duplicates "configDir" "directory" (
      name:
      let
        dir = dirOf name;
      in
      if dir == null then "relative:${accounts.${name}.configDir}" else dir
    );

  # The problems of an account's identity option (null: none declared),
  # by the rules of account.toml's [identity] (internal/account).
  identityProblems =
    name: identity:
    let
      opt = self.optionPath;
      fields = if identity == null then { } else self.identityFields identity;
      email = fields.email or null;
      organization = fields.organization or null;
    in
    if identity == null then
      [ ]
    else if fields == { } then
      [
        "${quote (opt [ name "identity" ])} declares nothing; set ${quote (opt [ name "identity" "email" ])} and/or ${quote (opt [ name "identity" "organization" ])} (its name or uuid), or leave it null"
      ]
    else
      (
        # "" is refused, never read as unset: null is unset (one rule with
        # account.toml's: account.EmptyProblem).
        if email == "" then
          [
            "${quote (opt [ name "identity" "email" ])} is empty; write the address the account logs in with, or leave it null"
          ]
        else if email != null && (match "[^[:space:]]*@[^[:space:]]*" email == null) then
          [
            "${quote (opt [ name "identity" "email" ])} is ${quote email}, not an email address; write the address the account logs in with"
          ]
        else
          [ ]
      )
      ++ (
        if organization == "" then
          [
            "${quote (opt [ name "identity" "organization" ])} is empty; write the organization's name or uuid as Claude Code shows it, or leave it null"
          ]
        else if
          organization != null
          && (
            length (builtins.split "[\n\r]" organization) > 1
            || match "[[:space:]].*|.*[[:space:]]" organization != null
          )
        then
          [
            "${quote (opt [ name "identity" "organization" ])} is ${quote organization}, with surrounding spaces or a line break; write the organization's name or uuid as Claude Code shows it"
          ]
        else
          [ ]
      );

  # The names of an account's entries in `field` (an attribute set; plugins
  # may be a list, named as home-manager names them). A whole directory (a
  # path or a package) has no entry names here.
  entryNames =
    account: field:
    let
      value = account.${field} or { };
    in
    if builtins.isList value then
      attrNames (self.namedPlugins value)
    else if builtins.isAttrs value && !(value ? outPath) then
      attrNames value
    else
      [ ];

  # The files below a directory given as a Nix path, relative to it
  # ("git/new.md"); read at evaluation, from the source. A symbolic link is
  # listed as a file: a clash behind it is found when the account is built.
  filesBelow =
    dir:
    let
      entries = builtins.readDir dir;
    in
    concatLists (
      map (
        entry:
        if entries.${entry} == "directory" then
          map (file: "${entry}/${file}") (self.filesBelow (dir + "/${entry}"))
        else
          [ entry ]
      ) (attrNames entries)
    );

  # skills/ holds skills, plugins and the plugin that carries lspServers,
  # each a directory named for it: two of one name would be merged into one.
  skillsClashes =
    name: account:
    let
      opt = self.optionPath;
      skills = account.skills or { };
      plugins = account.plugins or { };
      # entries declared one by one: each owned by its option path
      named =
        field:
        map (entry: {
          inherit entry;
          owner = quote (opt [ name field entry ]);
        }) (self.entryNames account field);
      # a whole directory: read when evaluation can (see readableDir);
      # else `claude-account generate` checks it when the account is built
      skillsDir = self.readableDir skills;
      owners =
        (
          if skillsDir != null then
            map (entry: {
              inherit entry;
              owner = "${quote (opt [ name "skills" ])} (${quote "${toString skillsDir}/${entry}"})";
            }) (attrNames (builtins.readDir skillsDir))
          else
            named "skills"
        )
        ++ (
          if builtins.isList plugins then
            map (plugin: {
              entry = self.pluginName plugin;
              owner = "${quote (opt [ name "plugins" ])} (${quote (toString plugin)})";
            }) plugins
          else
            named "plugins"
        )
        ++ (
          if (account.lspServers or { }) != { } then
            [
              {
                entry = self.lspPlugin;
                owner = "${quote (opt [ name "lspServers" ])} (its plugin)";
              }
            ]
          else
            [ ]
        );
      groups = groupBy (o: o.entry) owners;
    in
    concatLists (
      map (
        entry:
        let
          these = builtins.sort builtins.lessThan (map (o: o.owner) groups.${entry});
        in
        if length these < 2 then
          [ ]
        else
          [
            "${enumerate these} ${
              if length these == 2 then "both" else "all"
            } become `skills/${entry}/` in the account dir; give each its own name"
          ]
      ) (attrNames groups)
    );

  # An entry declared by name and again in the whole directory (`<field>Dir`)
  # is one file declared twice. Only a directory evaluation can read
  # (readableDir) is read; a build output is checked when the account is
  # built.
  dirClashes =
    name: account: field:
    let
      opt = self.optionPath;
      dir = self.readableDir (account."${field}Dir" or null);
      suffix = if field == "hooks" then "" else ".md";
      layerDir = if field == "outputStyles" then "output-styles" else field;
      files = builtins.listToAttrs (
        map (file: {
          name = file;
          value = null;
        }) (self.filesBelow dir)
      );
    in
    if dir == null then
      [ ]
    else
      concatLists (
        map (
          entry:
          if files ? "${entry}${suffix}" then
            [
              "${quote (opt [ name field entry ])} and ${quote (opt [ name "${field}Dir" ])} both declare `${layerDir}/${entry}${suffix}`; keep one of them"
            ]
          else
            [ ]
        ) (self.entryNames account field)
      );

  # The same as home-manager assertions ({ assertion; message; }).
  accountAssertions =
    args:
    map (message: {
      assertion = false;
      inherit message;
    }) (self.accountProblems args);
}
