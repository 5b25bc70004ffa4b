"""Pieces face up and face down, and pieces returned to the supply.

A card lying face down on a public table shows nobody its picture; turned up, everybody sees it;
turned back down, nobody again. A zone with a capacity and no `overflow_to` sends the excess out
of play. Both were found by a newcomer writing a memory game from the docs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

MEMORY = """\
kind: game
id: memory
name: Memory
players: {min: 2, max: 2}
bots: [random]
components:
  card:
    fields: {picture: str}
    label: picture
    product: {picture: [sun, moon]}
    copies: 2
zones:
  box: {kind: deck, visibility: hidden, contents: [card]}
  table: {kind: hand, visibility: public}
  pairs: {kind: pile, per_seat: true, visibility: public}
turn_vars:
  a: null
flow:
  setup:
    - draw: {from: box, to: table, count: 4, face_up: false}
  turn:
    - choose:
        options:
          - action: flip
            args: {c: "table"}
            do:
              - set: {a: c}
              - reveal: a
    - choose:
        options:
          - action: flip
            args: {c: "table where it != a"}
            do:
              - if: "c.picture == a.picture"
                then:
                  - move: {piece: "[a, c]", to: pairs, owner: current}
                else:
                  - hide: a
    - end_turn: true
end:
  when: "len(table) == 0"
  winners: "seats where len(pairs) == max(seats select len(pairs))"
