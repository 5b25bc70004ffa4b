"""Build a frozen `GameDef` from a validated game document (variants already merged)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from davinci.engine.definition import (
    EMPTY_BOARD,
    FIELD_TYPES,
    BoardDef,
    ComponentDef,
    EndDef,
    Locator,
    PieceDef,
    SettingDef,
    SpaceDef,
    VarDef,
    ZoneDef,
    default_for,
    literal_type,
    product_items,
    product_size,
)
from davinci.engine.errors import (
    BIDI_CONTROLS,
    CONTROL_CHARS,
    BuildErrors,
    DavinciError,
    DefinitionError,
    ExprSyntaxError,
    ExprTypeError,
    SourceLocation,
    did_you_mean,
    quoted,
    retell,
    retell_unknown_name,
    unknown_name,
)
from davinci.engine.expr.types import ANY, BOOL, INT, STR, ListType, RecordType, Type
from davinci.engine.flow import SPLIT_BY_COMMA, FlowCompiler, Program

Path = tuple[str | int, ...]

ZONE_KINDS = ("bag", "deck", "hand", "row", "grid", "board", "pile")
# The fields every piece has (values.PieceV.field): a component's own field may not take one of
# these names, which it would hide from the rules.
PIECE_BUILTINS = {
    "revealed": "whether it is face up",
    "owner": "the seat whose zone holds it",
    "zone": "the zone it is in",
    "index": "its place in its zone",
    "kind": "its component's name",
    "cell": "its grid cell",
    "space": "its board space",
    "is_top": "whether it tops its stack (a grid cell's, or a deck's or pile's: its first piece)",
}
MAX_PIECES = 20_000  # components of one game, all copies; far above any real game, far below trouble
DEFAULT_MAX_TURNS = 1000  # when `end.max_turns` is not given


@dataclass
class GameDef:
    """Everything the interpreter needs about one game (plus variant and settings)."""

    id: str
    name: str
    description: str
    variant: str | None
    min_players: int
    max_players: int
    seat_label: str
    bots: tuple[str, ...]
    settings_defs: dict[str, SettingDef]
    settings: dict[str, Any]
    components: dict[str, ComponentDef]
    pieces: list[PieceDef]
    zones: dict[str, ZoneDef]
    board: BoardDef
    global_vars: dict[str, VarDef]
    seat_vars: dict[str, VarDef]
    turn_vars: dict[str, VarDef]
    programs: dict[str, Program]
    end: EndDef
    first_seat: Any  # "random" or a compiled int expression (1-based seat)
    next_seat: Any  # None (clockwise) or a compiled int expression (1-based seat), at each turn's end
    requires: tuple[tuple[Any, str, SourceLocation], ...]  # (check, message, where) before a game starts
    piece_fields: dict[str, Type]
    rest_verbs: dict[str, int]
    content_hash: str = ""
    verb_args: dict[str, tuple[str, ...]] = field(default_factory=dict)  # an option's argument names, by verb
    deck_sources: dict[str, str] = field(default_factory=dict)
    display: dict[str, Any] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    variant_name: str = ""  # the variant's own name and description (help shows them), "" without one
    variant_description: str = ""
    piece_cache: dict[Any, Any] = field(default_factory=dict)  # per-piece sort keys / free flags
    grid_zone: str | None = None  # the grid zone's name, if the game has one
    unread_locals: tuple[tuple[str, SourceLocation], ...] = ()  # `set` locals no expression reads (lint)
    own_sets: tuple[tuple[str, str, SourceLocation], ...] = ()  # (name, procedure, where): see _own_sets
    defined: Mapping[str, Any] = field(default_factory=dict)  # `define`: named expressions without arguments
    unused_definitions: tuple[tuple[str, SourceLocation], ...] = ()  # `define` entries nothing uses (lint)
    label_cache: dict[str, tuple[str, str]] = field(default_factory=dict)  # zone key -> (kind, prefix)
    whole_zones: dict[str, bool] = field(default_factory=dict)  # zone key -> grid or board
    layout_cache: dict[int, Any] = field(default_factory=dict)  # seat count -> starting zones (state.py)
    requires_passed: set[tuple[str, ...]] = field(default_factory=set)  # seat names whose `requires` passed
    view_cache: dict[tuple[int, bool, bool, bool], dict[str, Any]] = field(default_factory=dict)  # see view.py
    view_lists: dict[tuple[int, bool, bool, bool], tuple[str, ...]] = field(default_factory=dict)  # their list fields
    view_settings: str | None = None  # the settings as JSON when some are lists or maps ("" when none are)
    view_plans: dict[int, Any] = field(default_factory=dict)  # seat count -> zones of a view (view.py)
    private_seat_vars: frozenset[str] = frozenset()  # seat variables only their own seat sees
    private_locals: frozenset[str] = frozenset()  # arguments of private options: in no view's locals

    @functools.cached_property
    def seat_zone_keys(self) -> dict[str, tuple[str, ...]]:
        """Each per-seat zone's name -> its key for every seat the game allows (`row` -> `row#0`...)."""
        return {n: tuple(f"{n}#{i}" for i in range(self.max_players)) for n, z in self.zones.items() if z.per_seat}

    @functools.cached_property
    def settings_record(self) -> Any:
        """What the name `settings` reads in expressions (one record: settings never change)."""
        from davinci.engine.state import SettingsView

        return SettingsView(self.settings)

    @functools.cached_property
    def has_capacities(self) -> bool:
        """Whether any zone has a capacity (else overflow checks are skipped)."""
        return any(z.capacity is not None for z in self.zones.values())

    def label_prefix(self, key: str) -> tuple[str, str]:
        """A zone key's kind and the prefix of its pieces' labels (`row.2.`, `pile.`, `board.`)."""
        hit = self.label_cache.get(key)
        if hit is None:
            name, _, seat = key.partition("#")
            z = self.zones.get(name)
            kind = z.kind if z is not None else ""
            hit = (kind, f"{name}.{int(seat) + 1}." if seat else f"{name}.")
            self.label_cache[key] = hit
        return hit

    def zone_is_whole(self, key: str) -> bool:
        """Whether expressions see zone `key` as a whole (grid, board) rather than a piece list."""
        hit = self.whole_zones.get(key)
        if hit is None:
            hit = self.whole_zones[key] = self.zones[key.split("#")[0]].kind in ("grid", "board")
        return hit

    def piece_field_default(self, name: str) -> Any:
        t = self.piece_fields.get(name)
        if t is None:
            from davinci.engine.errors import EvalError

            raise EvalError(f"pieces have no field '{name}'")
        return default_for(t)


