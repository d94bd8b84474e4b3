# The non-flake entry point, for npins, niv and channels:
#
#   let claude-account = import (fetchTarball "https://…/claude-account/archive/main.tar.gz") { inherit pkgs; };
#   in { imports = [ claude-account.homeModules.claude-code ]; }
#
# The same outputs as the flake's, for one pkgs. Nothing here forces pkgs
# unless the package is asked for: the module builds the package with the
# configuration's own pkgs.
{
  pkgs ? import <nixpkgs> { },
}:
rec {
  claude-account = pkgs.callPackage ./nix/package.nix { };
  default = claude-account;
  overlays.default = final: _prev: {
    claude-account = final.callPackage ./nix/package.nix { };
  };
  homeModules = {
    claude-code = ./nix/modules/claude-code;
    default = homeModules.claude-code;
  };
  homeManagerModules = homeModules;
}
