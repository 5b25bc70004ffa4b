"""Bots for Da Vinci Code: `naive` and `deducer`.

Both see only a seat's view. The deducer keeps, per hidden tile, the values that failed
guesses have ruled out; it follows tiles across views (rows grow as tiles are inserted, so a
tile's `row.S.I` label shifts) by aligning each row with its previous shape, and it reads the
failed guesses of every player from the view's event log. From that it counts, row by row,
every assignment of unknown tiles to hidden places that respects the sorted order (black
before white on ties), the colours and the ruled-out values; a value's share of those
assignments is its probability.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from davinci.engine.actions import Action
from davinci.engine.bots import SeededBot

GAME_ID = "da-vinci-code"
COLOURS = ("black", "white")
NUMBERS = tuple(range(12))
JOKER = -1  # a joker's number in the game data; also its "value" in candidate sets
ROW = "row"

Tile = tuple[int, str]  # (number or JOKER, colour)
Exclusions = dict[int, list[frozenset[int]]]  # seat (1-based) -> per row place, values ruled out


def value_text(value: int) -> str:
    """The text a guess uses for a value: digits, or 'joker'."""
    return "joker" if value == JOKER else str(value)


def parse_value(text: str) -> int | None:
    """The value named by a guess's text, or None."""
    if text == "joker":
        return JOKER
    return int(text) if text.isdigit() else None


def sort_key(number: int, colour: str) -> int:
    """The row order of a numbered tile: ascending, black before white on equal numbers."""
    return number * 2 + (0 if colour == "black" else 1)


@dataclass(frozen=True)
class Seen:
    """One tile of a row as a view shows it; `number` is None when the viewer cannot see it."""

    ref: str
    colour: str
    number: int | None
    revealed: bool

    @property
    def known(self) -> bool:
        """Whether the viewer sees this tile's number."""
        return self.number is not None


def _seen(p: dict[str, Any]) -> Seen:
    # Only fields the viewer is entitled to are read: never `kind`, which names the component.
    num = p.get("number")
    return Seen(str(p["ref"]), str(p.get("colour", "")), int(num) if isinstance(num, int) else None, bool(p.get("revealed")))


def read_rows(view: dict[str, Any]) -> dict[int, list[Seen]]:
    """Every seat's row (1-based seat -> tiles left to right)."""
    out: dict[int, list[Seen]] = {}
    for s in view["seats"]:
        z = s["zones"].get(ROW) or {}
        out[int(s["index"])] = [_seen(p) for p in z.get("pieces", ())]
    return out


def read_drawn(view: dict[str, Any], seat: int) -> list[Seen]:
    """The tiles a seat has drawn this turn (numbers visible only to their owner)."""
    s = view["seats"][seat - 1]
    z = s["zones"].get("drawn") or {}
    return [_seen(p) for p in z.get("pieces", ())]


def universe(view: dict[str, Any]) -> set[Tile]:
    """All tiles of this game: 0-11 in both colours, plus the jokers when they are in play."""
    tiles = {(n, c) for n in NUMBERS for c in COLOURS}
    if view.get("settings", {}).get("jokers"):
        tiles |= {(JOKER, c) for c in COLOURS}
    return tiles


def published_tiles(view: dict[str, Any]) -> bool:
    """Whether the game in `view` has the published tiles (0-11 in both colours, and the jokers
    when they are in play), which the deductions of these bots assume: every number seen is one of
    them, and the tiles on the table number no more. A pack variant with other tiles (0-499, say)
    is played at random instead of on wrong counts."""
    total = int((view.get("zones", {}).get("pile") or {}).get("count", 0))
    for s in view["seats"]:
        for zname in (ROW, "drawn"):
            zone = s["zones"].get(zname) or {}
            total += int(zone.get("count", 0))
            for p in zone.get("pieces", ()):
                number = _seen(p).number
                if number is not None and number != JOKER and number not in NUMBERS:
                    return False
    return total <= len(universe(view))


def known_tiles(view: dict[str, Any], public_only: bool = False) -> set[Tile]:
    """Tiles whose place the viewer knows: every visible number (only revealed ones if `public_only`)."""
    out: set[Tile] = set()
    for s in view["seats"]:
        for zname in (ROW, "drawn"):
            for p in (s["zones"].get(zname) or {}).get("pieces", ()):
                t = _seen(p)
                if t.number is not None and (t.revealed or not public_only):
                    out.add((t.number, t.colour))
    return out


