# `go test ./...` over the whole module, with the package's vendored
# dependencies (the same .go files, so the same vendorHash). Every program a
# test runs is an input (nix/go-test-tools.nix): the sandbox has no other.
{
  lib,
  pkgs,
  buildGoModule,
  package,
}:
let
  tools = import ./go-test-tools.nix;
in
buildGoModule {
  pname = "claude-account-go-tests";
  inherit (package) version vendorHash;

  src = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.unions [
      ../go.mod
      ../go.sum
      (lib.fileset.fileFilter (file: file.hasExt "go") ../.)
      ../internal
      (lib.fileset.maybeMissing ../testscripts)
    ];
  };

  env.CGO_ENABLED = "0";
  nativeCheckInputs = map (name: pkgs.${name}) (builtins.attrNames tools.packages);

  buildPhase = ''
    runHook preBuild
    go vet ./...
    runHook postBuild
  '';

  doCheck = true;
  checkPhase = ''
    runHook preCheck
    export HOME=$TMPDIR
    go test ./...
    runHook postCheck
  '';

  installPhase = ''
    touch $out
  '';
}
