"""Frozen game definitions built from validated YAML.

`build_game(data, locator)` turns a (variant-merged) game document into a `GameDef`: typed
settings, component instances, zones, the board graph, variables, compiled flow and end
conditions. Every expression is compiled once here, with its source position, so a mistake
is reported at load/lint time as `file:line:col`.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from davinci.engine.errors import DavinciError, SourceLocation, did_you_mean, line_text_problem, quoted
from davinci.engine.expr.compiler import MAX_INT
from davinci.engine.expr.types import ANY, BOOL, INT, NONE, STR, ListType, Type

Path = tuple[str | int, ...]


class Locator:
    """Maps a path in the game data to a source position (variant first, then base game)."""

    def __init__(self, docs: Sequence[Any]) -> None:
        self.docs = list(docs)

    def _doc_for(self, path: Path) -> Any:
        for doc in self.docs:
            if _has_path(doc.data, path):
                return doc
        return self.docs[-1] if self.docs else None

    def loc(self, path: Path, key: bool = False) -> SourceLocation:
        doc = self._doc_for(path)
        if doc is None:
            return SourceLocation("<game>")
        loc: SourceLocation = doc.loc(list(path), key=key)
        return loc

    def scalar(self, path: Path) -> Callable[[int], SourceLocation]:
        doc = self._doc_for(path)

        def locate(offset: int) -> SourceLocation:
            if doc is None:
                return SourceLocation("<game>", 1, offset + 1)
            try:
                loc: SourceLocation = doc.scalar_loc(list(path), offset)
                return loc
            except Exception:  # position mapping must never hide the real error
                loc2: SourceLocation = doc.loc(list(path))
                return loc2

        return locate


def _has_path(data: Any, path: Path) -> bool:
    cur = data
    for p in path:
        if isinstance(cur, dict) and isinstance(p, str) and p in cur:
            cur = cur[p]
        elif isinstance(cur, list) and isinstance(p, int) and 0 <= p < len(cur):
            cur = cur[p]
        else:
            return False
    return True


# --- definition objects -------------------------------------------------------------------


@dataclass(frozen=True)
class SettingDef:
    name: str
    type: str  # int | bool | str | list | map
    default: Any
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    timer: bool = False  # a time limit in seconds that `davinci play --no-timer` sets to 0

    def expr_type(self) -> Type:
        return {"int": INT, "bool": BOOL, "str": STR, "list": ListType(INT)}.get(self.type, ANY)

    def coerce(self, value: Any, where: str = "setting", from_text: bool = True) -> Any:
        """Check (and, with `from_text`, convert from text: `--setting`) a value for this setting;
        DavinciError when invalid."""
        v = value
        if isinstance(v, str) and self.type != "str":
            if not from_text:  # a YAML default: "no" is a text, as on every other key
                how = {"bool": "write true or false", "int": "write a whole number in decimal digits, not in quotes",
                       "list": "write a list: [3, 2, 1]", "map": "write a mapping"}.get(self.type, "")
                raise DavinciError(f"{where} '{self.name}' must be {_TYPE_WORDS[self.type]}, got the text {quoted(v)!r} "
                                   f"({how})", code="DV081")
            v = _parse_setting_text(v, self.type, self.name)
        ok = {
            "int": isinstance(v, int) and not isinstance(v, bool),
            "bool": isinstance(v, bool),
            "str": isinstance(v, str),
            "list": isinstance(v, (list, tuple)) and all(isinstance(i, int) and not isinstance(i, bool) for i in v),
            "map": isinstance(v, dict),
        }[self.type]
        if not ok:
            raise DavinciError(f"{where} '{self.name}' must be {_TYPE_WORDS[self.type]}, got {value!r}", code="DV081")
        if self.type in ("str", "map"):
            # A text setting is shown on screens and in logs: plain text on one line, from the
            # command line, a save or a log someone sent as much as from a variant file.
            problem = next((p for p in map(line_text_problem, _texts(v)) if p is not None), None)
            if problem is not None:
                raise DavinciError(f"{where} '{self.name}': {problem}", code="DV081")
        if self.type in ("int", "list"):
            # A list's bounds hold for each of its numbers.
            must = "must have every number" if self.type == "list" else "must be"
            for x in v if self.type == "list" else [v]:
                if self.minimum is not None and x < self.minimum:
                    raise DavinciError(f"{where} '{self.name}' {must} >= {self.minimum}, got {x}", code="DV081")
                if self.maximum is not None and x > self.maximum:
                    raise DavinciError(f"{where} '{self.name}' {must} <= {self.maximum}, got {x}", code="DV081")
                if not -MAX_INT <= x <= MAX_INT:  # what rule arithmetic can hold
                    raise DavinciError(f"{where} '{self.name}' is too large a number: {str(x)[:30]}...", code="DV081")
        if self.choices and v not in self.choices:
            opts = ", ".join(map(str, self.choices))
            near = did_you_mean(v, [str(c) for c in self.choices], aside=False) if isinstance(v, str) else ""
            raise DavinciError(f"{where} '{self.name}' must be one of {opts}, got {v!r}{near}", code="DV081")
        # The game keeps its own value: a list as a tuple, a mapping copied, so that the caller's
        # list or dict, changed later, changes no game (games are shared: load_game caches them).
        return tuple(v) if self.type == "list" else copy.deepcopy(v) if self.type == "map" else v


_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_TYPE_WORDS = {"int": "a whole number", "bool": "true or false", "str": "a text", "list": "a list of whole numbers",
               "map": "a mapping"}


def _texts(value: Any) -> list[str]:
    """Every text in a setting's value (a text, or the keys and values of a structured one)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, x in value.items() for t in (*_texts(k), *_texts(x))]
    if isinstance(value, list):
        return [t for x in value for t in _texts(x)]
    return []


