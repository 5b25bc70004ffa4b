"""Each piece has its own trail on the board: the spaces it may not enter again this turn.

A `move ... space:` from one board space to another walks the shortest way (or, given `steps`,
the first walk of that length) and records it in the moving piece's trail; `reachable(piece, n)` avoids that piece's trail only. (A pawn sent home by a
capture used to block every other pawn's way for the rest of the turn.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.game import load_game

SPACES = "\n".join(f"    - {{id: s{i}, type: plain}}" for i in range(20))
RING = ", ".join(f"s{i}" for i in range(20))

GAME = f"""\
kind: game
id: trail-probe
name: Trail probe
players: {{min: 2, max: 2}}
components:
  pawn: {{fields: {{n: int}}, items: [{{n: 1}}, {{n: 2}}]}}
zones:
  box: {{kind: pile, contents: [pawn]}}
  board: {{kind: board}}
board:
  start: s0
  spaces:
{SPACES}
  tracks:
    - {{id: ring, spaces: [{RING}], loop: true}}
vars:
  done: false
flow:
  setup:
    - move: {{piece: "first(box where n == 1)", to: board, space: "first(spaces(board) where id == 's13')"}}
    - move: {{piece: "first(box where n == 2)", to: board, space: "first(spaces(board) where id == 's12')"}}
  turn:
    - set: {{a: "first(board.pieces where n == 1)", b: "first(board.pieces where n == 2)"}}
    - log: "b before: {{reachable(b, 3)}}"
    - move: {{piece: a, to: board, space: "first(spaces(board) where id == 's0')"}}
    - log: "b after: {{reachable(b, 3)}}"
    - log: "a after: {{reachable(a, 2, false)}}"
    - choose:
        options:
          - action: ok
            do:
              - set: {{done: "true"}}
end:
  when: "done"
  winners: "seats"
"""


@pytest.fixture()
def pack(tmp_path: Path) -> str:
    return write_game_pack(tmp_path, "trail-probe", GAME)


def _lines(st) -> list[str]:  # type: ignore[no-untyped-def]
    return [text for _, text in st.events]


def test_a_piece_sent_across_the_board_does_not_block_another_pieces_way(pack: str) -> None:
    st = load_game("trail-probe", packs=[pack]).new_state(2, seed=1)
    lines = _lines(st)
    # b on s12 can still go forward through s13..s15 after a jumped from s13 to s0 (by s14..s19).
    assert "b before: s15, s9" in lines
    assert "b after: s15, s9" in lines


def test_a_piece_may_not_walk_back_over_its_own_trail(pack: str) -> None:
    st = load_game("trail-probe", packs=[pack]).new_state(2, seed=1)
    # a walked s13 -> s14 ... s19 -> s0 this turn: backwards is barred, forwards is open.
    assert "a after: s1, s2" in _lines(st)


def test_a_move_given_its_steps_records_the_walk_of_that_length(tmp_path: Path) -> None:
    # s13 to s0 is 7 spaces forward (the shortest walk: s14..s19, s0) or 13 back (s12..s1, s0).
    # A throw of 13 went back: s1 and s2 are barred, and the way on through s19 stays open (a
    # Triskel's second throw).
    game = GAME.replace("space: \"first(spaces(board) where id == 's0')\"}",
                        "space: \"first(spaces(board) where id == 's0')\", steps: 13}")
    assert game != GAME
    st = load_game("trail-probe", packs=[write_game_pack(tmp_path, "trail-probe", game)]).new_state(2, seed=1)
    assert "a after: s18, s19" in _lines(st)
    # With exact: false the move went up to 13 spaces: the shortest walk is recorded.
    up_to = game.replace("steps: 13}", "steps: 13, exact: \"1 > 2\"}")
    assert up_to != game
    st = load_game("trail-probe", packs=[write_game_pack(tmp_path / "up", "trail-probe", up_to)]).new_state(2, seed=1)
    assert "a after: s1, s2" in _lines(st)


def test_a_save_with_the_old_shared_trail_still_bars_every_piece(pack: str) -> None:
    game = load_game("trail-probe", packs=[pack])
    st = game.new_state(2, seed=1)
    data = st.to_json()
    body = data["state"]
    assert body["turn_trails"] == [[0, ["s13", "s14", "s15", "s16", "s17", "s18", "s19", "s0"]]]
    del body["turn_trails"]
    body["turn_trail"] = ["s13", "s14", "s15"]
    from davinci.engine.serial import checksum

    data["checksum"] = checksum(body)
    old = game.state_from_json(data)
    assert old.turn_trail == {-1: ["s13", "s14", "s15"]}
    b = old.piece_records()[1]
    from davinci.engine.functions import reachable

    assert [s.space for s in reachable(b, 3)] == ["s9"]  # the old trail bars s13 for b too


def test_a_space_attribute_has_one_type_on_the_whole_board(tmp_path: Path) -> None:
    # `pos: "7"` on one space failed only in play, as "cannot compare str with int" at a
    # condition, without naming the space.
    from davinci.engine.lint.runner import lint_paths

    typed = GAME.replace("{id: s0, type: plain}", "{id: s0, type: plain, pos: 0}").replace(
        "{id: s7, type: plain}", "{id: s7, type: plain, pos: '7'}")
    [problem] = lint_paths([write_game_pack(tmp_path, "trail-probe", typed)])
    assert (problem.code, problem.location.line) == ("DV050", 20)
    assert problem.message == ("space 's7' gives 'pos' a text; space 's0' gives it a number: an attribute has one "
                               "type on the whole board")


FORK = """\
kind: game
id: fork
name: Fork
players: {min: 2, max: 2}
components:
  pawn: {fields: {n: int}, items: [{n: 1}]}
