"""Bots for The Da Vinci Game.

`ScholarBot` ("scholar") plans: it collects tokens, heads for the Treasure spaces it can pay
for, then for the Ankh, choosing each move by the expected number of turns to its goal on the
board graph. `RandomMoverBot` ("random-mover") moves and decides at random. Both answer
challenges the same way, from the skill profile in the game's `skill` setting (chance to solve
and mean seconds per category), by claiming a simulated result; comparing them measures
strategy at equal answering skill.

Bots see only their view. The board is static data of the game definition, loaded by the
game id and variant in the view (never the state).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from davinci.engine.actions import Action
from davinci.engine.bots import SeededBot
from davinci.engine.definition import BoardDef
from davinci.engine.errors import DavinciError
from davinci.engine.functions import walk_ends

GAME_ID = "da-vinci-game"
CATEGORIES = ("codex", "logic-key", "rose", "vitruvian-man")
WILD = "mona-lisa"
DIE = 6
FREE_ROLL = 5  # the roll that moves any number of spaces up to itself
DEFAULT_SKILL = {"chance": 50, "seconds": 30}
MAX_MEAN_SECONDS = 18_000  # half the longest claim the rules take (36,000 s)

# Weights of the scholar's move evaluation, in "tenths of a turn".
TURN = 10.0  # one expected turn to the goal
GOAL_BONUS = 60.0  # landing on the Treasure (or Ankh) it is heading for
TRISKEL_BONUS = 4.0  # a token or another move
CLUE_PENALTY = 1.5  # a challenge that only the other teams may win
DRIFT = 1.5  # pull towards missing Treasures while still collecting tokens
REROLL_HIT = 1 / 3  # a Triskel's second throw is taken when it lands on the goal this often


# ---------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class BoardPlan:
    """Static routing tables of one board: move options per space and roll, turns to targets."""

    spaces: Mapping[str, Any]
    options: Mapping[str, tuple[tuple[str, ...], ...]]  # space -> roll-1 -> legal ends (fresh turn)
    upto: Mapping[str, tuple[tuple[str, ...], ...]]  # space -> roll-1 -> ends of 1..roll steps
    turns: Mapping[str, Mapping[str, float]]  # target -> space -> expected turns to land there

    def space_type(self, sid: str) -> str:
        """The type of a space."""
        return str(self.spaces[sid].type)

    def attr(self, sid: str, name: str) -> Any:
        """An attribute of a space (None when absent)."""
        return self.spaces[sid].attrs.get(name)

    def treasure_space(self, category: str) -> str | None:
        """The Treasure space of a category."""
        for sid, sp in self.spaces.items():
            if sp.type == "treasure" and sp.attrs.get("category") == category:
                return str(sid)
        return None

    def hit_chance(self, here: str, goals: Sequence[str]) -> float:
        """The chance that one throw from `here` can end on one of `goals`."""
        rolls = self.options.get(here, ())
        return sum(1 for ends in rolls if any(g in ends for g in goals)) / DIE

    def ankh(self) -> str | None:
        """The Ankh (the type `ankh` space)."""
        for sid, sp in self.spaces.items():
            if sp.type == "ankh":
                return str(sid)
        return None


_PLANS: dict[int, BoardPlan] = {}
_DEFS: dict[tuple[str, str | None], Any] = {}


def plan_for(board: BoardDef) -> BoardPlan:
    """Routing tables for a board (computed once per board object)."""
    hit = _PLANS.get(id(board))
    if hit is None:
        hit = _build_plan(board)
        _PLANS[id(board)] = hit
    return hit


def definition_from_view(view: Mapping[str, Any]) -> Any:
    """The static definition (`GameDef`) of the game in `view`: the one loaded in this process
    with the view's game id and variant (a variant from a `--pack` folder too), else the installed one."""
    key = (str(view.get("game")), view.get("variant"))
    hit = _DEFS.get(key)
    if hit is None:
        from davinci.engine.game import loaded_definition

        hit = loaded_definition(key[0], key[1])
        _DEFS[key] = hit
    return hit


def plan_from_view(view: Mapping[str, Any]) -> BoardPlan:
    """The routing plan of the board of the game in `view`."""
    return plan_for(definition_from_view(view).board)


def register_definition(game_id: str, variant: str | None, definition: Any) -> None:
    """Use `definition` for views of this game and variant (for games built outside the packs)."""
    _DEFS[(game_id, variant)] = definition


