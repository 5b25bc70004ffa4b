"""Runtime values that rule expressions see: seats, pieces, cells, spaces, zones, structs.

Inside the state, references are stored as small immutable refs (`PRef`, `SRef`...), which
serialise to JSON and copy for free. When an expression reads a name, refs are decoded into
records bound to the state, whose fields are read through `field()` — the only door from
the expression language into engine data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from davinci.engine.errors import EvalError
from davinci.engine.expr.budget import METER

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.state import State


# --- stored references -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PRef:
    """A piece, by id."""

    pid: int


@dataclass(frozen=True, slots=True)
class SRef:
    """A seat, by index."""

    seat: int


@dataclass(frozen=True, slots=True)
class CRef:
    """A grid cell."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class SpRef:
    """A board space, by id."""

    space: str


@dataclass(frozen=True, slots=True)
class ZRef:
    """A zone, by key (`name` or `name#seat`)."""

    key: str


@dataclass(frozen=True, slots=True)
class Struct:
    """A plain record made by a step (e.g. one response to a challenge)."""

    items: tuple[tuple[str, Any], ...]

    def get(self, name: str) -> Any:
        for k, v in self.items:
            if k == name:
                return v
        raise KeyError(name)


Ref = PRef | SRef | CRef | SpRef | ZRef | Struct

_PREFS: list[PRef] = []
_CREFS: dict[tuple[int, int], CRef] = {}
_SPREFS: dict[str, SpRef] = {}  # space id -> its shared ref


def cref(x: int, y: int) -> CRef:
    """The reference to cell x,y (shared instances for the cells near the origin)."""
    hit = _CREFS.get((x, y))
    if hit is None:
        hit = CRef(x, y)
        if -64 <= x <= 64 and -64 <= y <= 64:
            _CREFS[(x, y)] = hit
    return hit


def pref(pid: int) -> PRef:
    """The reference to piece `pid` (one shared instance per id: refs are immutable)."""
    if pid < 0:
        return PRef(pid)
    try:
        return _PREFS[pid]
    except IndexError:
        _PREFS.extend(PRef(i) for i in range(len(_PREFS), pid + 1))
        return _PREFS[pid]


def encode(value: Any) -> Any:
    """Turn a runtime value into its stored (ref) form."""
    if isinstance(value, Record):
        return value.ref()
    if isinstance(value, (list, tuple)):
        METER[0] += len(value)  # storing a list is work: a variable grown without bound is caught
        return tuple(encode(v) for v in value)
    return value


def decode(value: Any, state: State) -> Any:
    """Turn a stored value into a runtime value bound to `state`."""
    t = value.__class__
    if t is PRef:
        return (state._pv or state.piece_records())[value.pid]
    if t is int or t is str or t is bool or value is None:
        return value
    if t is SRef:
        return (state._sv or state.seat_records())[value.seat]
    if t is tuple:
        METER[0] += len(value)  # every read of a stored list rebuilds it: counted as work
        return [decode(v, state) for v in value]
    if t is CRef:
        return CellV(state, value.x, value.y)
    if t is SpRef:
        return SpaceV(state, value.space)
    if t is ZRef:
        return ZoneV(state, value.key)
    if t is Struct:
        return StructV(state, value)
    return value


def to_json(value: Any) -> Any:
    """Stored value → JSON-able data."""
    t = type(value)
    if t is PRef:
        return {"$p": value.pid}
    if t is SRef:
        return {"$s": value.seat}
    if t is CRef:
        return {"$c": [value.x, value.y]}
    if t is SpRef:
        return {"$sp": value.space}
    if t is ZRef:
        return {"$z": value.key}
    if t is Struct:
        return {"$struct": [[k, to_json(v)] for k, v in value.items]}
    if t is tuple or t is list:
        return {"$t": [to_json(v) for v in value]}
    return value


def from_json(data: Any) -> Any:
    """JSON data → stored value (inverse of `to_json`)."""
    if isinstance(data, dict):
        if "$p" in data:
            return PRef(int(data["$p"]))
        if "$s" in data:
            return SRef(int(data["$s"]))
        if "$c" in data:
            x, y = data["$c"]
            return CRef(int(x), int(y))
        if "$sp" in data:
            return SpRef(str(data["$sp"]))
        if "$z" in data:
            return ZRef(str(data["$z"]))
        if "$struct" in data:
            return Struct(tuple((str(k), from_json(v)) for k, v in data["$struct"]))
        if "$t" in data:
            return tuple(from_json(v) for v in data["$t"])
        raise ValueError(f"unknown stored value {data!r}")
    if isinstance(data, list):
        return tuple(from_json(v) for v in data)
    return data


# --- records ---------------------------------------------------------------------------------


