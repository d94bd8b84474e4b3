# A pkgs for home-manager's whole module list, from nixpkgs' lib alone
# (CI and this machine have no nixpkgs): stubs/pkgs.nix, and every other
# name home-manager's modules read from pkgs (found in their source) as a
# stand-in derivation. Enough to evaluate a configuration's options,
# assertions, warnings and home.file, never to build it.
#   path   a directory with nixpkgs' lib/ and nixos/modules/misc/ (nix/tests/run
#          makes one from NIXPKGS_LIB and stubs/nixos)
{
  lib,
  hmSrc,
  path,
}:
let
  base = import ./pkgs.nix { inherit lib; };
  sources = lib.filter (lib.hasSuffix ".nix") (
    lib.filesystem.listFilesRecursive (hmSrc + "/modules")
  );
  # pkgs.<name>, and lib.mkPackageOption pkgs "<name>"
  matches =
    regex: text: map lib.head (lib.filter lib.isList (builtins.split regex text));
  names = lib.unique (
    lib.concatMap (
      file:
      let
        text = builtins.readFile file;
      in
      matches "pkgs\\.([a-zA-Z_][a-zA-Z0-9_-]*)" text
      ++ matches "mkPackageOption pkgs \"([a-zA-Z_][a-zA-Z0-9_-]*)\"" text
    ) sources
  );
  # A derivation, and a builder too (pkgs.writeTextFile { … } is one of
  # them): called with anything, it gives itself.
  standIn =
    name:
    base.runCommand name { } ""
    // {
      pname = name;
      version = "0";
      meta.mainProgram = name;
      __functor = _: _: standIn name;
    };
  format = _: {
    type = lib.types.anything;
    lib.types.atom = lib.types.anything;
    generate = name: value: base.runCommand name { json = builtins.toJSON value; } "";
  };
  platform = {
    system = "x86_64-linux";
    isLinux = true;
    isDarwin = false;
    isx86 = true;
    isx86_64 = true;
    isAarch64 = false;
  };
in
lib.genAttrs names standIn
// base
// {
  inherit lib path;
  system = platform.system;
  stdenv = standIn "stdenv" // {
    hostPlatform = platform;
    buildPlatform = platform;
    targetPlatform = platform;
    inherit (platform) isLinux isDarwin;
  };
  formats = lib.genAttrs [
    "ini"
    "iniWithGlobalSection"
    "javaProperties"
    "json"
    "keyValue"
    "toml"
    "xml"
    "yaml"
  ] (_: format);
  bash = base.runCommand "bash-5.3" { } "";
  runCommandLocal = base.runCommand;
}
