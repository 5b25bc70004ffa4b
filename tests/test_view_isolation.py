"""A view is the bot's own data: whatever a bot does to the view it was given (or to the list of
legal actions' texts) changes nothing in the game, in later views, or in later games of the same
process. A bot that rewrote a card's symbols in its view used to rewrite the card itself, so
`simulate` gave other results with `--jobs 2` than with `--jobs 1`."""

from __future__ import annotations

from typing import Any

import pytest

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