class Record:
    """Base of every engine value an expression can read fields from."""

    __slots__ = ("state",)
    kind = "record"

    def __init__(self, state: State) -> None:
        self.state = state

    def field(self, name: str) -> Any:  # pragma: no cover - overridden
        raise EvalError(f"{self.kind} has no field '{name}'")

    def ref(self) -> Ref:  # pragma: no cover - overridden
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self.ref() == other.ref()

    def __hash__(self) -> int:
        return hash(self.ref())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return sort_key(self) < sort_key(other)

    def label(self) -> str:
        """The text form of this value inside an action."""
        return str(self.ref())


def display(v: Any, yes: str = "true", no: str = "false", limit: int | None = None) -> str:
    """A value as text for people: `none`, a seat by its name, a piece, cell or space by its label,
    a list as its items joined by commas (never Python's own forms such as `None` or `(1, 2)`).
    With `limit`, a list stops growing past about that many characters (ten thousand copies of a
    long text would otherwise be joined whole)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return yes if v else no
    if isinstance(v, SeatV):
        return str(v.field("name"))
    if isinstance(v, Record):
        return v.label()
    if isinstance(v, (list, tuple)):
        if limit is None:
            return ", ".join(display(x, yes, no) for x in v)
        parts: list[str] = []
        size = 0
        for x in v:
            part = display(x, yes, no, limit - size)
            parts.append(part)
            size += len(part) + 2
            if size > limit:
                break
        return ", ".join(parts)
    return str(v)


def sort_key(r: Record) -> tuple[int, Any]:
    ref = r.ref()
    if isinstance(ref, PRef):
        return (0, ref.pid)
    if isinstance(ref, SRef):
        return (1, ref.seat)
    if isinstance(ref, CRef):
        return (2, (ref.y, ref.x))
    if isinstance(ref, SpRef):
        return (3, ref.space)
    return (9, str(ref))


class SeatV(Record):
    """A seat (a player or a team)."""

    __slots__ = ("index",)
    kind = "seat"

    def __init__(self, state: State, index: int) -> None:
        self.state = state
        self.index = index

    def ref(self) -> SRef:
        return SRef(self.index)

    def label(self) -> str:
        return str(self.index + 1)

    def field(self, name: str) -> Any:
        st = self.state
        # The two built-in fields queries read most (`seats where active`, `index != ...`).
        if name == "active":
            return st.active[self.index]
        if name == "index":
            return self.index + 1
        builtin = _SEAT_FIELDS.get(name)
        if builtin is not None:
            return builtin(st, self.index)
        vars_ = st.seat_vars[self.index]
        if name in vars_:
            return decode(vars_[name], st)
        keys = st.game.seat_zone_keys.get(name)
        if keys is not None:
            return st.zone_value(keys[self.index] if self.index < len(keys) else f"{name}#{self.index}")
        raise EvalError(f"seat has no field '{name}'")


# The other built-in seat fields (`active` and `index` are answered first, in SeatV.field).
_SEAT_FIELDS: dict[str, Any] = {
    "name": lambda st, i: st.seat_names[i],
    "is_current": lambda st, i: st.current == i,
}


class PieceV(Record):
    """A component instance (tile, card, token, pawn...)."""

    __slots__ = ("pid", "attrs")
    kind = "piece"

    def __init__(self, state: State, pid: int) -> None:
        self.state = state
        self.pid = pid
        self.attrs = state.game.pieces[pid].attrs  # the component's fixed fields (never change)

    def ref(self) -> PRef:
        return pref(self.pid)

    def label(self) -> str:
        return self.state.piece_label(self.pid)

    def field(self, name: str) -> Any:
        attrs = self.attrs
        if name in attrs:
            return attrs[name]
        st = self.state
        if name == "revealed":
            return self.pid in st.revealed
        if name == "owner":
            z = st.game.zones.get(st.zone_of[self.pid].split("#")[0])  # none: it left the game
            owner = z is not None and z.per_seat and st.zone_owner(st.zone_of[self.pid])
            return None if owner is None or owner is False else SeatV(st, owner)
        if name == "zone":
            zname = st.zone_of[self.pid].split("#")[0]
            return zname if zname in st.game.zones else None  # none once it has left the game
        if name == "index":
            return st.piece_index(self.pid)
        if name == "kind":
            return st.game.pieces[self.pid].component
        if name == "cell":
            c = st.piece_cell(self.pid)
            return None if c is None else CellV(st, c[0], c[1])
        if name == "space":
            s = st.piece_space(self.pid)
            return None if s is None else SpaceV(st, s)
        if name == "is_top":
            return st.piece_is_top(self.pid)
        return st.game.piece_field_default(name)


class CellV(Record):
    """A cell of a grid zone (coordinates relative to the first card placed)."""

    __slots__ = ("x", "y")
    kind = "cell"

    def __init__(self, state: State, x: int, y: int) -> None:
        self.state = state
        self.x = x
        self.y = y

    def ref(self) -> CRef:
        return cref(self.x, self.y)

    def label(self) -> str:
        return f"{self.x},{self.y}"

    def field(self, name: str) -> Any:
        if name == "x":
            return self.x
        if name == "y":
            return self.y
        stack = self.state.grid_stack(self.x, self.y)
        if name == "height":
            return len(stack)
        if name == "top":
            return PieceV(self.state, stack[-1]) if stack else None
        if name == "pieces":
            return [PieceV(self.state, p) for p in stack]
        if name == "empty":
            return not stack
        raise EvalError(f"cell has no field '{name}'")


class SpaceV(Record):
    """A space of the board graph."""

    __slots__ = ("space",)
    kind = "space"

    def __init__(self, state: State, space: str) -> None:
        self.state = state
        self.space = space

    def ref(self) -> SpRef:
        hit = _SPREFS.get(self.space)
        if hit is None:
            hit = SpRef(self.space)
            if len(_SPREFS) < 100_000:
                _SPREFS[self.space] = hit
        return hit

    def label(self) -> str:
        return self.space

    def field(self, name: str) -> Any:
        sp = self.state.game.board.spaces[self.space]
        if name == "id":
            return self.space
        if name == "type":
            return sp.type
        if name == "pieces":
            return [PieceV(self.state, p) for p in self.state.pieces_on_space(self.space)]
        if name in sp.attrs:
            return sp.attrs[name]
        return self.state.game.board.attr_default(name)


class ZoneV(Record):
    """A whole zone (used for grids and boards, whose structure matters)."""

    __slots__ = ("key",)
    kind = "zone"

    def __init__(self, state: State, key: str) -> None:
        self.state = state
        self.key = key

    def ref(self) -> ZRef:
        return ZRef(self.key)

    def label(self) -> str:
        return self.key

    def field(self, name: str) -> Any:
        st = self.state
        if name == "pieces":
            return [PieceV(st, p) for p in st.zone_pids(self.key)]
        if name == "size":
            return len(st.zone_pids(self.key))
        if name == "cells":  # a game has one grid zone at most; other zones have no cells
            if self.key != st.game.grid_zone:
                return []
            return [CellV(st, x, y) for (x, y) in st.grid_cells_sorted()]
        if name == "name":
            return self.key.split("#")[0]
        raise EvalError(f"zone has no field '{name}'")


class StructV(Record):
    """A record produced by a step (e.g. a response: seat, given, time_ms, correct, rank)."""

    __slots__ = ("struct",)
    kind = "struct"

    def __init__(self, state: State, struct: Struct) -> None:
        self.state = state
        self.struct = struct

    def ref(self) -> Struct:
        return self.struct

    def field(self, name: str) -> Any:
        try:
            return decode(self.struct.get(name), self.state)
        except KeyError:
            raise EvalError(f"record has no field '{name}'") from None


# The names every game has (`current`, `seats`, `settings`...) -> their value in a state; filled in
# by the state module, read here so that a lookup costs one call.
BUILTIN_NAMES: dict[str, Any] = {}


class Env(Mapping[str, Any]):
    """The names an expression sees: locals first, then the state's globals."""

    __slots__ = ("state", "locals")

    def __init__(self, state: State, locals_: Mapping[str, Any]) -> None:
        self.state = state
        self.locals = locals_

    def __getitem__(self, name: str) -> Any:
        loc = self.locals
        if name in loc:
            return decode(loc[name], self.state)
        builtin = BUILTIN_NAMES.get(name)
        if builtin is not None:
            return builtin(self.state)
        return self.state.global_value(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.locals)

    def __len__(self) -> int:
        return len(self.locals)


