# Every system flake.nix declares evaluates, the two macOS ones included,
# with builtins only (CI has no nixpkgs): flake.nix's outputs with a stand-in
# nixpkgs whose callPackage really imports nix/package.nix, giving it a
# stand-in lib and a buildGoModule that returns the arguments it was given.
# So a darwin-only evaluation error in the flake or the package (a platform
# list without darwin, an attribute only Linux has) fails here.
#   nix-instantiate --eval --strict --json nix/tests/systems.nix
let
  runTests = import ./harness.nix;
  inherit (builtins)
    all
    attrNames
    elem
    listToAttrs
    map
    match
    ;

  linuxes = [
    "x86_64-linux"
    "aarch64-linux"
  ];
  darwins = [
    "x86_64-darwin"
    "aarch64-darwin"
  ];

  # What flake.nix and nix/package.nix use of nixpkgs' lib, as nixpkgs has it
  # (lib.platforms lists the systems of each family).
  lib = {
    genAttrs =
      names: f:
      listToAttrs (
        map (name: {
          inherit name;
          value = f name;
        }) names
      );
    getExe = drv: "${drv.outPath}/bin/${drv.meta.mainProgram}";
    licenses.mit = {
      spdxId = "MIT";
    };
    platforms = {
      linux = linuxes;
      darwin = darwins;
      unix = linuxes ++ darwins ++ [ "x86_64-freebsd" ];
    };
    fileset = {
      toSource = { root, fileset }: { inherit root fileset; };
      unions = sets: { unions = sets; };
      fileFilter = predicate: root: { inherit predicate root; };
      maybeMissing = path: { maybeMissing = path; };
    };
  };

  fakeDrv =
    name: attrs:
    attrs
    // {
      type = "derivation";
      inherit name;
      outPath = "${builtins.storeDir}/${
        builtins.substring 0 32 (builtins.hashString "sha256" name)
      }-${name}";
    };

  pkgsFor =
    system:
    let
      pkgs = {
        inherit lib;
        stdenv.hostPlatform = {
          inherit system;
          isDarwin = elem system darwins;
          isLinux = elem system linuxes;
        };
        buildGoModule =
          args:
          fakeDrv "${args.pname}-${args.version}" {
            goModuleArgs = args;
            inherit (args) meta;
          };
        # As nixpkgs' callPackage: the arguments the function names, from pkgs.
        callPackage =
          path: overrides:
          let
            f = import path;
          in
          f (builtins.intersectAttrs (builtins.functionArgs f) ({ inherit pkgs; } // pkgs) // overrides);
        mkShell = args: fakeDrv "shell" { shellArgs = args; };
        runCommand = name: _env: script: fakeDrv name { inherit script; };
        git = fakeDrv "git" { };
        gopls = fakeDrv "gopls" { };
        nixfmt = fakeDrv "nixfmt" { };
        nixfmt-tree = fakeDrv "nixfmt-tree" { };
      };
    in
    pkgs;

  flake = import ../../flake.nix;
  outputs = flake.outputs inputs;
  inputs = {
    self = outputs // {
      outPath = toString ../..;
    };
    nixpkgs = {
      inherit lib;
      legacyPackages = lib.genAttrs (linuxes ++ darwins) pkgsFor;
    };
    home-manager.lib.homeManagerConfiguration = _: {
      activationPackage = fakeDrv "home-manager-generation" { };
    };
  };

  systems = attrNames outputs.packages;
  package = system: outputs.packages.${system}.default;
  args = system: (package system).goModuleArgs;
  # What buildGoModule gets for one system, as a value that compares.
  summary =
    system:
    let
      a = args system;
    in
    {
      inherit (a)
        pname
        subPackages
        ;
      cgo = a.env.CGO_ENABLED;
      vendorHash = match "sha256-[A-Za-z0-9+/]{43}=" a.vendorHash != null;
      version = match "-X github.com/claude-account/claude-account/internal/cli.Version=.*" (
        builtins.elemAt a.ldflags 2
      ) != null;
      mainProgram = a.meta.mainProgram;
      supported = elem system a.meta.platforms;
      checkedHere = a.doCheck;
    };
  expected = {
    pname = "claude-account";
    subPackages = [ "cmd/claude-account" ];
    cgo = "0";
    vendorHash = true;
    version = true;
    mainProgram = "claude-account";
    supported = true;
    checkedHere = false;
  };
  # The source is every .go file (and go.mod, go.sum): the filter, tried.
  goFilter = (builtins.elemAt (args "aarch64-darwin").src.fileset.unions 2).predicate;
in
runTests {
  testSystemsDeclared = {
    expr = systems;
    expected = [
      "aarch64-darwin"
      "aarch64-linux"
      "x86_64-darwin"
      "x86_64-linux"
    ];
  };
  testEverySystemOutput = {
    expr = map (output: attrNames outputs.${output}) [
      "apps"
      "checks"
      "devShells"
      "formatter"
    ];
    expected = map (_: systems) [
      1
      2
      3
      4
    ];
  };
  testPackageEachSystem = {
    expr = lib.genAttrs systems summary;
    expected = lib.genAttrs systems (_: expected);
  };
  testDefaultIsTheNamedOne = {
    expr = all (s: outputs.packages.${s}.default == outputs.packages.${s}.claude-account) systems;
    expected = true;
  };
  testAppEachSystem = {
    expr = all (
      s:
      outputs.apps.${s}.default.program
      == "${(package s).outPath}/bin/claude-account"
    ) systems;
    expected = true;
  };
  testDevShellEachSystem = {
    expr = map (s: (builtins.head outputs.devShells.${s}.default.shellArgs.inputsFrom).name) systems;
    expected = map (_: "claude-account-0.1.0") systems;
  };
  # The Go tests run as a check on each system (on a Mac, `nix flake check`
  # runs them on macOS: no machine of ours does).
  testGoTestsEachSystem = {
    expr = map (s: outputs.checks.${s}.go-tests.goModuleArgs.pname) systems;
    expected = map (_: "claude-account-go-tests") systems;
  };
  testSourceFilter = {
    expr = map goFilter [
      { hasExt = ext: ext == "go"; }
      { hasExt = ext: ext == "md"; }
    ];
    expected = [
      true
      false
    ];
  };
}