"""


def _pictures(view: dict) -> list[str | None]:  # type: ignore[type-arg]
    return [p.get("picture") for p in view["zones"]["table"]["pieces"]]


@pytest.fixture()
def memory(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_game("memory", packs=[write_game_pack(tmp_path, "memory", MEMORY)])


def test_face_down_pieces_on_a_public_zone_show_nobody_their_fields(memory) -> None:  # type: ignore[no-untyped-def]
    st = memory.new_state(2, seed=1)
    for seat in (0, 1):
        assert _pictures(st.view(seat)) == [None] * 4
        assert all(p["hidden"] and not p["revealed"] for p in st.view(seat)["zones"]["table"]["pieces"])
    assert None not in _pictures(st.view(None))  # the all-seeing view of tests and replays


def test_a_revealed_piece_shows_to_everyone_and_hide_turns_it_down_again(memory) -> None:  # type: ignore[no-untyped-def]
    st = memory.new_state(2, seed=1)
    me = st.current_seats[0]
    st.apply(me, "flip table.1")
    first = st.view(None)["zones"]["table"]["pieces"][0]["picture"]
    for seat in (0, 1):
        assert _pictures(st.view(seat)) == [first, None, None, None]
    # A miss: the second card is not the first's twin, so the first turns back down.
    miss = next(a for a in st.legal_actions(me) if st.clone_apply(me, a).zones["pairs#" + str(me)] == [])
    st.apply(me, miss)
    for seat in (0, 1):
        assert _pictures(st.view(seat)) == [None] * 4


def test_a_face_down_piece_moved_to_another_zone_takes_that_zones_visibility(memory) -> None:  # type: ignore[no-untyped-def]
    st = memory.new_state(2, seed=1)
    me = st.current_seats[0]
    st.apply(me, "flip table.1")
    twin = next(a for a in st.legal_actions(me) if st.clone_apply(me, a).zones["pairs#" + str(me)])
    st.apply(me, twin)
    pair = st.view(1 - me)["seats"][me]["zones"]["pairs"]["pieces"]
    assert [p["picture"] for p in pair] == [pair[0]["picture"]] * 2
    assert not st.face_down.intersection(st.zones["pairs#" + str(me)])


def test_a_revealed_piece_put_back_into_a_hidden_deck_is_unknown_again(tmp_path: Path) -> None:
    # A played card shuffled back stayed revealed: every seat saw where it lay in the deck, and
    # it was dealt face up into a hand in the next round.
    game = MEMORY.replace("id: memory", "id: memory-back").replace("""                else:
                  - hide: a""", """                else:
                  - move: {piece: a, to: box}""")
    st = load_game("memory-back", packs=[write_game_pack(tmp_path, "memory-back", game)]).new_state(2, seed=1)
    me = st.current_seats[0]
    st.apply(me, "flip table.1")
    moved = st.zones["table"][0]
    miss = next(a for a in st.legal_actions(me) if st.clone_apply(me, a).zones["pairs#" + str(me)] == [])
    st.apply(me, miss)
    assert st.zone_of[moved] == "box" and moved not in st.revealed
    assert "revealed" not in st.view(1 - me)["zones"]["box"]


def test_face_down_pieces_survive_save_and_load(memory) -> None:  # type: ignore[no-untyped-def]
    st = memory.new_state(2, seed=1)
    back = memory.state_from_json(st.to_json())
    assert back.face_down == st.face_down and len(back.face_down) == 4
    assert _pictures(back.view(0)) == [None] * 4
    assert "face_down" not in load_game("da-vinci-code").new_state(2, seed=1).to_json()["state"]


OVERFLOW = """\
kind: game
id: cap
name: Capacity without overflow_to
players: {min: 2, max: 2}
bots: [random]
components:
  card: {fields: {n: int}, product: {n: {from: 1, to: 6}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner, capacity: 2}
flow:
  setup:
    - draw: {from: deck, to: hand, owner: "first(seats)", count: 3}
""" + STOP_AT_ONCE


def test_a_capacity_without_overflow_to_returns_the_excess_out_of_play(tmp_path: Path) -> None:
    game = load_game("cap", packs=[write_game_pack(tmp_path, "cap", OVERFLOW)])
    st = game.new_state(2, seed=1)
    assert st.current_seats == [0] and st.view(0)["pending"]["type"] == "overflow"
    assert st.view(0)["pending"]["prompt"] == "Your hand: 3 cards, 2 at most - choose one to put out of the game"
    st.apply(0, st.legal_actions(0)[0])
    assert len(st.zones["hand#0"]) == 2 and len(st.zones["$supply"]) == 1
    assert "$supply" not in st.view(0)["zones"]  # out of play: never shown


def test_a_piece_returned_to_a_public_pile_shows_there_and_the_log_says_where(tmp_path: Path) -> None:
    # Found by a newcomer writing a market game: the returned card lay face down on the public
    # discard pile, hidden even from its owner, and the log named only the place it had left.
    text = OVERFLOW.replace("capacity: 2}", "capacity: 2, overflow_to: discard}\n  discard: {kind: pile, visibility: public}")
    game = load_game("cap", packs=[write_game_pack(tmp_path, "cap", text)])
    st = game.new_state(2, seed=1)
    st.apply(0, "return hand.1.2")
    (returned,) = st.zones["discard"]
    number = game.definition.pieces[returned].attrs["n"]
    for seat in (0, 1):
        assert [p.get("n") for p in st.view(seat)["zones"]["discard"]["pieces"]] == [number]
    assert st.events[-1] == (None, "Player 1 returns hand.1.2 to the discard")


def test_a_returned_piece_everyone_now_sees_is_named_by_its_label(tmp_path: Path) -> None:
    # "returns hand.1.2" named a place that another card filled at once.
    text = OVERFLOW.replace("capacity: 2}", "capacity: 2, overflow_to: discard}\n  discard: {kind: pile, visibility: public}")
    labelled = text.replace("card: {fields: {n: int},", "card: {fields: {n: int}, label: n,")
    assert labelled != text
    game = load_game("cap", packs=[write_game_pack(tmp_path, "cap", labelled)])
    st = game.new_state(2, seed=1)
    st.apply(0, "return hand.1.2")
    (returned,) = st.zones["discard"]
    assert st.events[-1] == (None, f"Player 1 returns {game.definition.pieces[returned].attrs['n']} to the discard")
    # Put out of the game (unseen by the others), it keeps being named by its old place.
    hidden = OVERFLOW.replace("card: {fields: {n: int},", "card: {fields: {n: int}, label: n,")
    st = load_game("cap", packs=[write_game_pack(tmp_path / "hidden", "cap", hidden)]).new_state(2, seed=1)
    st.apply(0, "return hand.1.2")
    assert st.events[-2][0] == 0 and st.events[-2][1].startswith("Player 1 puts ")  # its name, to its owner
    assert st.events[-1] == (~0, "Player 1 puts a card out of the game")  # (no `overflow_to`: no zone named "supply")


def test_a_plain_number_is_a_capacity(tmp_path: Path) -> None:
    problems = lint_paths([write_game_pack(tmp_path, "cap", OVERFLOW)])
    assert [f"{p.code} {p.message}" for p in problems] == []


TAKE_ALL = """\
kind: game
id: take-all
name: Take all
players: {min: 2, max: 2}
bots: [random]
components:
  token: {fields: {n: int}, product: {n: {from: 1, to: 3}}}
zones:
  table: {kind: hand, visibility: public, contents: [token]}
  taken: {kind: pile, per_seat: true, visibility: public}
flow:
  turn:
    - while: "true"
      do:
        - choose:
            options:
              - action: take
                args: {t: "table"}
                do:
                  - move: {piece: t, to: taken}
end:
  when: "len(table) == 0"
  winners: "seats where len(taken) > 0"
"""


def test_the_end_is_checked_before_a_decision_nobody_can_make(tmp_path: Path) -> None:
    # The turn loops back to `choose` after the last token: the game is over, not stuck (DV044).
    game = load_game("take-all", packs=[write_game_pack(tmp_path, "take-all", TAKE_ALL)])
    st = game.new_state(2, seed=1)
    me = st.current_seats[0]
    for _ in range(3):
        st.apply(me, "take table.1")
    assert st.is_terminal() and st.result()["winners"] == [me] and st.result()["reason"] == "end"


SWAP_BACK = """\
kind: game
id: swap-back
name: Swap back
description: A card shown to all is swapped into the deck, then the deck deals to the other seat.
players: {min: 2, max: 2}
components:
  card: {fields: {rank: int}, product: {rank: {from: 1, to: 10}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
vars: {ace: null}
flow:
  setup:
    - set: {ace: "first(deck where rank == 1)"}
    - shuffle: deck
    - draw: {from: deck, to: hand, owner: "first(seats)"}
    - reveal: "first(first(seats).hand)"
    - swap: {a: "first(first(seats).hand)", b: "first(deck)"}
    - draw: {from: deck, to: hand, owner: "last(seats)"}
""" + STOP_AT_ONCE


def test_a_revealed_card_swapped_into_the_deck_is_unknown_and_a_remembered_card_gives_away_no_place(
    tmp_path: Path,
) -> None:
    # The swapped card stayed revealed, was dealt and showed in the other seat's hand; a variable
    # naming the ace showed every seat its place in the shuffled deck (`deck.7`).
    st = load_game("swap-back", packs=[write_game_pack(tmp_path, "swap-back", SWAP_BACK)]).new_state(2, seed=1)
    [dealt] = st.zones["hand#1"]
    assert dealt not in st.revealed
    assert "rank" not in st.view(0)["seats"][1]["zones"]["hand"]["pieces"][0]
    ace = next(p for p in range(len(st.game.pieces)) if st.game.pieces[p].attrs["rank"] == 1)
    assert st.zone_of[ace] == "deck" and st.view(0)["vars"]["ace"] is None
