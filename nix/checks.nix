# The flake's checks for one system: the package, the Go tests, nix/lib, the
# module (through the real lib.evalModules with stubs, and inside a real
# home-manager configuration) and one account's layer 1 built by the package.
{
  pkgs,
  package,
  homeManagerModule,
  home-manager,
}:
let
  inherit (pkgs) lib;
  # A check that passes when `value` evaluates (the tests throw on failure).
  evaluates = name: value: pkgs.runCommand name { } (builtins.deepSeq value "touch $out");
  layer1 = import ./tests/layer1.nix {
    claudeAccount = lib.getExe package;
    inherit (pkgs.stdenv.hostPlatform) system;
  };
in
{
  inherit package;

  go-tests = pkgs.callPackage ./go-tests.nix { inherit package; };

  nix-lib = evaluates "claude-account-nix-lib-tests" (import ./tests/lib.nix);

  module-eval = evaluates "claude-account-module-eval" (import ./tests/module.nix { inherit lib; });

  bindings = evaluates "claude-account-bindings-tests" (import ./tests/bindings.nix);

  module-directories = evaluates "claude-account-module-directories" (
    import ./tests/module-directories.nix { inherit lib; }
  );

  module-mcp = evaluates "claude-account-module-mcp" (import ./tests/module-mcp.nix { inherit lib; });

  # Beside the real programs.claude-code of the locked home-manager.
  module-upstream = evaluates "claude-account-module-upstream" (
    import ./tests/module-upstream.nix {
      nixLib = lib;
      hmSrc = home-manager;
    }
  );

  layer1 = pkgs.runCommand "claude-account-layer1-check" { } ''
    diff -r ${./tests/expected/layer1} ${layer1}
    touch $out
  '';

  module-home-manager =
    (home-manager.lib.homeManagerConfiguration {
      inherit pkgs;
      modules = [
        homeManagerModule
        ./tests/hm-check.nix
      ];
    }).activationPackage;
}