def action_line(name: str, action: object) -> str:
    """The log's line for a seat's action, as the engine writes it: `Ana: guess row.2.1 7`."""
    return f"{name}: {action}"


def tenths_up(seconds: float) -> str:
    """Seconds to the tenth, rounded up, never down: 60.04 s is `60.1`, past a 60-second limit, as
    it is. Every time shown or sent as an answer's time is written so, so that what a player reads
    and what the rules judge agree."""
    tenths = math.ceil(round(seconds * 10, 6)) if math.isfinite(seconds) else seconds * 10
    return f"{tenths / 10:.1f}"


def lock_in_text(name: str, seconds: float) -> str:
    """How a seat locking in its answer reads, in the log and live during a race: `Ana locks in at 5.6s`."""
    return f"{name} locks in at {tenths_up(seconds)}s"


def turn_text(view: Mapping[str, Any], current_name: str) -> str:
    """A screen's header part for whose turn it is: "turn 7, Ana to play", or "game over after
    turn 12" once the view carries the game's result ("game over before the first move" when
    the game ended before anyone had to decide)."""
    result = view.get("result")
    if result is not None:
        if result.get("actions") == 0:  # the end held before anyone's first decision
            return "game over before the first move"
        return f"game over after turn {result.get('turns', view.get('turn', 0))}"
    acting = view.get("to_act") or []
    if not view.get("turn") and len(acting) == 1 and view.get("seats"):  # a decision of the setup: nobody's turn
        return f"setup, {view['seats'][int(acting[0]) - 1]['name']} to decide"
    if len(acting) == 1 and acting[0] != view.get("current") and view.get("seats"):
        # A decision asked of another seat during the turn (a `choose` with `seat:`, a bid, a return).
        other = view["seats"][int(acting[0]) - 1]["name"]
        return f"turn {view.get('turn', 0)} ({current_name}'s), {other} to decide"
    return f"turn {view.get('turn', 0)}, {current_name} to play"


