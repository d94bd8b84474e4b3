# Types and option makers the account's option files share.
{ lib }:
let
  inherit (lib) literalExpression mkOption types;
in
rec {
  # The type of pkgs.formats.json { }, built from lib alone.
  jsonValue =
    with types;
    let
      valueType =
        nullOr (oneOf [
          bool
          int
          float
          str
          path
          (attrsOf valueType)
          (listOf valueType)
        ])
        // {
          description = "JSON value";
        };
    in
    valueType;

  contentType = types.either types.lines types.path;

  mkContentOption =
    {
      what,
      dir,
      example,
    }:
    mkOption {
      type = types.attrsOf contentType;
      default = { };
      inherit example;
      description = ''
        ${what} of this account. The attribute name becomes the file name
        {file}`${dir}/<name>.md` (a name may contain `/` for
        subdirectories), and the value is either the content as a string or a
        path to a file holding it.

        {file}`${dir}/` in {option}`configDir` is a real directory holding
        one link into the store per declared file, so Claude and your own
        `home.file` entries can add files beside them.
      '';
    };

  mkDirOption =
    dir:
    mkOption {
      type = types.nullOr types.path;
      default = null;
      example = literalExpression "./${dir}";
      description = ''
        A directory whose files are copied into {file}`${dir}/`, beside the
        entries declared one by one (a name declared both ways is an error).
      '';
    };
}
