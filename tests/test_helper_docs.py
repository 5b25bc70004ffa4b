"""docs/expressions.md documents every engine helper function, with examples that check.

The helpers are read from the registry (`engine_functions`), so a helper added without an entry
in the "Engine helpers" section fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from davinci.engine.expr import ANY, check_source, parse, to_source
from davinci.engine.expr.parser import Call, Name, Node, children
from davinci.engine.functions import _AnyRecords, engine_functions, helper_names

DOC = (Path(__file__).resolve().parent.parent / "docs" / "expressions.md").read_text(encoding="utf-8")
SECTION_TITLE = "## Engine helpers"


LIBRARY = engine_functions(_AnyRecords())
HELPERS = helper_names()


def _section() -> str:
    start = DOC.index(SECTION_TITLE)
    end = DOC.find("\n## ", start + len(SECTION_TITLE))
    return DOC[start : end if end >= 0 else len(DOC)]


def _entries() -> dict[str, list[str]]:
    """Heading text -> the lines of its ```text example blocks, for every ### heading of the section."""
    entries: dict[str, list[str]] = {}
    heading = ""
    in_block = False
    for line in _section().splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
            entries[heading] = []
        elif line.startswith("```"):
            in_block = line == "```text"
        elif in_block and line.strip() and heading:
            entries[heading].append(line)
    return entries


def _documented_names(heading: str) -> list[str]:
    return [part.strip() for part in heading.split(",")]


def _walk(node: Node) -> list[Node]:
    out = [node]
    for child in children(node):
        out += _walk(child)
    return out


def test_the_registry_has_helpers() -> None:
    assert HELPERS, "engine_functions registered no helpers beyond the built-ins"


@pytest.mark.parametrize("name", HELPERS)
def test_every_helper_has_an_entry_with_an_example(name: str) -> None:
    entries = _entries()
    heading = next((h for h in entries if name in _documented_names(h)), None)
    assert heading is not None, f"helper {name}() has no '### {name}' entry under '{SECTION_TITLE}'"
    calls = {n.func for ex in entries[heading] for n in _walk(parse(ex)) if isinstance(n, Call)}
    assert name in calls, f"no example under '### {heading}' calls {name}()"


def test_every_documented_function_name_is_a_helper() -> None:
    # Headings that look like a function name must name a registered helper (no stale entries).
    for heading in _entries():
        for part in _documented_names(heading):
            if re.fullmatch(r"[a-z_][a-z0-9_]*", part):
                assert part in HELPERS, f"'### {heading}' documents {part}(), which is not registered"


def _examples() -> list[str]:
    return [ex for lines in _entries().values() for ex in lines]


@pytest.mark.parametrize("example", _examples())
def test_every_helper_example_parses_and_checks(example: str) -> None:
    tree = parse(example)
    assert to_source(tree)
    # The names an example reads (a grid, a card...) come from its game; standing in for them with
    # ANY still checks each call's function name, number of arguments and literal argument types.
    names = {n.name for n in _walk(tree) if isinstance(n, Name)}
    check_source(example, {name: ANY for name in names}, functions=LIBRARY)


def test_the_section_is_linked_from_the_function_list() -> None:
    assert "(#engine-helpers)" in DOC
