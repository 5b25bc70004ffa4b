"""`draw` with a `where` filter: from the top of a deck, the first matching pieces in order; the
draw stops when no piece matches. A newcomer dealt each seat its own chips this way, with
`count: len(box)`, and every card drawn used to test the whole deck again."""

from __future__ import annotations

from pathlib import Path

from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.game import load_game

CHIPS = """\
kind: game
id: chips
name: Chips
players: {min: 2, max: 6}
components:
  chip: {fields: {seat_no: int, v: int}, product: {seat_no: {from: 1, to: 6}, v: {from: 0, to: 30}}}
zones:
  box: {kind: deck, visibility: hidden, contents: [chip]}
  chips: {kind: hand, per_seat: true, visibility: owner}
flow:
  setup:
    - for_each:
        in: seats
        as: s
        do:
          - draw: {from: box, to: chips, owner: s, count: len(box), where: "piece.seat_no == s.index and piece.v % 2 == 0"}
""" + STOP_AT_ONCE


def test_a_filtered_draw_from_the_top_takes_the_matching_pieces_in_order_and_stops(tmp_path: Path) -> None:
    game = load_game("chips", packs=[write_game_pack(tmp_path, "chips", CHIPS)])
    st = game.new_state(3, seed=7)
    attrs = [p.attrs for p in game.definition.pieces]
    for seat in range(3):
        got = [(attrs[p]["seat_no"], attrs[p]["v"]) for p in st.zones[f"chips#{seat}"]]
        assert got == [(seat + 1, v) for v in range(0, 31, 2)]
    assert len(st.zones["box"]) == 6 * 31 - 3 * 16


STACKS = """\
kind: game
id: stacks
name: Stacks
players: {min: 1, max: 2}
components:
  card: {fields: {n: int}, items: [{n: 1}, {n: 2}, {n: 3}, {n: 4}, {n: 5}]}
zones:
  deck: {kind: deck, visibility: public, contents: [card]}
  discard: {kind: pile, visibility: public}
  hand: {kind: hand, visibility: public}
flow:
  setup:
    - draw: {from: deck, to: discard}
    - draw: {from: deck, to: discard}
    - draw: {from: discard, to: hand}
    - move: {piece: first(deck), to: discard}
    - move: {piece: first(hand), to: deck, bottom: true}
    - draw: {from: deck, to: discard, bottom: true}
""" + STOP_AT_ONCE


def test_a_piece_put_on_a_deck_or_pile_goes_on_top_and_the_next_draw_takes_it(tmp_path: Path) -> None:
    # A discard pile built with draw or move handed back its oldest card, and `bottom: true` changed
    # nothing: every piece went to the end of the list, and draws took from its start.
    game = load_game("stacks", packs=[write_game_pack(tmp_path, "stacks", STACKS)])
    st = game.new_state(1, seed=1)
    n = {i: p.attrs["n"] for i, p in enumerate(game.definition.pieces)}
    # Deck 1..5 (top first). 1 then 2 onto the discard (2 on top); the draw from the discard takes 2;
    # 3 moved onto the discard's top; 2 goes under the deck; 4 is drawn under the discard.
    assert [n[p] for p in st.zones["discard"]] == [3, 1, 4]
    assert [n[p] for p in st.zones["deck"]] == [5, 2]
    assert st.zones["hand"] == []


def test_bottom_is_refused_for_a_zone_that_is_not_a_deck_or_pile(tmp_path: Path) -> None:
    import pytest

    from davinci.engine.errors import DavinciError

    bad = STACKS.replace("- draw: {from: deck, to: discard, bottom: true}", "- draw: {from: deck, to: hand, bottom: true}")
    with pytest.raises(DavinciError, match=r"DV050 .*'bottom: true' puts a piece under the others in a deck or pile; "
                                           r"'hand' is a hand zone \(a piece put in a hand goes at its end, or at `index`\)"):
        load_game("stacks", packs=[write_game_pack(tmp_path, "stacks", bad)])


def test_is_top_in_a_pile_is_its_first_piece_only(tmp_path: Path) -> None:
    # Off a grid every piece read is_top: `discard where not is_top` (all but the top card, for a
    # reshuffle) matched nothing, and the draw pile stayed empty for good.
    game = load_game("stacks", packs=[write_game_pack(tmp_path, "stacks", STACKS)])
    st = game.new_state(1, seed=1)
    n = {i: p.attrs["n"] for i, p in enumerate(game.definition.pieces)}
    assert [st.piece_is_top(p) for p in st.zones["discard"]] == [True, False, False]
    assert [n[p] for p in st.zones["discard"] if not st.piece_is_top(p)] == [1, 4]
    assert all(st.piece_is_top(p) for p in st.zones["hand"])  # (a hand is no stack)


def test_a_piece_moved_onto_its_own_pile_goes_on_top(tmp_path: Path) -> None:
    # A move or draw from a pile onto the same pile left it where it was.
    game_text = STACKS.replace("""    - draw: {from: deck, to: discard, bottom: true}
""", """    - draw: {from: deck, to: discard, bottom: true}
    - move: {piece: last(discard), to: discard}
    - draw: {from: deck, to: deck, where: "piece.n == 2"}
""")
    game = load_game("stacks", packs=[write_game_pack(tmp_path, "stacks", game_text)])
    st = game.new_state(1, seed=1)
    n = {i: p.attrs["n"] for i, p in enumerate(game.definition.pieces)}
    assert [n[p] for p in st.zones["discard"]] == [4, 3, 1]
    assert [n[p] for p in st.zones["deck"]] == [2, 5]


def test_bottom_and_index_together_are_refused(tmp_path: Path) -> None:
    import pytest

    from davinci.engine.errors import DavinciError

    bad = STACKS.replace("- move: {piece: first(hand), to: deck, bottom: true}",
                         "- move: {piece: first(hand), to: deck, bottom: true, index: 1}")
    with pytest.raises(DavinciError, match="'bottom: true' and 'index' both say where the piece goes"):
        load_game("stacks", packs=[write_game_pack(tmp_path, "stacks", bad)])
