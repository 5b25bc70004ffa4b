"""Board lint rules (DV301-DV313): a failing and a passing board for each, plus the real game.

Every test lints a small game written inline (schema-valid) with only the board rules, and
asserts the code and line of each problem.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import davinci
from davinci.engine.lint import board_rules
from davinci.engine.lint.context import LintContext, Project
from davinci.engine.lint.registry import Problem, get_rule
from davinci.engine.packs import load_cached
from davinci.engine.schema import validate
from davinci.engine.yamlload import Doc, load_yaml_text

CHECKS = (
    board_rules.unknown_space_type,
    board_rules.board_start,
    board_rules.unreachable_space,
    board_rules.marker_on_track,
    board_rules.required_space_type,
    board_rules.one_space_per_value,
    board_rules.space_attr_values,
    board_rules.min_spaces,
    board_rules.numbered_spaces,
    board_rules.track_shape,
    board_rules.no_turn_without_junction,
    board_rules.drawing_position,
    board_rules.lint_section,
)

HEADER = """\
kind: game
id: boardtest
name: Board test
players: {min: 2, max: 3}
flow: {}
end: {when: "false", winners: "seats"}
"""
# The header takes lines 1-6; the text given to `game` starts on line 7.


def game(body: str) -> Doc:
    return load_yaml_text(HEADER + textwrap.dedent(body), "game.yaml")


def run(doc: Doc) -> list[Problem]:
    assert validate(doc, "game") == [], "test games must be schema-valid"
    project = Project()
    project.add(doc, "game", None)
    ctx = LintContext(doc, "game", None, project)
    out: list[Problem] = []
    for check in CHECKS:
        out.extend(check(ctx))
    return sorted(out)


def found(body: str) -> list[tuple[str, int]]:
    return [(p.code, p.location.line) for p in run(game(body))]


GOOD = """\
board:
  space_types: [home, plain, goal, bid]
  start: h
  spaces:
    - {id: h, type: home, at: [0, 0]}
    - {id: a, type: plain, colour: red, at: [2, 0]}
    - {id: b, type: plain, colour: blue, no_turn: true, at: [4, 0]}
    - {id: g1, type: goal, colour: red, at: [6, 0]}
    - {id: g2, type: goal, colour: blue, at: [4, 2]}
    - {id: bid1, type: bid, number: 1, at: [0, 4]}
    - {id: bid2, type: bid, number: 2, at: [2, 4]}
  tracks:
    - {id: east, spaces: [h, a, b, g1]}
    - {id: south, spaces: [b, g2]}
lint:
  required_space_types: [home, goal, bid]
  marker_space_types: [bid]
  one_space_per: [{type: goal, attr: colour, values: [red, blue]}]
  space_attr_values: [{type: plain, attr: colour, values: [red, blue]}]
  min_spaces: [{type: bid, count_expr: "max_players - 1"}]
  numbered_spaces: [{type: bid, attr: number}]
