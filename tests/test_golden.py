"""Golden playthroughs: each game and variant replays to exactly the recorded text.

Regenerate after an intended change with `python -m davinci.engine.golden tests/golden`
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.golden import cases, file_name, playthrough

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("game_id,variant,seed,players", cases())
def test_playthrough_matches_golden_file(game_id: str, variant: str | None, seed: int, players: int) -> None:
    path = GOLDEN / file_name(game_id, variant)
    assert path.exists(), f"missing {path}; run: python -m davinci.engine.golden tests/golden"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(game_id, variant, seed, players).splitlines()
    for i, (a, e) in enumerate(zip(actual, expected), 1):
        assert a == e, f"{path.name}:{i} differs"
    assert len(actual) == len(expected)