def _parse_setting_text(text: str, typ: str, name: str) -> Any:
    t = text.strip()
    if typ == "int":
        # Plain digits only: Python's int() would also take "+3", "1_000" and other scripts' digits.
        if not _WHOLE_NUMBER.fullmatch(t):
            raise DavinciError(f"setting '{name}' must be an integer, got {text!r}", code="DV081")
        if len(t) > 40:  # from a save or a log too, not only --setting (Python reads at most 4,300 digits)
            raise DavinciError(f"setting '{name}' is too large a number: {t[:30]}...", code="DV081")
        return int(t)
    if typ == "bool":
        low = t.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise DavinciError(f"setting '{name}' must be true or false, got {text!r}", code="DV081")
    if typ == "list":
        inner = t[1:-1].strip() if t.startswith("[") and t.endswith("]") else t
        items = [x.strip() for x in inner.split(",")] if inner else []
        if not all(_WHOLE_NUMBER.fullmatch(x) for x in items):
            raise DavinciError(
                f"setting '{name}' must be a comma-separated list of integers (`3,2,1` or `[3,2,1]`), got {text!r}",
                code="DV081",
            )
        return [int(x) for x in items]
    if typ == "map":
        raise DavinciError(f"setting '{name}' is structured; set it in a variant file", code="DV081")
    return t


@dataclass(frozen=True)
class PieceDef:
    pid: int
    component: str
    attrs: Mapping[str, Any]


@dataclass(frozen=True)
class ComponentDef:
    name: str
    fields: Mapping[str, str]
    public: frozenset[str]
    secret: frozenset[str]
    label: str | None  # a field whose value names the piece in views (e.g. a card id)


@dataclass(frozen=True)
class ZoneDef:
    name: str
    kind: str  # bag | deck | hand | row | grid | board | pile
    per_seat: bool
    visibility: str  # hidden | owner | public
    doc: str = ""
    capacity: Any = None  # Compiled int expression or None
    overflow_to: str | None = None
    sort: Any = None  # Compiled sort-key expression (rows)
    free: Any = None  # Compiled bool: pieces placed freely by the owner (rows)
    width: int = 0  # grids
    height: int = 0
    adjacency: str = "king"  # grids: king (8 neighbours) | orthogonal
    contents: tuple[str, ...] = ()  # component names initially in this (shared) zone
    label: str = ""


