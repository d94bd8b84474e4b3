# checks.go-tests runs `go test ./...` in the build sandbox, where only its
# inputs are on PATH: every program the tests run must come from one.
#   nix-instantiate --eval --strict --json nix/tests/go-test-tools.nix --argstr programs "git jq …"
# `programs` is what nix/tests/run finds the tests running. nix/go-tests.nix
# is evaluated with stand-ins (no nixpkgs) to read its inputs by name;
# nix/go-test-tools.nix says which package provides each program.
{ programs ? "" }:
let
  runTests = import ./harness.nix;
  tools = import ../go-test-tools.nix;
  inherit (builtins)
    attrNames
    concatLists
    elem
    filter
    functionArgs
    isString
    listToAttrs
    mapAttrs
    split
    ;

  # nix/go-tests.nix called as callPackage would, every package a stand-in
  # that carries its name.
  goTests = import ../go-tests.nix;
  stand-in = name: { pname = name; };
  stubLib.fileset = {
    toSource = { root, fileset }: root;
    unions = list: list;
    fileFilter = _: dir: dir;
    maybeMissing = path: path;
  };
  pkgs = mapAttrs (name: _: stand-in name) tools.packages;
  args = mapAttrs (
    name: _:
    if name == "lib" then
      stubLib
    else if name == "pkgs" then
      pkgs
    else if name == "buildGoModule" then
      (attrs: attrs)
    else if name == "package" then
      {
        version = "0";
        vendorHash = null;
      }
    else
      stand-in name
  ) (functionArgs goTests);
  drv = goTests args;
  inputs = map (p: p.pname) (drv.nativeCheckInputs or [ ] ++ drv.nativeBuildInputs or [ ]);

  providerOf = listToAttrs (
    concatLists (
      map (package: map (program: { name = program; value = package; }) tools.packages.${package}) (
        attrNames tools.packages
      )
    )
  );
  used = filter (p: isString p && p != "") (split " " programs);
  status =
    program:
    if tools.provided ? ${program} || tools.skipped ? ${program} then
      "ok"
    else if !(providerOf ? ${program}) then
      "not in nix/go-test-tools.nix: add it under the nixpkgs package that provides it"
    else if !(elem providerOf.${program} inputs) then
      "its package ${providerOf.${program}} is not an input of checks.go-tests (nix/go-tests.nix)"
    else
      "ok";
in
runTests (
  {
    # The scan found the programs at all (grep -P works, the paths hold).
    testProgramsFound = {
      expr = builtins.length used > 10 && elem "git" used && elem "sh" used;
      expected = true;
    };
    testEveryListedPackageIsAnInput = {
      expr = filter (package: !(elem package inputs)) (attrNames tools.packages);
      expected = [ ];
    };
  }
  // listToAttrs (
    map (program: {
      name = "testProgram ${program}";
      value = {
        expr = status program;
        expected = "ok";
      };
    }) used
  )
)
