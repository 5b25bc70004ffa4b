"""Values no static check can rule out: a variable declared `null` (not type-checked) or one branch
of an `if` may hold `none` where a step needs a seat, a number or a list. Such a game is the
author's mistake, so it is a DV042 located at the step or expression, never an internal error
(lint reported DV999 and play "internal error" for each of these)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.errors import EvalError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

HEAD = """\
kind: game
id: nones
name: Nones
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, product: {n: {from: 1, to: 6}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
vars: {who: null, many: null}
flow:
  setup:
"""


@pytest.mark.parametrize("step", [
    '- set: {seat: "who", n: 1}',
    '- draw: {from: deck, to: hand, owner: "who"}',
    '- draw: {from: deck, to: hand, count: "many"}',
    '- log: {text: "hello", to: "who"}',
    '- for_each: {in: "many", as: x, do: []}',
    '- roll: {sides: "many", as: r}',
])
def test_a_none_where_a_step_needs_a_value_is_located_at_the_step(tmp_path: Path, step: str) -> None:
    game = HEAD.replace("vars: {who: null, many: null}", "vars: {who: null, many: null}\nseat_vars: {n: 0}")
    pack = write_game_pack(tmp_path, "nones", game + f"    {step}\n" + STOP_AT_ONCE)
    with pytest.raises(EvalError) as e:
        load_game("nones", packs=[pack]).new_state(2, seed=0)
    assert e.value.code == "DV042" and "a step was given a value it cannot use" in e.value.message
    assert e.value.location is not None and e.value.location.line == 14  # the step's line
    problems = lint_paths([pack])
    assert "DV999" not in [p.code for p in problems] and "DV042" in [p.code for p in problems]


@pytest.mark.parametrize(("end", "words"), [
    ('  winners: "[who]"\n', "the winners are none: a list of seats is needed"),
    ('  winners: "seats"\n  score: "many"\n', "a seat's score is none: a number is needed"),
])
def test_a_none_among_the_results_is_located_at_the_end_expression(tmp_path: Path, end: str, words: str) -> None:
    game = HEAD + '    - set: {many: "none"}\n' + STOP_AT_ONCE.split("end:")[0] + 'end:\n  when: "false"\n' + end
    line = len(game.splitlines())  # the end's last key: winners, or score
    st = load_game("nones", packs=[write_game_pack(tmp_path, "nones", game)]).new_state(2, seed=0)
    st.apply(st.current_seats[0], "stop")
    with pytest.raises(EvalError) as e:
        st.result()
    assert words in e.value.message and e.value.location is not None and e.value.location.line == line


CAPPED = """\
kind: game
id: capped
name: Capped
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, product: {n: {from: 1, to: 9}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner, capacity: "CAP", overflow_to: discard}
  discard: {kind: pile, per_seat: true, visibility: public}
flow:
  turn:
    - draw: {from: deck, to: hand}
    - choose:
        options:
          - action: go
            do: []
end:
  when: "turn >= 8"
  winners: "seats"
"""


def test_a_piece_over_capacity_goes_to_the_owners_own_zone_when_that_zone_is_per_seat(tmp_path: Path) -> None:
    # overflow_to a per-seat zone was an internal error (KeyError: 'discard').
    st = load_game("capped", packs=[write_game_pack(tmp_path, "capped", CAPPED.replace('"CAP"', "1"))]).new_state(
        2, seed=0)
    while st.pending is not None and st.pending["type"] != "overflow":
        st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])
    seat = st.current_seats[0]
    st.apply(seat, st.legal_actions(seat)[0])
    assert len(st.zones[f"discard#{seat}"]) == 1 and len(st.zones[f"hand#{seat}"]) == 1


@pytest.mark.parametrize("cap", ["-1", "many"])
def test_a_capacity_that_is_not_a_number_of_pieces_is_located(tmp_path: Path, cap: str) -> None:
    game = CAPPED.replace('"CAP"', f'"{cap}"').replace("flow:\n", "vars: {many: null}\nflow:\n")
    with pytest.raises(EvalError) as e:
        load_game("capped", packs=[write_game_pack(tmp_path, "capped", game)]).new_state(2, seed=0)
    assert "the capacity of hand is" in e.value.message and "0 or more" in e.value.message
    assert e.value.location is not None and e.value.location.line == 9


def test_a_respond_naming_a_seat_twice_is_located_not_blamed_on_a_bot(tmp_path: Path) -> None:
    # `seats + seats` made the second turn of seat 1 find no action: simulate blamed the random bot.
    game = HEAD + '    - respond: {seats: "seats + seats", check: "true", as: r}\n' + STOP_AT_ONCE
    with pytest.raises(EvalError) as e:
        load_game("nones", packs=[write_game_pack(tmp_path, "nones", game)]).new_state(2, seed=0)
    assert "the seats that respond name Player 1 twice" in e.value.message
    assert e.value.location is not None and e.value.location.line == 13  # the respond step's seats


# Two pawns in a box and a board of two spaces, a and b: the head of a game about the board.
TWO_PAWNS = """\
kind: game
id: {id}
name: Pawns
players: {{min: 2, max: 2}}
components:
  pawn: {{fields: {{n: int}}, product: {{n: {{from: 1, to: 2}}}}}}
zones:
  box: {{kind: pile, visibility: public, contents: [pawn]}}
  board: {{kind: board, visibility: public}}
board:
  spaces: [{{id: a, type: plain}}, {{id: b, type: {b_type}}}]
  tracks: [{{spaces: [a, b]}}]
  start: a
"""


def test_a_spaces_pieces_keep_their_order_through_a_save(tmp_path: Path) -> None:
    # `space.pieces` followed the order of an internal table a saved state does not keep: pawns
    # 2 then 1 on a space came back as 1 then 2.
    game = TWO_PAWNS.format(id="order", b_type="plain") + """\
vars: {seen: []}
flow:
  setup:
    - move: {piece: "last(box)", to: board, space: "first(spaces(board) where id == 'a')"}
    - move: {piece: "first(box)", to: board, space: "first(spaces(board) where id == 'a')"}
  turn:
    - set: {seen: "first(spaces(board) where id == 'a').pieces select n"}
    - choose:
        options:
          - action: go
            do: []
end:
  when: "turn >= 3"
  winners: "seats"
"""
    g = load_game("order", packs=[write_game_pack(tmp_path, "order", game)])
    st = g.new_state(2, seed=1)
    again = g.state_from_json(st.to_json())
    for s in (st, again):
        s.apply(s.current_seats[0], "go")
    assert st.view(None)["vars"]["seen"] == again.view(None)["vars"]["seen"] == [2, 1]


def test_a_variable_cannot_grow_past_the_stored_value_limit(tmp_path: Path) -> None:
    # Each decision's work is bounded, but a list grown a little at every turn grew the state
    # without end (a gigabyte in 300 turns); the value a `set` stores is limited instead.
    game = HEAD.replace("vars: {who: null, many: null}", "vars: {l: []}") + (
        '    - set: {l: "[]"}\n'
        "  turn:\n"
        '    - set: {l: "l + range(0, 10000)"}\n'
        "    - choose:\n        options:\n          - action: go\n            do: []\n"
        'end:\n  when: "false"\n  winners: "seats"\n')
    st = load_game("nones", packs=[write_game_pack(tmp_path, "nones", game)]).new_state(2, seed=0)
    with pytest.raises(EvalError) as e:
        for _ in range(25):
            st.apply(st.current_seats[0], "go")
    assert len(st.history) == 20  # 20 turns of 10,000 elements fit; the 21st turn would pass 200,000
    assert "'l' would hold more than 200,000 characters and list elements" in e.value.message
    assert e.value.location is not None and e.value.location.line == 15  # the value set


@pytest.mark.parametrize("limit", ["0 - 5", "86401", "9223372036854775807"])
def test_a_time_limit_out_of_range_is_located(tmp_path: Path, limit: str) -> None:
    # A negative one was taken as "untimed" without a word; one of 2**63 seconds had its countdown
    # drawn every second as a float.
    game = HEAD + f'    - respond: {{seats: "seats", check: "true", as: r, time_limit: "{limit}"}}\n' + STOP_AT_ONCE
    with pytest.raises(EvalError) as e:
        load_game("nones", packs=[write_game_pack(tmp_path, "nones", game)]).new_state(2, seed=0)
    assert "a number of seconds from 0 (untimed) to 86,400 (a day)" in e.value.message
    assert e.value.location is not None and e.value.location.line == 13


def test_a_space_is_found_by_its_id(tmp_path: Path) -> None:
    # Authors wrote `first(spaces(board) where id == 's0')` for want of a helper.
    game = TWO_PAWNS.format(id="spaced", b_type="goal") + """\
vars: {kind: "", far: 0}
flow:
  setup:
    - move: {piece: "first(box)", to: board, space: "space(board, 'a')"}
    - set: {kind: "space(board, 'b').type", far: "distance(first(board.pieces), space(board, 'b'))"}
    - set: {kind: "space(board, WHERE).type"}
""" + STOP_AT_ONCE
    ok = game.replace('    - set: {kind: "space(board, WHERE).type"}\n', "")
    st = load_game("spaced", packs=[write_game_pack(tmp_path / "ok", "spaced", ok)]).new_state(2, seed=0)
    assert st.view(None)["vars"] == {"kind": "goal", "far": 1}
    with pytest.raises(EvalError) as e:
        load_game("spaced", packs=[write_game_pack(tmp_path / "bad", "spaced", game.replace("WHERE", "'bb'"))]
                  ).new_state(2, seed=0)
    assert "the board has no space 'bb'" in e.value.message and "did you mean 'b'" in e.value.message


FREE_OVER_CAPACITY = """\
kind: game
id: jk
name: Jk
description: test
players: {min: 2, max: 2}
bots: [random]
components:
  tile:
    fields: {number: int, joker: bool}
    items:
      - {number: 1, joker: false}
      - {number: 2, joker: false}
      - {number: 3, joker: false}
      - {number: -1, joker: true}
      - {number: -1, joker: true}
zones:
  pile:
    kind: pile
    visibility: public
    contents: [tile]
  row:
    kind: row
    per_seat: true
    visibility: public
    sort: piece.number
    free: piece.joker
    capacity: 4
    overflow_to: pile
flow:
  setup:
    - draw: {from: pile, to: row, owner: "seats[0]", count: 3, where: "not piece.joker"}
  turn:
    - choose:
        prompt: go
        options:
          - action: take
            do:
              - draw: {from: pile, to: row, owner: "seats[0]", count: 2}
              - log: "took"
          - action: stop
            do:
              - end_game: true
end:
  when: "false"
  winners: "seats"
"""


def test_free_pieces_are_placed_before_a_zone_over_capacity_asks_for_a_return(tmp_path: Path) -> None:
    # The return over capacity replaced the waiting placement: the jokers were never placed.
    st = load_game("jk", packs=[write_game_pack(tmp_path, "jk", FREE_OVER_CAPACITY)]).new_state(2, seed=1)
    st.apply(1, "take")
    asked = []
    while st.pending is not None and st.pending["type"] in ("position", "overflow"):
        asked.append(st.pending["type"])
        st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])
    assert asked == ["position", "position", "overflow"]


def test_tie_breaks_of_different_kinds_inside_lists_are_located(tmp_path: Path) -> None:
    # [1] against ['x'] (a `[]` variable holds anything) was an internal error while ranking.
    game = HEAD.replace("vars: {who: null, many: null}", "seat_vars: {tb: []}") + (
        "    - set: {seat: \"seats[0]\", tb: \"[1]\"}\n    - set: {seat: \"seats[1]\", tb: \"['x']\"}\n"
        + STOP_AT_ONCE.split("end:")[0] + 'end:\n  when: "false"\n  winners: "[]"\n  tie_break: "seat.tb"\n')
    st = load_game("nones", packs=[write_game_pack(tmp_path, "nones", game)]).new_state(2, seed=0)
    st.apply(st.current_seats[0], "stop")
    with pytest.raises(EvalError) as e:
        st.result()
    assert "values of one kind that order" in e.value.message and e.value.location is not None
