"""Engine helper functions for rule expressions: grids, board graphs, answers, lists.

They are generic (no game is named): lines of N cells on a grid whose top pieces share a
value, free cells of a bounded growing grid, shortest paths and reachable spaces on a board
graph, answer matching, list overlap. Each takes the engine value it works on as an argument,
so expressions stay pure.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from davinci.engine.answers import answer_matches
from davinci.engine.errors import EvalError, ExprTypeError, did_you_mean
from davinci.engine.expr import ANY, BOOL, BUILTINS, INT, STR, Function, ListType, RecordType, Type, budget
from davinci.engine.expr.types import assignable, describe
from davinci.engine.values import CellV, PieceV, SpaceV, ZoneV, display

# Spaces one walk search may visit. The number of walks grows exponentially with their length on a
# board with many crossings (13! walks of 13 steps where 14 spaces all touch); the shipped boards
# need a few hundred visits.
MAX_WALK = 200_000
WALK_MEMO = 50_000  # walks remembered per game definition (the board is fixed, so results are too)

KING = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _rec(name: str) -> RecordType:
    return RecordType(name, {})


def _zone_arg(z: Any, fname: str) -> ZoneV:
    if not isinstance(z, ZoneV):
        raise EvalError(f"{fname}() needs a grid or board zone (a zone of pieces is a list of pieces here)")
    return z


def _grid_arg(z: Any, fname: str) -> ZoneV:
    zone = _zone_arg(z, fname)
    kind = zone.state.game.zones[zone.key.split("#")[0]].kind
    if kind != "grid":
        raise EvalError(f"{fname}() needs the grid zone, got '{zone.key}' (a {kind} zone)")
    return zone


# ------------------------------------------------------------------ grids


def free_cells(zone: Any) -> list[CellV]:
    """Empty cells where a piece may be placed: next to an occupied cell (by the zone's
    adjacency), and such that all occupied cells still fit in width x height. On an empty grid,
    the single cell 0,0 (the centre)."""
    z = _grid_arg(zone, "free_cells")
    st = z.state
    memo = ("free_cells", z.key)
    hit = st.derived.get(memo)
    if hit is not None:
        return list(hit)
    zdef = st.game.zones[z.key.split("#")[0]]
    stacks = st.grid_stacks(z.key)
    if not stacks:
        return [CellV(st, 0, 0)]
    xs = [c[0] for c in stacks]
    ys = [c[1] for c in stacks]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    w, h = zdef.width or 1 << 20, zdef.height or 1 << 20
    # A cell keeps every occupied cell within w x h when it lies in these ranges.
    lox, hix, loy, hiy = maxx - w + 1, minx + w - 1, maxy - h + 1, miny + h - 1
    dirs = KING if zdef.adjacency == "king" else ORTHO
    budget.charge(len(stacks) * len(dirs))
    out: set[tuple[int, int]] = set()
    for x, y in stacks:
        for dx, dy in dirs:
            cx, cy = x + dx, y + dy
            if lox <= cx <= hix and loy <= cy <= hiy:
                c = (cx, cy)
                if c not in stacks:
                    out.add(c)
    cells = [CellV(st, x, y) for (x, y) in sorted(out, key=lambda c: (c[1], c[0]))]
    st.derived[memo] = cells
    return list(cells)


def _top_has(st: Any, stacks: dict[tuple[int, int], list[int]], cell: tuple[int, int], fname: str, value: Any) -> bool:
    stack = stacks.get(cell)
    if not stack:
        return False
    v = st.game.pieces[stack[-1]].attrs.get(fname)
    if isinstance(v, list):
        return value in v
    return bool(v == value)


def _lines(zone: Any, n: int, fname: str, value: Any, diagonals: bool, through: Any) -> int:
    z = _grid_arg(zone, "lines_through" if through is not None else "lines")
    st = z.state
    if fname not in st.game.piece_fields:
        raise EvalError(f"no component has a field '{fname}'{did_you_mean(fname, st.game.piece_fields)}")
    stacks = st.grid_stacks(z.key)
    if n < 1:
        raise EvalError("a line needs at least one cell")
    # A line of one cell is the cell itself, whatever its direction: count it once.
    dirs = [(1, 0)] if n == 1 else [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonals else [])
    budget.charge(len(dirs) * n)  # before building anything: `n` comes from the rule
    if through is not None and not isinstance(through, CellV):
        raise EvalError("'through' must be a cell")
    budget.charge((n if through is not None else len(stacks)) * len(dirs) * n)
    # Whether each cell's top piece matches, worked out once per cell.
    matches: dict[tuple[int, int], bool] = {}
    count = 0
    for dx, dy in dirs:
        if through is not None:
            # The n lines of this direction that contain `through`.
            starts: Any = [(through.x - dx * k, through.y - dy * k) for k in range(n)]
        else:
            starts = stacks
        for sx, sy in starts:
            for k in range(n):
                c = (sx + dx * k, sy + dy * k)
                ok = matches.get(c)
                if ok is None:
                    ok = matches[c] = _top_has(st, stacks, c, fname, value)
                if not ok:
                    break
            else:
                count += 1
    return count


def lines(zone: Any, n: int, fname: str, value: Any, diagonals: bool = False) -> int:
    """How many straight lines of `n` cells (rows, columns, and diagonals when asked) have top
    pieces whose field `fname` equals (or, for list fields, contains) `value`."""
    return _lines(zone, n, fname, value, diagonals, None)


def lines_through(zone: Any, cell: Any, n: int, fname: str, value: Any, diagonals: bool = False) -> int:
    """Like `lines`, counting only the lines that pass through `cell`."""
    return _lines(zone, n, fname, value, diagonals, cell)


# ------------------------------------------------------------------ boards


def _board_of(x: Any) -> tuple[Any, str]:
    if isinstance(x, SpaceV):
        return x.state, x.space
    if isinstance(x, PieceV):
        s = x.state.piece_space(x.pid)
        if s is None:
            raise EvalError("this piece is not on the board")
        return x.state, s
    raise EvalError("expected a space or a piece on the board")


def distance(a: Any, b: Any) -> int:
    """The fewest steps from one space (or piece on the board) to another along the tracks, a
    one-way track only in its direction; -1 when unreachable."""
    st, sa = _board_of(a)
    _, sb = _board_of(b)
    nb = st.game.board.neighbours
    seen = {sa: 0}
    q = deque([sa])
    try:
        while q:
            s = q.popleft()
            if s == sb:
                return seen[s]
            for nxt, _t, _d in nb[s]:
                if nxt not in seen:
                    seen[nxt] = seen[s] + 1
                    q.append(nxt)
        return -1
    finally:
        budget.charge(len(seen))  # a search per element of a long list is work like any other


def _too_many_walks(steps: int) -> EvalError:
    return EvalError(f"walks of {steps} steps visit over {MAX_WALK:,} spaces on this board (too many crossings)")


def walk_ends(
    st: Any, start: str, steps: int, exact: bool, trail: Sequence[str] = (), visits: list[int] | None = None
) -> list[str]:
    """End spaces of walks from `start`: no space visited twice (nor any space already on this
    turn's trail), and at a `no_turn` space passed through, the walk keeps its track and
    direction. With exact=False, walks of 1..steps all count. `visits[0]` (when given) is
    increased by the number of spaces visited; EvalError past MAX_WALK."""
    board = st.game.board
    nb = board.neighbours
    ends: set[str] = set()
    banned = set(trail)
    banned.discard(start)
    # The board never changes: the same walk from the same place gives the same ends.
    memo_key = ("ends", start, steps, exact, frozenset(banned))
    memo = board.walks
    hit = memo.get(memo_key)
    if hit is not None:
        if visits is not None:
            visits[0] += hit[1]
        if hit[1] > MAX_WALK:
            raise _too_many_walks(steps)
        return list(hit[0])
    count = [0]

    def go(space: str, left: int, visited: frozenset[str], came: tuple[str, int] | None) -> None:
        count[0] += 1
        if count[0] > MAX_WALK:
            raise _too_many_walks(steps)
        if came is not None and (not exact or left == 0):
            ends.add(space)
        if left == 0:
            return
        sp = board.spaces[space]
        for nxt, track, direction in nb[space]:
            if nxt in visited or nxt in banned:
                continue
            if came is not None and sp.no_turn and (track, direction) != came:
                continue
            go(nxt, left - 1, visited | {nxt}, (track, direction))

    if steps > 0:
        try:
            go(start, steps, frozenset({start}), None)
        except EvalError:
            if len(memo) < WALK_MEMO:
                memo[memo_key] = ([], count[0])
            raise
        finally:
            if visits is not None:
                visits[0] += count[0]
    out = sorted(ends)
    if len(memo) < WALK_MEMO:
        memo[memo_key] = (out, count[0])
    return list(out)


def walk_path(
    st: Any, start: str, dest: str, trail: Sequence[str] = (), max_steps: int = 12, length: int | None = None
) -> list[str] | None:
    """One walk from `start` to `dest` under the same rules as `walk_ends`, as the list of spaces
    entered; None when there is none. Used to record the spaces a move passed through, so a second
    move in the same turn cannot retrace them. The walk is the first in board order of exactly
    `length` spaces when there is one (a die's throw), else the shortest (however long: a pawn
    sent home across a 40-space loop passes every space between). The spaces it visits count as
    the flow's work (a board built to make the search long ends in DV042, not a hang)."""
    board = st.game.board
    nb = board.neighbours
    banned = set(trail)
    banned.discard(start)
    memo_key = ("path", start, dest, max_steps, length, frozenset(banned))
    memo = board.walks
    if memo_key in memo:
        hit = memo[memo_key]
        return None if hit is None else list(hit)
    count = [0]

    def go(space: str, left: int, path: list[str], came: tuple[str, int] | None) -> list[str] | None:
        count[0] += 1
        if count[0] > MAX_WALK:
            raise _GaveUp
        if left == 0:
            return path if space == dest else None
        sp = board.spaces[space]
        for nxt, track, direction in nb[space]:
            if nxt in path or nxt == start or nxt in banned:
                continue
            if came is not None and sp.no_turn and (track, direction) != came:
                continue
            found = go(nxt, left - 1, [*path, nxt], (track, direction))
            if found is not None:
                return found
        return None

    result = None
    try:
        if isinstance(length, int) and 0 < length <= min(64, len(board.spaces)):
            try:
                result = go(start, length, [], None)
            except _GaveUp:  # (a walk of that many steps may not exist: the shortest is recorded)
                count[0] = MAX_WALK
        if result is None:
            result = _shortest_walk(board, start, dest, banned, count)
        if result is None:  # the shortest way enters a space twice (to turn at a crossing): a short walk that does not
            try:
                for n in range(1, max_steps + 1):
                    result = go(start, n, [], None)
                    if result is not None:
                        break
            except _GaveUp:
                result = None
    finally:
        budget.step_charge(count[0])
    if len(memo) < WALK_MEMO:
        memo[memo_key] = result
    return None if result is None else list(result)


class _GaveUp(Exception):
    """A walk search that visited MAX_WALK spaces without finding its walk."""


def _shortest_walk(board: Any, start: str, dest: str, banned: set[str], count: list[int]) -> list[str] | None:
    """The shortest walk from `start` to `dest` (first in board order among the shortest), by a
    breadth-first search over (space, the way it was entered): linear in the board's size. None
    when there is none, or when it would enter a space twice (which walks may not)."""
    nb, spaces = board.neighbours, board.spaces
    first: tuple[str, Any] = (start, None)
    parent: dict[tuple[str, Any], tuple[str, Any] | None] = {first: None}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        count[0] += 1
        space, came = state
        sp = spaces[space]
        for nxt, track, direction in nb[space]:
            if nxt == start or nxt in banned:
                continue
            if came is not None and sp.no_turn and (track, direction) != came:
                continue
            step = (nxt, (track, direction))
            if step in parent:
                continue
            parent[step] = state
            if nxt == dest:
                path: list[str] = []
                at: tuple[str, Any] | None = step
                while at is not None and at != first:
                    path.append(at[0])
                    at = parent[at]
                path.reverse()
                return path if len(set(path)) == len(path) else None
            queue.append(step)
    return None


def reachable(piece: Any, steps: int, exact: bool = True) -> list[SpaceV]:
    """Spaces a piece on the board can end on moving `steps` spaces (exactly, or up to)."""
    st, start = _board_of(piece)
    if steps > 64:
        raise EvalError("moves longer than 64 spaces are not supported")
    visits = [0]
    try:
        ends = walk_ends(st, start, steps, exact, st.trail_of(piece.pid if isinstance(piece, PieceV) else None), visits)
    finally:
        budget.charge(visits[0])
    return [SpaceV(st, s) for s in ends]


def spaces(zone: Any) -> list[SpaceV]:
    """Every space of the board, in definition order."""
    z = _zone_arg(zone, "spaces")
    return [SpaceV(z.state, s) for s in z.state.game.board.spaces]


def space(zone: Any, sid: Any) -> SpaceV:
    """The space of the board with the id `sid`."""
    z = _zone_arg(zone, "space")
    board = z.state.game.board
    if board is None:
        raise EvalError("space() needs the board zone of a game with a board")
    known = board.spaces
    if sid not in known:
        raise EvalError(f"the board has no space {sid!r}{did_you_mean(str(sid), list(known))}")
    return SpaceV(z.state, sid)


# ------------------------------------------------------------------ misc


def _matches(given: Any, answer: Any, alternates: Any) -> bool:
    if given is None:
        return False
    return answer_matches(str(given), answer, list(alternates or ()))


def _text(v: Any) -> str:
    """text(): its length counts as work, and a list stops growing at the work allowance (text()
    of ten thousand copies of a 500,000-character text built 5 GB)."""
    out = display(v, limit=budget.MAX_WORK)
    if len(out) > 64:
        budget.charge(len(out))
    return out


def overlap(a: Any, b: Any) -> bool:
    """True when two lists share at least one element."""
    if not a or not b:
        return False
    try:
        return not set(a).isdisjoint(b)
    except TypeError:  # unhashable elements (lists of lists)
        return any(x in b for x in a)


def _space_t() -> Type:
    return RecordType("space", {})


def engine_functions(types: Any) -> Any:
    """The function library for one game, typed with that game's record types."""

    def _places(fname: str, args: list[Type], which: tuple[int, ...], result: Type) -> Type:
        """`result`, once the arguments at `which` are spaces or pieces (or not known until run)."""
        for i in which:
            t = args[i]
            if not (t is ANY or assignable(t, types.piece) or assignable(t, types.space)):
                wrong = ExprTypeError(f"argument {i + 1} of {fname}() must be a space or a piece on the board, got {describe(t)}")
                wrong.arg = i  # type: ignore[attr-defined]
                raise wrong
        return result

    # The fields the components declare, which lines() may read (unknown outside a game: the
    # helpers' own documentation checks its examples without one).
    fields = getattr(types, "component_fields", None)
    fields = fields if isinstance(fields, frozenset) else None

    return BUILTINS.extend(
        [
            Function(
                "free_cells",
                "Empty cells of a grid where a piece may be placed (adjacent, within the grid's bounds).",
                ('count(free_cells(grid)) > 0',),
                (types.zone,),
                lambda args: ListType(types.cell),
                free_cells,
            ),
            Function(
                "lines",
                "How many lines of N cells have top pieces sharing a value: lines(grid, 3, \"symbols\", \"cat\").",
                ('lines(grid, 3, "symbols", "cat") > 0',),
                (types.zone, INT, STR, ANY, BOOL),
                INT,
                lines,
                min_args=4,
                max_args=5,
                field_args=(types.piece, fields, 2, 3) if fields is not None else None,
            ),
            Function(
                "lines_through",
                "Like lines(), counting only lines through a given cell.",
                ('lines_through(grid, played.cell, 3, "symbols", "cat", false) > 0',),
                (types.zone, types.cell, INT, STR, ANY, BOOL),
                INT,
                lines_through,
                min_args=5,
                max_args=6,
                field_args=(types.piece, fields, 3, 4) if fields is not None else None,
            ),
            Function(
                "distance",
                "Fewest steps from a space (or piece on the board) to another, one-way tracks in their direction; "
                "-1 when unreachable.",
                ("distance(pawn, target) <= 6",),
                (ANY, ANY),
                lambda args: _places("distance", args, (0, 1), INT),
                distance,
            ),
            Function(
                "reachable",
                "Spaces a piece (or a move from a space) can end on moving N spaces (exact=true) or 1..N "
                "spaces (exact=false).",
                ("reachable(pawn, roll, roll != 5)",),
                (ANY, INT, BOOL),
                lambda args: _places("reachable", args, (0,), ListType(types.space)),
                reachable,
                min_args=2,
                max_args=3,
            ),
            Function(
                "spaces",
                "Every space of a board zone.",
                ('spaces(board) where type == "clue"',),
                (types.zone,),
                lambda args: ListType(types.space),
                spaces,
            ),
            Function(
                "space",
                "The space of a board zone with this id.",
                ("distance(pawn, space(board, 'goal'))",),
                (types.zone, STR),
                types.space,
                space,
            ),
            Function(
                "answer_matches",
                "Whether a given answer matches (case, accents, punctuation, articles, number words, small typos).",
                ("answer_matches(given, card.answer, card.alternates)",),
                (STR, ANY, ListType(ANY)),
                BOOL,
                _matches,
            ),
            Function(
                "text",
                "The text form of a value: text(7) == \"7\".",
                ('value == text(target.number)',),
                (ANY,),
                STR,
                _text,
            ),
            Function(
                "overlap",
                "True when two lists share at least one element.",
                ("overlap(card.symbols, target.top.symbols)",),
                (ListType(ANY), ListType(ANY)),
                BOOL,
                overlap,
            ),
        ]
    )

_unused = (BOOL, _rec, _space_t)


class _AnyRecords:
    """Whatever record type `engine_functions` asks for (zone, cell, piece...), without fields."""

    def __getattr__(self, name: str) -> RecordType:
        return RecordType(name, {})


def helper_names() -> list[str]:
    """The engine helpers (functions of game files beyond the expression language's built-ins)."""
    library = engine_functions(_AnyRecords())
    return sorted(name for name in library if library[name] is not BUILTINS.get(name))
