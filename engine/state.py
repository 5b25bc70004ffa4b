"""Game state and the interpreter loop.

A `State` is plain data (zones as lists of piece ids, variables, the flow stack, the pending
decision, one integer of random state) plus a reference to its frozen `GameDef`. The public
`apply` checks legality, records the action, then runs the flow until the next decision.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from davinci.engine.actions import Action, parse_action
from davinci.engine.definition import ON_TOP
from davinci.engine.errors import DavinciError, EvalError, IllegalAction, NoSuchSeat, did_you_mean, quoted
from davinci.engine.expr.budget import METER as _WORK
from davinci.engine.expr.budget import ceiling_error, decision_end, decision_start, step_charge
from davinci.engine.legal import LegalActions
from davinci.engine.rng import Rng
from davinci.engine.values import (
    BUILTIN_NAMES,
    CellV,
    Env,
    PieceV,
    PRef,
    SeatV,
    SpaceV,
    ZoneV,
    action_line,
    decode,
    encode,
)

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.build import GameDef

STEP_BUDGET = 200_000  # instructions per action: a runaway loop in content is an error, not a hang
# Expression work between two decisions (list elements visited) is capped in expr/budget.py
# (DECISION_WORK): each evaluation on its own, and the run of the flow as a whole, inside a step too.
MAX_EVENTS = 40
# Decisions one turn may take: a turn that never ends (a loop only a choice nobody makes can leave)
# is an error at this many, not a game that plays forever. Real turns take a few dozen at most.
MAX_TURN_ACTIONS = 10_000
_MID_STEP = ("overflow", "position")  # decisions a step asks before it has finished
SUPPLY = "$supply"  # where pieces out of play wait: unclaimed at the start, or returned by an overflow without overflow_to


def _enclosing_while(code: Sequence[Any], pc: int) -> Any:
    """The condition of the innermost `while` loop whose body holds instruction `pc`, or None."""
    from davinci.engine.flow import Jump, JumpUnless

    best: Any = None
    for i, instr in enumerate(code):
        if instr.__class__ is Jump and instr.target <= pc <= i and isinstance(code[instr.target], JumpUnless):
            if best is None or instr.target > best[0]:
                best = (instr.target, code[instr.target])
    return None if best is None else best[1]


class State:
    """One position of one game. Mutable; use `clone()` before exploring."""

    __slots__ = (
        "game",
        "seat_names",
        "active",
        "current",
        "turn",
        "seat_vars",
        "vars",
        "locals",
        "stack",
        "pending",
        "zones",
        "zone_of",
        "pos",
        "revealed",
        "face_down",
        "rng",
        "_history",
        "events",
        "phase",
        "terminal",
        "first_seat",
        "reason",
        "dirty",
        "_legal",
        "turn_trail",
        "turn_start",
        "steps",
        "logged",
        "_stacks",
        "_pv",
        "_sv",
        "_env",
        "derived",
    )

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.seat_names: list[str] = []
        self.active: list[bool] = []
        self.current = 0
        self.turn = 0
        self.seat_vars: list[dict[str, Any]] = []
        self.vars: dict[str, Any] = {}
        self.locals: dict[str, Any] = {}
        self.stack: list[list[Any]] = []
        self.pending: dict[str, Any] | None = None
        self.zones: dict[str, list[int]] = {}
        self.zone_of: list[str] = []
        self.pos: dict[int, Any] = {}  # pid -> (x, y) on a grid or a space id on a board
        self.revealed: set[int] = set()  # face up: every seat sees every field
        # Turned face down (`hide`, `face_up: false`): every seat sees only the public fields,
        # whatever the zone's visibility, until revealed or moved to another zone without face_up.
        self.face_down: set[int] = set()
        self.rng = Rng(0)
        self._history: list[tuple[int, str]] = []
        self.events: list[tuple[int | None, str]] = []
        self.phase = "setup"
        self.terminal = False
        self.reason = ""
        self.first_seat: int | None = None  # the seat that took the first turn (not kept in saves)
        self.dirty: set[str] = set()
        self._legal: dict[int, LegalActions] | None = None
        # The spaces each piece (by id) left, passed or reached by `move ... space:` this turn;
        # -1 holds the trail of saves from before trails were per piece (it applies to every piece).
        self.turn_trail: dict[int, list[str]] = {}
        self.turn_start = 0  # len(history) when the current turn began
        self._stacks: tuple[str, dict[tuple[int, int], list[int]]] | None = None
        self.steps = 0  # flow instructions run so far (not saved): lets callers bound total work
        self.logged = 0  # log lines added so far (not saved): what is new in `events` since a moment
        # The record of each piece and seat, made once: records are immutable views of the state.
        self._pv: list[PieceV] | None = None
        self._sv: list[SeatV] | None = None
        self._env: Env | None = None
        # Results computed from piece positions (free cells of a grid...), dropped whenever a
        # piece moves; never saved.
        self.derived: dict[Any, Any] = {}

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, game: GameDef, names: list[str], seed: int) -> State:
        st = cls._table(game, names, seed)
        st._check_requires()
        st._advance()
        return st

    @classmethod
    def check_requires(cls, game: GameDef, names: list[str]) -> None:
        """DV081 when a `requires` check of the game fails for these seats (and settings): what
        starting the game would say, without running its setup."""
        cls._table(game, names, 0)._check_requires()

    @classmethod
    def _table(cls, game: GameDef, names: list[str], seed: int) -> State:
        """The table before setup: seats, variables at their start values, pieces in their zones."""
        st = cls(game)
        n = len(names)
        st.seat_names = list(names)
        st.active = [True] * n
        st.seat_vars = [{k: encode(v.initial) for k, v in game.seat_vars.items()} for _ in range(n)]
        st.vars = {k: encode(v.initial) for k, v in game.global_vars.items()}
        st.rng = Rng(seed)
        zones, zone_of = _initial_layout(game, n)
        st.zones = {k: v[:] for k, v in zones.items()}
        st.zone_of = zone_of[:]
        st.dirty = {k for k, v in zones.items() if v and k != SUPPLY}
        st.stack = [["setup", 0]]
        return st

    def _check_requires(self) -> None:
        # The checks see the table before setup runs: the same for the same seats, so a passed
        # check need not run again for the next game with those seats.
        game, seats = self.game, tuple(self.seat_names)
        if game.requires and seats not in game.requires_passed:
            for check, message, where in game.requires:
                if not check(self.env()):
                    raise DavinciError(f"the game cannot start: {message} (with {len(seats)} players)", where,
                                       code="DV081")
            if len(game.requires_passed) < 256:
                game.requires_passed.add(seats)

    def clone(self) -> State:
        """An independent copy (the game definition is shared: it is immutable)."""
        c = State.__new__(State)
        c.game = self.game
        c.seat_names = self.seat_names
        c.active = self.active[:]
        c.current = self.current
        c.turn = self.turn
        c.seat_vars = [dict(v) for v in self.seat_vars]
        c.vars = dict(self.vars)
        c.locals = dict(self.locals)
        c.stack = [f[:] for f in self.stack]
        c.pending = _copy_pending(self.pending)
        c.zones = {k: v[:] for k, v in self.zones.items()}
        c.zone_of = self.zone_of[:]
        c.pos = dict(self.pos)
        c.revealed = set(self.revealed)
        c.face_down = set(self.face_down)
        c.rng = Rng(self.rng.state)
        c._history = self._history[:]
        c.events = self.events[:]
        c.phase = self.phase
        c.terminal = self.terminal
        c.reason = self.reason
        c.first_seat = self.first_seat
        c.dirty = set(self.dirty)
        c._legal = None
        c.turn_trail = {p: t[:] for p, t in self.turn_trail.items()}
        c.turn_start = self.turn_start
        c._stacks = None
        c._pv = None
        c._sv = None
        c._env = None
        c.derived = {}
        c.steps = self.steps
        c.logged = self.logged
        return c

    # ------------------------------------------------------------------ names for expressions
    def env(self, extra: dict[str, Any] | None = None) -> Env:
        """The names expressions see now (plus `extra`, which shadows them)."""
        if extra:
            loc = dict(self.locals)
            loc.update(extra)
            return Env(self, loc)
        e = self._env
        if e is None or e.locals is not self.locals:
            e = self._env = Env(self, self.locals)
        return e

    def global_value(self, name: str) -> Any:
        fn = _GLOBALS.get(name)
        if fn is not None:
            return fn(self)
        if name in self.vars:
            return decode(self.vars[name], self)
        g = self.game
        z = g.zones.get(name)
        if z is not None and not z.per_seat:
            return self.zone_value(name)
        if name in g.turn_vars:
            return decode(g.turn_vars[name].initial, self)
        d = g.defined.get(name)
        if d is not None:  # a name under `define`, evaluated with the turn's names
            return d.inner(Env(self, self.locals))
        raise EvalError(f"unknown name '{name}'")

    def zone_value(self, key: str) -> Any:
        if self.game.zone_is_whole(key):
            return ZoneV(self, key)
        # Kept until a piece moves (`moved` forgets `derived`): the decisions between two moves
        # read the same rows and piles again and again. A tuple, so no reader can change it.
        derived = self.derived
        hit = derived.get(key)
        if hit is None:
            pv = self._pv or self.piece_records()
            hit = derived[key] = tuple([pv[p] for p in self.zones[key]])
        return hit

    def piece_records(self) -> list[PieceV]:
        """The record of every piece, by id (made on first use)."""
        if self._pv is None:
            self._pv = [PieceV(self, p) for p in range(len(self.game.pieces))]
        return self._pv

    def seat_records(self) -> list[SeatV]:
        """The record of every seat, by index (made on first use)."""
        if self._sv is None:
            self._sv = [SeatV(self, i) for i in range(len(self.seat_names))]
        return self._sv

    # ------------------------------------------------------------------ zone queries
    def zone_pids(self, key: str) -> list[int]:
        return self.zones[key]

    def zone_owner(self, key: str) -> int | None:
        if "#" in key:
            return int(key.split("#")[1])
        return None

    def piece_index(self, pid: int) -> int:
        return self.zones[self.zone_of[pid]].index(pid) + 1

    def piece_cell(self, pid: int) -> tuple[int, int] | None:
        p = self.pos.get(pid)
        return p if isinstance(p, tuple) else None

    def piece_space(self, pid: int) -> str | None:
        p = self.pos.get(pid)
        return p if isinstance(p, str) else None

    def grid_key(self) -> str:
        key = self.game.grid_zone
        if key is None:
            raise EvalError("this game has no grid zone")
        return key

    def grid_stack(self, x: int, y: int) -> list[int]:
        cache = self._stacks
        stacks = cache[1] if cache is not None and cache[0] == self.game.grid_zone else self.grid_stacks()
        return stacks.get((x, y), _EMPTY)

    def grid_stacks(self, key: str | None = None) -> dict[tuple[int, int], list[int]]:
        """Cell -> stack (bottom first); cached until a piece moves (the cache is never saved)."""
        key = key or self.grid_key()
        cache = self._stacks
        if cache is not None and cache[0] == key:
            return cache[1]
        out: dict[tuple[int, int], list[int]] = {}
        for p in self.zones[key]:
            out.setdefault(self.pos[p], []).append(p)
        self._stacks = (key, out)
        return out

    def trail_of(self, pid: int | None) -> list[str]:
        """The spaces piece `pid` may not enter again this turn (`reachable`); a space (None) has
        no trail of its own."""
        own = self.turn_trail.get(pid, []) if pid is not None else []
        shared = self.turn_trail.get(-1)
        return own + shared if shared else own

    def moved(self) -> None:
        """Pieces moved: forget what was computed from their positions."""
        self._stacks = None
        if self.derived:
            self.derived = {}

    def grid_cells_sorted(self) -> list[tuple[int, int]]:
        return sorted(self.grid_stacks(), key=lambda c: (c[1], c[0]))

    def piece_is_top(self, pid: int) -> bool:
        """Whether the piece tops its stack: on a grid, its cell's; in a deck or pile, the zone
        (its first piece: `discard where not is_top` is all but the top card); anywhere else a
        piece stands alone, on top of nothing (true)."""
        c = self.piece_cell(pid)
        if c is None:
            key = self.zone_of[pid]
            z = self.game.zones.get(key.split("#")[0])
            if z is not None and z.kind in ON_TOP:
                return self.zones[key][0] == pid
            return True
        stack = self.grid_stack(*c)
        return bool(stack) and stack[-1] == pid

    def pieces_on_space(self, space: str) -> list[int]:
        """The pieces on a board space, in the order they arrived (their order in their zone,
        which a saved state keeps; the order of `pos` is not saved); pieces of several board
        zones, zone by zone in the order of their names."""
        on = [p for p, s in self.pos.items() if s == space]
        if len(on) > 1:
            on.sort(key=lambda p: (self.zone_of[p], self.zones[self.zone_of[p]].index(p)))
        return on

    def piece_label(self, pid: int, index: int | None = None) -> str:
        """How actions name a piece: `zone.index` / `zone.seat.index` (1-based), `x,y` on a grid,
        `zone.space` on a board (see `zone_labels`). `index` saves the search when the caller
        knows the position in a list zone."""
        key = self.zone_of[pid]
        if index is not None:
            kind, prefix = self.game.label_prefix(key)
            if kind not in ("grid", "board"):
                return f"{prefix}{index}"
        return self.zone_labels(key)[pid]

    def zone_labels(self, key: str) -> dict[int, str]:
        """The label of each piece of zone `key`: `zone.index` by its place in a list, `x,y` by
        its cell on a grid, `zone.space` by its space on a board. Pieces sharing a cell or space
        add their place there, from the bottom (the first to arrive): `0,0.1` and `0,0.2`, so
        that no two pieces read alike in an action. Kept until a piece moves."""
        hit = self.derived.get(("labels", key))
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        kind, prefix = self.game.label_prefix(key)
        pids = self.zones[key]
        if kind in ("grid", "board"):
            pos = self.pos
            together: dict[str, list[int]] = {}  # the label of a place -> the pieces there
            for p in pids:
                base = f"{pos[p][0]},{pos[p][1]}" if kind == "grid" else f"{prefix}{pos[p]}"
                together.setdefault(base, []).append(p)
            hit = {}
            for base, there in together.items():
                if len(there) == 1:
                    hit[there[0]] = base
                else:
                    hit.update({p: f"{base}.{i}" for i, p in enumerate(there, 1)})
        else:
            hit = {p: f"{prefix}{i}" for i, p in enumerate(pids, 1)}
        self.derived[("labels", key)] = hit
        return hit

    # ------------------------------------------------------------------ mutation primitives
    def _put(self, pid: int, key: str, index: int | None, where: Any = None) -> None:
        lst = self.zones[key]
        if index is None or index >= len(lst):
            lst.append(pid)
        else:
            lst.insert(max(index, 0), pid)
        self.zone_of[pid] = key
        if where is not None:
            self.pos[pid] = where
        self.dirty.add(key)
        self.moved()

    def take(self, pid: int) -> None:
        """Remove a piece from wherever it is (it must be put somewhere at once)."""
        key = self.zone_of[pid]
        self.zones[key].remove(pid)
        self.pos.pop(pid, None)
        self.moved()

    def place(self, pid: int, key: str, *, index: int | None = None, where: Any = None, face_up: bool | None = None) -> None:
        """Move a piece into zone `key` (at `index`, or sorted for rows, or at a cell/space)."""
        came_from = self.zone_of[pid]
        z = self.game.zones.get(key.split("#")[0])  # none for the supply
        if z is not None and index is None and z.kind in ON_TOP:
            index = 0  # a card put on a deck or pile goes on top (from that very pile too): the next draw takes it
        if came_from == key and where is None and index is None:
            if face_up is not None:  # it stays where it is, turned as the step says
                self.turn_face(pid, face_up)
            return
        self.take(pid)
        if z is not None and index is None and z.kind == "row" and z.sort is not None:
            index = self._sorted_index(key, pid)
        self._put(pid, key, index, where)
        if face_up is not None:
            self.turn_face(pid, face_up)
        elif came_from != key:
            self.entered(pid)

    def entered(self, pid: int) -> None:
        """A piece just moved (or swapped) into another zone without `face_up`: it takes that
        zone's visibility. Face-down ends; a revealed piece put into a hidden zone (a card back
        into the deck) is unknown again."""
        if self.face_down:
            self.face_down.discard(pid)
        if pid in self.revealed and self.in_hidden_zone(pid):
            self.revealed.discard(pid)

    def in_hidden_zone(self, pid: int) -> bool:
        """Whether the piece lies in a zone whose visibility is `hidden` (a deck, a bag)."""
        z = self.game.zones.get(self.zone_of[pid].split("#")[0])  # none for the supply
        return z is not None and z.visibility == "hidden"

    def turn_face(self, pid: int, up: bool) -> None:
        """Turn a piece face up (every seat sees it) or face down (every seat sees only its public fields)."""
        if up:
            self.revealed.add(pid)
            self.face_down.discard(pid)
        else:
            self.revealed.discard(pid)
            self.face_down.add(pid)

    def _piece_keys(self, zname: str, which: str) -> list[Any]:
        """Every piece's sort key (or free flag) in zone `zname`, by piece id, filled on demand.

        Sort keys and free-placement flags are evaluated once per piece and zone: they are
        meant to depend on the piece's own attributes only (documented for authors)."""
        cache = self.game.piece_cache
        keys = cache.get((zname, which))
        if keys is None:
            keys = cache[(zname, which)] = [_MISSING] * len(self.game.pieces)
        return keys

    def _piece_key(self, zname: str, pid: int, which: str) -> Any:
        keys = self._piece_keys(zname, which)
        hit = keys[pid]
        if hit is _MISSING:
            z = self.game.zones[zname]
            fn = z.sort if which == "sort" else z.free
            hit = keys[pid] = fn(Env(self, {**self.locals, "piece": PRef(pid)})) if fn is not None else False
            step_charge(1)  # thousands of pieces placed in one step, each key within its own allowance
        return hit

    def _sorted_index(self, key: str, pid: int) -> int:
        zname = key.split("#")[0]
        z = self.game.zones[zname]
        mykey = self._piece_key(zname, pid, "sort")
        lst = self.zones[key]
        sort_keys = self._piece_keys(zname, "sort")
        free_flags = self._piece_keys(zname, "free") if z.free is not None else None
        for i, other in enumerate(lst):
            if free_flags is not None:
                flag = free_flags[other]
                if flag is _MISSING:
                    flag = self._piece_key(zname, other, "free")
                if flag:
                    continue
            k = sort_keys[other]
            if k is _MISSING:
                k = self._piece_key(zname, other, "sort")
            if k > mykey:
                return i
        return len(lst)

    def is_free_piece(self, key: str, pid: int) -> bool:
        zname = key.split("#")[0]
        return self.game.zones[zname].free is not None and bool(self._piece_key(zname, pid, "free"))

    def log(self, text: str, to: int | None = None) -> None:
        """Add a line to the log, for everyone or as `sees` reads `to`."""
        self.logged += 1
        self.events.append((to, text))
        if len(self.events) > MAX_EVENTS:
            del self.events[0]

    # ------------------------------------------------------------------ the interpreter
    def _advance(self) -> None:
        previous = decision_start()
        try:
            self._run_flow()
        finally:
            decision_end(previous)

    def _run_flow(self) -> None:
        try:
            self._run_steps()
        except DavinciError:
            raise
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as e:
            # A value no check could rule out (a `none` from a variable declared `null`, or from
            # one branch of an `if`) reached a step that needs a seat, a number or a list.
            import os

            if os.environ.get("DAVINCI_DEBUG"):
                raise
            raise self._misfit(e) from e

    def _misfit(self, e: Exception) -> EvalError:
        """The error for a Python failure while the flow ran, located at the step that ran last."""
        loc = None
        if self.stack:
            name, pc = self.stack[-1][:2]
            code = self.game.programs[name].code
            if 0 < pc <= len(code):
                loc = code[pc - 1].loc
        detail = str(e) if not isinstance(e, KeyError) else f"no such key {e}"
        for python, rules in (("'NoneType' object", "none"), ("NoneType", "none"), ("'tuple' object", "a list"),
                              ("'str' object", "a text"), ("'int' object", "a number")):
            detail = detail.replace(python, rules)  # the rules' words for Python's
        return EvalError(
            "a step was given a value it cannot use (a `none` where a seat, a number or a list is needed? "
            f"check the step's expressions and the variables they read): {type(e).__name__}: {quoted(detail, 200)}",
            loc,
            code="DV042",
        )

    def _run_steps(self) -> None:
        g = self.game
        budget = STEP_BUDGET
        work = _WORK[2]  # the ceiling decision_start set
        self._legal = None
        while self.pending is None and not self.terminal:
            if self.dirty:
                if self._check_overflow():
                    break
            stack = self.stack
            if not stack:
                self._between()
                continue
            frame = stack[-1]
            code = g.programs[frame[0]].code
            pc = frame[1]
            if pc >= len(code):
                if len(stack.pop()) > 2:  # a procedure returns: the caller's names it bound again
                    self.locals.update(frame[2])
                continue
            frame[1] = pc + 1
            try:
                code[pc].run(self)
            except DavinciError as e:
                if e.location is None:
                    e.location = code[pc].loc
                if e.code == "DV043" and _WORK[0] > work:  # the work ceiling, reached inside a step
                    _in_loop(e, code, pc)
                raise
            budget -= 1
            if _WORK[0] > work:
                over = ceiling_error()
                over.location = code[pc].loc
                _in_loop(over, code, pc)
                raise over
            if budget <= 0:
                # Located at the innermost `while` around the step that used up the budget (the
                # loop that did not end), else at that step: it lies inside the runaway loop.
                loop = _enclosing_while(code, pc)
                said = (f": the 'while' loop at line {loop.loc.line} kept going (its condition never turned "
                        "false, and nothing in it ends the turn or asks for a decision)" if loop is not None
                        else " (an endless loop in the game's YAML?)")
                raise EvalError(
                    f"the flow ran {STEP_BUDGET} steps without asking for a decision{said}",
                    loop.loc if loop is not None else code[pc].loc,
                    code="DV043",
                )
        self.steps += STEP_BUDGET - budget
        if self.pending is not None and not self.terminal and self.phase != "setup":
            if self.dirty and self.pending["type"] not in _MID_STEP and self._check_overflow():
                pass  # (free pieces waiting for their places are placed first: the check waits)
            # The end is checked at a decision of the flow, where its steps stand between two
            # moves; a piece over capacity (or a free piece to place) asks in the middle of a
            # step's `do`, which must run to its end first (a market half refilled is no end).
            if self.pending["type"] not in _MID_STEP and g.end.when(self.env()):
                self._finish("end")

    def _between(self) -> None:
        g = self.game
        if self.phase == "setup":
            first = 0 if g.first_seat == "random" else g.first_seat(self.env())
            if first == 0:  # 0 means a seeded draw
                self.current = self.rng.below(len(self.seat_names))
            else:
                self.current = self._chosen_seat(g.first_seat, first, "turn_order.first")
            self.phase = "turn_end"  # so that _start_turn is reached through the normal path
            self._start_turn(first=True)
            return
        if self.phase == "turn":
            self.phase = "turn_end"
            self.stack.append(["turn_end", 0])
            return
        # phase turn_end finished
        if g.end.when(self.env()):
            self._finish("end")
            return
        n = len(self.seat_names)
        if g.next_seat is not None:
            self.current = self._chosen_seat(g.next_seat, g.next_seat(self.env()), "turn_order.next")
            self._start_turn()
            return
        nxt = self.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if self.active[nxt]:
                break
        else:
            self._finish("end")
            return
        self.current = nxt
        self._start_turn()

    def _chosen_seat(self, expr: Any, number: Any, key: str) -> int:
        """The 0-based seat that `number`, the value of the game's 1-based seat expression `expr`,
        names; an error located at `expr` unless it is an active seat at the table."""
        n = len(self.seat_names)
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= n:
            raise expr.error(f"{key} gave {number!r}: not a seat number from 1 to {n}")
        if not self.active[number - 1]:
            raise expr.error(f"{key} gave seat {number}, which is out of the game")
        return number - 1

    def _start_turn(self, first: bool = False) -> None:
        g = self.game
        if first:
            self.first_seat = self.current
        if not first and not self.active[self.current]:
            for _ in range(len(self.seat_names)):
                self.current = (self.current + 1) % len(self.seat_names)
                if self.active[self.current]:
                    break
        self.turn += 1
        if self.turn > g.end.max_turns:
            self._finish("turn-limit")
            return
        self.locals = {k: encode(v.initial) for k, v in g.turn_vars.items()}
        self.turn_trail = {}
        self.turn_start = len(self._history)
        self.phase = "turn"
        self.stack = [["turn", 0]]

    def _finish(self, reason: str) -> None:
        self.terminal = True
        self.reason = reason
        self.pending = None
        self.stack = []
        self.phase = "over"

    def end_turn(self) -> None:
        """Abandon the rest of the current turn (the turn_end flow still runs)."""
        self.stack = []
        self.phase = "turn"

    def end_game(self) -> None:
        self._finish("end")

    def kind_word(self, zone: str) -> tuple[str, str]:
        """What the pieces in `zone` are called (one and several): their component's name when they
        are all of one (`token`, `tokens`), else `piece`, `pieces`."""
        kinds = {self.game.pieces[pid].component for pid in self.zones.get(zone, ())}
        if len(kinds) == 1:
            kind = next(iter(kinds)).replace("_", " ")
            return kind, kind if kind.endswith("s") else kind + "s"
        return "piece", "pieces"

    def _check_overflow(self) -> bool:
        dirty = self.dirty
        self.dirty = set()
        if not self.game.has_capacities:
            return False
        for key in sorted(dirty):
            z = self.game.zones.get(key.split("#")[0])
            if z is None or z.capacity is None:
                continue
            owner = self.zone_owner(key)
            cap = z.capacity(self.env() if owner is None else self.env({"owner": SeatV(self, owner).ref()}))
            if cap.__class__ is not int or cap < 0:
                raise z.capacity.error(f"the capacity of {z.name} is {cap!r}: it must be a number of pieces, 0 or more")
            if len(self.zones[key]) > cap:
                seat = owner if owner is not None else self.current
                to = z.overflow_to
                if to is not None and self.game.zones[to].per_seat:  # the owner's own zone of that name
                    to = f"{to}#{seat}"
                self.pending = {"type": "overflow", "seat": seat, "zone": key, "to": to, "cap": cap}
                self.dirty = dirty - {key}
                return True
        return False

    # ------------------------------------------------------------------ decisions
    @property
    def current_seats(self) -> list[int]:
        """Who must act now (several during simultaneous responses); empty when terminal."""
        p = self.pending
        if p is None or self.terminal:
            return []
        if p["type"] == "respond":
            return [s for s in p["seats"] if str(s) not in p["answers"]]
        return [int(p["seat"])]

    def _options(self) -> dict[int, LegalActions]:
        if self._legal is not None:
            return self._legal
        p = self.pending
        out: dict[int, LegalActions] = {}
        if p is not None and not self.terminal:
            if p["type"] == "choose":
                instr = self.game.programs[p["at"][0]].code[p["at"][1]]
                previous = decision_start()  # (a state read from a save: no run of the flow is open)
                try:
                    out[int(p["seat"])] = instr.enumerate(self)
                finally:
                    decision_end(previous)
            elif p["type"] == "overflow":
                pairs = [(Action("return", (self.piece_label(pid),)), pid) for pid in self.zones[p["zone"]]]
                out[int(p["seat"])] = LegalActions.of_pairs(pairs)
            elif p["type"] == "position":  # among the placed pieces (those still waiting stand at the end)
                n = len(self.zones[p["zone"]]) - len(p["queue"]) + 1
                out[int(p["seat"])] = LegalActions.of_pairs([(Action("position", (str(i),)), i) for i in range(1, n + 1)])
            elif p["type"] == "respond":
                for s in self.current_seats:
                    out[s] = LegalActions.of_pairs([(Action("pass"), None)])
        self._legal = out
        return out

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """The legal actions of `seat` (default: the first seat that must act), in a fixed order.

        The result is a lazy sequence (len, indexing, iteration, `in`). During a simultaneous
        response it holds `pass`; the free forms `answer SECONDS TEXT` and
        `claim SECONDS solved|failed` are accepted too.
        """
        if seat is None:
            cs = self.current_seats
            if not cs:
                return LegalActions([])
            seat = cs[0]
        else:
            self._seat_arg(seat, "legal_actions", " or None")
        return self._options().get(seat) or LegalActions([])

    def _seat_arg(self, seat: Any, what: str, alternative: str = "") -> None:
        """NoSuchSeat unless `seat` is a seat number of this table (True and 1.0 would read as seat 1)."""
        if type(seat) is not int or not 0 <= seat < len(self.seat_names):
            raise NoSuchSeat(f"{what} takes a seat number (0 to {len(self.seat_names) - 1}){alternative}, got {seat!r}")

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.game.rest_verbs)

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Whether `seat` may take `action` now; NoSuchSeat (as `legal_actions` and `apply` raise)
        for a seat that is not at the table."""
        self._seat_arg(seat, "is_legal")
        try:
            self._check(seat, action if isinstance(action, Action) else self.parse_action(action))
            return True
        except IllegalAction:
            return False

    def _check(self, seat: int, action: Action) -> Any:
        if seat.__class__ is not int or action.__class__ is not Action:
            raise IllegalAction(f"apply takes a seat number and an action (or its text), got {type(seat).__name__} "
                                f"and {type(action).__name__}")
        if self.terminal:
            raise IllegalAction("the game is over")
        if self.pending is None:  # the flow stopped between decisions: the game's rules failed in it
            raise IllegalAction(f"the game's rules failed after action {len(self._history)} (the error raised then "
                                "says where): this state cannot go on; start again, or from a save")
        if seat not in self.current_seats:
            who = ", ".join(self.seat_names[s] for s in self.current_seats)
            if not 0 <= seat < len(self.seat_names):
                raise NoSuchSeat(f"there is no seat {seat} at this table (seats are 0 to {len(self.seat_names) - 1}; "
                                 f"waiting for {who})")
            raise IllegalAction(f"it is not {self.seat_names[seat]}'s decision (waiting for {who})")
        p = self.pending
        assert p is not None
        if p["type"] == "respond" and action.verb in ("answer", "claim"):
            _text_only(action)
            return _parse_response(action, bool(p.get("claims", True)))
        legal = self._options().get(seat)
        if legal is not None:
            try:
                binding = legal.binding(action)
            except TypeError:  # an argument that cannot even be looked up (a list): refused below
                binding = None
            if binding is not None or (p["type"] == "respond" and action.verb == "pass" and not action.args):
                return binding
        _text_only(action)  # checked only here, off the path of every legal move
        verbs = sorted(self.legal_actions(seat).verbs())
        if p["type"] == "respond":
            verbs = sorted({*verbs, "answer", *(["claim"] if p.get("claims", True) else [])})
        if action.verb not in verbs:
            said = self._not_now(action.verb)
            near = "" if said else did_you_mean(action.verb, verbs, aside=False)
            if action.verb not in self.game.verb_args and action.verb not in ("answer", "claim", "pass"):
                # No action of the game is called so (`gess`): not a matter of "now".
                raise IllegalAction(f"'{quoted(action.verb)}' is no action of this game; possible now: "
                                    f"{', '.join(verbs)}{near}")
            raise IllegalAction(f"'{quoted(action.verb)}' is not possible now{': ' + said if said else ''}; "
                                f"possible: {', '.join(verbs)}{near}")
        why = _why_not(action, self.legal_actions(seat), self.game.verb_args.get(action.verb, ()), self.seat_names,
                       seat)
        if why.startswith("'"):  # the wrong number of values: the action is not of a legal form
            raise IllegalAction(why)
        said = self._not_now(action.verb, action.args)
        raise IllegalAction(f"'{quoted(str(action), 200)}' is not legal now{': ' + said if said else ''}{why}")

    def _not_now(self, verb: str, args: Sequence[str] | None = None) -> str:
        """The pending choice's own words for why `verb` (or, with `args`, that combination of
        its values) is not offered: `Choose.not_now`."""
        p = self.pending or {}
        if p.get("type") != "choose":
            return ""
        instr = self.game.programs[p["at"][0]].code[p["at"][1]]
        return str(instr.not_now(self, verb, args))

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply one action of `seat`, then run the flow to the next decision."""
        if isinstance(action, str):
            action = self.parse_action(action)
        elif action.__class__ is Action and action.verb in ("answer", "claim"):
            # A free-form action a bot built: kept as its text reads back (the log and a replay
            # read the text), so text that could not be typed is refused as typed text is.
            _text_only(action)
            action = self.parse_action(str(action))
        binding = self._check(seat, action)
        p = self.pending
        assert p is not None
        text = str(action)
        if len(self._history) - self.turn_start >= MAX_TURN_ACTIONS:
            turn = self.game.programs["turn"].code  # built for every game, empty when it has no turn flow
            raise EvalError(
                f"turn {self.turn} has taken {MAX_TURN_ACTIONS:,} decisions without ending: the turn's flow "
                "never reaches its end (a loop that only a choice nobody has to make can leave?)",
                turn[0].loc if turn else None,
                code="DV043",
            )
        self._history.append((seat, text))
        if p["type"] == "choose":
            self.pending = None
            instr = self.game.programs[p["at"][0]].code[p["at"][1]]
            instr.resume(self, binding, action)
            if instr.options[binding[0]].private:  # a sealed choice: the others learn only that it was made
                self.log(action_line(self.seat_names[seat], text), to=seat)
                self.log(f"{self.seat_names[seat]} has chosen", to=~seat)
            else:
                self.log(action_line(self.seat_names[seat], text))
        elif p["type"] == "overflow":
            self.pending = None
            word = self.kind_word(p["zone"])[0]  # (before the piece leaves: what the zone held)
            to = p["to"]
            if to is None:
                to = SUPPLY
            # The returned piece takes its new zone's visibility: `place` turns a face-down piece
            # moved to another zone back, and a revealed one is revealed no more.
            self.place(binding, to)
            self.revealed.discard(binding)
            # (no `overflow_to`: the piece leaves the game; the engine's supply is no zone of the game)
            went = "out of the game" if to == SUPPLY else f"to the {to.split('#')[0]}"
            verb = "puts" if to == SUPPLY else "returns"
            name, public = self.seat_names[seat], self._public_name(binding)
            dest = self.game.zones.get(self.zone_of[binding].split("#")[0])
            if public is not None or (dest is not None and dest.visibility == "public" and binding not in self.face_down):
                self.log(f"{name} {verb} {public or action.args[0]} {went}")  # every seat sees it there
            else:  # what it was stays the returning seat's to know; its old place (a ref) named nothing
                from davinci.engine.steps.core import render_value
                from davinci.engine.view import _piece_fields

                fields = _piece_fields(self, (binding, False, True, False))
                own = fields.get("name")
                if own is None:  # no label: its kind and fields, as the owner saw it (its old place is another's now)
                    values = [render_value(v) for k, v in fields.items() if k not in ("kind", "revealed", "name")]
                    own = " ".join([str(fields.get("kind", "piece")), "/".join(values)]).strip()
                # To the others, only that a piece went back: even its kind could tell what the hand
                # holds (named only when every piece there is of one kind, so it tells nothing). A
                # hand held facing away (`others`) is the other way round: they saw it, its owner not.
                away = self.game.zones[p["zone"].split("#")[0]].visibility == "others"
                self.log(f"{name} {verb} {own} {went}", to=~seat if away else seat)
                self.log(f"{name} {verb} a {word} {went}", to=seat if away else ~seat)
            self.dirty.add(p["zone"])
        elif p["type"] == "position":
            queue = list(p["queue"])
            pid = int(queue.pop(0))
            self.take(pid)
            self._put(pid, p["zone"], int(binding) - 1)
            self.pending = {**p, "queue": queue} if queue else None
        else:
            instr = self.game.programs[p["at"][0]].code[p["at"][1]]
            instr.answer(self, seat, action, binding)
        self._legal = None
        self._advance()

    def is_private(self, action: Action | str) -> bool:
        """Whether `action` answers the pending choice with an option marked `private`: its text
        is for its seat alone (a front end shows the others only that a choice was made)."""
        p = self.pending
        if p is None or p["type"] != "choose":
            return False
        verb = (action.verb if isinstance(action, Action) else str(action).split(" ", 1)[0]).lower()
        instr = self.game.programs[p["at"][0]].code[p["at"][1]]
        return any(o.private and o.verb == verb for o in instr.options)

    def _public_name(self, pid: int) -> str | None:
        """The piece's name (its `label` field's value) when every seat now sees it: in a public
        zone, face up, the field not secret; else None (its old place names it, which tells
        nobody what it is)."""
        z = self.game.zones.get(self.zone_of[pid].split("#")[0])
        if z is None or z.visibility != "public" or pid in self.face_down:
            return None
        from davinci.engine.view import _piece_fields

        name = _piece_fields(self, (pid, pid in self.revealed, True, False)).get("name")
        return None if name is None else str(name)

    # ------------------------------------------------------------------ results
    @property
    def action_count(self) -> int:
        """How many moves have been made: `len(history)` without copying the history."""
        return len(self._history)

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """The moves so far, each `(seat, action text)`, as a tuple of the caller's own (changing
        the engine's list broke the state)."""
        return tuple(self._history)

    def is_terminal(self) -> bool:
        return self.terminal

    def places(self) -> list[int]:
        """Each seat's place in a finished game, from 1; seats that nothing in the rules tells apart
        (winning, score and tie-break alike) share one (1, 2, 2, 4), as the result's ranking, which
        lists them by seat, does not say."""
        keys = self._standing()[2]
        ranking = self._ranked(keys)
        places = [0] * len(ranking)
        for pos, seat in enumerate(ranking):
            prev = ranking[pos - 1] if pos else None
            places[seat] = places[prev] if prev is not None and keys[prev] == keys[seat] else pos + 1
        return places

    def result(self) -> dict[str, Any]:
        """Winners (seat indices), per-seat scores and the ranking; only for a finished game."""
        winners, scores, keys = self._standing()
        return {
            "winners": winners,
            "scores": scores,
            "ranking": self._ranked(keys),
            "reason": self.reason,
            "turns": self.turns_played(),
            "actions": len(self._history),
        }

    def _ranked(self, keys: list[tuple[Any, ...]]) -> list[int]:
        """The seats in ranking order by their sort keys (`_standing`), equal keys by seat."""
        try:
            return sorted(range(len(keys)), key=lambda i: (keys[i], i))
        except TypeError:  # lists that hold values of different kinds (`[1]` against `['x']`)
            ties = [k[2] for k in keys]
            raise self.game.end.tie_break.error(f"the tie-breaks are {_shown_value(ties)}: values of one kind that "
                                                "order (numbers, texts, or lists of them) are needed") from None

    def _standing(self) -> tuple[list[int], list[Any], list[tuple[Any, ...]]]:
        """A finished game's winners, scores, and each seat's sort key (winning, score, tie-break)."""
        if not self.terminal:  # it gave every seat as a winner, with no reason
            raise IllegalAction("the game is not over: result() and places() are for a finished game (see is_terminal())")
        g = self.game
        n = len(self.seat_names)
        env = self.env()
        if self.reason == "turn-limit":
            winners: list[int] = []
        else:
            chosen = g.end.winners(env)
            if not isinstance(chosen, (list, tuple)) or not all(isinstance(s, SeatV) for s in chosen):
                raise g.end.winners.error(f"the winners are {_shown_value(chosen)}: a list of seats is needed")
            winners = sorted({s.index for s in chosen})
        scores = [0] * n
        if g.end.score is not None:
            scores = [g.end.score(self.env({"seat": SeatV(self, i).ref()})) for i in range(n)]
            odd = next((v for v in scores if v.__class__ is not int), scores[0])
            if odd.__class__ is not int:
                raise g.end.score.error(f"a seat's score is {_shown_value(odd)}: a number is needed")
        ties = [0] * n
        if g.end.tie_break is not None:
            ties = [g.end.tie_break(self.env({"seat": SeatV(self, i).ref()})) for i in range(n)]
            if len({type(v) for v in ties}) > 1 or ties[0] is None:
                raise g.end.tie_break.error(f"the tie-breaks are {_shown_value(ties)}: values of one kind that "
                                            "order (numbers, texts) are needed")
        if g.end.lower_is_better:
            return winners, scores, [(i not in winners, scores[i], ties[i]) for i in range(n)]
        return winners, scores, [(i not in winners, -scores[i], _neg(ties[i])) for i in range(n)]

    def turns_played(self) -> int:
        """How many turns were played: the turn counter, except at the turn limit.

        Reaching the limit counts one turn past it (turn max_turns + 1 starts and stops the
        game at once), so the counter is one more than the turns anyone played.
        """
        if self.reason == "turn-limit":
            return self.turn - 1
        return self.turn

    def to_json(self) -> dict[str, Any]:
        from davinci.engine.serial import state_to_json

        return state_to_json(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (0-based, as everywhere in this API) may see, as JSON-able data; None for
        the all-seeing view of tests and replays. Inside a view, seats count from 1, as players do."""
        from davinci.engine.view import build_view

        if seat is not None and not (type(seat) is int and 0 <= seat < len(self.seat_names)):
            raise NoSuchSeat(f"no seat {seat!r} at this table: seats are 0 to {len(self.seat_names) - 1}, or None")
        return build_view(self, seat)

    def clone_apply(self, seat: int, action: Action | str) -> State:
        c = self.clone()
        c.apply(seat, action)
        return c


_MISSING = object()
_EMPTY: list[int] = []  # (never mutated)

_GLOBALS: dict[str, Any] = BUILTIN_NAMES  # Env reads them without calling global_value
_GLOBALS.update(
    {
        "current": lambda st: (st._sv or st.seat_records())[st.current],
        "seats": lambda st: (st._sv or st.seat_records())[:],
        "players": lambda st: len(st.seat_names),
        "settings": lambda st: st.game.settings_record,
        "turn": lambda st: st.turn,
    }
)


def _initial_layout(game: GameDef, n: int) -> tuple[dict[str, list[int]], list[str]]:
    """Where every piece starts with `n` seats (the same for every game: computed once): each
    component in the first zone that lists it, in piece order; unclaimed pieces wait in an
    implicit supply that is never shown."""
    hit = game.layout_cache.get(n)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    zones: dict[str, list[int]] = {}
    for z in game.zones.values():
        for k in [f"{z.name}#{i}" for i in range(n)] if z.per_seat else [z.name]:
            zones[k] = []
    zone_of = [SUPPLY] * len(game.pieces)
    by_comp: dict[str, list[int]] = {}
    for p in game.pieces:
        by_comp.setdefault(p.component, []).append(p.pid)
    placed: set[int] = set()
    for z in game.zones.values():
        for comp in z.contents:
            for pid in by_comp.get(comp, ()):
                if pid not in placed:
                    placed.add(pid)
                    zones[z.name].append(pid)
                    zone_of[pid] = z.name
    zones[SUPPLY] = [p.pid for p in game.pieces if p.pid not in placed]
    game.layout_cache[n] = (zones, zone_of)
    return zones, zone_of


def _shown_value(v: Any) -> str:
    """A value in an error message, as an expression would write it (and kept short)."""
    from davinci.engine.values import display

    try:
        text = display(v, limit=80)
    except Exception:  # noqa: BLE001 - a message about a wrong value must not fail on it
        text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _neg(v: Any) -> Any:
    return -v if isinstance(v, int) else v


def _copy_pending(p: dict[str, Any] | None) -> dict[str, Any] | None:
    if p is None:
        return None
    c = dict(p)
    if "answers" in c:
        c["answers"] = dict(c["answers"])
    if "queue" in c:
        c["queue"] = list(c["queue"])
    return c


def _parse_response(action: Action, claims: bool) -> Any:
    args = action.args
    if len(args) < 2:
        raise IllegalAction(f"usage: {action.verb} SECONDS {'TEXT' if action.verb == 'answer' else 'solved|failed'}")
    try:
        secs = float(args[0])
    except ValueError:
        raise IllegalAction(f"'{args[0]}' is not a number of seconds") from None
    if not (0 <= secs <= 36000) or secs != secs:
        raise IllegalAction("seconds must be between 0 and 36000")
    ms = int(round(secs * 1000))
    if action.verb == "claim":
        if not claims:
            raise IllegalAction("simulated answers (claim) are switched off in this game")
        if args[1] not in ("solved", "failed"):
            raise IllegalAction("claim needs 'solved' or 'failed'")
        return (ms, None, args[1] == "solved")
    return (ms, args[1], None)


class SettingsView:
    __slots__ = ("values",)

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    def field(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise EvalError(f"unknown setting '{name}'") from None


def iter_records(values: Iterable[Any]) -> list[Any]:
    return [v for v in values if isinstance(v, (PieceV, SeatV, CellV, SpaceV))]


def _in_loop(error: DavinciError, code: Sequence[Any], pc: int) -> None:
    """The work ceiling's error located at the innermost `while` around the step that reached it,
    named as the step budget's error names it (the same endless loop got two messages)."""
    loop = _enclosing_while(code, pc)
    if loop is not None and loop.loc is not None:
        error.location = loop.loc
        error.message = ceiling_error(loop.loc.line).message


def _text_only(action: Action) -> None:
    """IllegalAction unless the action's verb and arguments are text (a bot's Action("guess",
    ("row.1.1", 0)) would otherwise read as not legal for a reason nobody could see)."""
    if action.verb.__class__ is not str or action.args.__class__ is not tuple \
            or any(a.__class__ is not str for a in action.args):
        raise IllegalAction(f"an action's verb and arguments are text: {action!r} (write each argument as "
                            "the action's text has it, e.g. '7', not 7)")


def _whose(value: str, possible: list[str], seat_names: Sequence[str], me: int | None) -> str:
    """A note when `value` names a place in another seat's zone than the possible values do:
    `: hand.1 is Random 1's hand`, for a player who typed the number their own screen shows
    (`your own row` for the asking seat's; `there is no row.9` past the seats)."""
    parts = value.split(".")
    if len(parts) != 3 or not parts[1].isdigit() or not seat_names:
        return ""
    zone, n = f"{parts[0]}.{parts[1]}", int(parts[1])
    if not possible or any(p.startswith(zone + ".") or not p.startswith(parts[0] + ".") for p in possible):
        return ""
    if not 1 <= n <= len(seat_names):
        return f": there is no {zone} (the seats are 1 to {len(seat_names)})"
    return f": {zone} is your own {parts[0]}" if me == n - 1 else f": {zone} is {seat_names[n - 1]}'s {parts[0]}"


def _why_not(action: Action, legal: Any, names: tuple[str, ...] = (), seat_names: Sequence[str] = (),
             me: int | None = None) -> str:
    """What is wrong with an action of a possible verb: its first value no legal action has at that
    place (given the values before it), with the values that are possible there ("; ..."), or,
    when no legal action has its number of values, the whole message ("'verb' takes ...").
    `names`: the option's argument names, which say what each value is."""
    same = [a for a in itertools.islice(legal, 20_000) if a.verb == action.verb]
    if not same:
        return ""
    sizes = {len(a.args) for a in same}
    if len(action.args) not in sizes:
        if sizes == {0}:
            return f"'{action.verb}' takes no values: type just '{action.verb}'"
        counts = " or ".join(map(str, sorted(sizes)))
        what = f" ({' '.join(n.upper() for n in names)})" if names and sizes == {len(names)} else ""
        return f"'{action.verb}' takes {counts} value{'' if sizes == {1} else 's'}{what}, as in '{same[0]}'"
    sized = [a for a in same if len(a.args) == len(action.args)]

    def refused(i: int, fits: list[Action]) -> str:
        possible = list(dict.fromkeys(a.args[i] for a in fits))
        sep = " / " if any("," in v for v in possible) else ", "  # grid cells are written 0,1
        shown = sep.join(possible[:12]) + (f"{sep}..." if len(possible) > 12 else "")
        # The argument's name as the usage line writes it (`as TARGET`): `as a` read as an article.
        where = f" as {names[i].upper()}" if len(names) == len(action.args) else " there"
        return f"{action.args[i]} is not possible{where}{_whose(action.args[i], possible, seat_names, me)} (possible: {shown})"

    # A value no legal action has at its place, whatever the others, is to blame (each one such):
    # `cover hand.1.2 2,2` on an empty cell blamed the card and offered cards that could not cover it either.
    alone = [refused(i, sized) for i, value in enumerate(action.args) if all(a.args[i] != value for a in sized)]
    if alone:
        return "; " + ", and ".join(alone)
    for i, value in enumerate(action.args):
        fits = [a for a in sized if a.args[:i] == action.args[:i]]
        if all(a.args[i] != value for a in fits):
            return "; " + refused(i, fits)
    return "; those values are not allowed together"
