# Pure helpers of the claude-account Nix module: naming, path checks, the
# account spec handed to `claude-account generate`, the layer-2 links, the
# assertions, the Claude Code release each shared row needs, and the
# account defaults. They use
# builtins only, so the plain `nix` of a distribution (no nixpkgs) evaluates
# and tests them: see nix/tests/lib.nix.
let
  self =
    import ./names.nix self
    // import ./paths.nix self
    // import ./spec.nix self
    // import ./assertions.nix self
    // import ./versions.nix self
    // import ./defaults.nix self
    // import ./mcp.nix self;
in
self
