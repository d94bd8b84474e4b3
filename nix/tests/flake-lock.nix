# flake.lock agrees with the inputs flake.nix declares (builtins only): each
# input locked once, as declared, with a full rev, narHash and lastModified,
# and home-manager following our nixpkgs.
let
  runTests = import ./harness.nix;
  flake = import ../../flake.nix;
  lock = builtins.fromJSON (builtins.readFile ../../flake.lock);
  inherit (builtins) attrNames mapAttrs match;
  nodes = lock.nodes;
  rootInputs = nodes.${lock.root}.inputs;
  # "github:owner/repo/ref" -> { type; owner; repo; ref?; }
  parseUrl =
    url:
    let
      m = match "github:([^/]+)/([^/]+)(/(.+))?" url;
    in
    {
      type = "github";
      owner = builtins.elemAt m 0;
      repo = builtins.elemAt m 1;
    }
    // (if builtins.elemAt m 3 == null then { } else { ref = builtins.elemAt m 3; });
  wellLocked =
    node:
    match "[0-9a-f]{40}" node.locked.rev != null
    && match "sha256-[A-Za-z0-9+/]{43}=" node.locked.narHash != null
    && builtins.isInt node.locked.lastModified
    && node.locked.type == "github"
    && node.locked.owner == node.original.owner
    && node.locked.repo == node.original.repo;
in
runTests {
  testLockVersion = {
    expr = lock.version;
    expected = 7;
  };
  testRootInputs = {
    expr = attrNames rootInputs;
    expected = attrNames flake.inputs;
  };
  testOriginals = {
    expr = mapAttrs (name: node: nodes.${node}.original) rootInputs;
    expected = mapAttrs (_: input: parseUrl input.url) flake.inputs;
  };
  testWellLocked = {
    expr = mapAttrs (_: node: wellLocked nodes.${node}) rootInputs;
    expected = mapAttrs (_: _: true) rootInputs;
  };
  testFollows = {
    expr = {
      declared = flake.inputs.home-manager.inputs.nixpkgs.follows;
      locked = nodes.${rootInputs.home-manager}.inputs.nixpkgs;
    };
    expected = {
      declared = "nixpkgs";
      locked = [ "nixpkgs" ];
    };
  };
  testNoStrayNodes = {
    expr = attrNames nodes;
    expected = [
      "home-manager"
      "nixpkgs"
      "root"
    ];
  };
}
