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
