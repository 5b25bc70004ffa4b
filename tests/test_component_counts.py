"""How many pieces a component makes: `copies` as a number or as an expression over settings,
and `include_if`, both evaluated once, when the game is built with its settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

CHIPS = """\
kind: game
id: chips
name: Chips
players: {min: 2, max: 2}
settings:
  sets: {type: int, default: 2, min: 0, max: 2000, doc: Copies of each chip.}
  gold: {type: bool, default: false, doc: Add the gold chip.}
components:
  chip:
    fields: {value: int}
    product: {value: [1, 2, 3]}
    copies: settings.sets
  gold:
    fields: {value: int}
    items: [{value: 10}]
    include_if: settings.gold
zones:
  box: {kind: bag, visibility: public, contents: [chip, gold]}
flow:
  setup: []
""" + STOP_AT_ONCE


def _box(game_pack: str, **settings: object) -> list[int]:
    game = load_game("chips", packs=[game_pack], settings=settings)
    state = game.new_state(2, seed=1)
    return sorted(p["value"] for p in state.view(0)["zones"]["box"]["pieces"])


def test_copies_may_come_from_a_setting(tmp_path: Path) -> None:
    pack = write_game_pack(tmp_path, "chips", CHIPS)
    assert lint_paths([pack]) == []
    assert _box(pack) == [1, 1, 2, 2, 3, 3]
    assert _box(pack, sets=3, gold=True) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 10]


@pytest.mark.parametrize(("sets", "words"), [(0, "'copies' gave 0: it must be from 1 to 1000"),
                                             (1001, "'copies' gave 1001: it must be from 1 to 1000")])
def test_copies_out_of_range_are_refused_at_the_field(tmp_path: Path, sets: int, words: str) -> None:
    pack = write_game_pack(tmp_path, "chips", CHIPS)
    with pytest.raises(DavinciError) as e:
        load_game("chips", packs=[pack], settings={"sets": sets})
    assert words in e.value.message
    assert e.value.location is not None and (e.value.location.line, e.value.location.col) == (12, 13)


def test_copies_read_only_settings(tmp_path: Path) -> None:
    pack = write_game_pack(tmp_path, "chips", CHIPS.replace("copies: settings.sets", "copies: players * 2"))
    [problem] = lint_paths([pack])
    assert (problem.code, problem.location.line) == ("DV041", 12)
    assert "unknown name 'players'" in problem.message
