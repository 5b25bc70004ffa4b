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
