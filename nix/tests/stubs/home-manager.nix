# Stand-ins for the home-manager options the claude-code module sets, shaped
# like home-manager's own declarations (modules/files.nix, home-environment.nix,
# programs/git.nix, misc/assertions), so the module evaluates through the
# real lib.evalModules without home-manager.
{ lib, ... }:
let
  inherit (lib) mkOption types;
in
{
  options = {
    home.homeDirectory = mkOption { type = types.path; };
    home.username = mkOption { type = types.str; };
    home.stateVersion = mkOption { type = types.str; };
    programs.git.enable = mkOption {
      type = types.bool;
      default = false;
    };

    home.packages = mkOption {
      type = types.listOf types.package;
      default = [ ];
    };

    home.file = mkOption {
      default = { };
      type = types.attrsOf (
        types.submodule (
          { name, config, ... }:
          {
            options = {
              target = mkOption {
                type = types.str;
                default = name;
              };
              text = mkOption {
                type = types.nullOr types.lines;
                default = null;
              };
              source = mkOption { type = types.path; };
              executable = mkOption {
                type = types.nullOr types.bool;
                default = null;
              };
              recursive = mkOption {
                type = types.bool;
                default = false;
              };
            };
            config.source = lib.mkIf (config.text != null) (
              lib.mkDefault (builtins.toFile "hm-stub-text" config.text)
            );
          }
        )
      );
    };

    home.sessionVariables = mkOption {
      type = types.lazyAttrsOf (
        types.oneOf [
          types.str
          types.path
          types.int
          types.float
        ]
      );
      default = { };
    };

    programs.git.ignores = mkOption {
      type = types.listOf types.str;
      default = [ ];
    };

    assertions = mkOption {
      type = types.listOf types.unspecified;
      default = [ ];
    };

    warnings = mkOption {
      type = types.listOf types.str;
      default = [ ];
    };
  };
}
