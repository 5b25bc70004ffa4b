"""Game integrity: seeded random playouts of every game and variant, invariants after every action.

The engine's invariants (tests/test_conformance.py `check_invariants`: every component exists
exactly once across the zones, capacities hold, no view shows another seat's hidden values) are
checked after every single action, together with what a playout adds:

- a seat that must act always has legal actions, and their text parses back to them;
- views are plain JSON;
- the game ends: within `end.max_turns` turns and a bounded number of actions;
- the result names real seats, and replaying the recorded history reproduces the final state.

This file plays one game per game and variant, at player counts and seeds the conformance test
does not use. benchmarks/integrity_long.py runs the same `playout` 10,000 times per game and
variant (outside CI).

Uniform random play does not reach every part of every game: in The Da Vinci Game the answers
to challenges are free text, not listed actions, so random teams only ever pass, never earn a
token, and every game runs to the turn limit. Each game's own bots (those whose `games` names
it) therefore also play checked games to the end, reaching treasures and final challenges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from test_conformance import GAMES, check_invariants

from davinci.engine.bots import bot_names, make_bot
from davinci.engine.game import Game, load_game

# A generous cap on actions per turn: a game that needs more is looping, not playing.
ACTIONS_PER_TURN = 200


@dataclass
class Playout:
    """What one checked playout did."""

    seats: int
    seed: int
    actions: int
    turns: int
    reason: str


def playout(game: Game, seats: int, seed: int, max_actions: int | None = None, bot: str = "random") -> Playout:
    """Play one seeded game with every check after every action; AssertionError on a breach.

    Every seat is played by the registered bot `bot` (seat i seeded `seed * 31 + i`). With
    `max_actions` the game stops there unfinished (the end-of-game checks are skipped).
    """
    d = game.definition
    st = game.new_state(seats, seed=seed)
    bots = [make_bot(bot, seed * 31 + i, game.id, dict(game.settings)) for i in range(seats)]
    views = getattr(bots[0], "wants_view", True)
    limit = (d.end.max_turns + 1) * ACTIONS_PER_TURN
    actions = 0
    while not st.is_terminal():
        if max_actions is not None and actions >= max_actions:
            return Playout(seats, seed, actions, st.turn, "stopped")
        check_invariants(st)
        assert st.turn <= d.end.max_turns + 1, f"turn {st.turn} is past max_turns {d.end.max_turns}"
        assert actions < limit, f"{actions} actions without ending"
        seat = st.current_seats[0]
        legal = st.legal_actions(seat)
        assert legal, f"seat {seat + 1} must act but has no legal action"
        if actions % 10 == 0:
            for action in legal[:50]:
                assert game.parse_action(str(action)) == action
            json.dumps(st.view(seat))
        # The random bot needs no view (check_invariants has just built and checked them all).
        st.apply(seat, bots[seat].choose(st.view(seat) if views else {}, legal))
        actions += 1
    check_invariants(st)
    result = st.result()
    assert set(result["winners"]) <= set(range(seats))
    assert sorted(result["ranking"]) == list(range(seats))
    again = game.new_state(seats, seed=seed)
    for seat, text in st.history:
        again.apply(seat, text)
    assert again.to_json() == st.to_json(), "replaying the history gives another game"
    return Playout(seats, seed, actions, st.turn, result["reason"])


def seat_counts(game: Game) -> list[int]:
    """Every player count the game allows."""
    d = game.definition
    return list(range(d.min_players, d.max_players + 1))


@pytest.mark.parametrize(("game_id", "variant"), GAMES, ids=[f"{g}/{v}" if v else g for g, v in GAMES])
def test_a_checked_playout_per_game_and_variant(game_id: str, variant: str | None) -> None:
    game = load_game(game_id, variant)
    # The conformance test plays seeds 0-2 from the smallest table up; this one plays the largest
    # table with another seed. Long games are checked for their first 600 actions here (the
    # conformance test and the long run play them to the end).
    report = playout(game, seat_counts(game)[-1], 1000, max_actions=600)
    assert report.actions > 0


def own_bots(game_id: str) -> list[str]:
    """The registered bots written for this game (their `games` names it)."""
    return [name for name in bot_names() if game_id in (getattr(make_bot(name, 0), "games", None) or ())]


OWN = [(g, v, b) for g, v in GAMES for b in own_bots(g)]


def test_every_game_has_its_own_bots() -> None:
    assert {g for g, _, _ in OWN} == {g for g, _ in GAMES}


@pytest.mark.parametrize(("game_id", "variant", "bot"), OWN, ids=[f"{g}/{v or 'base'}/{b}" for g, v, b in OWN])
def test_a_checked_game_with_the_games_own_bots(game_id: str, variant: str | None, bot: str) -> None:
    game = load_game(game_id, variant)
    # Bots that play to win end their games in a few hundred actions; a bot that only moves at
    # random (random-mover) is checked for its first 1,000.
    report = playout(game, seat_counts(game)[0], 2000, max_actions=1000, bot=bot)
    assert report.reason in ("stopped", "end"), report
