"""What a bot is given tells it no more than its seat may know, and it cannot change the game:
the legal actions come as read-only `Choices` (no binding, which would name a hidden tile), the
argument lists kept for every game are tuples, and the seed a bot is reseeded with cannot be run
back to the game's seed (which would rebuild every hidden tile and every draw to come)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from davinci.engine import bots
from davinci.engine.actions import Action
from davinci.engine.game import load_game
from davinci.engine.legal import Choices


class Grabbing(bots.SeededBot):
    """Keeps what it is given."""

    name = "grabbing"
    given: list[Any] = []

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        Grabbing.given.append(legal)
        return legal[0]


def test_a_bot_gets_the_actions_and_nothing_of_what_they_bind() -> None:
    st = load_game("da-vinci-code").new_state(2, seed=7)
    seat = st.current_seats[0]
    Grabbing.given.clear()
    action = bots.bot_choice(Grabbing(), "grabbing", st, seat)
    [legal] = Grabbing.given
    assert isinstance(legal, Choices) and list(legal) == list(st.legal_actions(seat))
    assert legal.texts() == st.legal_actions(seat).texts() and action in legal and len(legal) > 1
    for inside in ("binding", "blocks", "action_binding"):
        assert not hasattr(legal, inside)  # a guess's binding was the tile itself (its piece id)
    with pytest.raises((AttributeError, TypeError)):
        legal.append(Action("guess", ("row.2.1", "42")))  # type: ignore[attr-defined]


def test_argument_lists_kept_for_every_game_cannot_be_changed() -> None:
    # A bot that crossed a number off the list it was given took it out of every later game.
    game = load_game("da-vinci-code")
    st = game.new_state(2, seed=7)
    seat = st.current_seats[0]
    before = st.legal_actions(seat).texts()
    assert any(t.endswith(" 7") for t in before)
    kept = 0
    for block in st.legal_actions(seat).blocks:
        for labels in block.labels:
            if isinstance(labels, tuple):
                kept += 1  # the numbers 0-11: made once per game, shared by every game
            else:
                labels.clear()  # made for this decision only: changing it changes no other game
    assert kept >= 1
    assert game.new_state(2, seed=7).legal_actions(seat).texts() == before


def test_a_bots_seed_is_a_one_way_hash_of_the_game_seed_seat_and_moves() -> None:
    seeds = {bots.bot_seed(game, seat, moves) for game in (0, 1, 2**63) for seat in (0, 1) for moves in (0, 1, 9)}
    assert len(seeds) == 18 and all(0 <= s < 2**64 for s in seeds)
    assert bots.bot_seed(5, 1, 3) == bots.bot_seed(5, 1, 3)  # the same decision, the same seed: replays hold
    bot = bots.RandomBot()
    bots.reseed_for_decision(bot, 5, 1, 3)
    assert bot.rng.state == bots.bot_seed(5, 1, 3)  # what the bot can read is the hash, not a mix of 5