class Builder:
    """Holds the locator and the expression scopes while a game is being built."""

    def __init__(self, data: Mapping[str, Any], locator: Locator, settings_override: Mapping[str, Any]) -> None:
        self.data = data
        self.loc = locator
        self.override = dict(settings_override)
        self.errors: list[DavinciError] = []
        self.names_read: set[str] = set()  # every name some expression reads
        self.locals_set: list[tuple[str, SourceLocation]] = []  # new locals made by `set`, where
        self.bound_at: dict[str, SourceLocation] = {}  # where each local was first set or bound (for messages)
        self.unknown_typed: set[str] = set()  # locals set by an expression that failed its check
        from davinci.engine.expr import BUILTINS

        self.functions: Any = BUILTINS

    # -- helpers --
    def fail(self, msg: str, path: Path, key: bool = False, code: str = "DV050") -> DefinitionError:
        return DefinitionError(msg, self.loc.loc(path, key=key), code=code)

    def get(self, path: Path) -> Any:
        cur: Any = self.data
        for i, p in enumerate(path):
            try:
                cur = cur[p]
            except (KeyError, IndexError, TypeError):
                # A step the schema lets through without a key its builder needs (`move` with no
                # `piece`): a located definition error, not a crash.
                owner = f"'{path[i - 1]}'" if i and isinstance(path[i - 1], str) else "this"
                raise self.fail(f"{owner} needs a '{p}'", tuple(path[:i])) from None
        return cur

    def expr(self, path: Path, scope: Mapping[str, Type], expect: Type | None = None) -> Any:
        src = self.get(path)
        if isinstance(src, bool) or isinstance(src, int):
            src = str(src).lower() if isinstance(src, bool) else str(src)
        if not isinstance(src, str):
            from davinci.engine.flow import unreadable_name

            cut = unreadable_name(path[-1]) if src is None and path and isinstance(path[-1], str) else None
            if cut is not None and "a comma cut" in cut:  # `{pot: max(pot, die)}`: its `die)` key
                raise self.fail(cut, path, key=True)
            hint = (" (a list here is written as an expression, in quotes: \"[]\", \"[1, 2]\")" if isinstance(src, list)
                    else " (a value here is an expression written as a text, in quotes)" if isinstance(src, dict)
                    else "")
            raise self.fail(f"expected an expression (text){hint}", path)
        compiled = self.compile(src, scope, expect, self.loc.scalar(path))
        if isinstance(compiled, _Broken) and compiled.error.message.startswith("unclosed") and self._cut_by_comma(path, src):
            first, nl, rest = compiled.error.message.partition("\n")
            compiled.error.message = f"{first} ({SPLIT_BY_COMMA}, \"{src}, ...\"){nl}{rest}"
        return compiled

    def _out_of_block(self, e: ExprSyntaxError | ExprTypeError, scope: Mapping[str, Type]) -> None:
        """An unknown name that a step set or bound earlier, in a block that has ended (or in a
        procedure): said so, with the way to carry a value further, instead of a guess."""
        name = unknown_name(e.message)
        if name is None:  # a local named as a function (`last`), read where it does not reach
            called = re.match(r"'([a-z_][a-z0-9_]*)' is a function: call it as", e.message)
            name = called.group(1) if called else None
        if name is None or name in scope:
            return
        at = self.bound_at.get(name)
        if at is None:
            return
        self.names_read.add(name)  # (read, too early or too late: no "never read" warning beside this one)
        where = f"line {at.line}" if at.path == getattr(e.location, "path", None) else str(at)
        retell(e, f"unknown name '{name}': the local '{name}' ({where}) does not reach here (a local lasts to the "
                  f"end of the block that sets it, and a procedure's are its own); to carry its value further, "
                  f"declare '{name}' under vars (or under turn_vars when only the rest of its turn reads it: they "
                  f"start again at each turn)")

    def _cut_by_comma(self, path: Path, src: str) -> bool:
        """Whether the YAML scalar at `path` is a plain value that a comma of a `{...}` mapping
        ended (`{col: range(1, 8)}` holds `range(1`)."""
        doc = self.loc._doc_for(path)
        text = getattr(doc, "text", None)
        if not isinstance(text, str):
            return False
        start, end = self.loc.scalar(path)(0), self.loc.scalar(path)(len(src))
        lines = text.splitlines()
        if not (0 < start.line <= len(lines) and 0 < end.line <= len(lines) and start.col > 0 and end.col > 0):
            return False
        line = lines[end.line - 1]
        first = lines[start.line - 1][start.col - 1:start.col]
        return first not in ("'", '"') and line[end.col - 1:end.col] == "," and "{" in line[:end.col]

    def compile(self, src: str, scope: Mapping[str, Type], expect: Type | None, locate: Any) -> Any:
        """Check and compile one expression of the game; a wrong one is recorded in `errors`."""
        from davinci.engine.expr import compile_expr

        try:
            # Names a step bound: every scope name beyond the game's own (see checker.check).
            base = getattr(self, "scope", None)
            bound = frozenset(scope) - frozenset(base) if base is not None else frozenset()
            compiled = compile_expr(src, scope, functions=self.functions, expect=expect, locate=locate, bound=bound)
        except (ExprSyntaxError, ExprTypeError) as e:
            # Go on building, so that one run reports every wrong expression of the game; the
            # stand-in has the expected type, so later checks do not repeat the problem. After a
            # step failed, an unknown name may be one it would have bound (a misspelt `as`): not
            # reported, lest one mistake read as several (fixing the step shows it, if real).
            # Nor a problem of an expression that reads a local a failed expression set: its type is
            # not known, so the fields it reads cannot be checked ("unknown name 'suit'" after the
            # `where` that set the list failed).
            follows = any(re.search(rf"\b{re.escape(n)}\b", src) for n in self.unknown_typed)
            if not follows and not (getattr(self, "step_failed", False) and e.message.startswith("unknown name '")):
                self._out_of_block(e, scope)
                self.errors.append(e)
            return _Broken(src, expect or ANY, e)
        self.names_read.update(compiled.names)
        return compiled


class _Broken:
    """Stands in for an expression that failed its check while the rest of a game is built."""

    broken = True

    def __init__(self, source: str, type_: Type, error: DavinciError) -> None:
        self.source = source
        self.type = type_
        self.names: frozenset[str] = frozenset()
        self.error = error

    def __call__(self, env: Any) -> Any:
        raise self.error


def _known(name: str, options: Sequence[str]) -> str:
    return did_you_mean(name, options)


def build_settings(b: Builder) -> tuple[dict[str, SettingDef], dict[str, Any]]:
    defs: dict[str, SettingDef] = {}
    values: dict[str, Any] = {}
    for name, spec in (b.data.get("settings") or {}).items():
        path: Path = ("settings", name)
        typ = spec.get("type", "int")
        sd = SettingDef(
            name=name,
            type=typ,
            default=spec.get("default"),
            doc=str(spec.get("doc", "")),
            minimum=spec.get("min"),
            maximum=spec.get("max"),
            choices=tuple(spec.get("choices", ())),
            timer=spec.get("timer") is True,
        )
        if sd.timer and (typ != "int" or (sd.minimum is not None and sd.minimum > 0)):
            raise b.fail("a timer setting is a number of seconds that may be 0 (untimed): type int, min 0 or less",
                         (*path, "timer"), key=True)
        lo, hi = sd.minimum, sd.maximum
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
            raise b.fail(f"setting '{name}' has min {lo} above its max {hi}: no value could be given",
                         (*path, "min"), code="DV053")
        try:
            values[name] = sd.coerce(sd.default, "default of setting", from_text=False)
        except DavinciError as e:
            raise b.fail(e.message, (*path, "default"), code="DV053") from None
        defs[name] = sd
    for name, value in b.override.items():
        if name not in defs:
            known = ", ".join(defs) or "none"
            raise DavinciError(f"unknown setting '{name}'{_known(name, list(defs))}; settings: {known}", code="DV081")
        values[name] = defs[name].coerce(value)
    return defs, values


def _settings_value(b: Builder, settings: Mapping[str, Any], path: Path, expect: Type) -> Any:
    """The value of the expression at `path`, which may read only `settings` (the game is not built yet)."""
    fn = b.expr(path, {"settings": settings_type(b, settings)}, expect)
    if isinstance(fn, _Broken) and unknown_name(fn.error.message) not in (None, "settings"):
        first = fn.error.message.partition("\n")[0]
        retell(fn.error, f"{first} ('{path[-1]}' is worked out before the game is set up: it reads only settings)")
    return fn({"settings": _SettingsRecord(settings)})


