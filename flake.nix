{
  description = "Claude Code accounts: declarative per-account configuration for home-manager and a per-worktree launcher";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixpkgs-unstable";
    # Only the checks use home-manager: they build the module inside a real
    # home-manager configuration, beside home-manager's own
    # programs.claude-code. Nothing is fetched for it unless they run; point
    # it at yours with `inputs.claude-account.inputs.home-manager.follows`.
    home-manager = {
      url = "github:nix-community/home-manager";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs =
    {
      self,
      nixpkgs,
      home-manager,
      ...
    }:
    let
      inherit (nixpkgs) lib;
      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "x86_64-darwin"
        "aarch64-darwin"
      ];
      eachSystem =
        f:
        lib.genAttrs systems (
          system:
          f {
            inherit system;
            pkgs = nixpkgs.legacyPackages.${system};
          }
        );
    in
    {
      packages = eachSystem (
        { pkgs, ... }:
        rec {
          claude-account = pkgs.callPackage ./nix/package.nix { };
          default = claude-account;
        }
      );

      apps = eachSystem (
        { system, ... }:
        {
          default = {
            type = "app";
            program = lib.getExe self.packages.${system}.default;
            meta.description = "Run claude-account";
          };
        }
      );

      overlays.default = final: _prev: {
        claude-account = final.callPackage ./nix/package.nix { };
      };

      homeManagerModules = {
        claude-code =
          { lib, pkgs, ... }:
          {
            imports = [ ./nix/modules/claude-code ];
            # Built with the configuration's own nixpkgs, unless the overlay
            # already put claude-account there.
            programs.claude-code.accountsPackage = lib.mkDefault (
              pkgs.claude-account or (pkgs.callPackage ./nix/package.nix { })
            );
          };
        default = self.homeManagerModules.claude-code;
      };

      checks = eachSystem (
        { pkgs, system }:
        import ./nix/checks.nix {
          inherit pkgs home-manager;
          package = self.packages.${system}.claude-account;
          homeManagerModule = self.homeManagerModules.default;
        }
      );

      devShells = eachSystem (
        { pkgs, system }:
        {
          default = pkgs.mkShell {
            inputsFrom = [ self.packages.${system}.claude-account ];
            packages = [
              pkgs.git
              pkgs.gopls
              pkgs.nixfmt
            ];
          };
        }
      );

      formatter = eachSystem ({ pkgs, ... }: pkgs.nixfmt-tree);
    };
}
