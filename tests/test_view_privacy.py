"""A view shows a seat exactly what it may see: the turn's working values and a decision's prompt,
often worked out from the mover's hidden pieces, go to the seats concerned only."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.game import load_game

SECRET_HAND = """\
kind: game
id: secret-hand
name: Secret hand
players: {min: 2, max: 3}
components:
  card: {fields: {rank: int}, product: {rank: {from: 1, to: 9}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
  played: {kind: pile, visibility: public}
vars:
  plays: 0
flow:
  setup:
    - shuffle: deck
    - for_each: {in: seats, as: s, do: [{draw: {from: deck, to: hand, owner: s, count: 3}}]}
  turn:
    - set: {best: "max(current.hand select rank)"}
    - choose:
        prompt: "Play a card (your best is {best}; you hold {current.hand select rank})"
        options:
          - action: play
            args: {c: "current.hand"}
            do:
              - move: {piece: c, to: played}
              - set: {plays: plays + 1}
end:
  when: "plays >= 3"
  winners: "seats"
"""


@pytest.fixture()
def game(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_game("secret-hand", packs=[write_game_pack(tmp_path, "secret", SECRET_HAND)])


def test_the_turns_locals_and_the_prompt_go_to_the_mover_only(game) -> None:  # type: ignore[no-untyped-def]
    st = game.new_state(3, seed=2)
    mover = st.current_seats[0]
    best = max(game.definition.pieces[p].attrs["rank"] for p in st.zones[f"hand#{mover}"])
    mine = st.view(mover)
    assert mine["locals"]["best"] == best
    assert mine["pending"]["prompt"].startswith(f"Play a card (your best is {best}; you hold ")
    for other in {0, 1, 2} - {mover}:
        theirs = st.view(other)
        assert theirs["locals"] == {}
        assert theirs["pending"] == {"type": "choose", "prompt": ""}
        assert str(best) not in str(theirs["seats"][mover]["zones"]["hand"])
    # Declared variables are public: every seat sees how many cards were played.
    st.apply(mover, st.legal_actions(mover)[0])
    assert {st.view(s)["vars"]["plays"] for s in range(3)} == {1}


def test_a_view_of_a_seat_that_is_not_at_the_table_is_refused(game) -> None:  # type: ignore[no-untyped-def]
    st = game.new_state(2, seed=1)
    for bad in (2, -1, True, "1"):
        with pytest.raises(ValueError, match="seats are 0 to 1"):
            st.view(bad)  # type: ignore[arg-type]
    assert st.view(None)["seat"] is None and st.view(1)["seat"] == 2  # a view counts seats from 1