def parse_ref(ref: str) -> tuple[int, int] | None:
    """`row.S.I` -> (seat S, place I), both 1-based."""
    m = re.fullmatch(r"row\.(\d+)\.(\d+)", ref)
    return (int(m.group(1)), int(m.group(2))) if m else None


# --------------------------------------------------------------------------- the event log


@dataclass(frozen=True)
class Event:
    """A parsed log line: a guess's outcome, a stop, or a reveal of one's own tile."""

    kind: str  # "right" | "wrong" | "stop" | "reveal" | "placed" (where a drawn tile went in)
    actor: int  # 1-based seat
    target: tuple[int, int] | None = None
    value: int | None = None


def parse_events(lines: Iterable[str], names: Sequence[str]) -> list[Event]:
    """The events that matter to deduction, from log lines such as `Ana guessed row.2.3 = 7: wrong`."""
    out: list[Event] = []
    # Longest names first, so that "Player 1" never swallows the start of "Player 10".
    order = sorted(range(len(names)), key=lambda i: -len(names[i]))
    for line in lines:
        for i in order:
            name = names[i]
            if not line.startswith(name):
                continue
            rest = line[len(name) :]
            # Where the drawn tile went in, as the table saw (hidden after a stop, face up after a
            # wrong guess): it settles which tiles of the row moved up a place.
            m = re.fullmatch(r"(?: stops: the drawn tile goes in|'s drawn tile goes in face up) at (\S+)", rest)
            if m:
                tgt = parse_ref(m.group(1))
                if tgt is not None:
                    out.append(Event("placed", i + 1, tgt))
                break
            m = re.fullmatch(r" guessed (\S+) = (\S+): (right|wrong)", rest)
            if m:
                tgt, val = parse_ref(m.group(1)), parse_value(m.group(2))
                if tgt is not None and val is not None:
                    out.append(Event(m.group(3), i + 1, tgt, val))
                break
            if rest == ": stop":
                out.append(Event("stop", i + 1))
                break
            m = re.fullmatch(r": reveal (\S+)", rest)
            if m:
                out.append(Event("reveal", i + 1, parse_ref(m.group(1))))
                break
    return out


def new_lines(old: Sequence[str] | None, new: Sequence[str]) -> tuple[list[str], bool]:
    """The lines of `new` not in `old` (two windows of one log), and whether the two windows overlap."""
    if old is None:
        return list(new), False
    for k in range(min(len(old), len(new)), 0, -1):
        if list(old[len(old) - k :]) == list(new[:k]):
            return list(new[k:]), True
    # No overlap: either nothing was logged before, or more than a window's worth since.
    return list(new), len(old) == 0


def _turn_end(ev: Event) -> bool:
    # A stop or a wrong guess ends the actor's turn, and that is when the drawn tile joins the row.
    return ev.kind == "stop" or ev.kind == "wrong"


# --------------------------------------------------------------------------- following tiles


def _compatible(old: Seen, new: Seen) -> bool:
    if old.colour != new.colour:
        return False
    if old.number is not None:
        return new.number == old.number
    return True


def align(old: Sequence[Seen], new: Sequence[Seen]) -> list[list[int | None]]:
    """Every way the tiles of `old` can sit in `new` with one tile inserted (or none).

    Each result maps a place of `new` to the place of `old` it continues, or None for the
    newcomer. No result means the rows cannot be matched (more changed than one insertion).
    """
    grow = len(new) - len(old)
    if all(t.known for t in old) and all(t.known for t in new):
        # Every number is visible (the viewer's own row): match tiles by identity, which also
        # follows a joker its owner has just moved to its chosen place.
        where = {(t.number, t.colour): i for i, t in enumerate(old)}
        mapping = [where.get((t.number, t.colour)) for t in new]
        ok = grow in (0, 1) and sum(m is None for m in mapping) == grow
        return [mapping] if ok else []
    if grow == 0:
        if all(_compatible(o, n) for o, n in zip(old, new)):
            return [list(range(len(new)))]
        return []
    if grow != 1:
        return []
    out: list[list[int | None]] = []
    for j in range(len(new)):
        rest = [n for i, n in enumerate(new) if i != j]
        if all(_compatible(o, n) for o, n in zip(old, rest)):
            out.append([None if i == j else (i if i < j else i - 1) for i in range(len(new))])
    return out


