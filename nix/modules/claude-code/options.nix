{
  config,
  options,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) literalExpression mkOption types;

  calib = import ../../lib;
  topConfig = config;
  topOptions = options;

  # The type of pkgs.formats.json { }, built from lib alone.
  jsonValue =
    with types;
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

  contentType = types.either types.lines types.path;

  mkContentOption =
    {
      what,
      dir,
      example,
    }:
    mkOption {
      type = types.attrsOf contentType;
      default = { };
      inherit example;
      description = ''
        ${what} of this account. The attribute name becomes the file name
        {file}`${dir}/<name>.md` (a name may contain `/` for
        subdirectories), and the value is either the content as a string or a
        path to a file holding it.

        {file}`${dir}/` in {option}`configDir` is a real directory holding
        one link into the store per declared file, so Claude and your own
        `home.file` entries can add files beside them.
      '';
    };

  mkDirOption =
    dir:
    mkOption {
      type = types.nullOr types.path;
      default = null;
      example = literalExpression "./${dir}";
      description = ''
        A directory whose files are copied into {file}`${dir}/`, beside the
        entries declared one by one (a name declared both ways is an error).
      '';
    };

  # programs.claude-code.accountDefaults, one module per definition, each
  # value a default the account's own value replaces (nix/lib/defaults.nix).
  # A set of account options is made defaults; a function is called with
  # the account's module arguments and its result made defaults; a module
  # with imports, options or config of its own is taken as it is.
  moduleKeys = [
    "_class"
    "_file"
    "config"
    "disabledModules"
    "freeformType"
    "imports"
    "key"
    "options"
  ];
  # `options` are the account's: a name that is none of them is left as
  # written, for the module system to report (calib.accountDefaultsOf).
  asDefaults =
    options: value:
    if lib.any (key: value ? ${key}) moduleKeys then
      value
    else
      { config = calib.accountDefaultsOf (lib.attrNames options) value; };
  defaultsModules = map (
    { file, value }:
    let
      module = if builtins.isPath value || builtins.isString value then import value else value;
    in
    {
      _file = "${file}, via option programs.claude-code.accountDefaults";
      imports = [
        (
          if lib.isFunction module then
            lib.setFunctionArgs (args: asDefaults args.options (module args)) (
              lib.functionArgs module // { options = false; }
            )
          else
            { options, ... }: asDefaults options module
        )
      ];
    }
  ) topOptions.programs.claude-code.accountDefaults.definitionsWithLocations;

  # The Claude Code under the `claude` that home-manager's own module puts
  # on PATH, when it is enabled with a package; else null. What it puts
  # there is its finalPackage: for a Claude Code older than 2.1.157, with
  # plugins or MCP servers of its own, a wrapper that passes them to every
  # `claude` it starts (`--plugin-dir`). An account with `package = null`
  # runs this instead, never the wrapper.
  upstreamClaude =
    if
      topOptions.programs.claude-code ? finalPackage && (topConfig.programs.claude-code.enable or false)
    then
      topConfig.programs.claude-code.package
    else
      null;

  accountModule =
    {
      name,
      config,
      options,
      ...
    }:
    {
      imports = defaultsModules;

      options = {
        # Warnings about this account; the module hands them on to
        # home-manager's warnings.
        warnings = mkOption {
          type = types.listOf types.str;
          default = [ ];
          internal = true;
          visible = false;
        };

        # `memory` is the old name of `context`, as upstream renamed it. Not
        # lib.mkRenamedOptionModule: its warning would not say which account.
        memory = mkOption {
          type = types.nullOr contentType;
          visible = false;
          description = "The old name of {option}`context`.";
        };

        enable = mkOption {
          type = types.bool;
          default = true;
          example = false;
          description = ''
            Whether to set up this account: its files in {option}`configDir`
            and its launcher {option}`command`.
          '';
        };

        command = mkOption {
          type = types.str;
          default = calib.defaultCommand name;
          defaultText = literalExpression ''"claude''${name}"'';
          example = "claude-work";
          description = ''
            Name of the launcher put on {env}`PATH`: it starts Claude Code
            with this account, in a runtime of its own for each git worktree.
            Any argument goes to {command}`claude`.
          '';
        };

        configDir = mkOption {
          type = types.str;
          default = calib.defaultConfigDir (toString topConfig.home.homeDirectory) name;
          defaultText = literalExpression ''"''${config.home.homeDirectory}/.claude-''${name}"'';
          example = literalExpression ''"''${config.xdg.configHome}/claude-work"'';
          description = ''
            The account's own directory (an absolute path or one starting with
            `~/`, inside the home directory). home-manager links the declared
            files into it; Claude Code keeps its login
            ({file}`.credentials.json`) and state ({file}`.claude.json`)
            there. Outside a git repository it is Claude's
            {env}`CLAUDE_CONFIG_DIR`. When it differs from the default, the
            launcher exports {env}`CLAUDE_ACCOUNT_DIR`.
          '';
        };

        package = mkOption {
          type = types.nullOr types.package;
          # home-manager's own programs.claude-code, when imported, names the
          # Claude Code the user chose, enabled or not; else pkgs.claude-code,
          # else claude on PATH. Its package, never its finalPackage: for a
          # Claude Code older than 2.1.157 upstream wraps that one with
          # `--plugin-dir` for its own plugins and MCP servers, which would
          # reach every account.
          default =
            if topOptions.programs.claude-code ? package then
              topConfig.programs.claude-code.package
            else
              pkgs.claude-code or null;
          defaultText = literalExpression "config.programs.claude-code.package or pkgs.claude-code";
          example = literalExpression "null";
          description = ''
            The Claude Code this account runs. The default is home-manager's
            own {option}`programs.claude-code.package` (not its wrapper,
            which carries that module's plugins and MCP servers), else
            `pkgs.claude-code`. `null` runs the {command}`claude` found on
            {env}`PATH`; while home-manager's own module is enabled with a
            package, that {command}`claude` is its wrapper, so the account
            runs the package under it instead. When the version is older
            than a release the launcher relies on, the switch warns, naming
            what is not shared.
          '';
        };

        claudePackage = mkOption {
          type = types.nullOr types.package;
          readOnly = true;
          internal = true;
          visible = false;
          description = ''
            The Claude Code the account runs: {option}`package`, or for
            `null` the one under home-manager's own wrapper on {env}`PATH`
            when there is one; `null` for {command}`claude` on {env}`PATH`.
          '';
        };

        settings = mkOption {
          type = types.attrsOf jsonValue;
          default = { };
          example = literalExpression ''
            {
              model = "opus";
              permissions = {
                allow = [ "Bash(git diff:*)" "Edit" ];
                deny = [ "WebFetch" ];
              };
              statusLine = {
                type = "command";
                command = "''${pkgs.git}/bin/git branch --show-current";
              };
            }
          '';
          description = ''
            The account's {file}`settings.json`. With {option}`settingsMode`
            `"coalesce"`, every key declared here is enforced at each launch
            and keys Claude Code writes itself ({command}`/model`,
            {command}`/config`) are kept.
          '';
        };

        settingsMode = mkOption {
          type = types.enum [
            "coalesce"
            "link"
          ];
          default = "coalesce";
          example = "link";
          description = ''
            How {file}`settings.json` reaches Claude Code. `"coalesce"`: a
            writable file, into which the launcher merges the declared keys
            at each launch. `"link"`: a read-only link into the store;
            Claude Code's own writes to it then fail.
          '';
        };

        mcpServers = mkOption {
          type = types.attrsOf (types.attrsOf jsonValue);
          default = { };
          example = literalExpression ''
            {
              github = {
                type = "http";
                url = "https://api.githubcopilot.com/mcp/";
              };
              filesystem = {
                command = "npx";
                args = [ "-y" "@modelcontextprotocol/server-filesystem" "/tmp" ];
              };
            }
          '';
          description = ''
            The account's MCP servers, written as {file}`.mcp.json` and
            merged at each launch into the `mcpServers` key of Claude Code's
            {file}`.claude.json` (where Claude Code reads user-scope servers).
          '';
        };

        commands = mkContentOption {
          what = "Custom slash commands";
          dir = "commands";
          example = literalExpression ''
            {
              "git/worktree-create" = '''
                ---
                description: Create a worktree for a task
                ---
                Run `claude-account worktree new $ARGUMENTS`.
              ''';
              review = ./commands/review.md;
            }
          '';
        };

        agents = mkContentOption {
          what = "Custom agents";
          dir = "agents";
          example = literalExpression ''
            {
              code-reviewer = '''
                ---
                name: code-reviewer
                description: Reviews a diff for bugs
                tools: Read, Grep
                ---
                You review code.
              ''';
            }
          '';
        };

        skills = mkOption {
          type = types.either (types.attrsOf contentType) types.path;
          default = { };
          example = literalExpression ''
            {
              pdf = ./skills/pdf;
              release-notes = '''
                ---
                name: release-notes
                description: Write release notes from the git log
                ---
                Read `git log` since the last tag.
              ''';
            }
          '';
          description = ''
            Skills of this account. The attribute name becomes the directory
            {file}`skills/<name>/`; the value is either the content of its
            {file}`SKILL.md` as a string, a path to that file, or a path to a
            whole skill directory, which is copied. A path instead of an
            attribute set is a directory holding one folder per skill.
          '';
        };

        context = mkOption {
          type = types.nullOr contentType;
          default = null;
          example = literalExpression "./CLAUDE.md";
          description = ''
            The account's global context, {file}`CLAUDE.md`: its content as a
            string, or a path to a file holding it. (Formerly `memory`, as in
            home-manager's own {option}`programs.claude-code.context`.)
          '';
        };

        rules = mkContentOption {
          what = "Modular rule files, loaded by Claude Code as memory,";
          dir = "rules";
          example = literalExpression ''
            {
              code-style = "Use the project's formatter; never reformat unrelated code.";
              security = ./rules/security.md;
            }
          '';
        };

        outputStyles = mkContentOption {
          what = "Custom output styles (select one with `settings.outputStyle`)";
          dir = "output-styles";
          example = literalExpression ''
            {
              concise = ./output-styles/concise.md;
            }
          '';
        };

        hooks = mkOption {
          type = types.attrsOf contentType;
          default = { };
          example = literalExpression ''
            {
              "pre-edit.sh" = '''
                #!/usr/bin/env bash
                echo "About to edit $1"
              ''';
            }
          '';
          description = ''
            Hook scripts of this account, made executable in
            {file}`hooks/<name>`; reference them from
            {option}`settings`' `hooks` as
            {file}`''${configDir}/hooks/<name>`. (In a worktree's runtime
            {file}`hooks/` links to the account's, so `$CLAUDE_CONFIG_DIR/hooks/<name>`
            works too.)
          '';
        };

        plugins = mkOption {
          type =
            with types;
            either (attrsOf (either package path)) (listOf (either package path));
          default = { };
          example = literalExpression ''
            {
              my-plugin = ./my-plugin;
              other = pkgs.fetchFromGitHub { owner = "o"; repo = "claude-plugin"; rev = "…"; hash = "…"; };
            }
          '';
          description = ''
            Plugins, as home-manager's own {option}`programs.claude-code.plugins`:
            each directory is copied to {file}`skills/<name>/`, where Claude
            Code (2.1.157 or later) loads it as a personal plugin with its
            skills, agents, commands, hooks and MCP servers. A list (the
            older form upstream still takes) names each by its path's last
            component, without the store hash.
          '';
        };

        marketplaces = mkOption {
          type = types.attrsOf (types.either types.package types.path);
          default = { };
          example = literalExpression "{ local = ./my-marketplace; }";
          description = ''
            Plugin marketplaces, added to {file}`settings.json`'s
            `extraKnownMarketplaces` as directory sources.
          '';
        };

        lspServers = mkOption {
          type = types.attrsOf jsonValue;
          default = { };
          example = literalExpression ''
            {
              go = {
                command = "gopls";
                args = [ "serve" ];
                extensionToLanguage.".go" = "go";
              };
            }
          '';
          description = ''
            Language servers, carried to Claude Code by one generated plugin
            ({file}`skills/claude-account-lsp/.lsp.json`).
          '';
        };

        agentsDir = mkDirOption "agents";
        commandsDir = mkDirOption "commands";
        hooksDir = mkDirOption "hooks";
        rulesDir = mkDirOption "rules";

        coalesceKeys = mkOption {
          type = types.listOf types.nonEmptyStr;
          default = [ "mcpServers" ];
          example = [
            "mcpServers"
            "autoUpdates"
          ];
          description = ''
            Top-level keys of Claude Code's {file}`.claude.json` that the
            account owns: the launcher replaces them with the declared values
            at each launch and keeps every other key.
          '';
        };

        singleInstance = mkOption {
          type = types.bool;
          default = true;
          example = false;
          description = ''
            Whether only one Claude Code of this account may run per
            workspace; a second launch then fails at once and names the
            running one.
          '';
        };

        notify = mkOption {
          type = types.bool;
          default = false;
          example = true;
          description = ''
            Whether a desktop notification tells you when a session of this
            account starts to wait for you (its answer ended, a permission
            dialog opened), naming the account, the worktree and why:
            {command}`notify-send` where it is on PATH, {command}`osascript`
            on macOS, nothing without either; at most one per session in 10
            seconds. {file}`account.toml`: `notify = true`.
          '';
        };

        identity = mkOption {
          type = types.nullOr (
            types.submodule {
              options = {
                email = mkOption {
                  type = types.nullOr types.str;
                  default = null;
                  example = "me@example.com";
                  description = ''
                    The address the account's login must have, as Claude Code
                    records it (`oauthAccount.emailAddress` in
                    {file}`.claude.json`); case does not matter. `null`
                    checks no address; `""` is refused.
                  '';
                };
                organization = mkOption {
                  type = types.nullOr types.str;
                  default = null;
                  example = "Acme";
                  description = ''
                    The organization the account's login must belong to: its
                    name or its uuid, as Claude Code records them
                    (`oauthAccount.organizationName`, `organizationUuid`);
                    case does not matter. `null` checks no organization; `""`
                    is refused.
                  '';
                };
              };
            }
          );
          default = null;
          example = literalExpression ''{ email = "me@example.com"; organization = "Acme"; }'';
          description = ''
            Who this subscription account's login must be. A session whose
            login Claude Code recorded as someone else is refused before
            Claude starts, naming both and how to log in again; one that
            cannot be checked (no login yet, an API key, which carries no
            identity) starts and says so once. {command}`claude-account doctor`
            and {command}`claude-account accounts` show the login's identity.
            {file}`account.toml`: `[identity]` with `email` and `organization`.
          '';
        };

        projectMcp = mkOption {
          type = types.enum [
            "trusted"
            "never"
          ];
          default = "trusted";
          example = "never";
          description = ''
            Whether a repository's own {file}`.claude/.mcp.json` is merged
            into the account's servers: `"trusted"` once approved with
            {command}`claude-account trust`, `"never"` not at all.
          '';
        };

        worktreeDir = mkOption {
          type = types.str;
          default = ".claude/worktrees";
          example = "~/worktrees/{repo}";
          description = ''
            Where {command}`claude-account worktree new` creates worktrees:
            a path relative to the repository's top level, such as
            `".worktrees"`, or one that starts with `~/`, the home directory;
            `{repo}` is the repository's name, e.g. `"~/worktrees/{repo}"`.
            An absolute path is rejected, as is one with `..`.
          '';
        };

        symlinkDirectories = mkOption {
          type = types.listOf types.str;
          default = [ ];
          example = [ "node_modules" ];
          description = ''
            Directories of the main worktree linked into each new worktree
            instead of being rebuilt there, relative to the top level.
          '';
        };

        sparsePaths = mkOption {
          type = types.listOf types.str;
          default = [ ];
          example = [
            "services/api"
            "libs/common"
          ];
          description = ''
            When not empty, new worktrees are sparse checkouts of these paths.
          '';
        };

        useWorktreeHooks = mkOption {
          type = types.bool;
          default = false;
          example = true;
          description = ''
            Whether Claude Code's own worktrees ({command}`claude --worktree`,
            agents with `isolation: "worktree"`) are made and removed by
            {command}`claude-account hook worktree-create` and
            {command}`worktree-remove`, which the launcher gives each session
            as its `WorktreeCreate` and `WorktreeRemove` hooks (flag settings;
            never written into {file}`settings.json`; Claude Code 2.1.50 or
            later).
          '';
        };

        spec = mkOption {
          type = types.attrs;
          readOnly = true;
          internal = true;
          visible = false;
          description = "The account's declaration as {command}`claude-account generate` reads it.";
        };

        layer1 = mkOption {
          type = types.package;
          readOnly = true;
          internal = true;
          visible = false;
          description = ''
            The account's read-only files in the store, built from
            {option}`spec` by {command}`claude-account generate`; home-manager
            links them into {option}`configDir`.
          '';
        };
      };

      config = {
        context = lib.mkAliasDefinitions options.memory;
        warnings = lib.optional options.memory.isDefined "`${
          calib.optionPath [
            name
            "memory"
          ]
        }` is now `${
          calib.optionPath [
            name
            "context"
          ]
        }`, as in home-manager's own programs.claude-code; rename it";

        claudePackage = if config.package != null then config.package else upstreamClaude;

        spec = calib.mkSpec (
          config
          // {
            inherit name;
            claude =
              if config.claudePackage == null then null else lib.getExe' config.claudePackage "claude";
          }
        );

        layer1 =
          pkgs.runCommand "claude-account-${name}"
            {
              spec = calib.specJSON config.spec;
              passAsFile = [ "spec" ];
              preferLocalBuild = true;
              allowSubstitutes = false;
            }
            ''
              ${lib.getExe topConfig.programs.claude-code.accountsPackage} generate --spec "$specPath" --out "$out"
            '';
      };
    };
in
{
  options.programs.claude-code = {
    accounts = mkOption {
      type = types.attrsOf (types.submodule accountModule);
      default = { };
      example = literalExpression ''
        {
          max = {
            settings.model = "opus";
            mcpServers.github = {
              type = "http";
              url = "https://api.githubcopilot.com/mcp/";
            };
            commands.review = ./commands/review.md;
          };
          work = {
            configDir = "~/work/.claude";
            package = null;
          };
        }
      '';
      description = ''
        Claude Code accounts, each with its own declared configuration and
        login. Every account gets its files in {option}`configDir` (default
        {file}`~/.claude-<name>`) and a launcher {command}`claude<name>`,
        which gives each git worktree its own writable runtime.
      '';
    };

    accountDefaults = mkOption {
      type = types.deferredModule;
      default = { };
      example = literalExpression ''
        {
          settings.permissions.allow = [ "Bash(git diff:*)" "Edit" ];
          mcpServers.github = {
            type = "http";
            url = "https://api.githubcopilot.com/mcp/";
          };
          hooks."pre-edit.sh" = ./hooks/pre-edit.sh;
          skills.pdf = ./skills/pdf;
        }
      '';
      description = ''
        Options every account gets: any option of
        {option}`programs.claude-code.accounts.<name>`. Each value here is a
        default that the account's own value replaces: an MCP server,
        command, agent, skill, hook, rule, output style, plugin, marketplace
        or LSP server of the same name whole, a {option}`settings` value of
        the same path (`permissions.allow`) alone, any other option whole;
        the rest is merged. A priority given here (`lib.mkForce`) is kept.
        A function (`{ name, ... }: { … }`) is called for each account.
        home-manager's own top-level {option}`programs.claude-code.settings`
        and {option}`programs.claude-code.mcpServers` reach no account by
        themselves; pass them on here if you want them to.
      '';
    };

    accountsPackage = mkOption {
      type = types.package;
      # From the overlay when it put claude-account into pkgs, else built
      # from this repository with the configuration's own nixpkgs: the
      # module works without the flake (npins, niv, channels) too.
      default = pkgs.claude-account or (pkgs.callPackage ../../package.nix { });
      defaultText = literalExpression "pkgs.claude-account or (pkgs.callPackage ./nix/package.nix { })";
      example = literalExpression "inputs.claude-account.packages.\${pkgs.stdenv.hostPlatform.system}.default";
      description = ''
        The claude-account package. It builds each account's files with
        {command}`claude-account generate` and is the launcher behind every
        account's command.
      '';
    };

    accountsGitIgnores = mkOption {
      type = types.bool;
      default = true;
      example = false;
      description = ''
        Whether to add `**/claude-runtime/` (each worktree's runtime, inside
        its git dir) to {option}`programs.git.ignores`. Turn it off when
        another module owns your git ignores.
      '';
    };
  };
}
