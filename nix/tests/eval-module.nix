# lib.evalModules as every module test runs it: home-manager's stand-ins,
# a stub pkgs, the given modules, and config.assertions and config.warnings
# forced, every message of both, as `home-manager switch` forces them. An
# error inside an assertion or a warning is then an error of the test that
# evaluated the configuration, not something only a real switch finds.
#   evalModule = import ./eval-module.nix { inherit lib pkgs; };
#   (evalModule { modules = [ ../modules/claude-code { … } ]; }).config
# nix/tests/run checks that no other test file calls lib.evalModules.
# `class`: the module class the evaluation is, as home-manager gives
# "homeManager" (null: none checked).
{ lib, pkgs }:
{
  modules,
  class ? null,
}:
let
  result = lib.evalModules {
    inherit class;
    modules = [
      ./stubs/home-manager.nix
      {
        _module.args.pkgs = pkgs;
        home.homeDirectory = "/home/u";
      }
    ]
    ++ modules;
  };
  checks =
    map (a: {
      inherit (a) assertion message;
    }) result.config.assertions
    ++ result.config.warnings;
in
builtins.deepSeq checks result
