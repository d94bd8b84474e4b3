# programs.claude-code.accountDefaults: values every account gets, each a
# default that the account's own value replaces. Builtins only; the
# properties are those of nixpkgs' lib (lib.mkDefault is
# { _type = "override"; priority = 1000; content; }).
self:
let
  inherit (builtins)
    elem
    isAttrs
    mapAttrs
    ;
  type = value: if isAttrs value then value._type or null else null;
  # A plain attribute set: not a property, derivation or path.
  isSet = value: isAttrs value && !(value ? _type) && !(value ? outPath);
in
{
  mkDefault = content: {
    _type = "override";
    priority = 1000;
    inherit content;
  };

  # Options whose value is a set of named entries: the default applies per
  # entry, so an account's entry of the same name replaces it whole (a
  # server is the account's or the default's, never a mix of the two).
  entryOptions = [
    "agents"
    "commands"
    "hooks"
    "lspServers"
    "marketplaces"
    "mcpServers"
    "outputStyles"
    "plugins"
    "rules"
    "skills"
  ];

  # `value` as a default: lib.mkDefault unless it carries a priority of its
  # own (lib.mkForce, lib.mkOverride), which is kept; mkIf and mkMerge are
  # looked through.
  asDefault =
    value:
    let
      t = type value;
    in
    if t == "override" then
      value
    else if t == "if" then
      value // { content = self.asDefault value.content; }
    else if t == "merge" then
      value // { contents = map self.asDefault value.contents; }
    else
      self.mkDefault value;

  # Through mkIf and mkMerge, `f` applied to the plain set inside.
  underProperties =
    f: value:
    let
      t = type value;
    in
    if t == "if" then
      value // { content = self.underProperties f value.content; }
    else if t == "merge" then
      value // { contents = map (self.underProperties f) value.contents; }
    else
      f value;

  # settings: every leaf a default, so an account's own
  # `permissions.deny` adds to the default `permissions.allow`, and its own
  # `model` replaces the default one.
  leavesAsDefaults =
    value:
    self.underProperties (
      v: if isSet v && v != { } then mapAttrs (_: self.leavesAsDefaults) v else self.asDefault v
    ) value;

  entriesAsDefaults =
    value: self.underProperties (v: if isSet v then mapAttrs (_: self.asDefault) v else self.asDefault v) value;

  # The config of one account from one definition of accountDefaults (an
  # attribute set of account options).
  accountDefaults = self.accountDefaultsOf null;

  # The same, given the names of the account's options (null: all are):
  # a name that is none of them keeps its value as written, so the module
  # system's "option … does not exist" shows that value, not the
  # { _type = "override"; … } made of it here.
  accountDefaultsOf =
    known: value:
    self.underProperties (
      mapAttrs (
        option: v:
        if known != null && !(elem option known) then
          v
        else if option == "settings" then
          self.leavesAsDefaults v
        else if elem option self.entryOptions then
          self.entriesAsDefaults v
        else
          self.asDefault v
      )
    ) value;
}
