"""The authoring tutorial's example game lints clean and plays to the end (docs/authoring.md)."""

from __future__ import annotations

from pathlib import Path

from davinci.engine.lint.runner import lint_paths
from davinci.engine.simulate import SimConfig, run

PACK = str(Path(__file__).parent / "packs" / "tutorial")


def test_tutorial_pack_lints_clean() -> None:
    assert lint_paths([PACK]) == []


def test_tutorial_game_simulates_with_and_without_its_variant() -> None:
    for variant in (None, "short"):
        report = run(SimConfig("pig", variant, ("random", "random"), 40, 3, {}, (PACK,)))
        assert report["games"] == 40
        assert sum(report["wins"]) + report["draws"] >= 40
        assert report["turn_limit_games"] == 0


def test_a_misspelt_setting_is_reported_at_its_column(tmp_path: Path) -> None:
    import shutil

    pack = tmp_path / "tutorial"
    shutil.copytree(PACK, pack)
    game = pack / "pig.yaml"
    game.write_text(game.read_text().replace("settings.target)", "settings.targt)"))
    problems = lint_paths([str(pack)])
    assert [(p.code, p.location.line) for p in problems] == [("DV041", 44)]
    assert "did you mean 'target'" in problems[0].message


def test_simulation_results_do_not_depend_on_jobs() -> None:
    cfg = SimConfig("pig", None, ("random", "random"), 24, 11, {}, (PACK,))
    one = run(cfg, jobs=1)
    two = run(cfg, jobs=2)
    assert one["wins"] == two["wins"] and one["mean_actions"] == two["mean_actions"]
