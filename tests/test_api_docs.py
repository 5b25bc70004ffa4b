"""The examples of docs/api.md run as they are, and say what the page says they do."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).parent.parent / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def run(block: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(PAGE), "exec"), {"__name__": "api_example"})
    return out.getvalue()


def test_the_page_has_its_three_examples() -> None:
    assert len(BLOCKS) == 3


def test_playing_a_game_from_python_ends_with_a_result() -> None:
    printed = run(BLOCKS[0])
    assert printed.startswith("{'winners': [") and "'reason': 'end'" in printed


def test_a_view_shows_my_numbers_and_hides_theirs() -> None:
    mine, theirs = run(BLOCKS[1]).splitlines()
    assert re.fullmatch(r"\[(\('(black|white)', \d+\)(, )?)+\]", mine)
    assert "True" not in theirs and "False" in theirs


def test_the_example_bot_plays_twenty_games() -> None:
    printed = run(BLOCKS[2])
    m = re.fullmatch(r"cautious (\d+) random (\d+)\n", printed)
    assert m is not None and int(m.group(1)) + int(m.group(2)) == 20


@pytest.mark.parametrize("name", ["load_game", "new_state", "legal_actions", "apply", "view", "SeededBot"])
def test_the_page_names_the_api_it_documents(name: str) -> None:
    assert name in PAGE.read_text(encoding="utf-8")