def carry(old_excl: Sequence[frozenset[int]], maps: Sequence[Sequence[int | None]], size: int) -> list[frozenset[int]]:
    """Exclusions for the new row: what every possible matching agrees on (sound when ambiguous)."""
    if not maps:
        return [frozenset()] * size
    out: list[frozenset[int]] = []
    for k in range(size):
        sets = [old_excl[m[k]] if m[k] is not None else frozenset() for m in maps]  # type: ignore[index]
        common = sets[0]
        for s in sets[1:]:
            common = common & s
        out.append(common)
    return out


@dataclass
class _Memory:
    seat: int
    names: tuple[str, ...]
    turn: int
    rows: dict[int, list[Seen]]
    excl: Exclusions
    events: list[str]
    last_guess: tuple[int, int, int] | None = None  # seat, place (1-based), value; at `rows`' indexing


@dataclass
class Tracker:
    """Follows every row's hidden tiles from view to view and collects the values ruled out for each."""

    memory: dict[int, _Memory] = field(default_factory=dict)

    def update(self, view: dict[str, Any]) -> Exclusions:
        """Take in a new view of this seat; return the ruled-out values for every place of every row."""
        seat = int(view["seat"] or 0)
        names = (str(view.get("game")), str(view.get("variant")), *(str(s["name"]) for s in view["seats"]))
        rows = read_rows(view)
        mem = self.memory.get(seat)
        if mem is not None and not _continues(mem, names, int(view["turn"]), rows):
            mem = None  # another game, or a view too far from the last one to follow tiles
        lines, _ = new_lines(mem.events if mem else None, view["events"])
        events = parse_events(lines, names[2:])
        excl = exclusions_from(
            rows,
            events,
            old_rows=mem.rows if mem else None,
            old_excl=mem.excl if mem else None,
            last_guess=mem.last_guess if mem else None,
        )
        self.memory[seat] = _Memory(seat, names, int(view["turn"]), rows, excl, list(view["events"]))
        return excl

    def note_guess(self, seat: int, target: tuple[int, int], value: int) -> None:
        """Remember this seat's own guess, so its outcome is used even if the log overflows."""
        mem = self.memory.get(seat)
        if mem is not None:
            mem.last_guess = (target[0], target[1], value)


def _continues(mem: _Memory, names: tuple[str, ...], turn: int, rows: dict[int, list[Seen]]) -> bool:
    if mem.names != names or turn < mem.turn or set(mem.rows) != set(rows):
        return False
    # Between two views of one seat every row gains at most one tile and keeps all it had.
    return all(align(mem.rows[s], rows[s]) for s in rows)


def exclusions_from(
    rows: dict[int, list[Seen]],
    events: Sequence[Event],
    *,
    old_rows: dict[int, list[Seen]] | None = None,
    old_excl: Exclusions | None = None,
    last_guess: tuple[int, int, int] | None = None,
) -> Exclusions:
    """Ruled-out values per place, from the previous rows' exclusions and the events since.

    A failed guess names its target by its place at the time. A row only grows at the end of
    its owner's turn, so events on a row before that moment use the old places and later ones
    the new places. Without a previous view only events after the last such moment are used.
    """
    pre: dict[int, list[tuple[int, int]]] = {s: [] for s in rows}
    post: dict[int, list[tuple[int, int]]] = {s: [] for s in rows}
    end_at: dict[int, int] = {}
    placed = {ev.target[0]: ev.target[1] for ev in events if ev.kind == "placed" and ev.target is not None}
    for i, ev in enumerate(events):
        if _turn_end(ev):
            if old_rows is None:
                end_at[ev.actor] = i  # the last one counts
            else:
                end_at.setdefault(ev.actor, i)  # at most one turn per seat between two views
    for i, ev in enumerate(events):
        if ev.kind != "wrong" or ev.target is None or ev.value is None:
            continue
        seat, place = ev.target
        if seat not in rows:
            continue
        grew = old_rows is None or len(rows[seat]) != len(old_rows.get(seat, ()))
        when = end_at.get(seat)
        if not grew or when is None or i > when:
            post[seat].append((place, ev.value))
        elif old_rows is not None:
            pre[seat].append((place, ev.value))
    if last_guess is not None and old_rows is not None:
        pre.setdefault(last_guess[0], []).append((last_guess[1], last_guess[2]))
    out: Exclusions = {}
    for seat, row in rows.items():
        if old_rows is not None and old_excl is not None and seat in old_rows and seat in old_excl:
            before = [set(x) for x in old_excl[seat]]
            if len(before) != len(old_rows[seat]):
                before = [set() for _ in old_rows[seat]]
            for place, value in pre.get(seat, ()):
                if 1 <= place <= len(before) and not old_rows[seat][place - 1].revealed:
                    before[place - 1].add(value)
            maps = align(old_rows[seat], row)
            at = placed.get(seat)
            if at is not None:  # the log said where the new tile went in: the one matching that holds
                named = [m for m in maps if 1 <= at <= len(m) and m[at - 1] is None]
                maps = named or maps
            now = [set(x) for x in carry([frozenset(b) for b in before], maps, len(row))]
        else:
            now = [set() for _ in row]
        for place, value in post.get(seat, ()):
            if 1 <= place <= len(now):
                now[place - 1].add(value)
        out[seat] = [frozenset(x) for x in now]
    return out


