# flake.nix's outputs evaluated with stand-in inputs (nixpkgs' lib/ and a stub
# pkgs; nothing is built or fetched): the output names, the systems, the
# overlay, the app, and the home-manager module through lib.evalModules.
#   nix-instantiate --eval --strict --json nix/tests/flake-outputs.nix --argstr nixpkgsLib DIR
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
}:
let
  runTests = import ./harness.nix;
  stub = import ./stubs/pkgs.nix { inherit lib; };
  systems = [
    "aarch64-darwin"
    "aarch64-linux"
    "x86_64-darwin"
    "x86_64-linux"
  ];
  # callPackage ./nix/package.nix { } stands in as a fake derivation that
  # remembers what it was called with.
  callPackage =
    path: args:
    stub.runCommand "claude-account-0.1.0" { } "callPackage ${toString path}"
    // {
      meta.mainProgram = "claude-account";
      calledWith = baseNameOf path;
    };
  pkgsFor =
    system:
    stub
    // {
      inherit callPackage lib;
      stdenv.hostPlatform.system = system;
    };

  flake = import ../../flake.nix;
  outputs = flake.outputs inputs;
  inputs = {
    self = outputs // {
      outPath = toString ../..;
    };
    nixpkgs = {
      inherit lib;
      legacyPackages = lib.genAttrs systems pkgsFor;
    };
    home-manager = {
      lib = { };
    };
  };

  # The module with one account, through eval-module.nix (assertions and
  # warnings forced); pkgs replaces the stub pkgs.
  evalHome =
    pkgs: module:
    (import ./eval-module.nix { inherit lib pkgs; } {
      modules = [
        module
        { programs.claude-code.accounts.max = { }; }
      ];
    }).config;
  withoutOverlay = removeAttrs (pkgsFor "x86_64-linux") [ "claude-account" ];
in
runTests {
  testOutputNames = {
    expr = builtins.attrNames outputs;
    expected = [
      "apps"
      "checks"
      "devShells"
      "formatter"
      "homeManagerModules"
      "homeModules"
      "overlays"
      "packages"
    ];
  };
  testSystems = {
    expr = map (output: builtins.attrNames outputs.${output}) [
      "apps"
      "checks"
      "devShells"
      "formatter"
      "packages"
    ];
    expected = map (_: systems) [ 1 2 3 4 5 ];
  };
  testPackages = {
    expr = lib.mapAttrs (_: p: builtins.attrNames p) outputs.packages;
    expected = lib.genAttrs systems (_: [
      "claude-account"
      "default"
    ]);
  };
  testPackageFromPackageNix = {
    expr = outputs.packages.x86_64-linux.default.calledWith;
    expected = "package.nix";
  };
  testApp = {
    expr =
      let
        app = outputs.apps.aarch64-darwin.default;
      in
      {
        inherit (app) type meta;
        program =
          builtins.match "${builtins.storeDir}/[a-z0-9]{32}-claude-account-0.1.0/bin/claude-account" app.program
          != null;
      };
    expected = {
      type = "app";
      meta.description = "Run claude-account";
      program = true;
    };
  };
  testOverlay = {
    expr = builtins.attrNames (outputs.overlays.default (pkgsFor "x86_64-linux") { });
    expected = [ "claude-account" ];
  };
  testCheckNames = {
    expr = builtins.attrNames outputs.checks.x86_64-linux;
    expected = [
      "bindings"
      "go-tests"
      "layer1"
      "module-directories"
      "module-eval"
      "module-home-manager"
      "module-mcp"
      "module-upstream"
      "nix-lib"
      "package"
    ];
  };
  # The evaluation checks run their tests when their script is made: a failing
  # test throws here.
  testEvaluationChecksRun = {
    expr = map (name: outputs.checks.x86_64-linux.${name}.script) [
      "bindings"
      "module-directories"
      "nix-lib"
    ];
    expected = [
      "touch $out"
      "touch $out"
      "touch $out"
    ];
  };
  testHomeManagerModules = {
    expr = builtins.attrNames outputs.homeManagerModules;
    expected = [
      "claude-code"
      "default"
    ];
  };
  testHomeManagerModulesIsAlias = {
    expr = outputs.homeManagerModules == outputs.homeModules;
    expected = true;
  };
  # Both of the flake's names, and both attributes, imported at once: one module.
  testDoubleImport = {
    expr =
      map (p: p.name)
        (import ./eval-module.nix {
          inherit lib;
          pkgs = pkgsFor "x86_64-linux";
        } {
          modules = [
            outputs.homeModules.default
            outputs.homeModules.claude-code
            outputs.homeManagerModules.default
            { programs.claude-code.accounts.max = { }; }
          ];
        }).config.home.packages;
    expected = [
      "claude-account-0.1.0"
      "claudemax"
    ];
  };
  # default.nix, without flakes: the same module and package.
  testNonFlakeEntry = {
    expr =
      let
        plain = import ../../default.nix { pkgs = withoutOverlay; };
      in
      {
        names = builtins.attrNames plain;
        package = plain.claude-account.calledWith;
        sameModule = plain.homeModules.claude-code == outputs.homeModules.claude-code;
        moduleBuildsPackage = (builtins.head (evalHome withoutOverlay plain.homeModules.default).home.packages).calledWith;
      };
    expected = {
      names = [
        "claude-account"
        "default"
        "homeManagerModules"
        "homeModules"
        "overlays"
      ];
      package = "package.nix";
      sameModule = true;
      moduleBuildsPackage = "package.nix";
    };
  };
  testModuleUsesOverlayPackage = {
    expr = map (p: p.name) (evalHome (pkgsFor "x86_64-linux") outputs.homeManagerModules.default).home.packages;
    expected = [
      "claude-account-0.1.0"
      "claudemax"
    ];
  };
  testModuleBuildsPackageWithoutOverlay = {
    expr =
      (builtins.head (evalHome withoutOverlay outputs.homeManagerModules.claude-code).home.packages)
      .calledWith;
    expected = "package.nix";
  };
}