def _build_plan(board: BoardDef) -> BoardPlan:
    shim = SimpleNamespace(game=SimpleNamespace(board=board))
    on_track = [s for s in board.spaces if board.neighbours.get(s)]
    exact: dict[str, tuple[tuple[str, ...], ...]] = {}
    upto: dict[str, tuple[tuple[str, ...], ...]] = {}
    for s in on_track:
        exact[s] = tuple(tuple(walk_ends(shim, s, r, True)) for r in range(1, DIE + 1))
        upto[s] = tuple(tuple(walk_ends(shim, s, r, False)) for r in range(1, DIE + 1))
    options = {
        s: tuple(upto[s][r - 1] if r == FREE_ROLL else exact[s][r - 1] for r in range(1, DIE + 1)) for s in on_track
    }
    turns: dict[str, dict[str, float]] = {}
    for sid, sp in board.spaces.items():
        if sp.type in ("treasure", "ankh"):
            # An exact throw is not needed for the Ankh (when the team qualifies).
            turns[sid] = _expected_turns(on_track, options, upto if sp.type == "ankh" else None, sid)
    return BoardPlan(board.spaces, options, upto, turns)


def _expected_turns(
    spaces: Sequence[str],
    options: Mapping[str, tuple[tuple[str, ...], ...]],
    within: Mapping[str, tuple[tuple[str, ...], ...]] | None,
    target: str,
) -> dict[str, float]:
    """Expected turns to land on `target` with the best choice after every roll (value iteration)."""
    t = {s: 0.0 if s == target else 10.0 for s in spaces}
    for _ in range(200):
        delta = 0.0
        for s in spaces:
            if s == target:
                continue
            total = 0.0
            for r in range(DIE):
                ends = options[s][r]
                if within is not None and target in within[s][r]:
                    best = 0.0
                elif ends:
                    best = min(t[e] for e in ends)
                else:
                    best = t[s]
                total += best
            new = 1.0 + total / DIE
            delta = max(delta, abs(new - t[s]))
            t[s] = new
        if delta < 1e-4:
            break
    return t


# ---------------------------------------------------------------------------- reading the view


def my_index(view: Mapping[str, Any]) -> int:
    """The viewer's seat index (1-based)."""
    return int(view["seat"])