# --------------------------------------------------------------------------- counting assignments

_NKEYS = 24


def row_counts(
    row: Sequence[Seen], excl: Sequence[frozenset[int]], unknown: set[Tile]
) -> tuple[int, list[dict[int, int] | None]]:
    """Count the assignments of unknown tiles to the row's hidden places that keep it legal.

    Returns the total and, per place, how many assignments give it each value (None for a
    place whose tile is visible). Numbered tiles must rise left to right; a joker may stand
    anywhere and each joker exists once.
    """
    jbit = {"black": 1, "white": 2}
    jokers = 0
    for colour, bit in jbit.items():
        if (JOKER, colour) in unknown:
            jokers |= bit
    masks = [m for m in range(4) if m & ~jokers == 0]
    slots: list[tuple[str, int, frozenset[int], int]] = []  # (kind, key, allowed numbers, joker bit)
    for i, t in enumerate(row):
        if t.number is not None:
            if t.number == JOKER:
                slots.append(("skip", 0, frozenset(), 0))
            else:
                slots.append(("fixed", sort_key(t.number, t.colour), frozenset(), 0))
            continue
        ex = excl[i] if i < len(excl) else frozenset()
        allowed = frozenset(n for n in NUMBERS if (n, t.colour) in unknown and n not in ex)
        jb = jbit.get(t.colour, 0) if (JOKER, t.colour) in unknown and JOKER not in ex else 0
        slots.append(("hidden", 0 if t.colour == "black" else 1, allowed, jb))
    size = _NKEYS + 1  # state k: the last numbered tile's key is k - 1 (k = 0: none yet)
    forward: list[dict[int, list[int]]] = []
    cur = {m: [0] * size for m in masks}
    cur[0][0] = 1
    for kind, key, allowed, jb in slots:
        forward.append(cur)
        nxt = {m: [0] * size for m in masks}
        if kind == "skip":
            nxt = {m: v[:] for m, v in cur.items()}
        else:
            for m in masks:
                src = cur[m]
                pre = _prefix(src)
                dst = nxt[m]
                if kind == "fixed":
                    dst[key + 1] = pre[key + 1]
                else:
                    for n in allowed:
                        k = n * 2 + key
                        dst[k + 1] += pre[k + 1]
                    if jb and not m & jb:
                        tgt = nxt[m | jb]
                        for k in range(size):
                            tgt[k] += src[k]
        cur = nxt
    total = sum(sum(v) for v in cur.values())
    backward = {m: [1] * size for m in masks}
    result: list[dict[int, int] | None] = [None] * len(slots)
    for i in range(len(slots) - 1, -1, -1):
        kind, key, allowed, jb = slots[i]
        f = forward[i]
        if kind == "hidden":
            counts: dict[int, int] = {}
            pres = {m: _prefix(f[m]) for m in masks}
            for n in allowed:
                k = n * 2 + key
                c = 0
                for m in masks:
                    c += pres[m][k + 1] * backward[m][k + 1]
                if c:
                    counts[n] = c
            if jb:
                c = 0
                for m in masks:
                    if not m & jb:
                        bm = backward[m | jb]
                        c += sum(x * y for x, y in zip(f[m], bm))
                if c:
                    counts[JOKER] = c
            result[i] = counts
        prev = {m: [0] * size for m in masks}
        if kind == "skip":
            prev = {m: v[:] for m, v in backward.items()}
        else:
            for m in masks:
                after = backward[m]
                dst = prev[m]
                if kind == "fixed":
                    for k in range(key + 1):
                        dst[k] = after[key + 1]
                else:
                    # dst[k] = sum of after[K + 1] over allowed keys K >= k
                    gain = [0] * (size + 1)
                    for n in allowed:
                        kk = n * 2 + key
                        gain[kk] += after[kk + 1]
                    run = 0
                    for k in range(size - 1, -1, -1):
                        run += gain[k]
                        dst[k] = run
                    if jb and not m & jb:
                        bj = backward[m | jb]
                        for k in range(size):
                            dst[k] += bj[k]
        backward = prev
    return total, result


