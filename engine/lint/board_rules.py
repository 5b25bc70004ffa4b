"""Lint rules for board graphs (DV301-DV313).

Some checks hold for every board (known space types, a start, every track space reachable,
sensible tracks). The others are asked for by the game itself in its `lint:` section, so the
engine needs no game's vocabulary: which space types must exist, which types are markers that
no move may reach, which attribute values need exactly one space each, minimum counts, and
numbered series. The section's shape:

```yaml
lint:
  required_space_types: [start, goal]          # DV305: at least one space of each
  marker_space_types: [score]                  # DV303/DV304: on no track, never reachable
  one_space_per:                               # DV306: exactly one space per value
    - {type: goal, attr: colour, values: [red, blue]}
  space_attr_values:                           # DV307: the attribute takes one of the values
    - {type: field, attr: colour, values: [red, blue]}
  min_spaces:                                  # DV308: enough spaces (names: min_players, max_players)
    - {type: score, count_expr: "max_players - 1"}
  numbered_spaces:                             # DV309: numbers 1..N, each once
    - {type: score, attr: number}
```
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from davinci.engine.errors import DavinciError
from davinci.engine.lint.context import LintContext
from davinci.engine.lint.registry import Problem, rule

Path = list[str | int]

# The keys of the `lint:` section this module reads, and what each holds.
SECTION_KEYS: dict[str, str] = {
    "required_space_types": "a list of space types",
    "marker_space_types": "a list of space types",
    "one_space_per": "a list of {type, attr, values}",
    "space_attr_values": "a list of {type, attr, values}",
    "min_spaces": "a list of {type, count_expr}",
    "numbered_spaces": "a list of {type, attr}",
    "achievable": "a list of {values_of, in, at_least}",
}
ENTRY_KEYS: dict[str, tuple[str, ...]] = {
    "one_space_per": ("type", "attr", "values"),
    "space_attr_values": ("type", "attr", "values"),
    "min_spaces": ("type", "count_expr"),
    "numbered_spaces": ("type", "attr"),
    "achievable": ("values_of", "in", "at_least"),
}


# ---------------------------------------------------------------------------- reading the board


def _board(ctx: LintContext) -> Mapping[str, Any] | None:
    data = ctx.data
    if not isinstance(data, dict):
        return None
    board = data.get("board")
    return board if isinstance(board, dict) else None


def _spaces(board: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """(index, space) for every well-formed space (the schema reports the others)."""
    out: list[tuple[int, Mapping[str, Any]]] = []
    for i, sp in enumerate(board.get("spaces") or []):
        if isinstance(sp, dict) and isinstance(sp.get("id"), str):
            out.append((i, sp))
    return out


def _tracks(board: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    return [(i, t) for i, t in enumerate(board.get("tracks") or []) if isinstance(t, dict)]


def _neighbours(board: Mapping[str, Any]) -> dict[str, set[str]]:
    ids = {str(sp["id"]) for _, sp in _spaces(board)}
    nb: dict[str, set[str]] = {s: set() for s in ids}
    for _, tr in _tracks(board):
        seq = [str(s) for s in tr.get("spaces") or [] if str(s) in ids]
        pairs = list(zip(seq, seq[1:]))
        if tr.get("loop") and len(seq) > 2:
            pairs.append((seq[-1], seq[0]))
        for a, b in pairs:
            if a != b:
                nb[a].add(b)
                if not tr.get("one_way"):
                    nb[b].add(a)
    return nb


def _on_tracks(board: Mapping[str, Any]) -> dict[str, int]:
    """Space id -> how many tracks list it."""
    count: dict[str, int] = {}
    for _, tr in _tracks(board):
        for s in {str(x) for x in tr.get("spaces") or []}:
            count[s] = count.get(s, 0) + 1
    return count


def _section(ctx: LintContext) -> Mapping[str, Any]:
    data = ctx.data
    sec = data.get("lint") if isinstance(data, dict) else None
    return sec if isinstance(sec, dict) else {}


def _entries(ctx: LintContext, key: str) -> list[tuple[int, Mapping[str, Any]]]:
    """Well-formed entries of a list-of-mappings key of the `lint:` section (DV313 reports the rest)."""
    raw = _section(ctx).get(key)
    if not isinstance(raw, list):
        return []
    need = ENTRY_KEYS.get(key, ())
    return [(i, e) for i, e in enumerate(raw) if isinstance(e, dict) and all(k in e for k in need)]


def _type_list(ctx: LintContext, key: str) -> list[tuple[int, str]]:
    raw = _section(ctx).get(key)
    if not isinstance(raw, list):
        return []
    return [(i, str(t)) for i, t in enumerate(raw) if isinstance(t, str)]


def _known(name: str, options: Sequence[str]) -> str:
    near = difflib.get_close_matches(name, list(options), 1)
    return f" (did you mean '{near[0]}'?)" if near else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---------------------------------------------------------------------------- rules for every board


@rule("DV301", "unknown-space-type", kinds=("game",))
def unknown_space_type(ctx: LintContext) -> Iterator[Problem]:
    """Every space's `type` is one of `board.space_types` (when the list is given), and every space
    type the `lint:` section names is one of them too.

    Why: a misspelt type makes a space do nothing (no flow step tests for it), silently.

    Failing:

    ```yaml
    board:
      space_types: [start, clue]
      spaces:
        - {id: a, type: cleu}
    ```

    Passing:

    ```yaml
    board:
      space_types: [start, clue]
      spaces:
        - {id: a, type: clue}
    ```
    """
    board = _board(ctx)
    if board is None:
        return
    declared = [str(t) for t in board.get("space_types") or []]
    if not declared:
        return
    for i, sp in _spaces(board):
        typ = str(sp.get("type"))
        if typ not in declared:
            # Same wording as the build step, so lint reports the problem once.
            yield Problem(
                ctx.at(["board", "spaces", i, "type"]),
                "DV301",
                f"unknown space type '{typ}'{_known(typ, sorted(declared))}",
                "unknown-space-type",
            )
    for key in ("required_space_types", "marker_space_types"):
        for i, typ in _type_list(ctx, key):
            if typ not in declared:
                yield Problem(
                    ctx.at(["lint", key, i]),
                    "DV301",
                    f"lint names unknown space type '{typ}'{_known(typ, declared)}",
                    "unknown-space-type",
                )
    for key in ENTRY_KEYS:
        for i, e in _entries(ctx, key):
            typ = str(e.get("type"))
            if typ not in declared:
                yield Problem(
                    ctx.at(["lint", key, i, "type"]),
                    "DV301",
                    f"lint names unknown space type '{typ}'{_known(typ, declared)}",
                    "unknown-space-type",
                )


@rule("DV302", "board-start", kinds=("game",))
def board_start(ctx: LintContext) -> Iterator[Problem]:
    """A board with tracks names its `start` space, and the start lies on a track.

    Why: pieces are placed on the start space; a start that no track touches can never be left.

    Failing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}, {id: b, type: plain}, {id: home, type: plain}]
      tracks: [{spaces: [a, b]}]
      start: home
    ```

    Passing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}, {id: b, type: plain}, {id: home, type: plain}]
      tracks: [{spaces: [home, a, b]}]
      start: home
    ```
    """
    board = _board(ctx)
    if board is None or not _tracks(board):
        return
    start = board.get("start")
    if start is None:
        yield Problem(ctx.at(["board"], key=True), "DV302", "the board has tracks but no `start` space", "board-start")
        return
    ids = {str(sp["id"]) for _, sp in _spaces(board)}
    if str(start) in ids and not _on_tracks(board).get(str(start)):
        yield Problem(
            ctx.at(["board", "start"]), "DV302", f"the start space '{start}' lies on no track", "board-start"
        )


@rule("DV303", "unreachable-space", kinds=("game",))
def unreachable_space(ctx: LintContext) -> Iterator[Problem]:
    """Every space can be reached from the start along the tracks, except marker spaces (types listed
    in `lint.marker_space_types`, such as score or bid spaces), which must lie on no track.

    Why: a space no move can reach is dead board; a board in two pieces strands whoever starts on
    the wrong one.

    Failing:

    ```yaml
    board:
      start: a
      spaces: [{id: a, type: plain}, {id: b, type: plain}, {id: c, type: plain}]
      tracks: [{spaces: [a, b]}]          # c is on no track
    ```

    Passing:

    ```yaml
    board:
      start: a
      spaces: [{id: a, type: plain}, {id: b, type: plain}, {id: c, type: score}]
      tracks: [{spaces: [a, b]}]
    lint:
      marker_space_types: [score]
    ```
    """
    board = _board(ctx)
    if board is None or not _tracks(board):
        return
    markers = {t for _, t in _type_list(ctx, "marker_space_types")}
    nb = _neighbours(board)  # one way along a one_way track
    on_tracks = _on_tracks(board)
    start = board.get("start")
    seen: set[str] = set()
    if isinstance(start, str) and start in nb:
        seen.add(start)
        queue = deque([start])
        while queue:
            s = queue.popleft()
            for n in sorted(nb[s]):
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
    for i, sp in _spaces(board):
        sid, typ = str(sp["id"]), str(sp.get("type"))
        if typ in markers or sid in seen:
            continue
        if not on_tracks.get(sid):
            msg = f"space '{sid}' lies on no track (list its type under lint.marker_space_types if it is a marker)"
        elif isinstance(start, str) and start in nb:
            msg = f"space '{sid}' cannot be reached from the start space '{start}'"
        else:
            continue
        yield Problem(ctx.at(["board", "spaces", i, "id"]), "DV303", msg, "unreachable-space")


@rule("DV304", "marker-on-track", kinds=("game",))
def marker_on_track(ctx: LintContext) -> Iterator[Problem]:
    """Marker spaces (`lint.marker_space_types`) lie on no track, so no move can end on them.

    Why: markers (bid or score spaces) hold pieces beside the game; a piece that walks onto one
    would be mistaken for a bid.

    Failing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}, {id: bid1, type: bid, number: 1}]
      tracks: [{spaces: [a, bid1]}]
      start: a
    lint:
      marker_space_types: [bid]
    ```

    Passing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}, {id: b, type: plain}, {id: bid1, type: bid, number: 1}]
      tracks: [{spaces: [a, b]}]
      start: a
    lint:
      marker_space_types: [bid]
    ```
    """
    board = _board(ctx)
    if board is None:
        return
    markers = {t for _, t in _type_list(ctx, "marker_space_types")}
    if not markers:
        return
    kinds = {str(sp["id"]): str(sp.get("type")) for _, sp in _spaces(board)}
    for ti, tr in _tracks(board):
        for si, s in enumerate(tr.get("spaces") or []):
            if kinds.get(str(s)) in markers:
                yield Problem(
                    ctx.at(["board", "tracks", ti, "spaces", si]),
                    "DV304",
                    f"marker space '{s}' (type {kinds[str(s)]}) is on a track: moves could reach it",
                    "marker-on-track",
                )


@rule("DV310", "track-shape", kinds=("game",))
def track_shape(ctx: LintContext) -> Iterator[Problem]:
    """A track lists each space once and has at least two spaces (three for a `loop`).

    Why: a space listed twice joins the track to itself and moves could loop back or stand still;
    a one-space track joins nothing.

    Failing:

    ```yaml
    tracks:
      - {id: lane, spaces: [a, b, a]}
    ```

    Passing:

    ```yaml
    tracks:
      - {id: lane, spaces: [a, b, c], loop: true}
    ```
    """
    board = _board(ctx)
    if board is None:
        return
    for ti, tr in _tracks(board):
        seq = [str(s) for s in tr.get("spaces") or []]
        name = str(tr.get("id", f"#{ti + 1}"))
        first: dict[str, int] = {}
        for si, s in enumerate(seq):
            if s in first:
                yield Problem(
                    ctx.at(["board", "tracks", ti, "spaces", si]),
                    "DV310",
                    f"track '{name}' lists space '{s}' twice (also at position {first[s] + 1})",
                    "track-shape",
                )
            else:
                first[s] = si
        least = 3 if tr.get("loop") else 2
        if len(seq) < least:
            what = "a loop" if tr.get("loop") else "a track"
            yield Problem(
                ctx.at(["board", "tracks", ti]),
                "DV310",
                f"track '{name}' has {_plural(len(seq), 'space')}; {what} needs at least {least}",
                "track-shape",
            )


@rule("DV311", "no-turn-without-junction", severity="warning", kinds=("game",))
def no_turn_without_junction(ctx: LintContext) -> Iterator[Problem]:
    """A `no_turn` space lies on at least two tracks; otherwise there is no direction to change and
    the flag does nothing.

    Why: it usually means a track was forgotten or the flag was put on the wrong space.

    Failing:

    ```yaml
    spaces:
      - {id: m, type: plain, no_turn: true}     # only on track `ring`
    ```

    Passing:

    ```yaml
    spaces:
      - {id: m, type: plain, no_turn: true}     # where tracks `north` and `east` cross
    ```
    """
    board = _board(ctx)
    if board is None:
        return
    on = _on_tracks(board)
    for i, sp in _spaces(board):
        if sp.get("no_turn") is True and on.get(str(sp["id"]), 0) < 2:
            yield Problem(
                ctx.at(["board", "spaces", i, "no_turn"]),
                "DV311",
                f"space '{sp['id']}' is marked no_turn but lies on {_plural(on.get(str(sp['id']), 0), 'track')}",
                "no-turn-without-junction",
                "warning",
            )


@rule("DV312", "drawing-position", severity="warning", kinds=("game",))
def drawing_position(ctx: LintContext) -> Iterator[Problem]:
    """When spaces carry drawing positions (`at: [column, row]`), every space has one and no two
    share one.

    Why: screens draw the board from these positions; a missing or shared one hides a space.

    Failing:

    ```yaml
    spaces:
      - {id: a, type: plain, at: [4, 2]}
      - {id: b, type: plain, at: [4, 2]}
    ```

    Passing:

    ```yaml
    spaces:
      - {id: a, type: plain, at: [4, 2]}
      - {id: b, type: plain, at: [8, 2]}
    ```
    """
    board = _board(ctx)
    if board is None:
        return
    spaces = _spaces(board)
    if not any("at" in sp for _, sp in spaces):
        return
    taken: dict[tuple[Any, ...], str] = {}
    for i, sp in spaces:
        at = sp.get("at")
        if not isinstance(at, list):
            yield Problem(
                ctx.at(["board", "spaces", i, "id"]),
                "DV312",
                f"space '{sp['id']}' has no drawing position (`at`) while others do",
                "drawing-position",
                "warning",
            )
            continue
        key = tuple(at)
        if key in taken:
            yield Problem(
                ctx.at(["board", "spaces", i, "at"]),
                "DV312",
                f"space '{sp['id']}' is drawn at the same position as '{taken[key]}'",
                "drawing-position",
                "warning",
            )
        else:
            taken[key] = str(sp["id"])


# ---------------------------------------------------------------------------- rules the game asks for


@rule("DV305", "required-space-type", kinds=("game",))
def required_space_type(ctx: LintContext) -> Iterator[Problem]:
    """Each type in `lint.required_space_types` has at least one space on the board.

    Why: the flow relies on these spaces (a start, a goal); a board edited without them would play
    but never reach the part of the rules they carry.

    Failing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}]
    lint:
      required_space_types: [plain, goal]
    ```

    Passing:

    ```yaml
    board:
      spaces: [{id: a, type: plain}, {id: g, type: goal}]
    lint:
      required_space_types: [plain, goal]
    ```
    """
    board = _board(ctx) or {}
    present = {str(sp.get("type")) for _, sp in _spaces(board)}
    for i, typ in _type_list(ctx, "required_space_types"):
        if typ not in present:
            yield Problem(
                ctx.at(["lint", "required_space_types", i]),
                "DV305",
                f"the board has no space of type '{typ}'",
                "required-space-type",
            )


@rule("DV306", "one-space-per-value", kinds=("game",))
def one_space_per_value(ctx: LintContext) -> Iterator[Problem]:
    """For each `lint.one_space_per` entry, the spaces of that `type` carry the attribute `attr`
    with each of `values` exactly once, and no other value.

    Why: rules such as "one goal space per colour" are properties of the board data; a
    copy-paste slip (two red goals, no blue one) would otherwise only show in play.

    Failing:

    ```yaml
    board:
      spaces:
        - {id: g1, type: goal, colour: red}
        - {id: g2, type: goal, colour: red}
    lint:
      one_space_per: [{type: goal, attr: colour, values: [red, blue]}]
    ```

    Passing:

    ```yaml
    board:
      spaces:
        - {id: g1, type: goal, colour: red}
        - {id: g2, type: goal, colour: blue}
    lint:
      one_space_per: [{type: goal, attr: colour, values: [red, blue]}]
    ```
    """
    board = _board(ctx) or {}
    for ei, e in _entries(ctx, "one_space_per"):
        typ, attr = str(e["type"]), str(e["attr"])
        values = [v for v in e.get("values") or []] if isinstance(e.get("values"), list) else []
        seen: dict[Any, str] = {}
        for i, sp in _spaces(board):
            if str(sp.get("type")) != typ:
                continue
            v = sp.get(attr)
            if v not in values:
                yield Problem(
                    ctx.at(["board", "spaces", i, attr] if attr in sp else ["board", "spaces", i, "id"]),
                    "DV306",
                    f"{typ} space '{sp['id']}' has {attr} {v!r}, not one of {', '.join(map(str, values))}",
                    "one-space-per-value",
                )
            elif v in seen:
                yield Problem(
                    ctx.at(["board", "spaces", i, attr]),
                    "DV306",
                    f"a second {typ} space for {attr} {v!r} ('{sp['id']}'; the first is '{seen[v]}')",
                    "one-space-per-value",
                )
            else:
                seen[v] = str(sp["id"])
        for vi, v in enumerate(values):
            if v not in seen:
                yield Problem(
                    ctx.at(["lint", "one_space_per", ei, "values", vi]),
                    "DV306",
                    f"no {typ} space has {attr} {v!r}",
                    "one-space-per-value",
                )


@rule("DV307", "space-attr-values", kinds=("game",))
def space_attr_values(ctx: LintContext) -> Iterator[Problem]:
    """For each `lint.space_attr_values` entry, every space of that `type` has the attribute `attr`
    set to one of `values`.

    Why: a clue space whose category is misspelt would draw from no deck.

    Failing:

    ```yaml
    board:
      spaces: [{id: c1, type: clue, category: place}]
    lint:
      space_attr_values: [{type: clue, attr: category, values: [places, riddles]}]
    ```

    Passing:

    ```yaml
    board:
      spaces: [{id: c1, type: clue, category: places}]
    lint:
      space_attr_values: [{type: clue, attr: category, values: [places, riddles]}]
    ```
    """
    board = _board(ctx) or {}
    for _ei, e in _entries(ctx, "space_attr_values"):
        typ, attr = str(e["type"]), str(e["attr"])
        values = list(e["values"]) if isinstance(e.get("values"), list) else []
        for i, sp in _spaces(board):
            if str(sp.get("type")) != typ:
                continue
            if attr not in sp:
                yield Problem(
                    ctx.at(["board", "spaces", i, "id"]),
                    "DV307",
                    f"{typ} space '{sp['id']}' has no {attr}",
                    "space-attr-values",
                )
            elif sp[attr] not in values:
                hint = _known(str(sp[attr]), [str(v) for v in values])
                yield Problem(
                    ctx.at(["board", "spaces", i, attr]),
                    "DV307",
                    f"{typ} space '{sp['id']}' has {attr} {sp[attr]!r}, not one of "
                    f"{', '.join(map(str, values))}{hint}",
                    "space-attr-values",
                )


@rule("DV308", "min-spaces", kinds=("game",))
def min_spaces(ctx: LintContext) -> Iterator[Problem]:
    """For each `lint.min_spaces` entry, the board has at least `count_expr` spaces of that `type`.
    `count_expr` is a rule expression over `min_players` and `max_players` (the game's `players`).

    Why: some spaces scale with the table ("a bid space for every team but the reader"); the
    check ties the board to the player count so raising `players.max` cannot silently break it.

    Failing:

    ```yaml
    players: {min: 3, max: 6}
    board:
      spaces: [{id: b1, type: bid, number: 1}]
    lint:
      min_spaces: [{type: bid, count_expr: "max_players - 1"}]
    ```

    Passing: five `bid` spaces (b1-b5).
    """
    board = _board(ctx) or {}
    entries = _entries(ctx, "min_spaces")
    if not entries:
        return
    players = ctx.data.get("players") if isinstance(ctx.data, dict) else None
    names = {
        "min_players": int((players or {}).get("min", 1)) if isinstance(players, dict) else 1,
        "max_players": int((players or {}).get("max", 1)) if isinstance(players, dict) else 1,
    }
    for ei, e in entries:
        path: Path = ["lint", "min_spaces", ei, "count_expr"]
        try:
            need = _evaluate(ctx, str(e["count_expr"]), path, names)
        except DavinciError as err:
            yield Problem(err.location or ctx.at(path), "DV313", err.message, "lint-section")
            continue
        typ = str(e["type"])
        have = sum(1 for _, sp in _spaces(board) if str(sp.get("type")) == typ)
        if have < need:
            yield Problem(
                ctx.at(["lint", "min_spaces", ei]),
                "DV308",
                f"the board has {_plural(have, typ + ' space')}; {e['count_expr']} needs {need}",
                "min-spaces",
            )


def _evaluate(ctx: LintContext, source: str, path: Path, names: Mapping[str, int]) -> int:
    from davinci.engine.expr import INT, compile_expr

    def locate(offset: int) -> Any:
        return ctx.doc.scalar_loc(path, offset)

    fn = compile_expr(source, {k: INT for k in names}, expect=INT, locate=locate)
    return int(fn(dict(names)))


@rule("DV309", "numbered-spaces", kinds=("game",))
def numbered_spaces(ctx: LintContext) -> Iterator[Problem]:
    """For each `lint.numbered_spaces` entry, the spaces of that `type` carry the numbers 1, 2, ...
    N in their attribute `attr`, each exactly once.

    Why: numbered spaces (bid order, score track) are looked up by number; a gap or a repeat
    makes one of them unreachable.

    Failing:

    ```yaml
    spaces:
      - {id: b1, type: bid, number: 1}
      - {id: b2, type: bid, number: 3}
    ```

    Passing:

    ```yaml
    spaces:
      - {id: b1, type: bid, number: 1}
      - {id: b2, type: bid, number: 2}
    ```
    """
    board = _board(ctx) or {}
    for _ei, e in _entries(ctx, "numbered_spaces"):
        typ, attr = str(e["type"]), str(e["attr"])
        found: list[tuple[int, Mapping[str, Any]]] = [
            (i, sp) for i, sp in _spaces(board) if str(sp.get("type")) == typ
        ]
        used: dict[int, str] = {}
        for i, sp in found:
            v = sp.get(attr)
            where: Path = ["board", "spaces", i, attr] if attr in sp else ["board", "spaces", i, "id"]
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= len(found):
                yield Problem(
                    ctx.at(where),
                    "DV309",
                    f"{typ} space '{sp['id']}' has {attr} {v!r}; expected a number from 1 to {len(found)}",
                    "numbered-spaces",
                )
            elif v in used:
                yield Problem(
                    ctx.at(where),
                    "DV309",
                    f"{typ} spaces '{used[v]}' and '{sp['id']}' share {attr} {v}",
                    "numbered-spaces",
                )
            else:
                used[v] = str(sp["id"])


@rule("DV313", "lint-section", kinds=("game",))
def lint_section(ctx: LintContext) -> Iterator[Problem]:
    """The game's `lint:` section has only the keys the board rules read, each with its shape
    (see DV305-DV309), and its `count_expr` expressions compile.

    Why: a misspelt key would switch a check off without a word.

    Failing:

    ```yaml
    lint:
      required_types: [goal]
    ```

    Passing:

    ```yaml
    lint:
      required_space_types: [goal]
    ```
    """
    data = ctx.data
    sec = data.get("lint") if isinstance(data, dict) else None
    if sec is None:
        return
    if not isinstance(sec, dict):
        yield Problem(ctx.at(["lint"]), "DV313", "`lint` must be a mapping", "lint-section")
        return
    for key, value in sec.items():
        if key not in SECTION_KEYS:
            yield Problem(
                ctx.at(["lint", key], key=True),
                "DV313",
                f"unknown lint key '{key}'{_known(str(key), list(SECTION_KEYS))}",
                "lint-section",
            )
            continue
        if not isinstance(value, list):
            yield Problem(ctx.at(["lint", key]), "DV313", f"`{key}` must be {SECTION_KEYS[key]}", "lint-section")
            continue
        need = ENTRY_KEYS.get(key)
        for i, item in enumerate(value):
            if need is None:
                if not isinstance(item, str):
                    yield Problem(ctx.at(["lint", key, i]), "DV313", f"`{key}` lists space types (text)", "lint-section")
                continue
            if not isinstance(item, dict):
                yield Problem(ctx.at(["lint", key, i]), "DV313", f"`{key}` entries are mappings", "lint-section")
                continue
            missing = [k for k in need if k not in item]
            extra = [k for k in item if k not in need]
            if missing:
                yield Problem(
                    ctx.at(["lint", key, i]),
                    "DV313",
                    f"`{key}` entry lacks {', '.join(missing)}",
                    "lint-section",
                )
            for k in extra:
                yield Problem(
                    ctx.at(["lint", key, i, k], key=True),
                    "DV313",
                    f"unknown key '{k}' in a `{key}` entry (keys: {', '.join(need)})",
                    "lint-section",
                )
            if "values" in need and "values" in item and not isinstance(item["values"], list):
                yield Problem(ctx.at(["lint", key, i, "values"]), "DV313", "`values` must be a list", "lint-section")


def _component_values(data: Any, ref: Any) -> list[Any] | None:
    """Every instance's value of `component.field` (items and products, times copies)."""
    if not isinstance(ref, str) or "." not in ref:
        return None
    comp_name, fname = ref.split(".", 1)
    comps = data.get("components") if isinstance(data, dict) else None
    comp = comps.get(comp_name) if isinstance(comps, dict) else None
    if not isinstance(comp, dict) or fname not in (comp.get("fields") or {}):
        return None
    from davinci.engine.definition import product_items

    copies = comp.get("copies", 1) if isinstance(comp.get("copies", 1), int) else 1
    items = [i for i in comp.get("items") or [] if isinstance(i, dict)]
    if isinstance(comp.get("product"), dict):
        items.extend(product_items(comp["product"]))

    def count(item: dict[str, Any]) -> int:  # an item's own `copies` (a number), else the component's
        own = item.get("copies", copies)
        return own if isinstance(own, int) and not isinstance(own, bool) else 1

    return [i.get(fname) for i in items for _ in range(count(i))]


@rule("DV314", "values-achievable", kinds=("game",))
def values_achievable(ctx: LintContext) -> Iterator[Problem]:
    """Every value of one component field can be collected: for each entry of the game's
    `lint.achievable`, each distinct value of `values_of` (COMPONENT.FIELD) appears on at least
    `at_least` instances of `in` (COMPONENT.FIELD; a list field counts when it contains the value).

    Why: a goal that needs three matching pieces is unwinnable when the pieces do not exist.

    Failing:

    ```yaml
    lint:
      achievable:
        - {values_of: goal.colour, in: card.colours, at_least: 3}
    # ...but only two cards show "green"
    ```

    Passing: every goal colour is on three or more cards.
    """
    data = ctx.data
    sec = data.get("lint") if isinstance(data, dict) else None
    entries = sec.get("achievable") if isinstance(sec, dict) else None
    if not isinstance(entries, list):
        return
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        wanted = _component_values(data, e.get("values_of"))
        pool = _component_values(data, e.get("in"))
        for key, got in (("values_of", wanted), ("in", pool)):
            if got is None:
                yield Problem(
                    ctx.at(["lint", "achievable", i, key]),
                    "DV314",
                    f"'{e.get(key)}' is not COMPONENT.FIELD of a declared component field",
                    "values-achievable",
                )
        if wanted is None or pool is None:
            continue
        need = e.get("at_least", 1)
        need = need if isinstance(need, int) else 1
        for value in sorted({v for v in wanted if v is not None}, key=str):
            n = sum(1 for p in pool if (value in p if isinstance(p, list) else p == value))
            if n < need:
                yield Problem(
                    ctx.at(["lint", "achievable", i]),
                    "DV314",
                    f"'{value}' ({e.get('values_of')}) is on {n} of {e.get('in')}, fewer than {need}: it cannot be achieved",
                    "values-achievable",
                )


__all__ = ["SECTION_KEYS"]
