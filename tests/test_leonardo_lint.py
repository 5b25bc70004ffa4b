"""Lint checks that every Key of Leonardo's Riddle is achievable with its deck (DV314)."""

from __future__ import annotations

from pathlib import Path

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
