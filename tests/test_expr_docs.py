"""docs/expressions.md documents every built-in function and every operator."""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.expr import BUILTINS, parse, to_source

DOC = (Path(__file__).resolve().parent.parent / "docs" / "expressions.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_function_has_a_section(name: str) -> None:
    headings = [line[4:] for line in DOC.splitlines() if line.startswith("### ")]
    assert any(name in [part.strip() for part in h.split(",")] for h in headings), name


@pytest.mark.parametrize(
    "operator",
    ["where", "select", "if", "else", "or", "and", "not", "in", "==", "!=", "<=", ">=", "//", "%", "**", "x[i]"],
)
def test_every_operator_is_in_the_reference(operator: str) -> None:
    assert f"`{operator}" in DOC or f" {operator} " in DOC


def _examples() -> list[str]:
    found: list[str] = []
    in_block = False
    for line in DOC.splitlines():
        if line.startswith("```"):
            in_block = line == "```text"
            continue
        if in_block and line and not line.startswith(" ") and ": DV0" not in line:
            found.append(line)
    return found


@pytest.mark.parametrize("example", _examples())
def test_every_example_in_the_reference_parses(example: str) -> None:
    assert to_source(parse(example))
