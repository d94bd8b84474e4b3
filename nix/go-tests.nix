# `go test ./...` over the whole module, with the package's vendored
# dependencies (the same .go files, so the same vendorHash).
{
  lib,
  buildGoModule,
  git,
  package,
}:
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
  nativeCheckInputs = [ git ];

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
