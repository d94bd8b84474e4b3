# A stand-in for nixpkgs' nixos/modules/misc/assertions.nix, which
# home-manager imports from pkgs.path: the assertions and warnings options.
{ lib, ... }:
{
  options = {
    assertions = lib.mkOption {
      type = lib.types.listOf lib.types.unspecified;
      internal = true;
      default = [ ];
      description = "Conditions that must hold, each with the message shown when it does not.";
    };
    warnings = lib.mkOption {
      type = lib.types.listOf lib.types.str;
      internal = true;
      default = [ ];
      description = "Messages shown at evaluation.";
    };
  };
}
