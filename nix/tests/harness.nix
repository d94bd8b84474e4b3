# A tiny lib.debug.runTests for builtins-only evaluation:
#   runTests { <name> = { expr = …; expected = …; }; … }
# returns { passed = <count>; names = [ … ]; } when every expr equals its
# expected value, and throws a message listing each failure otherwise
# (its first line: "FAILED <k> of <n> tests").
tests:
let
  inherit (builtins)
    attrNames
    concatStringsSep
    filter
    length
    toJSON
    ;
  names = attrNames tests;
  failed = filter (name: tests.${name}.expr != tests.${name}.expected) names;
  show = value: toJSON value;
in
if failed == [ ] then
  {
    passed = length names;
    inherit names;
  }
else
  throw (
    "FAILED ${toString (length failed)} of ${toString (length names)} tests\n"
    + concatStringsSep "\n" (
      map (
        name: "  ${name}:\n    expected ${show tests.${name}.expected}\n    got      ${show tests.${name}.expr}"
      ) failed
    )
  )