"""


def test_rules_are_registered_with_docs_and_examples() -> None:
    for n in range(1, 14):
        code = f"DV3{n:02d}"
        r = get_rule(code)
        assert r is not None, code
        assert r.check is not None and r.kinds == ("game",)
        assert "Failing" in r.doc and "Passing" in r.doc and "```yaml" in r.doc, code


def test_a_good_board_passes_every_rule() -> None:
    assert found(GOOD) == []


def test_the_da_vinci_game_board_passes_every_rule() -> None:
    root = Path(davinci.__file__).parent
    doc = load_cached(root / "games" / "da_vinci_game" / "game.yaml", root=root)
    assert run(doc) == []


def test_dv301_unknown_space_type() -> None:
    bad = GOOD.replace("{id: a, type: plain,", "{id: a, type: plian,")
    assert found(bad) == [("DV301", 12)]
    [p] = [p for p in run(game(bad)) if p.code == "DV301"]
    assert "did you mean 'plain'" in p.message
    assert found(GOOD.replace("required_space_types: [home, goal, bid]", "required_space_types: [home, gaol]")) == [
        ("DV301", 22),
        ("DV305", 22),
    ]


def test_dv302_board_start() -> None:
    assert found(GOOD.replace("  start: h\n", "")) == [("DV302", 7)]
    lonely = GOOD.replace("{id: east, spaces: [h, a, b, g1]}", "{id: east, spaces: [a, b, g1]}")
    codes = found(lonely)
    assert ("DV302", 9) in codes


def test_dv303_every_space_reachable_from_the_start() -> None:
    cut = GOOD.replace("{id: south, spaces: [b, g2]}", "{id: south, spaces: [g2, bid1]}")
    # g2 is joined only to a marker; the marker now sits on a track
    codes = found(cut)
    assert ("DV303", 15) in codes and ("DV304", 20) in codes
    island = GOOD.replace("    - {id: south, spaces: [b, g2]}\n", "")
    assert found(island) == [("DV311", 13), ("DV303", 15)]


def test_dv304_markers_lie_on_no_track() -> None:
    bad = GOOD.replace("{id: south, spaces: [b, g2]}", "{id: south, spaces: [b, g2, bid2]}")
    assert found(bad) == [("DV304", 20)]


def test_dv305_required_space_types() -> None:
    bad = GOOD.replace("required_space_types: [home, goal, bid]", "required_space_types: [home, goal, bid, plain]")
    assert found(bad) == []
    gone = GOOD.replace("    - {id: bid1, type: bid, number: 1, at: [0, 4]}\n    - {id: bid2, type: bid, number: 2, at: [2, 4]}\n", "")
    assert ("DV305", 20) in found(gone)


def test_dv306_one_space_per_value() -> None:
    twice = GOOD.replace("{id: g2, type: goal, colour: blue,", "{id: g2, type: goal, colour: red,")
    probs = run(game(twice))
    assert [(p.code, p.location.line) for p in probs] == [("DV306", 15), ("DV306", 24)]
    assert "second goal space" in probs[0].message and "no goal space has colour 'blue'" in probs[1].message
    odd = GOOD.replace("{id: g2, type: goal, colour: blue,", "{id: g2, type: goal, colour: green,")
    assert [c for c, _ in found(odd)] == ["DV306", "DV306"]


def test_dv307_space_attribute_values() -> None:
    bad = GOOD.replace("{id: a, type: plain, colour: red,", "{id: a, type: plain, colour: rde,")
    [p] = run(game(bad))
    assert (p.code, p.location.line) == ("DV307", 12) and "did you mean 'red'" in p.message
    missing = GOOD.replace("{id: a, type: plain, colour: red,", "{id: a, type: plain,")
    assert found(missing) == [("DV307", 12)]


def test_dv308_minimum_space_counts() -> None:
    bad = GOOD.replace("count_expr: \"max_players - 1\"", "count_expr: \"max_players + 1\"")
    [p] = run(game(bad))
    assert (p.code, p.location.line) == ("DV308", 26) and "needs 4" in p.message
    broken = GOOD.replace("count_expr: \"max_players - 1\"", "count_expr: \"max_player - 1\"")
    [q] = run(game(broken))
    assert q.code == "DV313" and q.location.line == 26 and "max_player" in q.message


def test_dv309_numbered_spaces() -> None:
    gap = GOOD.replace("{id: bid2, type: bid, number: 2,", "{id: bid2, type: bid, number: 3,")
    assert found(gap) == [("DV309", 17)]
    twice = GOOD.replace("{id: bid2, type: bid, number: 2,", "{id: bid2, type: bid, number: 1,")
    [p] = run(game(twice))
    assert p.code == "DV309" and "share number 1" in p.message


def test_dv310_track_shape() -> None:
    assert found(GOOD.replace("[h, a, b, g1]", "[h, a, b, a, g1]")) == [("DV310", 19)]
    assert found(GOOD.replace("{id: south, spaces: [b, g2]}", "{id: south, spaces: [b, g2], loop: true}")) == [
        ("DV310", 20)
    ]


def test_dv311_no_turn_needs_a_junction() -> None:
    bad = GOOD.replace("{id: h, type: home, at", "{id: h, type: home, no_turn: true, at")
    [p] = run(game(bad))
    assert (p.code, p.location.line, p.severity) == ("DV311", 11, "warning")


def test_dv312_drawing_positions() -> None:
    assert found(GOOD.replace("{id: g2, type: goal, colour: blue, at: [4, 2]}", "{id: g2, type: goal, colour: blue, at: [6, 0]}")) == [
        ("DV312", 15)
    ]
    assert found(GOOD.replace("{id: g2, type: goal, colour: blue, at: [4, 2]}", "{id: g2, type: goal, colour: blue}")) == [
        ("DV312", 15)
    ]


@pytest.mark.parametrize(
    "old,new,line",
    [
        ("required_space_types:", "required_types:", 22),
        ("marker_space_types: [bid]", "marker_space_types: bid", 23),
        ("numbered_spaces: [{type: bid, attr: number}]", "numbered_spaces: [{type: bid, attr: number, from: 1}]", 27),
        ("numbered_spaces: [{type: bid, attr: number}]", "numbered_spaces: [{type: bid}]", 27),
    ],
)
def test_dv313_the_lint_section_has_a_fixed_shape(old: str, new: str, line: int) -> None:
    assert ("DV313", line) in found(GOOD.replace(old, new))