zones:
  box: {kind: pile, contents: [pawn]}
  board: {kind: board}
board:
  start: s0
  spaces:
    - {id: s0, type: plain}
    - {id: fork, type: plain}
    - {id: l1, type: plain}
    - {id: l2, type: plain}
    - {id: l3, type: plain}
    - {id: k1, type: plain}
    - {id: join, type: plain}
    - {id: goal, type: plain}
  tracks:
    - {id: long, spaces: [s0, fork, l1, l2, l3, join, goal], one_way: ONE_WAY}
    - {id: short, spaces: [fork, k1, join], one_way: ONE_WAY}
vars:
  done: false
flow:
  setup:
    - move: {piece: "first(box)", to: board, space: "first(spaces(board) where id == 'k1')"}
  turn:
    - set: {p: "first(board.pieces)"}
    - log: "two: {reachable(p, 2)}"
    - log: "up to three: {reachable(p, 3, false)}"
    - choose:
        options:
          - action: ok
            do:
              - set: {done: "true"}
end:
  when: "done"
  winners: "seats"
"""


@pytest.mark.parametrize(("one_way", "two", "up_to_three"), [
    # Both ways, a pawn on the short branch may go forward, then back down the long one.
    ("false", "goal, l1, l3, s0", "fork, goal, join, l1, l2, l3, s0"),
    ("true", "goal", "goal, join"),
])
def test_a_one_way_track_is_walked_only_in_its_order(tmp_path: Path, one_way: str, two: str, up_to_three: str) -> None:
    from davinci.engine.lint.runner import lint_paths

    pack = write_game_pack(tmp_path, "fork", FORK.replace("ONE_WAY", one_way))
    assert lint_paths([pack]) == []
    lines = _lines(load_game("fork", packs=[pack]).new_state(2, seed=1))
    assert f"two: {two}" in lines and f"up to three: {up_to_three}" in lines


def test_reachable_from_a_space_ignores_every_trail(tmp_path: Path) -> None:
    # docs/expressions.md: "From a space (`reachable(space, n)`) no trail applies". Lint refused a
    # space as its first argument although the function took one.
    from davinci.engine.lint.runner import lint_paths

    game = GAME.replace('- log: "a after: {{reachable(a, 2, false)}}"'.replace("{{", "{").replace("}}", "}"),
                        "- log: \"from s13: {reachable(space(board, 's13'), 2, false)}\"")
    assert game != GAME
    pack = write_game_pack(tmp_path, "trail-probe", game)
    assert lint_paths([pack]) == []
    # a's own trail (s13..s19, s0) would bar s14 and s12 is free either way: from the space, both ways.
    assert "from s13: s11, s12, s14, s15" in _lines(load_game("trail-probe", packs=[pack]).new_state(2, seed=1))


@pytest.mark.parametrize(("call", "what"), [
    ("reachable('s3', 2)", "argument 1 of reachable() must be a space or a piece on the board, got a str\n"
                           "    reachable('s3', 2)\n              ^"),
    ("distance(a, 3)", "argument 2 of distance() must be a space or a piece on the board, got an int\n"
                       "    distance(a, 3)\n                ^"),
])
def test_a_board_walk_takes_a_space_or_a_piece(tmp_path: Path, call: str, what: str) -> None:
    from davinci.engine.lint.runner import lint_paths

    game = GAME.replace("b after: {reachable(b, 3)}", f"b after: {{{call}}}")
    assert game != GAME
    [problem] = lint_paths([write_game_pack(tmp_path, "trail-probe", game)])
    assert (problem.code, problem.message) == ("DV041", what)


def test_a_misspelt_start_space_gets_a_suggestion(tmp_path: Path) -> None:
    from davinci.engine.lint.runner import lint_paths

    [problem] = lint_paths([write_game_pack(tmp_path, "trail-probe", GAME.replace("start: s0", "start: s00"))])
    assert (problem.code, problem.message) == ("DV020", "start space 's00' is not a space (did you mean 's0'?)")