@dataclass(frozen=True)
class SpaceDef:
    id: str
    type: str
    attrs: Mapping[str, Any]
    no_turn: bool
    pos: tuple[int, int] | None


@dataclass(frozen=True)
class BoardDef:
    spaces: Mapping[str, SpaceDef]
    neighbours: Mapping[str, tuple[tuple[str, str, int], ...]]  # space -> (next, track, direction)
    start: str | None
    space_types: frozenset[str]
    attr_defaults: Mapping[str, Any] = field(default_factory=dict)
    # Walks already searched (engine/functions.py): the board never changes, so neither do they.
    walks: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def attr_default(self, name: str) -> Any:
        return self.attr_defaults.get(name)


EMPTY_BOARD = BoardDef({}, {}, None, frozenset())


@dataclass(frozen=True)
class VarDef:
    name: str
    type: Type
    initial: Any


@dataclass(frozen=True)
class EndDef:
    when: Any
    winners: Any
    score: Any
    tie_break: Any
    max_turns: int
    max_turns_given: bool = True  # False: the default limit applies (lint warns if games only stop there)
    lower_is_better: bool = False  # the lowest score (then tie-break) ranks first: golf, No Thanks


# --- types for expressions ----------------------------------------------------------------


def literal_type(value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if value is None:
        return NONE
    if isinstance(value, list):
        return ListType(literal_type(value[0]) if value else ANY)  # [] : a list of anything, as the literal []
    return ANY


FIELD_TYPES: dict[str, Type] = {
    "int": INT,
    "bool": BOOL,
    "str": STR,
    "list[str]": ListType(STR),
    "list[int]": ListType(INT),
}


def default_for(t: Type) -> Any:
    if t == INT:
        return 0
    if t == BOOL:
        return False
    if t == STR:
        return ""
    if isinstance(t, ListType):
        return []
    return None


def product_size(spec: Mapping[str, Any]) -> int:
    """How many items `product_items(spec)` would make, computed without making them."""
    size = 1
    for v in spec.values():
        if isinstance(v, dict) and "from" in v and "to" in v:
            size *= max(0, int(v["to"]) - int(v["from"]) + 1)
        elif isinstance(v, list):
            size *= len(v)
    return size


def product_items(spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The cartesian product of attribute value lists ({number: [0, 1], colour: [b, w]})."""
    keys = list(spec)
    values = []
    for k in keys:
        v = spec[k]
        if isinstance(v, dict) and "from" in v and "to" in v:
            values.append(list(range(int(v["from"]), int(v["to"]) + 1)))
        elif isinstance(v, list):
            values.append(v)
        else:
            values.append([v])
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


def plain_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as the caller's own, as JSON would read them back: a list setting (a tuple in the
    game) as a new list, a mapping copied. Changing the result changes no game."""
    return {k: list(v) if isinstance(v, tuple) else copy.deepcopy(v) for k, v in settings.items()}


# Zones whose pieces are stacked: one put there goes on top (the first place, which draws take first)
# unless the step says `bottom: true` or an `index`.
ON_TOP = frozenset({"deck", "pile"})


def seat_range(lo: int, hi: int, noun: str | None = None) -> str:
    """How many seats a game takes, in words: `exactly 2`, `2-4`; with a noun, `exactly 1 player`,
    `2-4 players`."""
    words = f"exactly {lo}" if lo == hi else seat_span(lo, hi)
    return words if noun is None else f"{words} {noun}{'' if lo == hi == 1 else 's'}"


def seat_span(lo: int, hi: int) -> str:
    """How many seats a game takes, as a menu or a table column says it: `2`, `2-4`."""
    return str(lo) if lo == hi else f"{lo}-{hi}"
