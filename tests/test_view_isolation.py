"""A view is the bot's own data: whatever a bot does to the view it was given (or to the list of
legal actions' texts) changes nothing in the game, in later views, or in later games of the same
process. A bot that rewrote a card's symbols in its view used to rewrite the card itself, so
`simulate` gave other results with `--jobs 2` than with `--jobs 1`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import STOP_AT_ONCE

from davinci.engine.game import game_variants, load_game
from davinci.engine.rng import Rng


def _vandalise(value: Any) -> None:
    """Change every list and mapping inside a view, at every depth."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _vandalise(v)
        value["vandal"] = ["x"]
    elif isinstance(value, list):
        for v in list(value):
            _vandalise(v)
        value.reverse()
        value.append("vandal")


def _play(game: Any, seed: int, vandal: bool, limit: int = 150) -> dict[str, Any]:
    st = game.new_state(game.definition.min_players, seed=seed)
    rng = Rng(seed)
    for _ in range(limit):
        if st.is_terminal():
            break
        seat = st.current_seats[0]
        if vandal:
            view = st.view(seat)
            _vandalise(view)
            _vandalise(st.view(None))
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.below(len(legal))])
    return dict(st.to_json())


@pytest.mark.parametrize(("game_id", "variant"), game_variants())
def test_changing_a_view_changes_nothing_in_the_game(game_id: str, variant: str | None) -> None:
    game = load_game(game_id, variant)
    before = _play(game, 5, vandal=False)
    assert _play(game, 5, vandal=True) == before
    assert _play(load_game(game_id, variant), 5, vandal=False) == before  # nor in the next game
    assert game.new_state(game.definition.min_players, seed=9).view(None)["settings"] == game.settings


FACING_AWAY = """\
kind: game
id: away
name: Away
players: {min: 2, max: 3}
components:
  card: {fields: {colour: str, rank: int}, product: {colour: [red, blue], rank: {from: 1, to: 5}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: others}
flow:
  setup:
    - shuffle: deck
    - for_each:
        in: seats
        as: s
        do: [{draw: {from: deck, to: hand, owner: s, count: 2}}]
""" + STOP_AT_ONCE


def test_a_hand_held_facing_away_is_seen_by_every_seat_but_its_owner(tmp_path: Path) -> None:
    # Hanabi's hands: there was no visibility for "everyone except the owner".
    from helpers import write_game_pack

    game = load_game("away", packs=[write_game_pack(tmp_path, "away", FACING_AWAY)])
    st = game.new_state(3, seed=4)
    for seat in range(3):
        view = st.view(seat)
        for other in range(3):
            pieces = view["seats"][other]["zones"]["hand"]["pieces"]
            assert all(("rank" in p) == (other != seat) for p in pieces), (seat, other, pieces)
    assert all("rank" in p for s in st.view(None)["seats"] for p in s["zones"]["hand"]["pieces"])


def test_facing_away_is_for_a_per_seat_zone(tmp_path: Path) -> None:
    from helpers import write_game_pack

    from davinci.engine.errors import DavinciError

    bad = FACING_AWAY.replace("hand: {kind: hand, per_seat: true, visibility: others}",
                              "hand: {kind: hand, visibility: others}")
    with pytest.raises(DavinciError, match="visibility 'others' .* is for a per-seat zone"):
        load_game("away", packs=[write_game_pack(tmp_path, "away", bad)])


def test_a_card_returned_from_a_hand_held_facing_away_is_named_to_the_others_only(tmp_path: Path) -> None:
    from helpers import write_game_pack

    over = FACING_AWAY.replace("hand: {kind: hand, per_seat: true, visibility: others}",
                               "hand: {kind: hand, per_seat: true, visibility: others, capacity: 1, overflow_to: deck}")
    game = load_game("away", packs=[write_game_pack(tmp_path, "away", over)])
    st = game.new_state(2, seed=4)
    seat = st.current_seats[0]
    assert st.pending is not None and st.pending["type"] == "overflow"
    st.apply(seat, st.legal_actions(seat)[0])
    own = [t for t in st.view(seat)["events"] if "returns" in t]
    others = [t for t in st.view(1 - seat)["events"] if "returns" in t]
    assert own and all(t.endswith("returns a card to the deck") for t in own)
    assert others and not any(t.endswith("returns a card to the deck") for t in others)
