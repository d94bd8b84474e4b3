# An account's MCP servers as Claude Code takes them, from every value
# home-manager's own programs.claude-code.mcpServers (and programs.mcp.servers)
# takes: the server's type filled in, `serverUrl` renamed `url`, numbers and
# booleans in `env`, `args` and `headers` made strings, `env.X.file` read when the
# server starts (by `claude-account mcp-env`, never copied into the store or
# .claude.json), and `enabled = false` / `disabled = true` servers left out
# and named in `disabledMcpjsonServers`. What no Claude could run is a
# problem at evaluation, never a launch that fails.
self:
let
  inherit (builtins)
    attrNames
    concatLists
    concatMap
    elem
    filter
    isAttrs
    isBool
    isFloat
    isInt
    isList
    isPath
    isString
    length
    listToAttrs
    mapAttrs
    removeAttrs
    stringLength
    substring
    toJSON
    ;
  quote = s: "`${s}`";
  # The types every Claude Code from 2.0.77 takes in its user-scope
  # mcpServers (its zod schema: stdio, sse, http, ws; the rest are its own).
  types = [
    "stdio"
    "http"
    "sse"
    "ws"
  ];
  isFileRef = value: isAttrs value && value ? file;
  # A file in the store, which every user can read: under the store
  # directory (a flake's own `toString ./secrets/token` is, without string
  # context), or built from a store path ("${./token}" carries its context
  # wherever it points).
  inStore =
    file:
    builtins.hasContext file
    || file == builtins.storeDir
    || substring 0 (stringLength builtins.storeDir + 1) file == builtins.storeDir + "/";
  isScalar = value: isInt value || isFloat value || isBool value;
  # A number or boolean as JavaScript's String() writes it (8080, 1.5, true).
  asString = value: if isScalar value then toJSON value else value;
  isEmpty = value: value == null || value == [ ] || value == { };
  typeName =
    value:
    if value == null then
      "null"
    else if isList value then
      "a list"
    else if isAttrs value then
      "an attribute set"
    else if isPath value then
      "a path"
    else
      toJSON value;
