# Account, command and entry names. Messages match `claude-account generate`.
self:
let
  inherit (builtins)
    concatStringsSep
    elem
    filter
    fromJSON
    genList
    isString
    match
    replaceStrings
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

  # Characters Claude Code refuses in a plugin's name, the manifest's `name`
  # that generate writes from the attribute name: control characters (Cc:
  # U+0001-U+001F, U+007F-U+009F; Nix strings hold no NUL) and
  # bidirectional-formatting ones (U+200E, U+200F, U+202A-U+202E,
  # U+2066-U+2069), refused by 2.1.332's schema. Nix's regular expressions
  # work on bytes, so each is one alternative of its UTF-8 bytes, which
  # cannot match across characters.
  pluginNameRefused =
    let
      hex = n: substring n 1 "0123456789abcdef";
      char = code: fromJSON ''"\u${hex (code / 4096)}${hex (code / 256 - code / 4096 * 16)}${hex (code / 16 - code / 256 * 16)}${hex (code - code / 16 * 16)}"'';
      range = from: to: genList (i: from + i) (to - from + 1);
    in
    map char (
      range 1 31
      ++ range 127 159
      ++ [
        8206
        8207
      ]
      ++ range 8234 8238
      ++ range 8294 8297
    );

  # Problem with a plugin's name beyond entryNameProblem's, or null: Claude
  # Code (2.0.77 to 2.1.332) refuses a manifest whose name holds a space,
  # 2.1.332 also one with a control or bidirectional-formatting character,
  # and then does not load the plugin at all.
  pluginNameProblem =
    name:
    if match ".* .*" name != null then
      "Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. ${toJSON (replaceStrings [ " " ] [ "-" ] name)}"
    else if match ".*(${concatStringsSep "|" self.pluginNameRefused}).*" name != null then
      "Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it"
    else
      null;

  # Problem with an entry's attribute name (commands, agents, skills, rules,
  # outputStyles, hooks, plugins, marketplaces: it becomes a relative path
  # below layer 1), or null when it is fine. `what` names an entry that must
  # be one path segment ("a hook name"); `plugin` adds what Claude Code
  # refuses in a plugin's name (pluginNameProblem).
  entryNameProblem =
    {
      oneSegment ? false,
      what ? "a skill name",
      plugin ? false,
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
    else if plugin then
      self.pluginNameProblem name
    else
      null;

  # An attribute name as Nix prints it in an option path.
  attrName = name: if match "[A-Za-z_][A-Za-z0-9_'-]*" name != null then name else toJSON name;

  # `programs.claude-code.accounts.<name>` followed by more of the path.
  optionPath =
    path: concatStringsSep "." ([ "programs.claude-code.accounts" ] ++ map self.attrName path);
}
