"""The basic step kinds: moving pieces between zones, variables, dice, logging, eliminations.

Each `@step` function compiles one YAML step into instructions. Its docstring is the
author's documentation (docs/authoring.md lists them all).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from davinci.engine.definition import ON_TOP
from davinci.engine.errors import (
    BIDI_CONTROLS,
    LINE_CONTROL_CHARS,
    DefinitionError,
    EvalError,
    ExprSyntaxError,
    ExprTypeError,
    did_you_mean,
    json_shown,
    printable,
)
from davinci.engine.expr.budget import step_charge
from davinci.engine.expr.types import ANY, BOOL, INT, STR, ListType, RecordType, Type
from davinci.engine.flow import FlowCompiler, Instr, Path, step, unreadable_name
from davinci.engine.values import CellV, Env, PieceV, SeatV, SpaceV, display, encode, pref

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.state import State


# ---------------------------------------------------------------- helpers


def zone_target(fc: FlowCompiler, spec: Mapping[str, Any], key: str, path: Path, scope: Mapping[str, Type],
                plain: bool = True) -> tuple[str, Any]:
    """Resolve `key` (a zone name) plus an optional `<key>_owner`/`owner` seat expression (`plain`:
    whether a bare `owner` is this zone's). An owner given for a shared zone is DV050: it would
    be ignored (a pile meant to be per seat, its `per_seat: true` forgotten, gathered every seat's pieces)."""
    zname = spec.get(key)
    zones = fc.b.zones  # type: ignore[attr-defined]
    if not isinstance(zname, str) or zname not in zones:
        hint = did_you_mean(zname, zones)
        raise DefinitionError(f"unknown zone '{zname}'{hint}", fc.b.loc.loc((*path, key)), code="DV020")
    if not zones[zname].per_seat:
        for okey in (f"{key}_owner", "owner") if plain else (f"{key}_owner",):
            if okey in spec:
                raise DefinitionError(
                    f"'{okey}' names the seat whose '{zname}' it is, but '{zname}' is one shared zone: leave "
                    f"'{okey}' out, or give the zone 'per_seat: true' (one '{zname}' for each seat)",
                    fc.b.loc.loc((*path, okey)), code="DV050")
    owner = None
    if zones[zname].per_seat:
        okey = f"{key}_owner" if f"{key}_owner" in spec else "owner"
        if okey in spec:
            owner = fc.expr((*path, okey), scope, fc.b.types.seat)  # type: ignore[attr-defined]
    return zname, owner


# Units of the flow's work (budget.step_charge) for each piece a step moves or shuffles: a piece
# costs a few microseconds (taking it out of a long zone most), as a few list elements visited
# by an expression do. A loop moving or shuffling thousands of pieces ends in DV042, not a hang.
PIECE_WORK = 20


def zone_key(state: State, zname: str, owner: Any) -> str:
    z = state.game.zones[zname]
    if not z.per_seat:
        return zname
    seat = owner(state.env()).index if owner is not None else state.current
    return f"{zname}#{seat}"


def as_pids(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, PieceV):
        return [value.pid]
    if isinstance(value, (list, tuple)):
        return [v.pid for v in value if isinstance(v, PieceV)]
    raise EvalError(f"expected a piece or a list of pieces, got {value!r}")


def ask_positions(state: State, key: str, pids: list[int]) -> None:
    """Free pieces that just entered a row wait for their owner to choose their place, one after
    another. While they wait they stand at the row's end, so that a place chosen counts among the
    pieces already placed, and the pieces placed after it do not move it."""
    if state.game.zones[key.split("#")[0]].kind != "row":
        return
    free = [p for p in pids if state.is_free_piece(key, p)]
    if free:
        row = state.zones[key]
        for p in free:
            row.remove(p)
            row.append(p)
        state.moved()
        owner = state.zone_owner(key)
        state.pending = {"type": "position", "seat": owner if owner is not None else state.current, "queue": free, "zone": key}


def bind(fc: FlowCompiler, spec: Mapping[str, Any], path: Path, scope: dict[str, Type], t: Type) -> str | None:
    if "as" not in spec:
        return None
    name = spec.get("as")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise DefinitionError(f"'as' must be a lower-case name, got {json_shown(name, 200)}", fc.b.loc.loc((*path, "as")))
    scope[fc.binds(name, (*path, "as"))] = t
    return name


# ---------------------------------------------------------------- shuffle


class Shuffle(Instr):
    __slots__ = ("zname", "owner")

    def __init__(self, path: Path, zname: str, owner: Any) -> None:
        super().__init__(path)
        self.zname = zname
        self.owner = owner

    def run(self, state: State) -> None:
        pieces = state.zones[zone_key(state, self.zname, self.owner)]
        step_charge(PIECE_WORK * len(pieces))  # (a loop shuffling a zone of 20,000 pieces is no hang)
        state.rng.shuffle(pieces)
        state.moved()  # the order of a grid zone is the order of its stacks


@step("shuffle", keys=("zone", "owner"))
def _shuffle(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Shuffle a zone with the game's seeded random source.

    ```yaml
    - shuffle: pile
    - shuffle: {zone: hand, owner: current}
    ```
    """
    spec = st["shuffle"]
    if isinstance(spec, str):
        spec = {"zone": spec}
        zname, owner = zone_target(fc, {"zone": st["shuffle"]}, "zone", (*path,), scope)
    else:
        zname, owner = zone_target(fc, spec, "zone", (*path, "shuffle"), scope)
    fc.emit(Shuffle(path, zname, owner))


# ---------------------------------------------------------------- draw

# Zone kinds whose pieces stand somewhere, and the `move` key that says where.
PLACED_BY = {"grid": "cell", "board": "space"}


class Draw(Instr):
    __slots__ = ("src", "src_owner", "dst", "dst_owner", "count", "face_up", "var", "where", "random", "count_is_one",
                 "bottom")
    src: str
    src_owner: Any
    dst: str
    dst_owner: Any
    count: Any
    face_up: Any
    var: str | None
    where: Any
    random: bool
    count_is_one: bool
    bottom: bool

    def __init__(self, path: Path, **kw: Any) -> None:
        super().__init__(path)
        for k, v in kw.items():
            setattr(self, k, v)

    def run(self, state: State) -> None:
        env = state.env()
        n = int(self.count(env)) if self.count is not None else 1
        skey = zone_key(state, self.src, self.src_owner)
        dkey = zone_key(state, self.dst, self.dst_owner)
        drawn: list[int] = []
        if self.where is not None:
            # One environment for the `where` tests, `piece` rebound for each candidate.
            names = {**state.locals, "piece": None}
            penv = Env(state, names)
        for _ in range(max(n, 0)):
            pool = state.zones[skey]
            if not pool:
                break
            if self.where is not None:
                step_charge(20 * len(pool))  # the tests below may evaluate `where` for every piece (20 units each)
            pid = -1
            if self.where is not None and self.random:
                # Rejection sampling is uniform over the matching pieces and usually needs one try.
                for _ in range(8):
                    cand = pool[state.rng.below(len(pool))]
                    names["piece"] = pref(cand)
                    if self.where(penv):
                        pid = cand
                        break
            if pid < 0 and self.where is not None and not self.random:
                # From the top: the first matching piece (no need to test the rest of the zone).
                for p in pool:
                    names["piece"] = pref(p)
                    if self.where(penv):
                        pid = p
                        break
                if pid < 0:
                    break
            if pid < 0:
                if self.where is not None:
                    kept = []
                    for p in pool:
                        names["piece"] = pref(p)
                        if self.where(penv):
                            kept.append(p)
                    pool = kept
                    if not pool:
                        break
                pid = pool[state.rng.below(len(pool))] if self.random else pool[0]
            state.place(pid, dkey, index=len(state.zones[dkey]) + 1 if self.bottom else None, face_up=self.face_up)
            drawn.append(pid)
            if n > 1:
                step_charge(PIECE_WORK)
        ask_positions(state, dkey, drawn)
        if self.var:
            if self.count_is_one:
                state.locals[self.var] = encode(PieceV(state, drawn[0])) if drawn else None
            else:
                state.locals[self.var] = tuple(encode(PieceV(state, p)) for p in drawn)


@step("draw", keys=("from", "to", "from_owner", "to_owner", "owner", "count", "where", "random", "face_up", "as",
                    "bottom"))
def _draw(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Move pieces from one zone to another: at random from a bag, from the top of anything else.

    Keys: `from`, `to`, `from_owner` / `to_owner` (or `owner`) for per-seat zones (default: the
    current seat), `count` (expression, default 1), `where` (a condition on `piece`, to draw only
    matching pieces), `face_up` (true/false), `as` (a name bound to the piece, or the list when
    `count` is given), `bottom: true` (into a deck or pile: under the pieces there, not on top).
    A free piece drawn into a row asks its owner where to put it.

    ```yaml
    - draw: {from: pile, to: row, count: settings.hand_size}
    - draw: {from: bag, to: tokens, owner: r.seat, count: 3}
    ```
    """
    spec = st["draw"]
    p = (*path, "draw")
    if not isinstance(spec, dict):
        raise DefinitionError("draw needs a mapping with 'from' and 'to'", fc.b.loc.loc(p))
    src, src_owner = zone_target(fc, spec, "from", p, scope, plain=False)
    if "from_owner" not in spec and fc.b.zones[src].per_seat:  # type: ignore[attr-defined]
        src_owner = None
    dst, dst_owner = zone_target(fc, spec, "to", p, scope)
    place = PLACED_BY.get(fc.b.zones[dst].kind)  # type: ignore[attr-defined]
    if place is not None:
        raise DefinitionError(f"draw cannot put pieces on '{dst}' (each needs a {place}): use a move step with "
                              f"{place}:", fc.b.loc.loc((*p, "to")), code="DV050")
    count = fc.expr((*p, "count"), scope, INT) if "count" in spec else None
    where = fc.expr((*p, "where"), {**scope, "piece": fc.b.types.piece}, BOOL) if "where" in spec else None  # type: ignore[attr-defined]
    kind = fc.b.zones[src].kind  # type: ignore[attr-defined]
    rnd = fc.flag(spec, "random", p, kind == "bag")
    piece_t = fc.b.types.piece  # type: ignore[attr-defined]
    var = bind(fc, spec, p, scope, piece_t if "count" not in spec else ListType(piece_t))
    d = Draw(
        path,
        src=src,
        src_owner=src_owner,
        dst=dst,
        dst_owner=dst_owner,
        count=count,
        face_up=fc.flag(spec, "face_up", p, None),
        var=var,
        where=where,
        random=bool(rnd),
        bottom=_bottom(fc, spec, p, dst),
    )
    d.count_is_one = count is None
    fc.emit(d)


# ---------------------------------------------------------------- move


class Move(Instr):
    __slots__ = ("piece", "dst", "owner", "cell", "space", "steps", "exact", "index", "face_up", "bottom")
    piece: Any
    dst: str
    owner: Any
    cell: Any
    space: Any
    steps: Any
    exact: Any
    index: Any
    face_up: Any
    bottom: bool

    def __init__(self, path: Path, **kw: Any) -> None:
        super().__init__(path)
        for k, v in kw.items():
            setattr(self, k, v)

    def run(self, state: State) -> None:
        env = state.env()
        pids = as_pids(self.piece(env))
        key = zone_key(state, self.dst, self.owner)
        zdef = state.game.zones[self.dst]
        if len(pids) > 1:
            step_charge(PIECE_WORK * len(pids))
        for pid in pids:
            where: Any = None
            if self.cell is not None:
                c = self.cell(env)
                if not isinstance(c, CellV):
                    raise EvalError("'cell' must give a cell")
                where = (c.x, c.y)
            elif self.space is not None:
                s = self.space(env)
                if not isinstance(s, SpaceV):
                    raise EvalError("'space' must give a board space")
                where = s.space
                before = state.pos.get(pid)
                trail = state.turn_trail.setdefault(pid, [])
                if isinstance(before, str) and before != s.space:
                    from davinci.engine.functions import walk_path

                    length = None
                    if self.steps is not None and (self.exact is None or self.exact(env)):
                        length = self.steps(env)
                        if isinstance(length, int) and length > 64:
                            raise EvalError(f"'steps' is {length}: moves longer than 64 spaces are not supported")
                    path = walk_path(state, before, s.space, state.trail_of(pid), length=length) or [s.space]
                    if not trail:
                        trail.append(before)
                    trail.extend(path)
                else:
                    trail.append(s.space)
            index = None
            if self.bottom:
                index = len(state.zones[key]) + 1
            elif self.index is not None:
                index = int(self.index(env)) - 1
                places = len(state.zones[key]) + (state.zone_of[pid] != key)
                if not 0 <= index < places:
                    raise EvalError(f"'index' is {index + 1}, outside the zone's places 1 to {places}")
            state.place(pid, key, index=index, where=where, face_up=self.face_up)
        if zdef.kind == "row" and self.index is None:
            ask_positions(state, key, pids)


@step("move", keys=("piece", "to", "to_owner", "owner", "cell", "space", "steps", "exact", "index", "bottom", "face_up"))
def _move(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Move a piece (or a list of pieces) into a zone.

    Keys: `piece` (expression), `to` (zone), `owner` (or `to_owner`: the seat whose zone `to` is,
    for per-seat zones), `cell` (grids), `space` (boards), `index` (1-based position in a row, or
    from the top of a deck or pile), `bottom: true` (a deck or pile: under the pieces there; a piece
    put on a deck or pile goes on top otherwise, where the next draw takes it), `face_up`. Rows with a sort key insert at the
    sorted place; free pieces ask their owner.

    On a board, the spaces a piece walks are added to the turn's trail, which `reachable` will
    not enter again this turn. The move names only where the piece ends, so the walk recorded is
    the shortest one there (the first in board order), or, with `steps` (the number of spaces
    moved, as given to `reachable`), the first walk of exactly that many spaces; `exact: false`
    (an expression, default true) means the move went up to `steps`, and the shortest walk is
    recorded.

    ```yaml
    - move: {piece: card, to: grid, cell: target}
    - move: {piece: drawn, to: row, face_up: true}
    - move: {piece: pawn, to: board, space: to, steps: roll, exact: "roll != 5"}
    ```
    """
    spec = st["move"]
    p = (*path, "move")
    dst, owner = zone_target(fc, spec, "to", p, scope)
    types = fc.b.types  # type: ignore[attr-defined]
    kind = fc.b.zones[dst].kind  # type: ignore[attr-defined]
    for needs, key in PLACED_BY.items():
        if (key in spec) != (kind == needs):
            text = (f"a move to '{dst}' (a {needs} zone) needs '{key}:'" if kind == needs
                    else f"'{key}:' places pieces on a {needs} zone; '{dst}' is a {kind} zone")
            raise DefinitionError(text, fc.b.loc.loc((*p, key) if key in spec else p), code="DV050")
    fc.emit(
        Move(
            path,
            piece=fc.expr((*p, "piece"), scope),
            dst=dst,
            owner=owner,
            cell=fc.expr((*p, "cell"), scope, types.cell) if "cell" in spec else None,
            space=fc.expr((*p, "space"), scope, types.space) if "space" in spec else None,
            steps=fc.expr((*p, "steps"), scope, INT) if "steps" in spec else None,
            exact=fc.expr((*p, "exact"), scope, BOOL) if "exact" in spec else None,
            index=fc.expr((*p, "index"), scope, INT) if "index" in spec else None,
            face_up=fc.flag(spec, "face_up", p, None),
            bottom=_bottom(fc, spec, p, dst),
        )
    )


def _bottom(fc: FlowCompiler, spec: Mapping[str, Any], p: Path, dst: str) -> bool:
    """A step's `bottom` flag, which only a deck or a pile (where pieces go on top) can use."""
    bottom = fc.flag(spec, "bottom", p, False)
    if bottom and "index" in spec:
        raise DefinitionError("'bottom: true' and 'index' both say where the piece goes: give one of them",
                              fc.b.loc.loc((*p, "bottom")), code="DV050")
    kind = fc.b.zones[dst].kind  # type: ignore[attr-defined]
    if bottom and kind not in ON_TOP:
        raise DefinitionError(f"'bottom: true' puts a piece under the others in a deck or pile; '{dst}' is a {kind} "
                              "zone" + (f" (a piece put in a {kind} goes at its end, or at `index`)" if kind in ("row", "hand") else ""),
                              fc.b.loc.loc((*p, "bottom")), code="DV050")
    return bool(bottom)


# ---------------------------------------------------------------- swap


class Swap(Instr):
    __slots__ = ("a", "b")

    def __init__(self, path: Path, a: Any, b: Any) -> None:
        super().__init__(path)
        self.a = a
        self.b = b

    def run(self, state: State) -> None:
        env = state.env()
        pa = as_pids(self.a(env))
        pb = as_pids(self.b(env))
        if len(pa) != 1 or len(pb) != 1:
            raise EvalError("swap needs two single pieces")
        a, b = pa[0], pb[0]
        ka, kb = state.zone_of[a], state.zone_of[b]
        ia, ib = state.zones[ka].index(a), state.zones[kb].index(b)
        wa, wb = state.pos.get(a), state.pos.get(b)
        state.zones[ka][ia] = b
        state.zones[kb][ib] = a
        state.zone_of[a], state.zone_of[b] = kb, ka
        if ka != kb:  # each takes the other's zone's visibility, as a move would give it
            state.entered(a)
            state.entered(b)
        state.moved()
        state.pos.pop(a, None)
        state.pos.pop(b, None)
        if wb is not None:
            state.pos[a] = wb
        if wa is not None:
            state.pos[b] = wa
        state.dirty.update((ka, kb))


@step("swap", keys=("a", "b"))
def _swap(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Exchange the places of two pieces (zone, position, cell). Each piece then shows as its new
    zone shows it: trading two owners' hidden hands, each owner sees the card it got, and nobody
    else sees either.

    ```yaml
    - swap: {a: card, b: target.top}
    ```
    """
    p = (*path, "swap")
    fc.emit(Swap(path, fc.expr((*p, "a"), scope), fc.expr((*p, "b"), scope)))


# ---------------------------------------------------------------- reveal / hide


class Reveal(Instr):
    __slots__ = ("what", "up")

    def __init__(self, path: Path, what: Any, up: bool) -> None:
        super().__init__(path)
        self.what = what
        self.up = up

    def run(self, state: State) -> None:
        pids = as_pids(self.what(state.env()))
        if len(pids) > 1:
            step_charge(len(pids))
        for pid in pids:
            state.turn_face(pid, self.up)


@step("reveal", keys=())
def _reveal(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Turn a piece (or list of pieces) face up: every seat sees all its fields.

    ```yaml
    - reveal: target
    ```
    """
    fc.emit(Reveal(path, fc.expr((*path, "reveal"), scope), True))


@step("hide", keys=())
def _hide(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Turn a piece (or list of pieces) face down: every seat, its owner too, sees only the
    component's `public` fields, whatever the zone's visibility, until a `reveal`, a move with
    `face_up: true`, or a move to another zone (where it takes that zone's visibility).

    ```yaml
    - hide: card
    ```
    """
    fc.emit(Reveal(path, fc.expr((*path, "hide"), scope), False))


# ---------------------------------------------------------------- variables


# The most a variable's value may hold, counting each list element and each character of text: a
# game may grow a list each turn, and its state must stay small enough to keep in memory and save.
MAX_STORED = 200_000


_SIZED = frozenset({str, tuple})  # the values stored_size counts


def stored_size(value: Any) -> int:
    """The size of a stored value: characters of its texts plus elements of its lists (stops
    counting past MAX_STORED)."""
    if value.__class__ is str:
        return len(value)
    if value.__class__ is not tuple:
        return 1
    total = len(value)
    todo = [value]
    while todo and total <= MAX_STORED:
        for v in todo.pop():
            if v.__class__ is str:
                total += len(v)
            elif v.__class__ is tuple:
                total += len(v)
                todo.append(v)
    return total


class SetVars(Instr):
    __slots__ = ("items", "seat")

    def __init__(self, path: Path, items: list[tuple[str, str, Any]], seat: Any) -> None:
        super().__init__(path)
        self.items = items
        self.seat = seat

    def run(self, state: State) -> None:
        env = state.env()
        values = [(where, name, encode(fn(env))) for where, name, fn in self.items]
        for where, name, value in values:
            if value.__class__ in _SIZED and stored_size(value) > MAX_STORED:
                fn = next(f for _, n, f in self.items if n == name)
                raise fn.error(f"'{name}' would hold more than {MAX_STORED:,} characters and list elements: a "
                               "variable's value is limited, so that a game's state stays small enough to keep "
                               "and to save")
            if where == "global":
                state.vars[name] = value
            elif where == "seat":
                s = self.seat(env) if self.seat is not None else SeatV(state, state.current)
                state.seat_vars[s.index][name] = value
            else:
                state.locals[name] = value


@step("set")
def _set(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Set variables: game variables (`vars`), turn variables (`turn_vars`) or new local names.
    With `seat: EXPR`, sets that seat's variables (`seat_vars`). All values are computed first.

    ```yaml
    - set: {correct_guesses: correct_guesses + 1}
    - set: {seat: current, goals_reached: current.goals_reached + 1}
    ```
    """
    spec = st["set"]
    p = (*path, "set")
    if not isinstance(spec, dict) or not spec:
        raise DefinitionError("set needs a mapping of names to expressions", fc.b.loc.loc(p))
    b = fc.b
    seat_expr = fc.expr((*p, "seat"), scope, b.types.seat) if "seat" in spec else None  # type: ignore[attr-defined]
    items: list[tuple[str, str, Any]] = []
    for name in spec:
        if name == "seat":
            continue
        fn = fc.expr((*p, name), scope)
        if seat_expr is not None or (name in b.svars and name not in scope):  # type: ignore[attr-defined]
            if name not in b.svars:  # type: ignore[attr-defined]
                hint = did_you_mean(name, b.svars, aside=False)  # type: ignore[attr-defined]
                raise DefinitionError(f"'{name}' is not a seat variable{hint} (declare it under seat_vars)",
                                      b.loc.loc((*p, name), key=True))
            where = "seat"
            expected = b.types.var_type(b.svars[name])  # type: ignore[attr-defined]
        elif name in b.gvars:  # type: ignore[attr-defined]
            where = "global"
            expected = b.types.var_type(b.gvars[name])  # type: ignore[attr-defined]
        else:
            if name in b.scope and name not in b.tvars:  # type: ignore[attr-defined]
                raise DefinitionError(f"'{name}' cannot be assigned", b.loc.loc((*p, name), key=True))
            where = "local"
            unreadable = unreadable_name(str(name)) if name not in scope and name not in b.tvars else None  # type: ignore[attr-defined]
            if unreadable is not None:
                raise DefinitionError(unreadable, b.loc.loc((*p, name), key=True))
            if name not in b.tvars:  # type: ignore[attr-defined]
                fc.prog.binds.add(name)
                fc.prog.sets.setdefault(name, b.loc.loc((*p, name), key=True))
            expected = scope.get(name, fn.type)
            if name not in scope:
                b.locals_set.append((name, b.loc.loc((*p, name), key=True)))
                b.bound_at.setdefault(name, b.loc.loc((*p, name), key=True))
            if getattr(b, "sealing", 0) and name not in b.tvars:  # type: ignore[attr-defined]
                b.private_locals.add(name)  # type: ignore[attr-defined]  # set inside a private option: in no view
        if not _assignable(fn.type, expected):
            here = b.loc.loc((*p, name))
            section = {"seat": "seat_vars", "global": "vars"}.get(where, "turn_vars")
            declared = ""
            if section != "turn_vars" or name in b.tvars:  # type: ignore[attr-defined]
                at = b.loc.loc((section, name))
                initial = b.data.get(section, {}).get(name)
                declared = (f" (declared under {section} at {f'line {at.line}' if at.path == here.path else at} "
                            f"with the start value {initial!r}: the start value sets the type)")
            raise DefinitionError(
                f"'{name}' holds {expected.name} values{declared}, this expression gives {fn.type.name}",
                here,
                code="DV041",
            )
        if where == "local":
            scope[name] = expected
            if getattr(fn, "broken", False) and name not in b.tvars:  # type: ignore[attr-defined]
                b.unknown_typed.add(name)  # set by a failed expression: its type is not known
        items.append((where, name, fn))
    fc.emit(SetVars(path, items, seat_expr))


def _assignable(actual: Type, expected: Type) -> bool:
    from davinci.engine.expr.types import NONE, assignable

    return actual is NONE or expected is ANY or assignable(actual, expected)


# ---------------------------------------------------------------- roll


MAX_DICE = 100


class Roll(Instr):
    __slots__ = ("sides", "var", "dice", "to")

    def __init__(self, path: Path, sides: Any, var: str, dice: Any = None, to: Any = None) -> None:
        super().__init__(path)
        self.sides = sides
        self.var = var
        self.dice = dice
        self.to = to  # a seat expression: the roll is seen by that seat alone (hidden dice)

    def run(self, state: State) -> None:
        n = int(self.sides(state.env())) if self.sides is not None else 6
        if n < 1:
            raise EvalError(f"a die needs at least one side, got {n}")
        if self.dice is None:
            v = state.rng.randint(1, n)
            state.locals[self.var] = v
            self._tell(state, str(v), "a die")
            return
        k = int(self.dice(state.env()))
        if not 1 <= k <= MAX_DICE:
            raise EvalError(f"'dice' must be from 1 to {MAX_DICE}, got {k}")
        rolled = [state.rng.randint(1, n) for _ in range(k)]
        state.locals[self.var] = rolled
        self._tell(state, ", ".join(map(str, rolled)), "a die" if k == 1 else f"{k} dice")

    def _tell(self, state: State, shown: str, hidden: str) -> None:
        if self.to is None:
            state.log(f"{state.seat_names[state.current]} rolls {shown}")
            return
        seat = self.to(state.env()).index
        state.log(f"{state.seat_names[seat]} rolls {shown}", to=seat)
        state.log(f"{state.seat_names[seat]} rolls {hidden}", to=~seat)


@step("roll", keys=("sides", "dice", "as", "to"))
def _roll(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Roll a die (seeded) and bind the result; with `dice`, roll that many and bind the list.
    The log says who rolled what; with `to: SEAT` only that seat reads the numbers (the others
    read "Ana rolls 5 dice"): hidden dice, kept in a `private_seat_vars` variable.

    ```yaml
    - roll: {sides: 6, as: roll}
    - roll: {sides: 6, dice: 2, as: pair}
    - roll: {dice: s.cup_size, as: cup, to: s}
    ```
    """
    spec = st["roll"] if isinstance(st["roll"], dict) else {}
    p = (*path, "roll")
    sides = fc.expr((*p, "sides"), scope, INT) if "sides" in spec else None
    dice = fc.expr((*p, "dice"), scope, INT) if "dice" in spec else None
    var = bind(fc, {"as": spec.get("as", "roll")}, p, scope, INT if dice is None else ListType(INT))
    assert var is not None
    to = fc.expr((*p, "to"), scope, fc.b.types.seat) if "to" in spec else None  # type: ignore[attr-defined]
    if to is not None:  # another seat's secret: no view shows the bound name (the mover may be someone else)
        fc.b.private_locals.add(var)  # type: ignore[attr-defined]
    fc.emit(Roll(path, sides, var, dice, to))


# ---------------------------------------------------------------- log


class Log(Instr):
    __slots__ = ("parts", "to")

    def __init__(self, path: Path, parts: str | list[Any], to: Any) -> None:
        super().__init__(path)
        self.parts = parts
        self.to = to

    def run(self, state: State) -> None:
        to = self.to(state.env()).index if self.to is not None else None
        state.log(fill(self.parts, state), to)


def template(fc: FlowCompiler, text: Any, path: Path, scope: Mapping[str, Type]) -> str | list[Any]:
    """A text with `{expression}` parts (a log line, a prompt), compiled: plain strings and
    compiled expressions, in order; a text without any stays a plain string."""
    text = str(text).rstrip("\n")  # (a block scalar's final line feed)
    bad = LINE_CONTROL_CHARS.search(text) or BIDI_CONTROLS.search(text)
    if bad is not None:  # shown on one line of the screen: a line feed there printed a line of its own
        fc.b.errors.append(ExprSyntaxError(
            f"a log line or prompt is one line of text: it holds {printable(bad.group(), one_line=True)} (write it "
            "without line feeds, tabs or control characters)", fc.b.loc.scalar(path)(bad.start())))
    parts: list[Any] = []
    plain: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c not in "{}":
            plain.append(c)
            i += 1
            continue
        if text[i + 1 : i + 2] == c:  # `{{` and `}}` stand for one brace
            plain.append(c)
            i += 2
            continue
        end = text.find("}", i + 1) if c == "{" else -1
        if c == "}" or end < 0 or "{" in text[i + 1 : end] or not text[i + 1 : end].strip():
            what = "an empty '{}'" if c == "{" and end > 0 and not text[i + 1 : end].strip() else f"an unmatched '{c}'"
            fc.b.errors.append(ExprSyntaxError(
                f"{what} in the text: an {{expression}} goes between braces; write '{{{{' or '}}}}' for a brace itself",
                fc.b.loc.scalar(path)(i),
            ))
            plain.append(c)
            i += 1
            continue
        parts.append("".join(plain))
        plain = []
        parts.append(fc.b.compile(text[i + 1 : end], scope, None, _shifted(fc.b.loc.scalar(path), i + 1)))
        i = end + 1
    parts.append("".join(plain))
    return parts[0] if len(parts) == 1 else parts


# The longest log line or prompt kept: text for people to read, and a bound on what the log
# (40 lines per state, copied into saves) may hold.
MAX_TEXT = 4000


def fill(parts: str | Sequence[Any], state: State) -> str:
    """The text of a compiled `template` now (plain text costs nothing). Past MAX_TEXT characters
    the rest is cut (and what was built counts as work of the flow), so a text the rules doubled
    in a loop cannot fill the memory."""
    if isinstance(parts, str):
        return parts
    env = state.env()
    out: list[str] = []
    size = 0
    part: Any
    for part in parts:
        if part.__class__ is str:
            text = part
        else:
            v = part(env)
            text = v if v.__class__ is str else display(v, "yes", "no", MAX_TEXT + 1)
        out.append(text)
        size += len(text)
        if size > MAX_TEXT:
            step_charge(size)
            return "".join(out)[:MAX_TEXT] + " [...]"
    return "".join(out)


def render_value(v: Any) -> str:
    """A value as a log line shows it (flags read yes / no)."""
    return display(v, "yes", "no")


@step("log", keys=("text", "to"))
def _log(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Add a line to the game log; `{expression}` parts are filled in. `to: SEAT` makes it private.
    Write `{{` and `}}` for a brace itself; an unmatched brace is DV040. Prompts read the same way.

    ```yaml
    - log: "{current.name} claims the {goal.colour} goal"
    - log: {text: "You drew {drawn.number}", to: current}
    ```
    """
    spec = st["log"]
    p = (*path, "log")
    if isinstance(spec, dict):
        text = spec.get("text", "")
        tp: Path = (*p, "text")
        to = fc.expr((*p, "to"), scope, fc.b.types.seat) if "to" in spec else None  # type: ignore[attr-defined]
    else:
        text, tp, to = spec, p, None
    fc.emit(Log(path, template(fc, text, tp, scope), to))


def _shifted(locate: Any, off: int) -> Any:
    def inner(o: int) -> Any:
        return locate(off + o)

    return inner


# ---------------------------------------------------------------- seats and the game


class Eliminate(Instr):
    __slots__ = ("who",)

    def __init__(self, path: Path, who: Any) -> None:
        super().__init__(path)
        self.who = who

    def run(self, state: State) -> None:
        s = self.who(state.env())
        seats = s if isinstance(s, (list, tuple)) else [s]  # a query's list is a tuple
        for seat in seats:
            if seat is None:  # `none` (first() of nobody, say) eliminates nobody
                continue
            if state.active[seat.index]:
                state.active[seat.index] = False
                state.log(f"{state.seat_names[seat.index]} is out")


@step("eliminate", keys=())
def _eliminate(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Mark a seat (or list of seats) as out: its turns are skipped from now on. The step logs
    "NAME is out" itself. Its pieces stay where they are (its hand, still hidden from the others):
    move them (to a discard pile, face up) in the steps around it if the rules say so.

    ```yaml
    - if: "count(target.owner.row where not revealed) == 0"
      then: [{eliminate: target.owner}]
    ```
    """
    who = fc.expr((*path, "eliminate"), scope)
    seat_t = fc.b.types.seat  # type: ignore[attr-defined]
    if not (who.type is ANY or _assignable(who.type, seat_t) or _assignable(who.type, ListType(seat_t))):
        raise ExprTypeError(f"'eliminate' takes a seat or a list of seats, got {who.type.name}",
                            fc.b.loc.scalar((*path, "eliminate"))(0))
    fc.emit(Eliminate(path, who))


class EndTurn(Instr):
    def run(self, state: State) -> None:
        if state.phase in ("setup", "turn_end"):  # (from a procedure they call)
            said = ("setup is no turn, and the rest of it would be skipped" if state.phase == "setup"
                    else "the turn has ended already, and turn_end would run again for ever")
            raise EvalError(f"'end_turn' during {state.phase}: {said}", code="DV042")
        state.end_turn()


class EndGame(Instr):
    def run(self, state: State) -> None:
        state.end_game()


@step("end_turn", keys=())
def _end_turn(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """End the current turn now (the `turn_end` flow still runs).

    ```yaml
    - end_turn: true
    ```
    """
    if fc.prog.name == "setup":
        raise DefinitionError("'end_turn' in setup: setup is no turn, and the steps after it would never run",
                              fc.b.loc.loc((*path, "end_turn"), key=True))
    if fc.prog.name == "turn_end":
        raise DefinitionError("'end_turn' in turn_end: the turn has ended already (turn_end would run again for ever)",
                              fc.b.loc.loc((*path, "end_turn"), key=True))
    fc.emit(EndTurn(path))


@step("end_game", keys=())
def _end_game(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """End the game now; the result comes from `end.winners`.

    ```yaml
    - end_game: true
    ```
    """
    fc.emit(EndGame(path))


_unused: tuple[Any, ...] = (STR, RecordType, BOOL)
