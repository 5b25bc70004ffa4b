"""The `greedy` bot for Leonardo's Riddle.

It sees only its seat's view: the top card of every grid cell, its own hand, every player's
Keys and the supply. Each legal play is scored on the grid it would leave behind:

1. Keys the play wins at the end of this turn (a line through the played cell), most;
2. then "two of three": lines where one more card of a symbol would win a Key this bot can
   still take, if its hand (after the play) holds such a card;
3. minus the Keys the next player could take on their turn: lines that lack one card of a
   symbol that player can still win, where the missing card could go (a free cell inside the
   5x5 bounds, or a top card it could cover or swap).

Symbols are handled as 12-bit masks, so a line's shared symbols are one `&` of its cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from davinci.engine.actions import Action
from davinci.engine.bots import SeededBot

GAME_ID = "leonardos-riddle"
SYMBOLS = (
    "mechanism",
    "profile",
    "cathedral",
    "seagull",
    "skull",
    "cat",
    "horseman",
    "halberd",
    "flower",
    "figure",
    "stream",
    "eclipse",
)
BIT = {s: 1 << i for i, s in enumerate(SYMBOLS)}
GRID_SIZE = 5

Cell = tuple[int, int]

# Score weights: a Key now outweighs everything else; a Key the next player can take at once
# costs more than a two-of-three gains, so the bot does not build lines for its neighbour.
WIN = 1000
OWN_CHANCE = 30
OWN_CHANCE_NO_CARD = 4
THREAT = 60
THREAT_NEEDS_MATCH = 25
KEEP_CARD = 2
# A swap draws no card, so it brings the end no nearer: two greedy bots that each feared the
# other's next Key swapped for ever (games ran to the turn limit). A swap must earn its place.
STALL = 70


def mask(symbols: Iterable[str]) -> int:
    """The bit mask of a list of symbol ids (unknown ids are ignored)."""
    m = 0
    for s in symbols:
        m |= BIT.get(s, 0)
    return m


def bits(m: int) -> list[int]:
    """The single-bit masks set in `m`."""
    out = []
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    return out


def parse_cell(text: str) -> Cell:
    """A cell from its action label `x,y`."""
    x, y = text.split(",")
    return int(x), int(y)


@dataclass(frozen=True)
class Rules:
    """The settings that shape lines."""

    length: int = 3
    diagonals: bool = False
    one_key_each: bool = True
    senior_first: bool = False

    @property
    def directions(self) -> tuple[Cell, ...]:
        """Line directions: rows and columns, plus diagonals when they count."""
        return ((1, 0), (0, 1), (1, 1), (1, -1)) if self.diagonals else ((1, 0), (0, 1))


def lines_through(cell: Cell, rules: Rules) -> list[list[Cell]]:
    """Every line of `rules.length` cells that passes through `cell`."""
    n = rules.length
    out = []
    for dx, dy in rules.directions:
        for back in range(n):
            sx, sy = cell[0] - dx * back, cell[1] - dy * back
            out.append([(sx + dx * k, sy + dy * k) for k in range(n)])
    return out


def in_bounds(tops: dict[Cell, int], cell: Cell) -> bool:
    """Whether a card at `cell` keeps every card inside a 5x5 square."""
    xs = [c[0] for c in tops] + [cell[0]]
    ys = [c[1] for c in tops] + [cell[1]]
    return max(xs) - min(xs) < GRID_SIZE and max(ys) - min(ys) < GRID_SIZE


def keys_made(tops: dict[Cell, int], played: Cell, rules: Rules) -> int:
    """The symbols of complete lines through the played cell (as a mask)."""
    made = 0
    for line in lines_through(played, rules):
        m = -1
        for c in line:
            m &= tops.get(c, 0)
            if not m:
                break
        made |= m if m > 0 else 0
    return made


@dataclass
class Openings:
    """Where one more card of a symbol completes a line: per symbol mask, by kind of spot."""

    free: int = 0  # an empty cell inside the bounds: any card with the symbol will do
    on_match: int = 0  # a top card that already shows the symbol: cover it with any such card
    on_other: int = 0  # a top card without it: the card must also share a symbol with that top
    other_tops: tuple[int, ...] = ()  # the masks of those tops (for checking a hand)


def windows(box: tuple[int, int, int, int], rules: Rules) -> list[tuple[Cell, ...]]:
    """Every line of `rules.length` cells inside the box (lo_x, hi_x, lo_y, hi_y)."""
    hit = _WINDOWS.get((box, rules))
    if hit is not None:
        return hit
    lo_x, hi_x, lo_y, hi_y = box
    n = rules.length
    out = []
    for x in range(lo_x, hi_x + 1):
        for y in range(lo_y, hi_y + 1):
            for dx, dy in rules.directions:
                ex, ey = x + dx * (n - 1), y + dy * (n - 1)
                if lo_x <= ex <= hi_x and lo_y <= ey <= hi_y:
                    out.append(tuple((x + dx * k, y + dy * k) for k in range(n)))
    _WINDOWS[(box, rules)] = out
    return out


_WINDOWS: dict[tuple[tuple[int, int, int, int], Rules], list[tuple[Cell, ...]]] = {}


def openings(tops: dict[Cell, int], rules: Rules) -> Openings:
    """Every spot where one card would complete a line of a symbol, over the whole grid."""
    if not tops:
        return Openings()
    xs = [c[0] for c in tops]
    ys = [c[1] for c in tops]
    # A line may use any cell a card could still reach: within 5 of every card.
    box = (max(xs) - GRID_SIZE + 1, min(xs) + GRID_SIZE - 1, max(ys) - GRID_SIZE + 1, min(ys) + GRID_SIZE - 1)
    free = on_match = on_other = 0
    others: list[int] = []
    get = tops.get
    for line in windows(box, rules):
        masks = [get(c, 0) for c in line]
        empty = masks.count(0)
        if empty > 1:
            continue
        if empty == 1:
            rest = -1
            for m in masks:
                if m:
                    rest &= m
            if rest > 0:
                free |= rest
            continue
        for k, spot in enumerate(masks):
            rest = -1
            for j, m in enumerate(masks):
                if j != k:
                    rest &= m
            if rest <= 0:
                continue
            on_match |= rest & spot
            if rest & ~spot:
                on_other |= rest & ~spot
                others.append(spot)
    return Openings(free, on_match, on_other, tuple(others))


def winnable(held: int, supply: int, rules: Rules) -> int:
    """Symbols whose Key a seat can still receive."""
    return supply & ~held if rules.one_key_each else supply


class GreedyBot(SeededBot):
    """Wins Keys when it can, builds lines it can finish, avoids lines the next player can finish."""

    name = "greedy"
    games = (GAME_ID,)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """The legal play with the best score (ties broken by the bot's seeded source)."""
        plays = [a for a in legal if a.verb in ("place", "cover", "swap") and len(a.args) == 2]
        if not plays:
            return legal[self.rng.below(len(legal))]
        rules = self._rules(view)
        me = int(view["seat"])
        seats = view["seats"]
        n = len(seats)
        tops: dict[Cell, int] = {
            (int(c["x"]), int(c["y"])): mask(c["top"].get("symbols", ())) for c in view["zones"]["grid"].get("cells", ())
        }
        hand = {p["ref"]: mask(p.get("symbols", ())) for p in seats[me - 1]["zones"]["hand"].get("pieces", ())}
        supply = 0
        for p in view["zones"]["supply"].get("pieces", ()):
            supply |= BIT.get(p.get("symbol", ""), 0)
        held = [mask(p.get("symbol", "") for p in s["zones"]["keys"].get("pieces", ())) for s in seats]
        mine = winnable(held[me - 1], supply, rules)
        nxt = me % n  # the next seat, 0-based
        best: list[Action] = []
        best_score = float("-inf")
        cache: dict[tuple[Cell, int], tuple[int, Openings]] = {}
        for a in plays:
            card = hand.get(a.args[0], 0)
            cell = parse_cell(a.args[1])
            key = (cell, card)
            if key not in cache:
                after = dict(tops)
                after[cell] = card
                cache[key] = (keys_made(after, cell, rules), openings(after, rules))
            made, op = cache[key]
            new_hand = [m for r, m in hand.items() if r != a.args[0]]
            if a.verb == "swap":
                new_hand.append(tops.get(cell, 0))
            score = self._score(made & mine, op, mine, supply, held[nxt], new_hand, rules, me - 1 == nxt)
            if a.verb == "swap":
                score -= STALL
            if score > best_score:
                best, best_score = [a], score
            elif score == best_score:
                best.append(a)
        return best[self.rng.below(len(best))]

    def _rules(self, view: dict[str, Any]) -> Rules:
        s = {**view.get("settings", {}), **self.settings}
        return Rules(
            int(s.get("line_length", 3)),
            bool(s.get("diagonals", False)),
            bool(s.get("one_key_each", True)),
            bool(s.get("senior_first", False)),
        )

    def _score(
        self,
        won: int,
        op: Openings,
        mine: int,
        supply: int,
        next_held: int,
        hand: list[int],
        rules: Rules,
        alone: bool,
    ) -> float:
        score = 0.0
        for b in bits(won):
            # A senior Key breaks ties at the end: prefer it slightly.
            rank = b.bit_length()
            score += WIN + (len(SYMBOLS) + 1 - rank if rules.senior_first else rank)
        still_mine = mine & ~won
        in_hand = 0
        for m in hand:
            in_hand |= m
        # My chances next turn: a spot I can fill with a card I hold.
        reach = op.free | op.on_match
        for b in bits(reach & still_mine):
            score += OWN_CHANCE if in_hand & b else OWN_CHANCE_NO_CARD
        for b in bits(op.on_other & still_mine & ~reach):
            if any(m & b and any(m & t and t & ~b for t in op.other_tops) for m in hand):
                score += OWN_CHANCE // 2
        if alone:
            return score
        # The next player's chances: the supply after my award, minus the Keys they hold.
        theirs = winnable(next_held, supply, rules)
        if rules.one_key_each:
            theirs &= supply
        score -= THREAT * len(bits(reach & theirs))
        score -= THREAT_NEEDS_MATCH * len(bits(op.on_other & theirs & ~reach))
        # Keeping symbols in hand that I still need helps later turns.
        score += KEEP_CARD * len(bits(in_hand & still_mine))
        return score

