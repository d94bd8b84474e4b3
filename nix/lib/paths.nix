# Path checks for the account dir (layer 2). Lexical only: nothing here reads
# the file system, so evaluation stays pure.
self:
let
  inherit (builtins)
    concatStringsSep
    filter
    foldl'
    isString
    length
    split
    stringLength
    substring
    ;
  init = list: builtins.genList (builtins.elemAt list) (length list - 1);
in
{
  isAbsolute = path: isString path && substring 0 1 path == "/";

  # "~" and "~/x" relative to home; every other string unchanged.
  expandHome =
    home: path:
    if path == "~" then
      home
    else if substring 0 2 path == "~/" then
      "${home}/${substring 2 (stringLength path) path}"
    else
      path;

  # The segments of a path, with "", "." dropped and ".." applied.
  pathSegments =
    path:
    foldl' (acc: seg: if seg == ".." then (if acc == [ ] then [ ] else init acc) else acc ++ [ seg ]) [ ] (
      filter (seg: isString seg && seg != "" && seg != ".") (split "/" path)
    );

  # An absolute path in canonical spelling: "/a//b/./c/../d/" -> "/a/b/d".
  normalizePath = path: "/" + concatStringsSep "/" (self.pathSegments path);

  # Whether absolute path `path` lies strictly below absolute path `dir`.
  isInside =
    dir: path:
    let
      d = self.pathSegments dir;
      p = self.pathSegments path;
    in
    length p > length d && builtins.genList (builtins.elemAt p) (length d) == d;

  # The account dir as an absolute, normalized path ("~/" expanded), or null
  # when it is relative (home-manager would read it relative to HOME, which
  # is easy to get wrong for a directory the launcher is told about).
  resolveConfigDir =
    home: dir:
    let
      expanded = self.expandHome home dir;
    in
    if self.isAbsolute expanded then self.normalizePath expanded else null;

  defaultConfigDir = home: name: "${self.normalizePath home}/.claude-${name}";

  # Problem with a path relative to a repository's top level (the worktree
  # options), or null. Messages match `claude-account generate`.
  relativePathProblem =
    path:
    if path == "" then
      "is empty"
    else if self.isAbsolute path then
      "`${path}` is absolute; give a path relative to the repository's top level"
    else if builtins.match ".*\n.*" path != null then
      "holds a newline"
    else if builtins.elem ".." (filter isString (split "/" path)) then
      "`${path}` climbs out of the repository with '..'"
    else if self.pathSegments path == [ ] then
      "`${path}` is the repository's top level itself"
    else
      null;
}
