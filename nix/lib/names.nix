# Account, command and entry names. Messages match `claude-account generate`.
self:
let
  inherit (builtins)
    concatStringsSep
    elem
    filter
    isString
    match
    split
    stringLength
    substring
    toJSON
    ;
in
{
  # The pattern an account name must match; it becomes a directory and a
  # program name, so nothing in it can climb out of HOME.
  namePattern = "[a-z0-9][a-z0-9_-]*";

  # The longest account name (the launcher's account.MaxNameLen): the name is
  # part of each session's id, which the state hook takes up to 200 characters.
  maxNameLength = 180;

  # Names the launcher gives a meaning of its own: `--account auto` picks
  # the account with the most headroom, so no account may be called that.
  reservedNames = [ "auto" ];

  isValidName =
    name:
    isString name
    && match self.namePattern name != null
    && stringLength name <= self.maxNameLength
    && !elem name self.reservedNames;

  # The launcher's default program name: the program name selects the account.
  defaultCommand = name: "claude${name}";

  # A program name on PATH: one file name, no shell-hostile characters.
  isValidCommand =
    command:
    isString command
    && match "[A-Za-z0-9_+-][A-Za-z0-9._+-]*" command != null
    && command != "."
    && command != "..";

  # Program names an account's launcher must not take: Claude itself and the
  # launcher's own binary.
  reservedCommands = [
    "claude"
    "claude-account"
  ];

  # Problem with an entry's attribute name (commands, agents, skills, rules,
  # outputStyles, hooks, plugins, marketplaces: it becomes a relative path
  # below layer 1), or null when it is fine. `what` names an entry that must
  # be one path segment ("a hook name").
  entryNameProblem =
    {
      oneSegment ? false,
      what ? "a skill name",
    }:
    name:
    let
      segments = filter isString (split "/" name);
    in
    if name == "" then
      "the name is empty"
    else if substring 0 1 name == "/" then
      "the name is an absolute path; use a relative name"
    else if match ".*[\\\n].*" name != null then
      "the name holds a backslash, NUL or newline"
    else if oneSegment && match ".*/.*" name != null then
      "${what} is one path segment, without '/'"
    else if elem "" segments then
      "the name has an empty path segment ('//' or a trailing '/')"
    else if elem "." segments then
      ''the name has a "." segment; names stay inside their directory''
    else if elem ".." segments then
      ''the name has a ".." segment; names stay inside their directory''
    else
      null;

  # An attribute name as Nix prints it in an option path.
  attrName = name: if match "[A-Za-z_][A-Za-z0-9_'-]*" name != null then name else toJSON name;

  # `programs.claude-code.accounts.<name>` followed by more of the path.
  optionPath =
    path: concatStringsSep "." ([ "programs.claude-code.accounts" ] ++ map self.attrName path);
}
