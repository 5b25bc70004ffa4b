"""Lint checks that every Key of Leonardo's Riddle is achievable with its deck (DV314)."""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.lint.runner import lint_paths

GAME = Path(__file__).parent.parent / "games" / "leonardos_riddle" / "game.yaml"


def test_every_key_is_achievable_with_the_shipped_deck() -> None:
    assert [p for p in lint_paths([str(GAME)]) if p.code == "DV314"] == []


def test_a_key_on_too_few_cards_is_reported(tmp_path: Path) -> None:
    text = GAME.read_text(encoding="utf-8").replace("at_least: 3}", "at_least: 16}")
    f = tmp_path / "game.yaml"
    f.write_text(text, encoding="utf-8")
    found = [p for p in lint_paths([str(f)]) if p.code == "DV314"]
    assert len(found) == 12  # every symbol is on exactly 15 cards
    assert "fewer than 16" in found[0].message


def _lint_edited(tmp_path: Path, old: str, new: str) -> list:  # type: ignore[type-arg]
    text = GAME.read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / "game.yaml"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return [p for p in lint_paths([str(f)]) if p.code == "DV041"]


def test_a_line_of_a_symbol_no_card_shows_is_found_by_lint(tmp_path: Path) -> None:
    # A misspelt value could never make a line: the Key was silently unwinnable.
    [problem] = _lint_edited(tmp_path, "'symbols', 'mechanism'", "'symbols', 'mechanizm'")
    assert problem.message.startswith("no piece's symbols hold 'mechanizm' in this game; did you mean 'mechanism'?")
    assert problem.message.splitlines()[-1].index("^") == problem.message.splitlines()[-2].index("'mechanizm'")


@pytest.mark.parametrize(("field", "words"), [
    ("'symbls'", "argument 4 of lines_through() names a field of the components; none has 'symbls'; did you mean "
                 "'symbols'? (fields: seniority, symbol, symbols)"),
    ("symbols", "argument 4 of lines_through() is a field's name, written as a text: 'symbols'"),
])
def test_the_field_a_line_reads_is_a_components_field_written_as_a_text(tmp_path: Path, field: str, words: str) -> None:
    [problem] = _lint_edited(tmp_path, "'symbols', 'mechanism'", f"{field}, 'mechanism'")
    assert problem.message.splitlines()[0] == words


def test_a_line_of_a_number_in_a_text_field_is_found_by_lint(tmp_path: Path) -> None:
    [problem] = _lint_edited(tmp_path, "'symbols', 'mechanism'", "'symbols', 1")
    assert problem.message.splitlines()[0] == "a piece's symbols holds a str, never an int: no line could match"