def build_components(b: Builder, decks: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[
    dict[str, ComponentDef], list[PieceDef], dict[str, Type], dict[str, str]
]:
    comps: dict[str, ComponentDef] = {}
    pieces: list[PieceDef] = []
    fields: dict[str, Type] = {}
    deck_sources: dict[str, str] = {}
    for cname, spec in (b.data.get("components") or {}).items():
        path: Path = ("components", cname)
        ftypes = dict(spec.get("fields") or {})
        for fname, ftype in ftypes.items():
            t = FIELD_TYPES.get(str(ftype))
            if t is None:
                raise b.fail(
                    f"unknown field type '{ftype}' (use one of {', '.join(FIELD_TYPES)})", (*path, "fields", fname)
                )
            if fname in fields and fields[fname] != t:
                raise b.fail(f"field '{fname}' has type {fields[fname]} in another component", (*path, "fields", fname))
            fields[fname] = t
        label = spec.get("label")
        if label is not None and label not in ftypes:
            raise b.fail(f"label '{label}' is not a field of '{cname}'{_known(str(label), list(ftypes))}",
                         (*path, "label"))
        comp = ComponentDef(
            cname,
            {k: str(v) for k, v in ftypes.items()},
            frozenset(spec.get("public") or ()),
            frozenset(spec.get("secret") or ()),
            spec.get("label"),
        )
        comps[cname] = comp
        include = spec.get("include_if")
        if include is not None and not _settings_value(b, settings, (*path, "include_if"), BOOL):
            continue
        if "copies" in ftypes:
            raise b.fail("a field may not be called 'copies': an item's `copies` says how many pieces it makes",
                         (*path, "fields", "copies"), key=True)
        for name in ftypes:
            said = PIECE_BUILTINS.get(str(name))
            if said is not None:
                raise b.fail(f"a field may not be called '{name}': every piece has it already ({said}); give this "
                             "field another name", (*path, "fields", name), key=True)
        items: list[dict[str, Any]] = []
        own: list[int | None] = []  # an item's own `copies`, in place of the component's
        for i, it in enumerate(spec.get("items") or []):
            it = dict(it)
            n = it.pop("copies", None)
            if n is not None:
                n = _copies(b, settings, n, (*path, "items", i, "copies"))
            items.append(it)
            own.append(n)
            _check_fields(b, it, ftypes, (*path, "items", i))
            for k, v in it.items():
                _check_value(b, v, k, str(ftypes[k]), (*path, "items", i, k))
        if spec.get("product"):
            _check_product(b, spec["product"], ftypes, (*path, "product"))
            size = product_size(spec["product"])
            if size > MAX_PIECES:
                raise b.fail(f"'product' makes {size:,} pieces; a game may have at most {MAX_PIECES:,}",
                             (*path, "product"))
            items.extend(product_items(spec["product"]))
        if spec.get("from_deck"):
            deck_id = str(spec["from_deck"])
            deck = decks.get(deck_id)
            if deck is None:
                raise b.fail(f"unknown deck '{deck_id}'{_known(deck_id, list(decks))}", (*path, "from_deck"), code="DV020")
            deck_sources[cname] = deck_id
            for card in deck:
                items.append({k: v for k, v in card.items() if k in ftypes})
        copies = _copies(b, settings, spec.get("copies", 1), (*path, "copies"))
        counts = [copies if n is None else n for n in own] + [copies] * (len(items) - len(own))
        if len(pieces) + sum(counts) > MAX_PIECES:
            # Checked before building them: a hostile pack could ask for billions.
            raise b.fail(f"component '{cname}' brings the game to {len(pieces) + sum(counts):,} pieces; "
                         f"a game may have at most {MAX_PIECES:,}", path)
        for attrs, count in zip(items, counts):
            for _ in range(count):
                full = {k: attrs.get(k, default_for(FIELD_TYPES[str(t)])) for k, t in ftypes.items()}
                pieces.append(PieceDef(len(pieces), cname, full))
    return comps, pieces, fields, deck_sources


def _copies(b: Builder, settings: Mapping[str, Any], value: Any, path: Path) -> int:
    """A `copies` value (of a component, or of one item): 1 to 1000, or an expression over `settings`."""
    if isinstance(value, str):
        value = _settings_value(b, settings, path, INT)
    elif isinstance(value, bool) or not isinstance(value, int):
        raise b.fail(f"'copies' must be a whole number or an expression over settings, got {value!r}", path)
    if not 1 <= value <= 1000:
        raise b.fail(f"'copies' gave {value}: it must be from 1 to 1000", path)
    return int(value)


def _check_fields(b: Builder, item: Mapping[str, Any], ftypes: Mapping[str, Any], path: Path) -> None:
    for k in item:
        if k not in ftypes:
            raise b.fail(f"unknown field '{k}'{_known(k, list(ftypes))}; declare it under 'fields'", (*path, k), key=True)


def _fits(value: Any, ftype: str) -> bool:
    """Whether a YAML value has a field's declared type."""
    if ftype.startswith("list["):
        return isinstance(value, list) and all(_fits(x, ftype[5:-1]) for x in value)
    if ftype == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {"bool": bool, "str": str}[ftype])


def _check_value(b: Builder, value: Any, field: str, ftype: str, path: Path) -> None:
    if not _fits(value, ftype):
        raise b.fail(f"field '{field}' is {ftype}, got {value!r}", path)


def _check_product(b: Builder, spec: Any, ftypes: Mapping[str, Any], path: Path) -> None:
    """`product:` names declared fields, each with a value, a list of values or an int range."""
    if not isinstance(spec, dict):
        raise b.fail("'product' maps field names to lists of values", path)
    _check_fields(b, spec, ftypes, path)
    for k, v in spec.items():
        ftype, at = str(ftypes[k]), (*path, k)
        if isinstance(v, dict):
            if ftype != "int":
                raise b.fail(f"a range ({{from: INT, to: INT}}) is only for int fields: '{k}' is {ftype}; list its "
                             "values instead", at)
            if set(v) != {"from", "to"}:
                odd = sorted(str(x) for x in set(v) - {"from", "to"})
                say = f"unknown key '{odd[0]}'" if odd else f"missing '{'from' if 'from' not in v else 'to'}'"
                raise b.fail(f"{say} in the range of '{k}': a range is {{from: INT, to: INT}}",
                             (*at, odd[0]) if odd else at)
            for end in ("from", "to"):
                if not _fits(v[end], "int"):
                    raise b.fail(f"'{end}' of the range of '{k}' must be a whole number, got {v[end]!r}", (*at, end))
            if v["to"] < v["from"]:
                raise b.fail(f"the range of '{k}' is empty: from {v['from']} to {v['to']}", at)
        elif isinstance(v, list):
            if not v:
                raise b.fail(f"the list of '{k}' values is empty: the product would make no pieces", at)
            for j, x in enumerate(v):
                _check_value(b, x, k, ftype, (*at, j))
        else:
            _check_value(b, v, k, ftype, at)


