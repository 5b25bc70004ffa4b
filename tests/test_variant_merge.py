"""A variant is an overlay: mappings merge key by key, so a variant writes only what it changes,
even inside sections whose keys the game must have (`end`, `players`, a zone's `kind`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths
from davinci.engine.rng import Rng

TUTORIAL = Path(__file__).parent / "packs" / "tutorial"

PARTIAL = """\
kind: variant
id: partial
extends: pig
name: Two or three players, first to 30 or six turns
players: {max: 3}
settings:
  target: {default: 30}
end:
  when: "any(seats select banked >= settings.target) or turn >= 6"
"""


def _pack(tmp_path: Path, variant: str) -> str:
    pack = tmp_path / "tutorial"
    shutil.copytree(TUTORIAL, pack)
    (pack / "partial.yaml").write_text(variant, encoding="utf-8")
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "  - partial.yaml\n", encoding="utf-8")
    return str(pack)


def test_a_variant_changes_one_key_of_end_and_of_players(tmp_path: Path) -> None:
    pack = _pack(tmp_path, PARTIAL)
    assert [p for p in lint_paths([pack]) if p.severity == "error"] == []
    game = load_game("pig", variant="partial", packs=[pack])
    assert (game.definition.min_players, game.definition.max_players) == (2, 3)
    # `winners` and `score` come from the game; `when` from the variant.
    st, rng = game.new_state(2, seed=4), Rng(4)
    while not st.is_terminal():
        seat = st.current_seats[0]
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.below(len(legal))])
    assert st.result()["reason"] == "end" and st.turn <= 7  # `when` is the variant's
    assert st.result()["winners"] == [s for s in range(2) if st.seat_vars[s]["banked"] >= 30]


def test_a_zone_a_variant_adds_still_needs_its_kind(tmp_path: Path) -> None:
    pack = _pack(tmp_path, PARTIAL + "zones:\n  spare: {visibility: public}\n")
    with pytest.raises(DavinciError) as e:
        load_game("pig", variant="partial", packs=[pack])
    assert e.value.code == "DV013" and "missing required key 'kind' in 'spare'" in e.value.message
    assert e.value.location is not None and Path(e.value.location.path).name == "partial.yaml"
    assert e.value.location.line == 11
    lint = [p for p in lint_paths([pack]) if p.severity == "error"]
    assert [(p.code, Path(p.location.path).name, p.location.line) for p in lint] == [("DV013", "partial.yaml", 11)]