def my_seat(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The viewer's seat record."""
    return view["seats"][my_index(view) - 1]  # type: ignore[no-any-return]


def my_tokens(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The viewer's own tokens (with categories: the zone is visible to its owner)."""
    return list(my_seat(view)["zones"]["tokens"].get("pieces", []))


def my_treasures(view: Mapping[str, Any]) -> set[str]:
    """Categories of the Treasures the viewer holds."""
    return {str(p.get("category")) for p in my_seat(view)["zones"]["treasures"].get("pieces", [])}


def pawn_space(view: Mapping[str, Any], team: int) -> str | None:
    """The space of a team's playing piece."""
    for p in view["zones"]["board"].get("pieces", []):
        if p.get("kind") == "pawn" and p.get("team") == team:
            return str(p["space"])
    return None


def token_counts(tokens: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many tokens of each category (and of the wild one)."""
    counts = {c: 0 for c in (*CATEGORIES, WILD)}
    for t in tokens:
        c = str(t.get("category"))
        counts[c] = counts.get(c, 0) + 1
    return counts


def holding_value(counts: Mapping[str, int], treasures: set[str]) -> float:
    """How useful a set of tokens is for a team holding `treasures` (higher is better)."""
    missing = [c for c in CATEGORIES if c not in treasures]
    if not missing:
        distinct = sum(1 for c in CATEGORIES if counts.get(c, 0) > 0)
        return 10.0 * distinct
    wild = counts.get(WILD, 0)
    pairs = sum(counts.get(c, 0) // 2 for c in missing)
    singles = sum(1 for c in missing if counts.get(c, 0) % 2 == 1)
    used = min(wild, singles)
    pairs += used
    singles -= used
    wild -= used
    pairs += wild // 2
    # Tokens of categories already won are kept for the final challenge (one of each).
    spare_final = sum(1 for c in CATEGORIES if c in treasures and counts.get(c, 0) > 0)
    return 10.0 * pairs + 3.0 * singles + 2.0 * (wild % 2) + 1.0 * spare_final


def affordable(counts: Mapping[str, int], treasures: set[str]) -> list[str]:
    """Missing Treasure categories the team can pay two tokens for (Mona Lisa is wild)."""
    wild = counts.get(WILD, 0)
    return [c for c in CATEGORIES if c not in treasures and counts.get(c, 0) + wild >= 2]


def qualified(counts: Mapping[str, int], treasures: set[str]) -> bool:
    """Four Treasures and one token of each category: ready for the final challenge."""
    return all(c in treasures for c in CATEGORIES) and all(counts.get(c, 0) > 0 for c in CATEGORIES)


def skill_of(settings: Mapping[str, Any], category: str) -> tuple[float, float]:
    """(chance 0..1, mean seconds) of solving a card of `category`, from the `skill` setting."""
    prof = (settings.get("skill") or {}).get(category) or DEFAULT_SKILL
    chance = float(prof.get("chance", DEFAULT_SKILL["chance"])) / 100.0
    seconds = float(prof.get("seconds", DEFAULT_SKILL["seconds"]))
    return max(0.0, min(1.0, chance)), max(0.5, seconds)


# ---------------------------------------------------------------------------- the bots


def skill_problem(skill: Any) -> str | None:
    """What is wrong with a `skill` setting's value, or None: a mapping of category to
    `{chance: 0..100, seconds: above 0}` (keys may be left out; their defaults apply)."""
    if skill is None:
        return None
    if not isinstance(skill, Mapping):
        return f"must map each category to {{chance, seconds}}, got {type(skill).__name__}"
    for category, prof in skill.items():
        if category not in CATEGORIES:
            near = difflib.get_close_matches(str(category), CATEGORIES, 1)
            hint = f" (did you mean '{near[0]}'?)" if near else f" (the categories: {', '.join(CATEGORIES)})"
            return f"names no category '{category}'{hint}"
        if not isinstance(prof, Mapping):
            return f"'{category}' must be {{chance: PERCENT, seconds: SECONDS}}, got {type(prof).__name__}"
        for key, value in prof.items():
            if key not in DEFAULT_SKILL:
                return f"'{category}' has no '{key}' (it takes chance and seconds)"
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                return f"'{category}.{key}' must be a number, got {value!r}"
            if key == "chance" and not 0 <= value <= 100:
                return f"'{category}.chance' is a percentage from 0 to 100, got {value}"
            # An untimed failure is claimed at twice the mean, and a claim says at most 36,000 seconds.
            if key == "seconds" and not 0 < value <= MAX_MEAN_SECONDS:
                return f"'{category}.seconds' must be above 0 and at most {MAX_MEAN_SECONDS:,}, got {value}"
    return None


class _Answerer(SeededBot):
    """Answers challenges by claiming a simulated result drawn from the skill profile."""

    name = "answerer"
    games = (GAME_ID,)

    def __init__(self, seed: int = 0, settings: dict[str, Any] | None = None) -> None:
        super().__init__(seed, settings)
        problem = skill_problem(self.settings.get("skill"))
        if problem is not None:  # found when the bot is made (lint makes each bot a game offers)
            raise DavinciError(f"setting 'skill' {problem}", code="DV081")

    def claim(self, view: Mapping[str, Any]) -> Action:
        """`claim SECONDS solved|failed` for the pending challenge."""
        pend = view.get("pending") or {}
        card = pend.get("card") or {}
        settings = {**view.get("settings", {}), **self.settings}
        chance, mean = skill_of(settings, str(card.get("category", "")))
        limit = int(pend.get("time_limit") or 0)
        # Solving time: uniform around the mean (half to one and a half times it).
        secs = mean * (0.5 + self.rng.random())
        if limit > 0:
            secs = min(secs, limit - 0.5)
        solved = self.rng.random() < chance
        if not solved:
            secs = float(limit) if limit > 0 else mean * 2
        return Action("claim", (f"{max(secs, 0.1):.1f}", "solved" if solved else "failed"))

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Answer a challenge, or pick a legal action."""
        pend = view.get("pending") or {}
        if pend.get("type") == "respond":
            if pend.get("claims", True):
                return self.claim(view)
            return Action("pass")
        return self.decide(view, legal)

    def decide(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:  # pragma: no cover
        """Any decision but answering."""
        raise NotImplementedError


class RandomMoverBot(_Answerer):
    """Moves and decides uniformly at random; answers challenges with the skill profile."""

    name = "random-mover"

    def decide(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return legal[self.rng.below(len(legal))]


class ScholarBot(_Answerer):
    """Plans routes by expected turns on the board graph; answers with the skill profile."""

    name = "scholar"

    def decide(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """The scholar's choice for every decision of the game."""
        verbs = {a.verb for a in legal}
        if "go" in verbs:
            return self.move(view, [a for a in legal if a.verb == "go"])
        if "reroll" in verbs or "token" in verbs:
            return self.triskel(view, legal)
        if "attempt" in verbs:
            # Pay with matching tokens first: a Mona Lisa is worth keeping.
            attempts = sorted((a for a in legal if a.verb == "attempt"), key=lambda a: int(a.args[0]))
            return attempts[0]
        if "return" in verbs or "discard" in verbs:
            return self.give_back(view, legal)
        if "category" in verbs:
            return self.final_category(view, legal)
        return legal[0]

    # -- moving -------------------------------------------------------------------------

    def move(self, view: Mapping[str, Any], goes: Sequence[Action]) -> Action:
        """The destination with the best immediate value minus expected turns to the goal."""
        plan = plan_from_view(view)
        counts = token_counts(my_tokens(view))
        held = my_treasures(view)
        best, best_score = goes[0], float("-inf")
        for a in goes:
            score = self.destination_score(plan, a.args[0], counts, held, view.get("settings", {}))
            if score > best_score:
                best, best_score = a, score
        return best

    def destination_score(
        self, plan: BoardPlan, dest: str, counts: Mapping[str, int], held: set[str], settings: Mapping[str, Any]
    ) -> float:
        """How good ending the move on `dest` is for a team with these tokens and Treasures."""
        kind = plan.space_type(dest)
        if qualified(counts, held):
            ankh = plan.ankh()
            if ankh is None:
                return 0.0
            if dest == ankh:
                return GOAL_BONUS * 2
            return -TURN * plan.turns[ankh][dest]
        goals = [t for c in affordable(counts, held) if (t := plan.treasure_space(c)) is not None]
        score = 0.0
        if kind == "triskel":
            score += TRISKEL_BONUS
        elif kind == "clue":
            score -= CLUE_PENALTY
        if goals:
            if dest in goals:
                cat = str(plan.attr(dest, "category"))
                return score + GOAL_BONUS * (0.5 + skill_of(settings, cat)[0])
            return score - TURN * min(plan.turns[g][dest] for g in goals)
        missing = [t for c in CATEGORIES if c not in held and (t := plan.treasure_space(c)) is not None]
        if missing:
            score -= DRIFT * min(plan.turns[g][dest] for g in missing)
        return score

    # -- the Triskel --------------------------------------------------------------------

    def triskel(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Roll again when a goal is near or a token would not help; otherwise take a token."""
        verbs = {a.verb: a for a in legal}
        if "reroll" not in verbs:
            return verbs["token"]
        if "token" not in verbs:
            return verbs["reroll"]
        plan = plan_from_view(view)
        here = pawn_space(view, my_index(view))
        counts = token_counts(my_tokens(view))
        held = my_treasures(view)
        if here is None:
            return verbs["token"]
        if qualified(counts, held):
            return verbs["reroll"]
        goals = [t for c in affordable(counts, held) if (t := plan.treasure_space(c)) is not None]
        if goals and plan.hit_chance(here, goals) >= REROLL_HIT:
            return verbs["reroll"]
        if self.token_gain(counts, held, int(view.get("settings", {}).get("token_cap", 4))) <= 0.5:
            return verbs["reroll"]
        return verbs["token"]

    @staticmethod
    def token_gain(counts: Mapping[str, int], held: set[str], cap: int) -> float:
        """Expected gain in holding value from one random token (keeping the best `cap`)."""
        base = holding_value(counts, held)
        total = 0.0
        kinds = (*CATEGORIES, WILD)
        for c in kinds:
            more = dict(counts)
            more[c] = more.get(c, 0) + 1
            if sum(more.values()) > cap:
                gain = max(
                    holding_value({**more, d: more[d] - 1}, held) for d in more if more[d] > 0
                )
            else:
                gain = holding_value(more, held)
            total += max(0.0, gain - base)
        return total / len(kinds)

    # -- tokens -------------------------------------------------------------------------

    def give_back(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return (or discard) the token whose loss hurts the holding least."""
        tokens = {str(t.get("ref")): t for t in my_tokens(view)}
        counts = token_counts(list(tokens.values()))
        held = my_treasures(view)
        best, best_value = legal[0], float("-inf")
        for a in legal:
            tok = tokens.get(a.args[0]) if a.args else None
            if tok is None:
                continue
            c = str(tok.get("category"))
            value = holding_value({**counts, c: counts[c] - 1}, held)
            if value > best_value:
                best, best_value = a, value
        return best

    def final_category(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Our own final: the category we solve best; for another team's: the one it solves worst."""
        settings = {**view.get("settings", {}), **self.settings}
        own = int(view.get("current", 0)) == my_index(view)

        def chance(a: Action) -> float:
            return skill_of(settings, a.args[0])[0] if a.args else 0.0

        return max(legal, key=chance) if own else min(legal, key=chance)


__all__ = [
    "RandomMoverBot",
    "ScholarBot",
    "definition_from_view",
    "holding_value",
    "plan_for",
    "plan_from_view",
    "register_definition",
]