class _SettingsRecord:
    __slots__ = ("values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values

    def field(self, name: str) -> Any:
        return self.values[name]


def settings_type(b: Builder, settings: Mapping[str, Any]) -> RecordType:
    defs = b.data.get("settings") or {}
    fields: dict[str, Type] = {}
    for name in settings:
        typ = (defs.get(name) or {}).get("type", "int")
        fields[name] = {"int": INT, "bool": BOOL, "str": STR, "list": ListType(INT), "map": MAP_SETTING}.get(typ, ANY)
    return RecordType("settings", fields, "the game's settings")


# A `map` setting is for bots and screens (a profile of playing strength, say): the rules have no
# way to read into one, so `settings.skill.fast` is refused when checked, not when first reached.
MAP_SETTING = RecordType("map setting (read by bots and screens, not by the rules)", {}, "a map setting, which bots and screens read; the rules cannot read into it")


def _a_value(t: Type) -> str:
    return {"int": "a number", "str": "a text", "bool": "true or false"}.get(t.name, f"a {t.name}")


def build_board(b: Builder) -> BoardDef:
    spec = b.data.get("board")
    if not spec:
        return EMPTY_BOARD
    spaces: dict[str, SpaceDef] = {}
    attr_defaults: dict[str, Any] = {}
    attr_first: dict[str, tuple[str, Type]] = {}  # the first space to give each attribute, and its type
    types = set(spec.get("space_types") or [])
    for i, sp in enumerate(spec.get("spaces") or []):
        sid = str(sp["id"])
        if sid in spaces:
            raise b.fail(f"space '{sid}' is defined twice", ("board", "spaces", i, "id"), code="DV021")
        typ = str(sp.get("type", "plain"))
        if types and typ not in types:
            raise b.fail(
                f"unknown space type '{typ}'{_known(typ, sorted(types))}", ("board", "spaces", i, "type"), code="DV301"
            )
        attrs = {k: v for k, v in sp.items() if k not in ("id", "type", "no_turn", "at")}
        for k, v in attrs.items():
            t = literal_type(v)
            first = attr_first.setdefault(k, (sid, t))
            if first[1] != t and ANY not in (t, first[1]):
                # `pos: "7"` on one space, `pos: 7` on the others: a comparison would fail in play.
                b.errors.append(b.fail(f"space '{sid}' gives '{k}' {_a_value(t)}; space '{first[0]}' gives "
                                       f"it {_a_value(first[1])}: an attribute has one type on the whole board",
                                       ("board", "spaces", i, k)))
            attr_defaults.setdefault(k, default_for(t))
        at = sp.get("at")
        spaces[sid] = SpaceDef(sid, typ, attrs, bool(sp.get("no_turn", False)), (int(at[0]), int(at[1])) if at else None)
    neighbours: dict[str, list[tuple[str, str, int]]] = {s: [] for s in spaces}
    for ti, tr in enumerate(spec.get("tracks") or []):
        tid = str(tr.get("id", f"track{ti}"))
        seq = [str(s) for s in tr.get("spaces") or []]
        for si, s in enumerate(seq):
            if s not in spaces:
                raise b.fail(
                    f"track '{tid}' names unknown space '{s}'{_known(s, list(spaces))}",
                    ("board", "tracks", ti, "spaces", si),
                    code="DV020",
                )
        pairs = list(zip(seq, seq[1:]))
        if tr.get("loop") and len(seq) > 2:
            pairs.append((seq[-1], seq[0]))
        one_way = bool(tr.get("one_way", False))
        for a, c in pairs:
            neighbours[a].append((c, tid, 1))
            if not one_way:
                neighbours[c].append((a, tid, -1))
    start = spec.get("start")
    if start is not None and str(start) not in spaces:
        raise b.fail(f"start space '{start}' is not a space{did_you_mean(str(start), list(spaces))}",
                     ("board", "start"), code="DV020")
    return BoardDef(
        spaces,
        {k: tuple(v) for k, v in neighbours.items()},
        str(start) if start is not None else None,
        frozenset(types or {s.type for s in spaces.values()}),
        attr_defaults,
    )


def build_zones(b: Builder, comps: Mapping[str, ComponentDef], settings: Mapping[str, Any]) -> dict[str, ZoneDef]:
    zones: dict[str, ZoneDef] = {}
    for zname, spec in (b.data.get("zones") or {}).items():
        path: Path = ("zones", zname)
        kind = str(spec.get("kind", "pile"))
        if kind not in ZONE_KINDS:
            raise b.fail(f"unknown zone kind '{kind}'{_known(kind, ZONE_KINDS)}", (*path, "kind"))
        contents = tuple(str(c) for c in spec.get("contents") or ())
        for i, c in enumerate(contents):
            if c not in comps:
                raise b.fail(f"unknown component '{c}'{_known(c, list(comps))}", (*path, "contents", i), code="DV020")
        per_seat = bool(spec.get("per_seat", False))
        if per_seat and contents:
            raise b.fail("a per-seat zone starts empty; deal into it in the setup flow", (*path, "contents"))
        if kind == "grid":
            # The engine keeps one shared grid; cells are named by their coordinates alone.
            other = next((z.name for z in zones.values() if z.kind == "grid"), None)
            if other is not None:
                raise b.fail(f"a game has one grid zone at most ('{other}' and '{zname}' are both grids)",
                             (*path, "kind"))
            if per_seat:
                raise b.fail("a grid zone is shared: it cannot be per seat", (*path, "per_seat"))
            if contents:
                raise b.fail("a grid zone starts empty: pieces enter it by a move step with a cell",
                             (*path, "contents"))
        if spec.get("visibility") == "others" and not per_seat:
            raise b.fail("visibility 'others' (every seat but the owner) is for a per-seat zone: add per_seat: true, "
                         "or use public", (*path, "visibility"))
        zones[zname] = ZoneDef(
            name=zname,
            kind=kind,
            per_seat=per_seat,
            visibility=str(spec.get("visibility", "public")),
            doc=str(spec.get("doc", "")),
            overflow_to=spec.get("overflow_to"),
            width=int(spec.get("width", 0)),
            height=int(spec.get("height", 0)),
            adjacency=str(spec.get("adjacency", "king")),
            contents=contents,
            label=str(spec.get("label", zname)),
        )
    for zname, spec in (b.data.get("zones") or {}).items():
        ov = spec.get("overflow_to")
        if ov is not None and ov not in zones:
            raise b.fail(f"unknown zone '{ov}'{_known(str(ov), list(zones))}", ("zones", zname, "overflow_to"), code="DV020")
        if ov == zname:  # a returned piece would land over capacity again, for ever
            raise b.fail(f"'{zname}' overflows into itself: name another zone, or leave overflow_to out (the "
                         "returned piece leaves the game)", ("zones", zname, "overflow_to"))
    return zones


def build_vars(b: Builder, section: str) -> dict[str, VarDef]:
    from davinci.engine.expr.compiler import MAX_INT

    out: dict[str, VarDef] = {}
    for name, initial in (b.data.get(section) or {}).items():
        stack = [initial]
        while stack:  # the rules hold whole numbers up to 2**63: a start value must be one of them
            v = stack.pop()
            if isinstance(v, float):
                b.errors.append(b.fail(f"'{name}' starts at {v}: the rules have no fractional numbers; write a whole "
                                       "number", (section, name)))
                break
            if isinstance(v, int) and not isinstance(v, bool) and not -MAX_INT <= v <= MAX_INT:
                b.errors.append(b.fail(f"'{name}' starts at a number beyond the rules' limit of {MAX_INT:,}",
                                       (section, name)))
                break
            if isinstance(v, (list, tuple)):
                stack.extend(v)
            elif isinstance(v, dict):  # saved and read back as something else, never as a mapping
                b.errors.append(b.fail(f"'{name}' starts as a mapping or holds one: a variable holds a number, a text, true or "
                                       "false, null, or a list of them (keep a table in a map setting, or in several "
                                       "variables)", (section, name)))
                break
        out[name] = VarDef(name, literal_type(initial), initial)
    return out


class Types:
    """The record types of one game, for checking its expressions."""

    def __init__(
        self,
        piece_fields: Mapping[str, Type],
        zones: Mapping[str, ZoneDef],
        seat_vars: Mapping[str, VarDef],
        board: BoardDef,
        settings: RecordType,
    ) -> None:
        self.settings = settings
        self.component_fields = frozenset(piece_fields)  # the fields components declare (not `owner`, `zone`...)
        self.piece = RecordType("piece", lambda: self._piece_fields(piece_fields), "a component instance")
        self.seat = RecordType("seat", lambda: self._seat_fields(zones, seat_vars), "a seat (player or team)")
        self.cell = RecordType(
            "cell",
            lambda: {"x": INT, "y": INT, "height": INT, "top": self.piece, "pieces": ListType(self.piece), "empty": BOOL},
            "a grid cell",
        )
        space_fields: dict[str, Type] = {"id": STR, "type": STR, "pieces": ListType(self.piece)}
        for k, v in board.attr_defaults.items():
            space_fields[k] = literal_type(v) if v is not None else STR
        for sp in board.spaces.values():
            for k, v in sp.attrs.items():
                space_fields.setdefault(k, literal_type(v))
        self.space = RecordType("space", space_fields, "a board space")
        if board.spaces:  # a misspelt type (`to.type == 'bonsu'`) was never true, silently
            self.space.domains = {"type": frozenset(board.space_types) | {sp.type for sp in board.spaces.values()},
                                  "id": frozenset(board.spaces)}
        self.zone = RecordType(
            "zone",
            lambda: {"pieces": ListType(self.piece), "size": INT, "cells": ListType(self.cell), "name": STR},
            "a zone",
        )
        self.response = RecordType(
            "response",
            lambda: {
                "seat": self.seat,
                "given": STR,
                "time_ms": INT,
                "correct": BOOL,
                "rank": INT,
                "claimed": BOOL,
            },
            "one seat's answer to a challenge",
        )

    def _piece_fields(self, piece_fields: Mapping[str, Type]) -> dict[str, Type]:
        f = dict(piece_fields)
        f.update(
            {
                "revealed": BOOL,
                "owner": self.seat,
                "zone": STR,
                "index": INT,
                "kind": STR,
                "cell": self.cell,
                "space": self.space,
                "is_top": BOOL,
            }
        )
        return f

    def _seat_fields(self, zones: Mapping[str, ZoneDef], seat_vars: Mapping[str, VarDef]) -> dict[str, Type]:
        f: dict[str, Type] = {}
        for v in seat_vars.values():
            f[v.name] = self.var_type(v)
        for z in zones.values():
            if z.per_seat:
                f[z.name] = self.zone_type(z)
        # Last: a seat variable of one of these names is an error, and must not hide the field.
        f.update({"index": INT, "name": STR, "active": BOOL, "is_current": BOOL})
        return f

    def zone_type(self, z: ZoneDef) -> Type:
        return self.zone if z.kind in ("grid", "board") else ListType(self.piece)

    def var_type(self, v: VarDef) -> Type:
        if v.initial is None:
            return ANY
        return v.type


# Names every expression of a game can read, and the fields every seat has: a variable, a zone
# or a name a step binds may not take one (it would hide it, and the errors would point elsewhere).
BUILTIN_NAMES = {
    "players": "the number of players",
    "seats": "the list of seats",
    "current": "the seat whose turn it is",
    "settings": "the game's settings",
    "turn": "the turn number",
}
SEAT_FIELDS = {
    "index": "its number from 1",
    "name": "its name",
    "active": "whether it is still in the game",
    "is_current": "whether it is its turn",
}


def hidden_name(b: Builder, name: str) -> str | None:
    """What a new name `name` would hide in the game's scope, or None when it is free."""
    if name in BUILTIN_NAMES:
        return f"a built-in name ({BUILTIN_NAMES[name]})"
    zones = getattr(b, "zones", {})
    if name in zones and not zones[name].per_seat:
        return "a zone of the game"
    if name in getattr(b, "gvars", {}) or name in getattr(b, "tvars", {}):
        return "a variable of the game"
    if name in getattr(b, "defined", {}):
        return "a name the game defines (under `define`)"
    return None


_RECORD_WORDS = ("seat", "piece", "cell", "space", "zone")


def type_named(types: Types, text: str, depth: int = 0) -> Type | None:
    """The type an argument of a defined function declares (`seat`, `int`, `list[piece]`), or None
    (also for lists nested more than 8 deep)."""
    text = text.strip()
    if text in FIELD_TYPES and (depth < 8 or not text.startswith("list[")):  # the words fields are declared with
        return FIELD_TYPES[text]
    if text.startswith("list[") and text.endswith("]"):
        elem = type_named(types, text[5:-1], depth + 1) if depth < 8 else None
        return None if elem is None else ListType(elem)
    return getattr(types, text) if text in _RECORD_WORDS else None


def build_definitions(b: Builder, scope: dict[str, Type], types: Types) -> dict[str, Any]:
    """`define`: named expressions, each checked once where it is written and usable by every
    expression of the game. One without `args` is a name (`alive`); one with `args` a function
    (`hidden(s)`). Definitions may use each other in any order, but none may use itself, even
    through others, and chains are at most MAX_DEFINE_DEPTH deep. Adds the names to `scope` and
    the functions to `b.functions`."""
    from davinci.engine.expr.functions import Function

    defined: dict[str, Any] = {}
    b.defined = defined  # type: ignore[attr-defined]
    b.definition_reads = {}  # type: ignore[attr-defined]
    specs = b.data.get("define") or {}
    for name in _definition_order(b, specs):
        spec = specs[name]
        path: Path = ("define", name)
        clash = _clash(b, name)
        if clash is not None:
            b.errors.append(b.fail(f"'{name}' is {clash}: give the definition another name", path, key=True))
            continue
        params: dict[str, Type] = {}
        is_function = isinstance(spec, Mapping) and "args" in spec  # `args: {}`: a function of no arguments
        args = spec.get("args") or {} if isinstance(spec, Mapping) else {}
        for pname, tname in args.items():
            t = type_named(types, str(tname))
            if t is None:
                shown = str(tname) if len(str(tname)) <= 40 else str(tname)[:37] + "..."
                b.errors.append(b.fail(f"'{shown}' is not a type: write one of int, bool, str, "
                                       f"{', '.join(_RECORD_WORDS)}, or list[...] of one (at most 8 deep)", (*path, "args", pname)))
                t = ANY
            hidden = _clash(b, pname) or ("a name the game defines" if pname in scope or pname in specs else None)
            if hidden is not None:
                b.errors.append(b.fail(f"argument '{pname}' would hide {hidden}: give it another name",
                                       (*path, "args", pname), key=True))
            params[pname] = t
        before = len(b.errors)
        outside, b.names_read = b.names_read, set()  # what this definition reads, kept apart (DV062)
        body = b.expr((*path, "value") if isinstance(spec, Mapping) else path, {**scope, **params})
        b.definition_reads[name], b.names_read = b.names_read, outside  # type: ignore[attr-defined]
        for err in b.errors[before:]:
            if err.message.startswith("unknown name '"):
                first, _, rest = err.message.partition("\n")
                err.message = (f"{first} (a definition reads only the game's own names: pass a name a step binds, "
                               f"or the seat of end.score, as an argument)\n{rest}").rstrip("\n")
        if len(b.errors) > before:
            b.unknown_typed.add(str(name))  # (what uses it is not checked again: one mistake, one error)
        if not is_function:
            scope[name] = body.type
            defined[name] = body
            continue
        doc = str(spec.get("doc") or f"defined by the game ({', '.join(params)})")
        fn = Function(name, doc, (), tuple(params.values()), body.type, _defined_function(body, tuple(params)),
                      with_env=True)
        b.functions = b.functions.extend([fn])
        defined[name] = fn
    for name in specs:  # left out (it uses itself): stand-ins, so that its uses raise no more errors
        if name not in defined and _clash(b, name) is None:
            broken = _Broken(str(name), ANY, DefinitionError(f"'{name}' is defined in terms of itself"))
            if isinstance(specs[name], Mapping) and specs[name].get("args"):
                b.functions = b.functions.extend([Function(name, "", (), (ANY,), ANY, _defined_function(broken, ()),
                                                           min_args=0, variadic=True, with_env=True)])
            else:
                scope[name] = ANY
            defined[name] = broken
    return {n: d for n, d in defined.items() if not hasattr(d, "with_env")}


def _definitions_used(b: Builder) -> set[str]:
    """The names read by the game's expressions outside `define`, and by the definitions those
    use, through any chain: a definition only unused ones use is unused too (DV062)."""
    reads: dict[str, set[str]] = getattr(b, "definition_reads", {})
    used: set[str] = set()
    todo = [n for n in reads if n in b.names_read]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo.extend(n for n in reads[name] if n in reads)
    return used


# The longest chain of definitions using definitions (each level is a call while evaluating).
MAX_DEFINE_DEPTH = 32

# Words an expression reads as something else, and names the engine binds in some expressions.
_RESERVED = {"true", "false", "none", "and", "or", "not", "in", "if", "else", "where", "select", "it", "seat",
             "piece", "given"}


def _clash(b: Builder, name: str) -> str | None:
    """What a definition's or argument's name would hide or be hidden by, or None when it is free."""
    return hidden_name(b, name) or _engine_word(b, name)


def _engine_word(b: Builder, name: str) -> str | None:
    """What a definition's (or argument's) name would clash with besides the game's own names
    (`hidden_name`): a word of the language, a name the engine binds, a function, or a field
    every seat has (inside a query over seats, the seat's own field would win)."""
    if name in _RESERVED:
        return "a word of the rule language, or a name the engine binds (it, seat, piece, given)"
    if name in b.functions:
        return "a function of the rule language"
    if name in SEAT_FIELDS or name in getattr(b, "svars", {}) or (
            name in getattr(b, "zones", {}) and b.zones[name].per_seat):  # type: ignore[attr-defined]
        return "a field every seat has (a seat variable or zone), which a query over seats would read instead"
    return None


def _definition_order(b: Builder, specs: Mapping[str, Any]) -> list[str]:
    """The definitions in an order where each comes after those it uses (YAML order otherwise);
    one that uses itself, directly or through others, is an error and left out. A bare name
    inside a `where` or `select` that is a field of some record (`seats where active`) is read
    as the element's field, not as a use."""
    from davinci.engine.expr.parser import Call, Name, Select, Where, children, parse

    types = getattr(b, "types", None)
    fields: set[str] = set()
    if types is not None:
        for record in (types.seat, types.piece, types.cell, types.space, types.zone):
            fields.update(record.fields)

    uses: dict[str, list[str]] = {}
    for name, spec in specs.items():
        src = spec.get("value") if isinstance(spec, Mapping) else spec
        args = spec.get("args") if isinstance(spec, Mapping) else None
        own = set(args) if isinstance(args, Mapping) else set()  # its arguments, read by name, are no uses
        found: list[str] = []
        try:
            stack = [parse(src)] if isinstance(src, str) else []
        except DavinciError:
            stack = []  # reported when the definition is compiled
        pending: list[tuple[Any, bool]] = [(n, False) for n in stack]  # (node, inside a where/select's right side)
        while pending:
            node, inner = pending.pop()
            word = node.name if isinstance(node, Name) else node.func if isinstance(node, Call) else None
            if word is not None and word in specs and word not in found and not (
                    inner and isinstance(node, Name) and word in fields) and not (
                    isinstance(node, Name) and word in own):
                found.append(word)
            if isinstance(node, (Where, Select)):
                first, *rest = children(node)
                pending.append((first, inner))
                pending.extend((c, True) for c in rest)
            else:
                pending.extend((c, inner) for c in children(node))
        uses[name] = found
    order: list[str] = []
    state: dict[str, int] = {}  # 1: being visited, 2: placed, 3: left out
    too_deep: list[str] = []

    def visit(name: str, trail: tuple[str, ...]) -> bool:
        if state.get(name, 1) != 1:
            return state[name] == 2
        if name in state:
            loop = " -> ".join((*trail[trail.index(name):], name))
            b.errors.append(b.fail(f"'{name}' is defined in terms of itself ({loop}): a definition may use others, "
                                   "but not itself", ("define", name), key=True))
            return False
        if len(trail) >= MAX_DEFINE_DEPTH:
            chain = " -> ".join((*trail[:3], "...", name))
            state[name] = 3
            if too_deep:
                return False  # said once
            too_deep.append(name)
            b.errors.append(b.fail(f"definitions use each other more than {MAX_DEFINE_DEPTH} deep ({chain}): "
                                   "shorten the chain", ("define", trail[0]), key=True))
            return False
        state[name] = 1
        ok = all([visit(used, (*trail, name)) for used in uses[name]])
        state[name] = 2 if ok else 3
        if ok:
            order.append(name)
        return ok

    for name in specs:
        visit(name, ())
    return order


def _defined_function(body: Any, names: tuple[str, ...]) -> Any:
    """The implementation of a function the game defines: its body evaluated with the arguments
    bound by name, beside the state's names."""
    from davinci.engine.values import Env, encode

    def impl(env: Any, *args: Any) -> Any:
        if not hasattr(body, "inner"):
            raise body.error  # a definition that failed its check (the build reports it)
        bound = dict(env.locals)
        bound.update(zip(names, [encode(a) for a in args]))
        return body.inner(Env(env.state, bound))

    return impl


def _display(b: Builder, zones: Mapping[str, ZoneDef]) -> dict[str, Any]:
    """`display`: hints for screens. The engine checks only `hide`, the zones and variables the
    generic screen leaves out, which must name zones or variables of the game."""
    display = dict(b.data.get("display") or {})
    hide = display.get("hide")
    if hide is not None:
        if not isinstance(hide, list) or not all(isinstance(z, str) for z in hide):
            b.errors.append(b.fail("'hide' is a list of zone and variable names", ("display", "hide")))
        else:
            known = [*zones, *(str(n) for section in ("vars", "turn_vars", "seat_vars")
                                for n in (b.data.get(section) or {}))]
            for i, name in enumerate(hide):
                if name not in known:
                    b.errors.append(b.fail(f"'{name}' is neither a zone nor a variable of the game"
                                           f"{_known(name, known)}", ("display", "hide", i)))
    return display


def _private_seat_vars(b: Builder, svars: Mapping[str, VarDef]) -> frozenset[str]:
    """`private_seat_vars`: seat variables each seat sees only for itself (a sealed bid)."""
    names = b.data.get("private_seat_vars") or []
    for i, name in enumerate(names):
        if name not in svars:
            b.errors.append(b.fail(f"'{name}' is not a seat variable{_known(str(name), list(svars))}",
                                   ("private_seat_vars", i)))
    return frozenset(str(n) for n in names)


_LANGUAGE_WORDS = frozenset({"true", "false", "none", "and", "or", "not", "in", "if", "else", "where", "select"})


def _check_declared_names(b: Builder, zones: Mapping[str, ZoneDef], svars: Mapping[str, VarDef]) -> None:
    for section in ("vars", "seat_vars", "turn_vars", "settings"):  # no expression could name these
        for name in b.data.get(section) or {}:
            if name in _LANGUAGE_WORDS:
                what = "setting" if section == "settings" else "variable"
                b.errors.append(b.fail(f"'{name}' is a word of the rule language: no expression could read a {what} "
                                       "of that name; give it another", (section, name), key=True))
            elif name in _RESERVED and section != "settings":  # `it` in every where/select, `seat` in end.score...
                b.errors.append(b.fail(f"'{name}' is a name the engine binds (it, seat, piece, given): where it is bound "
                                       "it would hide the variable; give it another name", (section, name), key=True))
    for section in ("vars", "turn_vars"):
        for name in b.data.get(section) or {}:
            if name in BUILTIN_NAMES:
                b.errors.append(b.fail(f"'{name}' is a built-in name ({BUILTIN_NAMES[name]}): give this variable "
                                       "another name", (section, name), key=True))
    for name in b.data.get("turn_vars") or {}:
        if isinstance(b.data.get("vars"), dict) and name in b.data["vars"]:
            b.errors.append(b.fail(f"'{name}' is declared under both vars and turn_vars: a name reads one variable; "
                                   "rename one of them", ("turn_vars", name), key=True))
    for name in svars:
        if name in SEAT_FIELDS:
            b.errors.append(b.fail(f"'{name}' is a field every seat has ({SEAT_FIELDS[name]}): give this seat "
                                   "variable another name", ("seat_vars", name), key=True))
    for z in zones.values():
        clash = SEAT_FIELDS.get(z.name) if z.per_seat else BUILTIN_NAMES.get(z.name)
        if clash is not None:
            what = "a field every seat has" if z.per_seat else "a built-in name"
            b.errors.append(b.fail(f"'{z.name}' is {what} ({clash}): give this zone another name",
                                   ("zones", z.name), key=True))


def _per_piece(b: Builder, compiled: Any, piece_fields: Mapping[str, Type], path: Path) -> Any:
    """`compiled` (a row's `sort` or `free`), refused unless it reads only the piece's own fields
    and the settings: it is computed once per piece and kept for every game of the process."""
    from davinci.engine.expr.parser import Field, Name, children

    node = getattr(compiled, "node", None)
    if node is None:
        return compiled  # a broken expression, reported already
    dynamic = sorted(n for n in compiled.names if n not in ("piece", "settings"))
    stack: list[Any] = [(node, None)]
    while stack and not dynamic:
        n, parent = stack.pop()
        if isinstance(n, Name) and n.name == "piece":
            if not (isinstance(parent, Field) and parent.name in piece_fields):
                dynamic.append(f"piece.{parent.name}" if isinstance(parent, Field) else "the piece itself")
        stack.extend((c, n) for c in children(n))
    if dynamic:
        what = (f"uses '{dynamic[0]}', a definition (it may read what changes during play): write its "
                "expression out here" if dynamic[0] in getattr(b, "defined", {})
                else f"reads {dynamic[0]}, which changes during play")
        b.errors.append(b.fail(f"'{path[-1]}' is computed once for each piece, so it may read only the piece's own "
                               f"fields and the settings; it {what}", path))
    return compiled


def global_scope(
    types: Types,
    zones: Mapping[str, ZoneDef],
    gvars: Mapping[str, VarDef],
    tvars: Mapping[str, VarDef],
) -> dict[str, Type]:
    scope: dict[str, Type] = {}
    for z in zones.values():
        if not z.per_seat:
            scope[z.name] = types.zone_type(z)
    for v in (*gvars.values(), *tvars.values()):
        scope[v.name] = types.var_type(v)
    # Last: a variable or zone of one of these names is an error, and must not hide the name.
    scope.update({
        "players": INT,
        "seats": ListType(types.seat),
        "current": types.seat,
        "settings": types.settings,
        "turn": INT,
    })
    return scope



def _own_sets(programs: Mapping[str, Program]) -> tuple[tuple[str, str, SourceLocation], ...]:
    """(name, procedure, where) for each local a procedure's `set` makes under a name that is also
    a local where the procedure is called: the procedure's is its own, and the caller's keeps its
    value through the call (lint DV064; a value goes back through `turn_vars`)."""
    def sets(proc: str, seen: set[str]) -> dict[str, tuple[str, SourceLocation | None]]:
        """The locals `proc` and the procedures it calls set: name -> (procedure, where)."""
        seen.add(proc)
        prog = programs.get(proc)
        if prog is None:
            return {}
        found = {name: (proc, at) for name, at in prog.sets.items()}
        for inner, _ in prog.calls:
            if inner not in seen:
                for name, got in sets(inner, seen).items():
                    found.setdefault(name, got)
        return found

    out: dict[tuple[str, str], SourceLocation] = {}
    for prog in programs.values():
        for proc, in_scope in prog.calls:
            for name, (owner, at) in sets(proc, set()).items():
                if name in in_scope and at is not None:
                    out.setdefault((name, owner.split(":", 1)[1]), at)
    return tuple((n, p, at) for (n, p), at in out.items())

MAX_DOMAIN = 200  # a text field with more values than this (card answers...) is not checked against them


def _seat_only_in_scores(expr: Any, key: str) -> None:
    """`end.winners` or `end.when` reading `seat`, the name `score` and `tie_break` bind: said why
    it is unknown there and what to write."""
    retell_unknown_name(expr, ("seat",), lambda name: (
        f"unknown name 'seat': only end.score and end.tie_break are worked out for each seat; end.{key} is one "
        "expression over the whole table: inside `seats where ...` a seat's own variables are read by their names "
        "(`seats where banked >= 100`)"))


def _piece_domains(b: Builder, comps: Mapping[str, ComponentDef], pieces: Sequence[PieceDef],
                   zones: Mapping[str, ZoneDef]) -> dict[str, frozenset[Any]]:
    """The values each text or number field of the pieces can hold (see RecordType.domains), with
    `kind` and `zone`; for a list of texts or numbers, the ones it can hold. A field of a component a setting can
    leave out (`include_if`) has none: that component's pieces may not be built, so its values
    are not all known."""
    out: dict[str, frozenset[str]] = {"kind": frozenset(comps), "zone": frozenset(zones)}
    partial = {f for name, spec in (b.data.get("components") or {}).items()
               if spec.get("include_if") is not None for f in (spec.get("fields") or {})}
    values: dict[str, set[Any]] = {}
    for c in comps.values():
        for f, t in c.fields.items():
            if t in ("str", "list[str]", "int", "list[int]") and f not in partial:
                values.setdefault(f, set())
    for p in pieces:
        for f, seen in values.items():
            v = p.attrs.get(f)
            if isinstance(v, (str, int)) and not isinstance(v, bool):
                seen.add(v)
            elif isinstance(v, (list, tuple)):
                seen.update(x for x in v if isinstance(x, (str, int)) and not isinstance(x, bool))
    out.update({f: frozenset(v) for f, v in values.items() if 0 < len(v) <= MAX_DOMAIN})
    return out


def build_game(
    data: Mapping[str, Any],
    locator: Locator,
    *,
    decks: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    settings: Mapping[str, Any] | None = None,
    variant: str | None = None,
    variants: Sequence[str] = (),
) -> GameDef:
    """Build (and check every expression of) a game. A wrong expression does not stop the build:
    every one is found, and raised together (BuildErrors) with any other problem that stopped it."""
    import davinci.engine.steps  # noqa: F401  (registers the step kinds)

    b = Builder(data, locator, settings or {})
    try:
        gdef = _build_game(b, data, decks, variant, variants)
    except DavinciError as e:
        if not b.errors:
            raise
        b.errors.append(e)
    if b.errors:
        for error in b.errors:
            _set_later(b, error)
        raise b.errors[0] if len(b.errors) == 1 else BuildErrors(b.errors)
    return gdef


def _set_later(b: Builder, e: DavinciError) -> None:
    """An unknown name that a step sets further down the same file: said so (a `log` naming
    `second` one line before `set: {second: ...}`), since a name exists only from its step on."""
    name = unknown_name(e.message)
    # Only a `set` makes a local from its step on: a name bound by `as:` or an option's arguments
    # lives inside its own block (another procedure's `as: s` said "set later" for an `s` never bound).
    at = next((loc for n, loc in b.locals_set if n == name), None) if name else None
    where = getattr(e, "location", None)
    if name is None or at is None or "does not reach here" in e.message or "a definition reads only" in e.message \
            or not isinstance(where, SourceLocation) \
            or at.path != where.path or (at.line, at.col) <= (where.line, where.col):
        return
    retell(e, f"unknown name '{name}': it is set later, at line {at.line} (a local exists from the step that sets it "
              f"on: move this after it, or declare '{name}' under turn_vars)")


def _build_game(
    b: Builder,
    data: Mapping[str, Any],
    decks: Mapping[str, Sequence[Mapping[str, Any]]] | None,
    variant: str | None,
    variants: Sequence[str],
) -> GameDef:
    # Shown in lists and help (a name is one line by its schema): no control character but line
    # feeds and tabs, and no direction control (two regular expressions: a 5 MB text is data).
    text = data.get("description") if variant is None else None
    if isinstance(text, str) and (CONTROL_CHARS.search(text) or BIDI_CONTROLS.search(text)):
        raise b.fail(f"the game's description '{quoted(text)}' holds a control or direction character: write it "
                     "as plain text", ("description",))
    sdefs, svalues = build_settings(b)
    stype = settings_type(b, svalues)
    comps, pieces, piece_fields, deck_sources = build_components(b, decks or {}, svalues)
    zones = build_zones(b, comps, svalues)
    board = build_board(b)
    gvars = build_vars(b, "vars")
    svars = build_vars(b, "seat_vars")
    tvars = build_vars(b, "turn_vars")
    for name in (*gvars, *svars, *tvars):
        if name in zones:
            raise b.fail(f"'{name}' is both a zone and a variable", ("zones", name), key=True)
    _check_declared_names(b, zones, svars)
    types = Types(piece_fields, zones, svars, board, stype)
    types.piece.domains = _piece_domains(b, comps, pieces, zones)
    b.types = types  # type: ignore[attr-defined]
    from davinci.engine.functions import engine_functions

    b.functions = engine_functions(types)
    b.zones = zones  # type: ignore[attr-defined]
    b.gvars = gvars  # type: ignore[attr-defined]
    b.svars = svars  # type: ignore[attr-defined]
    b.tvars = tvars  # type: ignore[attr-defined]
    b.rest_verbs = {}  # type: ignore[attr-defined]
    from davinci.engine.steps.decide import ENGINE_VERB_ARGS

    b.verb_args = dict(ENGINE_VERB_ARGS)  # type: ignore[attr-defined]
    b.private_locals = set()  # type: ignore[attr-defined]
    b.sealing = 0  # type: ignore[attr-defined]  # inside how many private options' steps (steps/decide.py)
    scope = global_scope(types, zones, gvars, tvars)
    b.scope = scope  # type: ignore[attr-defined]
    defined = build_definitions(b, scope, types)

    # zone expressions need the piece type
    for zname, spec in (data.get("zones") or {}).items():
        z = zones[zname]
        upd: dict[str, Any] = {}
        pscope = {**scope, "piece": types.piece}
        for key in ("sort", "free"):
            if spec.get(key) is not None and z.kind != "row":
                b.errors.append(b.fail(f"'{key}' {'orders' if key == 'sort' else 'frees pieces in'} row zones only; "
                                       f"'{zname}' is a {z.kind}", ("zones", zname, key), key=True))
        if spec.get("capacity") is not None:
            # A seat's zone: `owner` is that seat (the current seat may be another, who gave it pieces).
            cscope = {**scope, "owner": types.seat} if z.per_seat and "owner" not in scope else scope
            upd["capacity"] = b.expr(("zones", zname, "capacity"), cscope, INT)
        if spec.get("sort") is not None:
            upd["sort"] = _per_piece(b, b.expr(("zones", zname, "sort"), pscope), piece_fields, ("zones", zname, "sort"))
        if spec.get("free") is not None:
            upd["free"] = _per_piece(b, b.expr(("zones", zname, "free"), pscope, BOOL), piece_fields,
                                     ("zones", zname, "free"))
        if upd:
            from dataclasses import replace

            zones[zname] = replace(z, **upd)

    flow = data.get("flow") or {}
    procs = flow.get("procedures") or {}
    programs: dict[str, Program] = {}
    for name in ("setup", "turn", "turn_end"):
        prog = Program(name)
        FlowCompiler(b, prog, procs).steps(flow.get(name), ("flow", name), dict(scope))
        programs[name] = prog
    for pname in procs:
        prog = Program(f"proc:{pname}")
        FlowCompiler(b, prog, procs).steps(procs[pname], ("flow", "procedures", pname), dict(scope))
        programs[prog.name] = prog

    end = data.get("end") or {}
    seat_scope = {**scope, "seat": types.seat}
    end_def = EndDef(
        when=b.expr(("end", "when"), scope, BOOL),
        winners=b.expr(("end", "winners"), scope, ListType(types.seat)),
        score=b.expr(("end", "score"), seat_scope, INT) if end.get("score") is not None else None,
        tie_break=b.expr(("end", "tie_break"), seat_scope) if end.get("tie_break") is not None else None,
        max_turns=int(end.get("max_turns", DEFAULT_MAX_TURNS)),
        max_turns_given="max_turns" in end,
        lower_is_better=end.get("lower_is_better") is True,
    )
    for key in ("when", "winners"):
        _seat_only_in_scores(getattr(end_def, key), key)
    order = data.get("turn_order") or {}
    first = order.get("first", "random")
    if isinstance(first, str) and first.strip() not in ("random", "") and did_you_mean(first.strip(), ["random"]) \
            and first.strip().isalpha() and first.strip() not in scope:  # `first: randon`: an unknown name
        raise b.fail(f"turn_order.first is 'random' or a seat number (an expression); got '{quoted(first)}'"
                     f"{did_you_mean(first.strip(), ['random'], aside=False)}", ("turn_order", "first"), code="DV041")
    first_seat: Any = "random" if first == "random" else b.expr(("turn_order", "first"), scope, INT)
    next_seat = b.expr(("turn_order", "next"), scope, INT) if order.get("next") is not None else None
    requires = tuple(
        (b.expr(("requires", i, "check"), scope, BOOL), str(r.get("message", "")), b.loc.loc(("requires", i)))
        for i, r in enumerate(data.get("requires") or ())
    )
    players = data.get("players") or {}
    if int(players.get("min", 2)) > int(players.get("max", 4)):
        raise b.fail(f"players: min {players.get('min', 2)} is more than max {players.get('max', 4)}: no table "
                     "can play this game", ("players",))
    used_definitions = _definitions_used(b)
    return GameDef(
        id=str(data.get("id")),
        name=str(data.get("name", data.get("id"))),
        description=str(data.get("description", "")),
        variant=variant,
        min_players=int(players.get("min", 2)),
        max_players=int(players.get("max", 4)),
        seat_label=str((data.get("seats") or {}).get("label", "Player")),
        bots=tuple(str(x) for x in data.get("bots") or ("random",)),
        settings_defs=sdefs,
        settings=svalues,
        components=comps,
        pieces=pieces,
        zones=zones,
        board=board,
        global_vars=gvars,
        seat_vars=svars,
        turn_vars=tvars,
        programs=programs,
        end=end_def,
        first_seat=first_seat,
        next_seat=next_seat,
        requires=requires,
        piece_fields=piece_fields,
        rest_verbs=dict(b.rest_verbs),  # type: ignore[attr-defined]
        verb_args=dict(b.verb_args),  # type: ignore[attr-defined]
        deck_sources=deck_sources,
        display=_display(b, zones),
        private_seat_vars=_private_seat_vars(b, svars),
        private_locals=frozenset(b.private_locals),  # type: ignore[attr-defined]
        variants=tuple(variants),
        grid_zone=next((z.name for z in zones.values() if z.kind == "grid"), None),
        unread_locals=tuple((n, at) for n, at in b.locals_set if n not in b.names_read),
        own_sets=_own_sets(programs),
        defined=defined,
        unused_definitions=tuple((str(n), b.loc.loc(("define", n), key=True)) for n in data.get("define") or {}
                                 if n not in used_definitions),
    )
