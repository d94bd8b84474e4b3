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

      # `nix run <flake>` with no arguments prints the help (claude-account
      # does so when it is given no command and no account).
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

      # homeModules is the name home-manager's flake-parts module reads;
      # homeManagerModules stays as an alias. The module is a path, so
      # importing it twice (default and claude-code, or through two flakes
      # that follow one input) is one import: the module system dedups
      # paths. Two different revisions are two paths and fail with
      # "already declared".
      homeModules = {
        claude-code = ./nix/modules/claude-code;
        default = self.homeModules.claude-code;
      };
      homeManagerModules = self.homeModules;

      checks = eachSystem (
        { pkgs, system }:
        import ./nix/checks.nix {
          inherit pkgs home-manager;
          package = self.packages.${system}.claude-account;
          homeManagerModule = self.homeModules.default;
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
