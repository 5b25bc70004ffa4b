"""How a choice's argument values are written in action text, and the values that cannot be:
the text is what a player types and what a log replays, so it must name one value."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

WORDS = """\
kind: game
id: words
name: Words
players: {{min: 2, max: 2}}
flow:
  turn:
    - choose:
        options:
          - action: word
            args: {{w: "{words}"}}
            do: [{{end_game: true}}]
end:
  when: "false"
  winners: "seats"
"""


def _pack(tmp_path: Path, words: str) -> str:
    return write_game_pack(tmp_path, "words", WORDS.format(words=words))


@pytest.mark.parametrize(("words", "texts"), [
    ("['big cat', 'small dog']", ["word big_cat", "word small_dog"]),
    ("[[1, 2], [4], []]", ["word [1,2]", "word [4]", "word []"]),
    ("[true, false]", ["word true", "word false"]),
    ("['a', 'a']", ["word a", "word a"]),  # the same value twice is one value: no doubt which
])
def test_values_are_written_so_that_the_text_reads_back(tmp_path: Path, words: str, texts: list[str]) -> None:
    pack = _pack(tmp_path, words)
    assert lint_paths([pack]) == []
    state = load_game("words", packs=[pack]).new_state(2, seed=1)
    assert state.legal_actions().texts() == texts
    state.apply(state.current_seats[0], texts[0])
    assert state.is_terminal()


@pytest.mark.parametrize(("words", "message"), [
    # Played, `big cat` and `big_cat` were two actions both written `word big_cat`; the log
    # replayed the first, and `replay --verify` failed on a game played by the book.
    ("['big cat', 'big_cat']", "two choices are both written 'big_cat' in an action ('big cat' and 'big_cat'; "
                               "a space is written _)"),
    ("['a', '']", "an empty text cannot be a choice: it could not be typed or logged as an action"),
])
def test_values_that_cannot_be_told_apart_in_text_stop_the_game_at_the_list(
    tmp_path: Path, words: str, message: str
) -> None:
    [problem] = lint_paths([_pack(tmp_path, words)])
    assert (problem.code, problem.location.line, problem.location.col) == ("DV042", 10, 24)
    assert message in problem.message


def test_action_text_and_messages_never_carry_direction_controls() -> None:
    # A typed answer or a log's action holding U+202E turned every later screen line around.
    from davinci.engine.actions import parse_action
    from davinci.engine.errors import IllegalAction, printable

    with pytest.raises(IllegalAction, match=r"the direction character \\u202e"):
        parse_action("answer 1 Ro\u202eme", {"answer": 1})
    assert parse_action("answer 1 שלום", {"answer": 1}).args == ("1", "שלום")  # right-to-left text is fine
    # Messages quoting a file name or a log's values show them as escapes.
    assert printable("game\u202e.json") == "game\\u202e.json"
    assert printable("a\u2028b", one_line=True) == "a\\u2028b"


STACKED = """\
kind: game
id: stacked
name: Stacked
players: {{min: 2, max: 2}}
components:
  card:
    fields: {{n: int}}
    items: [{{n: 1}}, {{n: 2}}, {{n: 3}}]
zones:
  box: {{kind: pile, contents: [card], visibility: public}}
  grid: {{kind: grid, width: 2, height: 1}}
  board: {{kind: board}}
board:
  start: s0
  spaces: [{{id: s0, type: plain}}, {{id: s1, type: plain}}]
  tracks: [{{spaces: [s0, s1]}}]
seat_vars: {{pts: 0}}
flow:
  setup:
{setup}
  turn:
    - choose:
        options:
          - action: pick
            args: {{p: "{pieces}"}}
            do:
              - set: {{seat: current, pts: p.n}}
              - end_game: true
end:
  when: "false"
  winners: "seats where pts > 0"
  score: "seat.pts"
"""


@pytest.mark.parametrize(("zone", "setup", "texts"), [
    # Cards 1 and 2 stacked on one cell, card 3 alone on the next: a stack's pieces add their
    # place in it from the bottom; a piece alone keeps the cell's name.
    ("grid", ['move: {piece: "first(box)", to: grid, cell: "first(free_cells(grid))"}',
              'move: {piece: "first(box)", to: grid, cell: "first(grid.cells)"}',
              'move: {piece: "first(box)", to: grid, cell: "first(free_cells(grid) where x == 1)"}'],
     ["pick 0,0.1", "pick 0,0.2", "pick 1,0"]),
    # Two pawns on one space (a game's start space): the same on a board.
    ("board", ['move: {piece: "first(box)", to: board, space: "first(spaces(board))"}',
               'move: {piece: "first(box)", to: board, space: "first(spaces(board))"}',
               'move: {piece: "first(box)", to: board, space: "last(spaces(board))"}'],
     ["pick board.s0.1", "pick board.s0.2", "pick board.s1"]),
])
def test_pieces_sharing_a_cell_or_space_read_apart(tmp_path: Path, zone: str, setup: list[str],
                                                   texts: list[str]) -> None:
    # They were all written `0,0` (or `board.s0`): typing the text, a replay or a resumed save
    # took the last of them, whatever had been chosen.
    text = STACKED.format(setup="\n".join(f"    - {s}" for s in setup), pieces=f"{zone}.pieces")
    game = load_game("stacked", packs=[write_game_pack(tmp_path, "stacked", text)])
    st = game.new_state(2, seed=0)
    seat = st.current_seats[0]
    assert [str(a) for a in st.legal_actions(seat)] == texts
    refs = {p["ref"] for p in (st.view(seat)["zones"][zone].get("pieces")
                               or [c["top"] for c in st.view(seat)["zones"][zone]["cells"]])}
    assert refs <= {t.split()[1] for t in texts}  # a view names a piece as its action does
    st.apply(seat, texts[0])  # by its text, as typed or replayed: the bottom piece, card 1
    assert st.view(None)["seats"][seat]["vars"]["pts"] == 1


@pytest.mark.parametrize("sid", ["a.1", "x y"])
def test_a_space_id_is_one_plain_word(tmp_path: Path, sid: str) -> None:
    # `a.1` read like the first of two pieces on space `a` (two actions, one text), and `x y` could
    # not be typed at all.
    text = STACKED.format(setup='    - move: {piece: "first(box)", to: board, space: "first(spaces(board))"}',
                          pieces="board.pieces").replace("{id: s1, type: plain}", f"{{id: '{sid}', type: plain}}")
    text = text.replace("[s0, s1]", f"[s0, '{sid}']")
    problems = lint_paths([write_game_pack(tmp_path, "stacked", text)])
    assert [p.code for p in problems] == ["DV015"] and "letters, digits, '_' and '-' only" in problems[0].message


def test_a_place_in_another_seats_zone_says_whose_zone_it_is() -> None:
    # A player typing the place their own screen numbers (`hand.1.3` as seat 2) was told only
    # the possible values, all in another zone: the refusal now says whose zone they named.
    from davinci.engine.errors import IllegalAction
    from davinci.engine.game import load_game

    st = load_game("da-vinci-code").new_state(["Ana", "Ben"], seed=2)
    seat = st.current_seats[0]
    own = seat + 1
    with pytest.raises(IllegalAction) as info:
        st.apply(seat, f"guess row.{own}.1 3")
    assert f"row.{own}.1 is not possible as TARGET: row.{own} is your own row (possible: " in info.value.message
    with pytest.raises(IllegalAction) as info:
        st.apply(seat, "guess row.9.1 3")
    assert "row.9.1 is not possible as TARGET: there is no row.9 (the seats are 1 to 2) (possible: " in info.value.message
