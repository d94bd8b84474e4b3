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
  #   upstream  null, or home-manager's own module when enabled: { configDir; }
  accountProblems =
    {
      home,
      accounts,
      upstream ? null,
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
            field: oneSegment:
            concatLists (
              map (
                entry:
                let
                  problem = self.entryNameProblem { inherit oneSegment; } entry;
                in
                if problem == null then [ ] else [ "${quote (opt [ name field entry ])}: ${problem}" ]
              ) (attrNames (account.${field} or { }))
            );
          relativeProblems =
            field: paths:
            concatLists (
              map (
                path:
                let
                  problem = self.relativePathProblem path;
                in
                if problem == null then [ ] else [ "${quote (opt [ name field ])}: ${problem}" ]
              ) paths
            );
        in
        (
          if self.isValidName name then
            [ ]
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
        ++ entryProblems "commands" false
        ++ entryProblems "agents" false
        ++ entryProblems "skills" true
        ++ relativeProblems "worktreeDir" [ (account.worktreeDir or ".claude/worktrees") ]
        ++ relativeProblems "symlinkDirectories" (account.symlinkDirectories or [ ]);

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
    ++ duplicates "command" "command" (name: accounts.${name}.command)
    ++ duplicates "configDir" "directory" (
      name:
      let
        dir = dirOf name;
      in
      if dir == null then "relative:${accounts.${name}.configDir}" else dir
    );

  # The same as home-manager assertions ({ assertion; message; }).
  accountAssertions =
    args:
    map (message: {
      assertion = false;
      inherit message;
    }) (self.accountProblems args);
}