in
{
  # One account's servers.
  #   name      the account's name, for the option paths in problems
  #   own       its mcpServers
  #   shared    programs.mcp.servers when the account's enableMcpIntegration
  #             and programs.mcp.enable, else { }: the account's own win by name
  #   launcher  the claude-account binary, which runs servers with file
  #             references in env (`mcp-env`)
  # Returns { servers; disabled = [ names ]; problems = [ messages ]; }.
  mcpAccount =
    {
      name,
      own ? { },
      shared ? { },
      launcher,
    }:
    let
      pathOf =
        server:
        if own ? ${server} then
          self.optionPath [
            name
            "mcpServers"
            server
          ]
        else
          # Joined by the account's enableMcpIntegration.
          "programs.mcp.servers.${self.attrName server}";
      all' = shared // own;
      results = mapAttrs (
        server: value:
        self.mcpServer {
          path = pathOf server;
          inherit launcher;
        } value
      ) all';
      names = attrNames results;
    in
    {
      servers = listToAttrs (
        concatMap (
          server:
          if results.${server}.enabled then
            [
              {
                name = server;
                value = results.${server}.server;
              }
            ]
          else
            [ ]
        ) names
      );
      disabled = filter (server: !results.${server}.enabled) names;
      # A disabled server never reaches Claude: its shape is not checked.
      problems = concatMap (
        server: if results.${server}.enabled then results.${server}.problems else [ ]
      ) names;
    };

  # The account's settings with the disabled servers added to
  # disabledMcpjsonServers (after the user's own, each name once), as
  # home-manager's module does. A value that is not a list is the user's,
  # left as written.
  mcpSettings =
    settings: disabled:
    let
      declared = settings.disabledMcpjsonServers or [ ];
    in
    if disabled == [ ] || !isList declared then
      settings
    else
      settings
      // {
        disabledMcpjsonServers = declared ++ filter (server: !elem server declared) disabled;
      };

  # One server: { enabled; server; problems; }. `path` is the option path
  # for messages.
  mcpServer =
    { path, launcher }:
    value:
    let
      p = field: quote "${path}.${field}";
      # Null, [] and {} mean "not set", as upstream's transformMcpServer
      # reads them (programs.mcp's submodule sets every unset option so).
      cleaned = removeAttrs (
        listToAttrs (
          concatMap (
            field:
            if isEmpty value.${field} then
              [ ]
            else
              [
                {
                  name = field;
                  value = value.${field};
                }
              ]
          ) (attrNames value)
        )
      ) [ "serverUrl" ];
      # programs.mcp's submodule sets url = null beside a serverUrl.
      url = if (value.url or null) != null then value.url else value.serverUrl or null;
      withUrl = cleaned // (if url != null && !isEmpty url then { inherit url; } else { });
      enabledProblems = concatMap (
        field:
        if value ? ${field} && value.${field} != null && !isBool value.${field} then
          [ "${p field} is ${typeName value.${field}}; set it to true or false" ]
        else
          [ ]
      ) [ "enabled" "disabled" ];
      # enabled wins over disabled, as upstream's resolveEnabled reads them.
      enabled =
        if isBool (value.enabled or null) then
          value.enabled
        else if isBool (value.disabled or null) then
          !value.disabled
        else
          true;
      type = withUrl.type or (if withUrl ? url then "http" else "stdio");
      typeProblems =
        if !isString type then
          [ "${p "type"} is ${typeName type}; give one of \"stdio\", \"http\", \"sse\" or \"ws\"" ]
        else if type == "websocket" then
          [ "${p "type"} is \"websocket\", which Claude Code does not take; write \"ws\"" ]
        else if !elem type types then
          [
            "${p "type"} is ${toJSON type}, which Claude Code does not take; give one of \"stdio\", \"http\", \"sse\" or \"ws\""
          ]
        else
          [ ];
      env = withUrl.env or { };
      envIsAttrs = isAttrs env && !(env ? outPath);
      envNames = if envIsAttrs then attrNames env else [ ];
      fileRefs = filter (var: isFileRef env.${var}) envNames;
      envProblems =
        if !envIsAttrs then
          [ "${p "env"} is ${typeName env}; give an attribute set of strings" ]
        else
          concatMap (
            var:
            let
              v = env.${var};
              at = p "env.${self.attrName var}";
              atFile = p "env.${self.attrName var}.file";
            in
            if isFileRef v then
              (
                if !isString v.file then
                  [
                    "${atFile} is ${typeName v.file}; give the secret's path as a string (\"/run/secrets/…\"): a Nix path would copy the secret into the store"
                  ]
                else if inStore v.file then
                  [
                    "${atFile} names a file in the Nix store, which every user can read; give the path where sops-nix or agenix deploy the secret outside the store (\"/run/secrets/…\"), not a file of your configuration"
                  ]
                else if substring 0 1 v.file != "/" then
                  [ "${atFile} is ${toJSON v.file}, not an absolute path; give the secret's absolute path" ]
                else
                  [ ]
              )
              ++ (
                # `claude-account mcp-env` would refuse "=FILE" at every
                # start of the server.
                if var == "" then
                  [ "${at} has an empty name; name the variable the server reads" ]
                else
                  [ ]
              )
              ++ (
                if attrNames v != [ "file" ] then
                  [ "${at} has ${toJSON (attrNames v)}; a file reference holds `file` alone" ]
                else
                  [ ]
              )
              ++ (
                if builtins.match ".*=.*" var != null then
                  [ "${at}: a variable name cannot hold \"=\"; rename it" ]
                else
                  [ ]
              )
            else if isString v || isPath v || isScalar v then
              [ ]
            else
              [
                "${at} is ${typeName v}; give a string, or `{ file = \"/run/secrets/…\"; }` for a secret read when the server starts"
              ]
          ) envNames;
      args = withUrl.args or [ ];
      argsProblems =
        if !isList args then
          [ "${p "args"} is ${typeName args}; give a list of strings" ]
        else
          concatLists (
            builtins.genList (
              i:
              let
                a = builtins.elemAt args i;
              in
              if isString a || isPath a || isScalar a then
                [ ]
              else
                [ "${p "args"} item ${toString (i + 1)} is ${typeName a}; give a string" ]
            ) (length args)
          );
      headers = withUrl.headers or { };
      headersProblems =
        if !isAttrs headers || headers ? outPath then
          [ "${p "headers"} is ${typeName headers}; give an attribute set of strings" ]
        else
          concatMap (
            header:
            if isString headers.${header} || isScalar headers.${header} then
              [ ]
            else
              [ "${p "headers.${self.attrName header}"} is ${typeName headers.${header}}; give a string" ]
          ) (attrNames headers);
      command = withUrl.command or null;
      kindProblems =
        if type == "stdio" then
          (
            if command == null then
              [
                "${quote path} is a stdio server without `command`; give the program to run as `command`, or the server's `url` (with `type = \"http\"`, \"sse\" or \"ws\") for a remote one"
              ]
            else if !isString command && !isPath command && !(isAttrs command && command ? outPath) then
              [ "${p "command"} is ${typeName command}; give the program to run as a string" ]
            else if command == "" then
              [ "${p "command"} is empty; give the program to run" ]
            else
              [ ]
          )
          ++ envProblems
          ++ argsProblems
        else if isString type && elem type types then
          (
            if !(withUrl ? url) then
              [ "${quote path} is a server of type ${toJSON type} without `url`; give the server's address as `url`" ]
            else if !isString withUrl.url then
              [ "${p "url"} is ${typeName withUrl.url}; give the server's address as a string" ]
            else if withUrl.url == "" then
              [ "${p "url"} is empty; give the server's address" ]
            else
              [ ]
          )
          ++ headersProblems
          ++ (
            if envIsAttrs && fileRefs != [ ] then
              [
                "${p "env.${self.attrName (builtins.head fileRefs)}.file"}: Claude Code starts no process for a server of type ${toJSON type}, so nothing reads the file; pass the secret in a header printed by a `headersHelper` command instead"
              ]
            else
              [ ]
          )
        else
          [ ];
      problems = enabledProblems ++ typeProblems ++ kindProblems;
      literalEnv = mapAttrs (_: asString) (removeAttrs env fileRefs);
      stdio =
        withUrl
        // {
          inherit type;
        }
        // (if args != [ ] then { args = map asString args; } else { })
        // (if env != { } then { env = literalEnv; } else { })
        // (
          if fileRefs == [ ] then
            { }
          else
            {
              command = launcher;
              args = [
                "mcp-env"
              ]
              ++ map (var: "${var}=${env.${var}.file}") fileRefs
              ++ [
                "--"
                command
              ]
              ++ map asString args;
            }
        );
      remote =
        withUrl
        // {
          inherit type;
        }
        // (if headers != { } then { headers = mapAttrs (_: asString) headers; } else { });
      server = removeAttrs (if type == "stdio" then stdio else remote) (
        [
          "enabled"
          "disabled"
        ]
        ++ (if type == "stdio" && env != { } && literalEnv == { } then [ "env" ] else [ ])
      );
    in
    {
      inherit enabled problems;
      # Only read when problems is empty.
      server = if problems == [ ] then server else { };
    };
}
