# Evaluation errors the module system throws (not assertions: an option
# that does not exist), whose message no Nix expression can catch: checked
# by message through nix/tests/errors.nix.
#   nix-instantiate --eval --strict nix/tests/module-errors.nix -A cases.CASE.value \
#     --argstr nixpkgsLib NIXPKGS_LIB
#   nix-instantiate --eval --strict --json nix/tests/module-errors.nix -A tests \
#     --argstr nixpkgsLib NIXPKGS_LIB --argstr errorsDir ERRORS
{
  nixpkgsLib ? builtins.getEnv "NIXPKGS_LIB",
  lib ? import (/. + nixpkgsLib),
  errorsDir ? "",
}:
let
  runTests = import ./harness.nix;
  pkgs = import ./stubs/pkgs.nix { inherit lib; };
  evalModule = import ./eval-module.nix { inherit lib pkgs; };
  specOf =
    modules:
    (evalModule { modules = [ ../modules/claude-code ] ++ modules; }).config.programs.claude-code.accounts.max.spec;

  cases = {
    # An option no account has, given in accountDefaults (issue 30): the
    # error shows the value as written, not the lib.mkDefault made of it.
    accountDefaultsUnknownOption = {
      value = specOf [
        {
          programs.claude-code.accountDefaults.setings.model = "opus";
          programs.claude-code.accounts.max = { };
        }
      ];
      says = [
        "The option `programs.claude-code.accounts.max.setings' does not exist."
        "via option programs.claude-code.accountDefaults'"
        "model = \"opus\";"
        "Did you mean `programs.claude-code.accounts.max.settings'"
      ];
      never = [ "_type" ];
    };
    # The same in the function form.
    accountDefaultsUnknownOptionFunction = {
      value = specOf [
        {
          programs.claude-code.accountDefaults = { name, ... }: { setings.env.ACCOUNT = name; };
          programs.claude-code.accounts.max = { };
        }
      ];
      says = [
        "The option `programs.claude-code.accounts.max.setings' does not exist."
        "ACCOUNT = \"max\";"
      ];
      never = [ "_type" ];
    };
    # The module imported straight into a NixOS (or nix-darwin)
    # configuration instead of through home-manager: the module system
    # names the mistake instead of a missing `home` option.
    importedIntoNixos = {
      value =
        (evalModule {
          class = "nixos";
          modules = [
            ../modules/claude-code
            { programs.claude-code.accounts.max = { }; }
          ];
        }).config.programs.claude-code.accounts.max.spec;
      # nixpkgs' lib words it "cannot be imported into a module evaluation
      # that expects class \"nixos\"" (older: "was imported into nixos
      # instead of homeManager"); both name the two classes.
      says = [
        "homeManager"
        "nixos"
      ];
      never = [ "The option `home" ];
    };

    # Upstream's older forms (memory.text, memory.source, skillsDir) given a
    # value of the wrong type: the error names the account's option path and
    # the user's file, never one of ours (issue 42: it named `context` and
    # options.nix).
    memoryTextWrongType = {
      value = specOf [
        {
          _file = "/home/u/.config/home-manager/home.nix";
          programs.claude-code.accounts.max.memory.text = 42;
        }
      ];
      says = [
        "A definition for option `programs.claude-code.accounts.max.memory.text' is not of type"
        "In `/home/u/.config/home-manager/home.nix': 42"
      ];
      never = [
        "accounts.max.context"
        "modules/claude-code/"
      ];
    };
    memorySourceWrongType = {
      value = specOf [
        {
          _file = "/home/u/.config/home-manager/home.nix";
          programs.claude-code.accounts.max.memory.source = true;
        }
      ];
      says = [
        "A definition for option `programs.claude-code.accounts.max.memory.source' is not of type"
        "In `/home/u/.config/home-manager/home.nix': true"
      ];
      never = [
        "accounts.max.context"
        "modules/claude-code/"
      ];
    };
    skillsDirWrongType = {
      value = specOf [
        {
          _file = "/home/u/.config/home-manager/home.nix";
          programs.claude-code.accounts.max.skillsDir = "skills";
        }
      ];
      says = [
        "A definition for option `programs.claude-code.accounts.max.skillsDir' is not of type `null or absolute path'"
        "In `/home/u/.config/home-manager/home.nix': \"skills\""
      ];
      never = [
        "accounts.max.skills'"
        "modules/claude-code/"
      ];
    };
  };

  errors = import ./errors.nix { inherit lib errorsDir cases; };
in
{
  inherit cases;
  inherit (errors) caseNames;
  tests = runTests errors.tests;
}
