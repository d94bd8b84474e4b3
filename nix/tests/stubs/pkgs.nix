# A stub pkgs: just what the claude-code modules use, each "derivation" an
# attrset whose outPath hashes its inputs, so equal declarations give equal
# paths and tests can read back what a builder would have received.
{ lib }:
let
  fakeDrv =
    name: attrs:
    let
      hash = builtins.substring 0 32 (
        builtins.hashString "sha256" (builtins.toJSON ({ inherit name; } // attrs))
      );
    in
    attrs
    // {
      type = "derivation";
      inherit name;
      outPath = "${builtins.storeDir}/${hash}-${name}";
      drvPath = "${builtins.storeDir}/${hash}-${name}.drv";
      outputName = "out";
      outputs = [ "out" ];
    };

  jsonValue =
    with lib.types;
    let
      valueType =
        nullOr (oneOf [
          bool
          int
          float
          str
          path
          (attrsOf valueType)
          (listOf valueType)
        ])
        // {
          description = "JSON value";
        };
    in
    valueType;
in
{
  claude-code = fakeDrv "claude-code-2.1.328" {
    pname = "claude-code";
    version = "2.1.328";
    meta.mainProgram = "claude";
  };
  claude-account = fakeDrv "claude-account-0.1.0" {
    pname = "claude-account";
    version = "0.1.0";
    meta.mainProgram = "claude-account";
  };
  runCommand =
    name: env: script:
    fakeDrv name {
      builder = "runCommand";
      inherit env script;
    };
  symlinkJoin =
    {
      name,
      paths,
      postBuild ? "",
      meta ? { },
    }:
    fakeDrv name {
      builder = "symlinkJoin";
      inherit paths postBuild meta;
    };
  writeShellScriptBin =
    name: text:
    fakeDrv name {
      builder = "writeShellScriptBin";
      inherit text;
      meta.mainProgram = name;
    };
  formats.json = _: {
    type = jsonValue;
    generate = name: value: fakeDrv name { json = builtins.toJSON value; };
  };
}