def _prefix(v: Sequence[int]) -> list[int]:
    # out[k] = sum of v[:k]
    out = [0] * (len(v) + 1)
    run = 0
    for i, x in enumerate(v):
        out[i] = run
        run += x
    out[len(v)] = run
    return out


@dataclass(frozen=True)
class Candidate:
    """A hidden tile, its colour and how many counted assignments give it each value."""

    ref: str
    seat: int
    place: int
    colour: str
    counts: dict[int, int]
    total: int

    def chance(self, value: int) -> float:
        """The probability that this tile has `value`."""
        return self.counts.get(value, 0) / self.total if self.total else 0.0

    def values(self) -> list[int]:
        """The values still possible, jokers first then ascending."""
        return sorted(v for v, c in self.counts.items() if c)


def candidates(
    view: dict[str, Any],
    excl: Exclusions | None = None,
    seats: Iterable[int] | None = None,
    public_only: bool = False,
) -> list[Candidate]:
    """The candidate values of every hidden tile in the given seats' rows (default: the opponents').

    With `public_only`, only revealed tiles count as known: what every other player at least knows.
    """
    me = view.get("seat")
    rows = read_rows(view)
    if seats is None:
        seats = [s for s in rows if s != me and view["seats"][s - 1]["active"]]
    unknown = universe(view) - known_tiles(view, public_only)
    out: list[Candidate] = []
    for s in seats:
        row = rows[s]
        if public_only:
            row = [t if t.revealed else Seen(t.ref, t.colour, None, False) for t in row]
        ex = (excl or {}).get(s) or [frozenset()] * len(row)
        total, per = row_counts(row, ex, unknown)
        if total == 0 and any(ex):
            # Contradictory memory (should not happen): fall back to what the view alone shows.
            total, per = row_counts(row, [frozenset()] * len(row), unknown)
        for i, counts in enumerate(per):
            if counts is None:
                continue
            out.append(Candidate(row[i].ref, s, i + 1, row[i].colour, counts, total))
    return out


# --------------------------------------------------------------------------- the bots


STOP = Action("stop")


def _verbs(legal: Sequence[Action]) -> set[str]:
    # Legal actions can be a lazy product of hundreds of guesses; every decision of this game
    # offers one verb, or guesses followed by `stop`, so the two ends name all the verbs.
    return {legal[0].verb, legal[-1].verb} if len(legal) else set()


def _by_verb(legal: Sequence[Action], verb: str) -> list[Action]:
    # Only for the small decisions (reveal, draw, position).
    return [a for a in legal if a.verb == verb]


def _guess_action(ref: str, value: int) -> Action:
    return Action("guess", (ref, value_text(value)))


def _hidden_opponent_refs(view: dict[str, Any]) -> list[str]:
    me = view.get("seat")
    return [
        t.ref
        for s, row in read_rows(view).items()
        if s != me and view["seats"][s - 1]["active"]
        for t in row
        if t.number is None and not t.revealed
    ]


class NaiveBot(SeededBot):
    """Guesses a value that fits only the target tile's immediate neighbours, and stops after a hit."""

    name = "naive"
    games = (GAME_ID,)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Pick one of `legal` from the view."""
        if STOP in legal:
            return STOP
        if "guess" in _verbs(legal) and published_tiles(view):
            return self._guess(view, legal)
        return legal[self.rng.below(len(legal))]

    def _guess(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        rows = read_rows(view)
        options: list[tuple[int, str, list[int]]] = []
        for ref in _hidden_opponent_refs(view):
            pos = parse_ref(ref)
            if pos is None:
                continue
            fits = [v for v in neighbour_values(rows[pos[0]], pos[1] - 1) if _guess_action(ref, v) in legal]
            if fits:
                options.append((len(fits), ref, fits))
        if not options:
            return legal[self.rng.below(len(legal))]
        best = min(o[0] for o in options)
        _, ref, fits = self.rng.choice([o for o in options if o[0] == best])
        return _guess_action(ref, self.rng.choice(fits))


def neighbour_values(row: Sequence[Seen], i: int) -> list[int]:
    """Numbers the tile at place `i` may have, judged only by its two neighbours' visible numbers."""
    colour = row[i].colour
    lo, hi = -1, _NKEYS
    if i > 0 and row[i - 1].number is not None and row[i - 1].number != JOKER:
        lo = sort_key(row[i - 1].number, row[i - 1].colour)  # type: ignore[arg-type]
    if i + 1 < len(row) and row[i + 1].number is not None and row[i + 1].number != JOKER:
        hi = sort_key(row[i + 1].number, row[i + 1].colour)  # type: ignore[arg-type]
    fits = [n for n in NUMBERS if lo < sort_key(n, colour) < hi]
    return fits or list(NUMBERS)


