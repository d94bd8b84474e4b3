# Directory bindings declared per account (`directories = [ "~/work" ]`):
# the content of $XDG_CONFIG_HOME/claude-account/bindings.declared, which
# `claude-account` reads beside the `bindings` file that `bind` and `unbind`
# write, and the problems that assertions report. Builtins only; `calib` is
# nix/lib (for expandHome and normalizePath):
#   import ./bindings.nix calib
calib:
let
  inherit (builtins)
    attrNames
    concatLists
    concatStringsSep
    filter
    toJSON
    ;
  quote = s: "`${s}`";
  opt = name: "${calib.optionPath [ name "directories" ]}";
  enabledNames = accounts: filter (name: accounts.${name}.enable or true) (attrNames accounts);

  # A directory as the launcher will match it: "~/" expanded, normalized; or
  # null when it is relative.
  resolve =
    home: dir:
    let
      e = calib.expandHome home dir;
    in
    if calib.isAbsolute e then calib.normalizePath e else null;

  pairs =
    home: accounts:
    concatLists (
      map (
        name:
        map (dir: {
          inherit name dir;
          path = resolve home dir;
        }) (accounts.${name}.directories or [ ])
      ) (enabledNames accounts)
    );
in
{
  # "<dir>" = "<account>" lines, sorted, or "" when nothing is declared: one
  # line per directory and account, so a directory several accounts list has
  # a line for each, its accounts in order of name (the first is the one
  # commands other than `run --account auto` take).
  bindingsText =
    { home, accounts }:
    let
      # attrNames sorts and removes duplicates.
      lines = attrNames (
        builtins.listToAttrs (
          map (p: {
            name = "${toJSON p.path} = ${toJSON p.name}";
            value = null;
          }) (filter (p: p.path != null) (pairs home accounts))
        )
      );
    in
    if lines == [ ] then
      ""
    else
      "# Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).\n"
      + concatStringsSep "\n" lines
      + "\n";

  # "<account>" = "<dir>" lines for the accounts kept outside the default
  # ~/.claude-<name> (configDir), or "" when none is: the content of
  # $XDG_CONFIG_HOME/claude-account/accounts.declared. A launch that found
  # its account by directory, or by --account alone, has no
  # CLAUDE_ACCOUNT_DIR to say where the account is.
  accountDirsText =
    { home, accounts }:
    let
      dirOf = name: calib.resolveConfigDir home (accounts.${name}.configDir or (calib.defaultConfigDir home name));
      moved = filter (
        name:
        let
          dir = dirOf name;
        in
        dir != null && dir != calib.defaultConfigDir home name
      ) (enabledNames accounts);
    in
    if moved == [ ] then
      ""
    else
      "# Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.configDir).\n"
      + concatStringsSep "" (map (name: "${toJSON name} = ${toJSON (dirOf name)}\n") moved);

  # One message per relative directory. A directory in several accounts'
  # `directories` is no problem: it is bound to all of them, one line each
  # (`claude-account run` picks the one with the most headroom there).
  bindingProblems =
    { home, accounts }:
    map (
      p: "${quote (opt p.name)}: ${quote p.dir} is a relative path; give an absolute path or one that starts with `~/`"
    ) (filter (p: p.path == null) (pairs home accounts));
}
