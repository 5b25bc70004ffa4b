"""A step's true/false keys take true or false, and the steps that always act take `true`: YAML's
`no` or a condition there used to read as true, turning a hidden deal face up or ending every
turn, while lint said nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.lint.runner import lint_paths

GAME = """\
kind: game
id: flags
name: Flags
description: Deals one card to each seat.
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, product: {n: {from: 1, to: 9}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
flow:
  setup:
    - for_each: {in: seats, as: s, do: [{STEP}]}
"""


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("draw: {from: deck, to: hand, owner: s, face_up: no}", "'face_up' must be true or false, got the text 'no' (write true or false)"),
        ('draw: {from: deck, to: hand, owner: s, face_up: "false"}', "'face_up' must be true or false, got the text 'false' (write false without quotes)"),
        ("draw: {from: deck, to: hand, owner: s, random: 1}", "'random' must be true or false, got 1"),
        ("move: {piece: first(deck), to: hand, owner: s, bottom: yes}", "'bottom' must be true or false, got the text 'yes' (write true or false)"),
        ("end_game: false", "'end_game' takes true, got false: the step always ends the game"),
        ('end_game: "true"', "'end_game' takes true, got the text 'true' (write true without quotes)"),
    ],
)
def test_a_flag_that_is_not_true_or_false_is_refused_where_it_is(tmp_path: Path, step: str, message: str) -> None:
    pack = write_game_pack(tmp_path, "flags", GAME.replace("STEP", step) + STOP_AT_ONCE)
    problems = lint_paths([pack])
    assert [p.code for p in problems] == ["DV050"] and message in problems[0].message, problems
    assert problems[0].location.line == 13


def test_true_and_false_are_taken(tmp_path: Path) -> None:
    pack = write_game_pack(tmp_path, "flags", GAME.replace("STEP", "draw: {from: deck, to: hand, owner: s, face_up: false}")
                           + STOP_AT_ONCE)
    assert lint_paths([pack]) == []
