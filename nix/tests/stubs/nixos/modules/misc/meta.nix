# A stand-in for nixpkgs' nixos/modules/misc/meta.nix, which home-manager
# imports from pkgs.path: the meta options its modules set.
{ lib, ... }:
{
  options.meta = {
    maintainers = lib.mkOption {
      type = lib.types.anything;
      internal = true;
      default = { };
      description = "The maintainers of each module.";
    };
    doc = lib.mkOption {
      type = lib.types.anything;
      internal = true;
      default = { };
      description = "Documentation of each module.";
    };
    buildDocsInSandbox = lib.mkOption {
      type = lib.types.anything;
      internal = true;
      default = true;
      description = "Whether a module's docs build in the sandbox.";
    };
  };
}
