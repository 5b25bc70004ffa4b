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
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from test_conformance import GAMES, check_invariants

from davinci.engine.bots import RandomBot
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


def playout(game: Game, seats: int, seed: int, max_actions: int | None = None) -> Playout:
    """Play one seeded random game with every check after every action; AssertionError on a breach.

    With `max_actions` the game stops there unfinished (the end-of-game checks are skipped).
    """
    d = game.definition
    st = game.new_state(seats, seed=seed)
    bots = [RandomBot(seed * 31 + i) for i in range(seats)]
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
        st.apply(seat, bots[seat].choose({}, legal))
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
