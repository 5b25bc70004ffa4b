"""Rule documentation: every rule is documented with examples, `davinci rule` text, docs page up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.errors import DavinciError
from davinci.engine.lint.docs import REGENERATE, render_rules_markdown, rule_text
from davinci.engine.lint.registry import all_rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lint-rules.md"


def test_codes_and_names_are_stable_shapes() -> None:
    rules = all_rules()
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert r.code[:2] == "DV" and r.code[2:].isdigit() and len(r.code) == 5, r.code
        assert r.name == r.name.lower() and " " not in r.name and "_" not in r.name, r.name
        assert r.severity in ("error", "warning")


def test_hazard_codes_are_registered() -> None:
    codes = {r.code for r in all_rules()}
    expected = {f"DV00{i}" for i in range(1, 10)} | {f"DV01{i}" for i in range(0, 8)}
    expected |= {"DV020", "DV021", "DV022", "DV030", "DV031", "DV032", "DV999"}
    assert expected <= codes


@pytest.mark.parametrize("code", [r.code for r in all_rules()])
def test_every_rule_is_documented_with_examples(code: str) -> None:
    doc = next(r for r in all_rules() if r.code == code).doc.lower()
    assert len(doc) > 80, f"{code}: documentation too short"
    assert "failing" in doc and "passing" in doc, f"{code}: give a failing and a passing example"


def test_rule_text() -> None:
    text = rule_text("DV003")
    assert text.startswith("DV003 no-anchors (error; layer: yaml; applies to: all files)")
    assert "Failing" in text
    assert rule_text("dv003") == text
    assert rule_text("no-anchors") == text


def test_unknown_rule_suggests() -> None:
    with pytest.raises(DavinciError) as info:
        rule_text("DV00")
    assert "did you mean" in info.value.message
    with pytest.raises(DavinciError):
        rule_text("duplicat-key")


def test_unknown_rule_points_at_a_command_that_exists() -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    with pytest.raises(DavinciError) as info:
        rule_text("DV9999")
    message = info.value.message
    assert "--list" not in message and "`davinci rule` (without a code) lists them all" in message
    listing = CliRunner().invoke(main, ["rule"])  # the command the message names
    assert listing.exit_code == 0 and "DV003" in listing.output


def test_committed_docs_page_is_current() -> None:
    assert DOCS.read_text(encoding="utf-8") == render_rules_markdown(), f"regenerate with: {REGENERATE}"
