# Tests of errors no Nix expression can catch (the module system's "option
# … does not exist", home-manager's "Failed assertions:"), for a file that
# has { cases; caseNames; tests; }: nix/tests/run evaluates each case's
# `value`, which must fail, and writes its error to ERRORS/<case>; the
# file's `tests` then read them here. Each error must hold every string of
# the case's `says` and none of its `never`.
#   import ./errors.nix { inherit lib errorsDir cases; }
{
  lib,
  errorsDir,
  cases,
}:
let
  # a string naming a store path ("${./dir}") carries context, which
  # lib.hasInfix refuses; the error text is plain
  has = error: s: lib.hasInfix (builtins.unsafeDiscardStringContext s) error;
  errorOf =
    name:
    let
      file = /. + "${errorsDir}/${name}";
    in
    if errorsDir != "" && builtins.pathExists file then builtins.readFile file else null;
in
{
  caseNames = toString (lib.attrNames cases);
  tests = lib.mapAttrs' (
    name: case:
    let
      error = errorOf name;
    in
    lib.nameValuePair "test-${name}" {
      expr = {
        failed = error != null;
        missing = if error == null then case.says else lib.filter (s: !has error s) case.says;
        present = if error == null then [ ] else lib.filter (has error) (case.never or [ ]);
      };
      expected = {
        failed = true;
        missing = [ ];
        present = [ ];
      };
    }
  ) cases;
}
