# Every program the Go tests run (go test ./...: the testscripts, their shell
# snippets and scripts, and the Go tests themselves), by the nixpkgs package
# that provides it. checks.go-tests (nix/go-tests.nix) puts each package on
# PATH, since the build sandbox has nothing its inputs do not bring;
# nix/tests/run fails when a test runs a program that is not listed here.
{
  packages = {
    bash = [
      "bash"
      "sh"
    ];
    coreutils = [
      "basename"
      "cat"
      "chmod"
      "chown"
      "cp"
      "cut"
      "date"
      "dirname"
      "env"
      "head"
      "id"
      "join"
      "ln"
      "ls"
      "mkdir"
      "mkfifo"
      "mktemp"
      "mv"
      "printf"
      "readlink"
      "rm"
      "rmdir"
      "seq"
      "sha256sum"
      "sleep"
      "sort"
      "stat"
      "tail"
      "test"
      "timeout"
      "touch"
      "tr"
      "truncate"
      "uniq"
      "wc"
    ];
    diffutils = [ "cmp" ];
    findutils = [
      "find"
      "xargs"
    ];
    gawk = [ "awk" ];
    git = [
      "git"
      "git-upload-pack"
    ];
    gnugrep = [ "grep" ];
    gnused = [ "sed" ];
    gnutar = [ "tar" ];
    jq = [ "jq" ];
    lsof = [ "lsof" ];
    tmux = [ "tmux" ];
    util-linux = [
      "flock"
      "mount"
      "prlimit"
      "setsid"
      "unshare"
    ];
  };

  # Programs the tests bring themselves, or the build does.
  provided = {
    claude = "the stub Claude Code of internal/testenv (testscript.Main)";
    claude-account = "the test binary itself (testscript.Main)";
    claudemax = "the test binary under a launcher's name (testscript.Main)";
    claude-work = "the test binary under a launcher's name with a dash (testscript.Main)";
    idestand = "an IDE stand-in of internal/testenv (testscript.Main)";
    go = "buildGoModule";
  };

  # Programs a test runs that the build sandbox cannot give it; the test's
  # guard skips it there.
  skipped = {
    ccusage = "testscripts/real-claude-config-dirs-ccusage.txtar runs it as $CCUSAGE_BIN, which .ci/run installs from npm ([!ccusage] skips it)";
    node = "testscripts/real-claude-wrap-agent-sdk.txtar runs the Agent SDK from npm with it; the sandbox has neither that nor a real Claude ([!agentsdk] and [!realclaude] skip it)";
    npm = "testscripts/claude-versions-wrapper-first-line.txtar only prints the word, in the line a version manager prints first; nothing runs it";
    time = "testscripts/harden-huge-overlay.txtar runs /usr/bin/time by that path, which the sandbox does not have ([!exec:time] skips it)";
  };
}