def winners_text(names: list[str]) -> str:
    """How a game's end names its winners: "winner: Ann", "winners: Ann, Ben" or "no winner"."""
    if not names:
        return "no winner"
    return ("winner: " if len(names) == 1 else "winners: ") + ", ".join(names)


def sees(to: int | None, seat: int | None) -> bool:
    """Whether `seat` (None: the table's shared, public view) reads a log line addressed `to`:
    None is everyone, a seat number that seat alone, ~n (negative) everyone but seat n."""
    if to is None:
        return True
    if to >= 0:
        return to == seat
    return seat != ~to


def events_since_own_move(
    view: Mapping[str, Any], echoed: Sequence[str] = (), least: int = 6, most: int = 16
) -> list[str]:
    """The log lines a screen shows: everything since the viewer's own last action (what the
    other seats did meanwhile, a challenge the viewer set included), at least the last `least`
    lines and at most the last `most`. The engine's echo of an action ("Ana: guess row.2.1 7")
    is left out for the verbs in `echoed`, whose outcome the game's own line tells."""
    lines = [str(e) for e in view.get("events", ())]
    seat = view.get("seat")
    start = len(lines)
    if seat is not None:
        mine = f"{view['seats'][int(seat) - 1]['name']}: "
        start = next((i + 1 for i in range(len(lines) - 1, -1, -1) if lines[i].startswith(mine)), 0)
    echo = tuple(f"{s['name']}: {verb} " for s in view.get("seats", ()) for verb in echoed)
    shown = [(i, line) for i, line in enumerate(lines) if not (echo and line.startswith(echo))]
    since = sum(1 for i, _ in shown if i >= start)
    return [line for _, line in shown[-min(max(since, least), most):]] if shown else []


# `davinci play` lists a decision's actions, one a line, when there are at most LIST_ALWAYS, or
# at most LIST_AT_MOST that fit under the screen; else a line says how many there are.
LIST_ALWAYS = 6
LIST_AT_MOST = 12


def prompt_lines(view: Mapping[str, Any], width: int = 80) -> int:
    """The lines `davinci play` prints under a screen when it asks for a move, at most: a blank
    line, the prompt `NAME: PROMPT` (as many lines as it wraps to at `width`), the actions listed
    (up to LIST_ALWAYS; a screen that leaves room may get more) or a line or two saying how many,
    and the `> ` line."""
    n = len(view.get("legal") or ())
    seat = view.get("seat")
    name = view["seats"][int(seat) - 1]["name"] if seat and view.get("seats") else ""
    said = len(name) + 2 + len(str((view.get("pending") or {}).get("prompt") or "Your move"))
    return 2 + -(-said // max(width, 1)) + (n if 0 < n <= LIST_ALWAYS else 2)


def lines_on_screen(renderable: Any, width: int) -> int:
    """How many lines `renderable` takes on a terminal `width` columns wide."""
    from io import StringIO

    from rich.console import Console

    probe = Console(file=StringIO(), width=width, color_system=None)
    probe.print(renderable)
    return len(probe.file.getvalue().splitlines())  # type: ignore[attr-defined]


def lines_left(parts: Sequence[Any], view: Mapping[str, Any], height: int, width: int) -> int:
    """The lines a screen of `parts` leaves free on a terminal `height` lines tall, with the
    move prompt under it (negative when it does not fit)."""
    from rich.console import Group

    return height - lines_on_screen(Group(*parts), width) - prompt_lines(view, width)


def fit_events(build: Callable[[int], Any], room: int, view: Mapping[str, Any], height: int, width: int) -> Any:
    """`build(n)`, a screen showing `n` recent events, for the most `n` from `room` down to 1 that
    fits above the move prompt (`room` counts lines; a long event line takes two)."""
    n = max(1, room)
    screen = build(n)
    while n > 1 and lines_left([screen], view, height, width) < 0:
        n -= 1
        screen = build(n)
    return screen
