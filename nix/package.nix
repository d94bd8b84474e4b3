# claude-account, built from this repository.
#   nix build .#claude-account        (flake)
#   pkgs.callPackage ./nix/package.nix { }
{
  lib,
  buildGoModule,
  version ? "0.1.0",
}:
buildGoModule {
  pname = "claude-account";
  inherit version;

  # Only what Go reads: a change to the Nix files, the docs or the tests'
  # data does not rebuild the binary. Every .go file is in, tests too, so
  # that `go mod vendor` here sees the same imports as in a checkout (and
  # the vendorHash below is the one nix/tests/run computes).
  src = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.unions [
      ../go.mod
      ../go.sum
      (lib.fileset.fileFilter (file: file.hasExt "go") ../.)
    ];
  };

  # The hash of `go mod vendor`; nix/tests/run fails when it is stale and
  # prints the new value.
  vendorHash = "sha256-gcg0xXeYU98Fp16J6etqgXntzZr3w5aY7+Ypex4mYhQ=";

  subPackages = [ "cmd/claude-account" ];

  env.CGO_ENABLED = "0";

  ldflags = [
    "-s"
    "-w"
    "-X github.com/claude-account/claude-account/internal/cli.Version=${version}"
  ];

  # The Go tests run in the flake's checks (checks.<system>.go-tests).
  doCheck = false;

  meta = {
    description = "Per-account, per-worktree launcher for Claude Code";
    longDescription = ''
      Gives every Claude Code account its own declarative configuration and
      every git worktree its own writable runtime for that account, so that
      several sessions can work one repository at once.
    '';
    mainProgram = "claude-account";
    homepage = "https://github.com/claude-account/claude-account";
    license = lib.licenses.mit;
    platforms = lib.platforms.unix;
  };
}