class DeducerBot(SeededBot):
    """Tracks every hidden tile's candidates; guesses the likeliest; goes on while the chance beats a threshold."""

    name = "deducer"
    games = (GAME_ID,)
    remembers = True  # what earlier views excluded: a resumed game shows it the game so far again

    def __init__(self, seed: int = 0, settings: dict[str, Any] | None = None) -> None:
        super().__init__(seed, settings)
        self.tracker = Tracker()

    def threshold(self, view: dict[str, Any]) -> int:
        """The percentage a further guess's chance must exceed (settings.deducer_threshold)."""
        raw = view.get("settings", {}).get("deducer_threshold", self.settings.get("deducer_threshold", 50))
        return int(raw)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Pick one of `legal` from the view."""
        if not published_tiles(view):
            return legal[self.rng.below(len(legal))]
        excl = self.tracker.update(view)
        verbs = _verbs(legal)
        if "guess" in verbs:
            return self._guess(view, legal, excl)
        if "reveal" in verbs:
            return self._reveal_own(view, _by_verb(legal, "reveal"), excl)
        if "draw" in verbs:
            return self._colour(view, _by_verb(legal, "draw"))
        if "position" in verbs:
            return self.rng.choice(_by_verb(legal, "position"))
        return legal[self.rng.below(len(legal))]

    def best_guesses(self, view: dict[str, Any], excl: Exclusions | None = None) -> list[tuple[float, Candidate, int]]:
        """Every (chance, tile, value) the bot could guess, likeliest first."""
        out = []
        for c in candidates(view, excl):
            for v in c.values():
                out.append((c.chance(v), c, v))
        out.sort(key=lambda t: (-t[0], t[1].ref, t[2]))
        return out

    def _guess(self, view: dict[str, Any], legal: Sequence[Action], excl: Exclusions) -> Action:
        options = [(p, c, v) for p, c, v in self.best_guesses(view, excl) if _guess_action(c.ref, v) in legal]
        can_stop = STOP in legal
        if not options:
            return STOP if can_stop else legal[self.rng.below(len(legal))]
        top = options[0][0]
        if can_stop and not top * 100 > self.threshold(view):
            return STOP
        # Among equally likely guesses prefer the tile with fewest candidates: a hit there
        # narrows its neighbours most.
        ties = [o for o in options if o[0] >= top - 1e-12]
        fewest = min(len(o[1].counts) for o in ties)
        ties = [o for o in ties if len(o[1].counts) == fewest]
        _, cand, value = self.rng.choice(ties)
        seat = int(view["seat"] or 0)
        self.tracker.note_guess(seat, (cand.seat, cand.place), value)
        return _guess_action(cand.ref, value)

    def _reveal_own(self, view: dict[str, Any], reveals: Sequence[Action], excl: Exclusions) -> Action:
        # Give away the tile the others are most likely to guess anyway.
        me = int(view["seat"] or 0)
        mine = {t.ref: t for t in read_rows(view)[me]}
        public = {c.ref: c for c in candidates(view, excl, seats=[me], public_only=True)}
        best: list[tuple[float, Action]] = []
        for a in reveals:
            ref = a.args[0] if a.args else ""
            t, c = mine.get(ref), public.get(ref)
            chance = c.chance(t.number) if t is not None and c is not None and t.number is not None else 0.0
            best.append((chance, a))
        top = max(p for p, _ in best)
        return self.rng.choice([a for p, a in best if p >= top - 1e-12])

    def _colour(self, view: dict[str, Any], draws: Sequence[Action]) -> Action:
        # Draw the colour with more tiles unaccounted for: the drawn tile is then harder to pin down.
        unknown = universe(view) - known_tiles(view)
        score = {a: sum(1 for n, c in unknown if a.args and c == a.args[0]) for a in draws}
        top = max(score.values())
        return self.rng.choice([a for a in draws if score[a] == top])
