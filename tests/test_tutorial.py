"""The authoring tutorial's example game lints clean and plays to the end (docs/authoring.md)."""

from __future__ import annotations

from pathlib import Path

from test_author_mistakes import assert_one_problem, lint_edited

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
    problems = lint_edited(tmp_path, Path(PACK), "pig.yaml", "settings.target)", "settings.targt)")
    assert_one_problem(problems, "pig.yaml", "DV041", 44, 46, "did you mean 'target'")


def test_simulation_results_do_not_depend_on_jobs() -> None:
    cfg = SimConfig("pig", None, ("random", "random"), 24, 11, {}, (PACK,))
    one = run(cfg, jobs=1)
    two = run(cfg, jobs=2)
    assert one["wins"] == two["wins"] and one["mean_actions"] == two["mean_actions"]


def test_the_guides_listing_is_the_tutorial_file() -> None:
    # A reader copying the listing gets the file the guide's error messages quote (pig.yaml:44:46).
    guide = (Path(__file__).parent.parent / "docs" / "authoring.md").read_text(encoding="utf-8")
    pig = (Path(__file__).parent / "packs" / "tutorial" / "pig.yaml").read_text(encoding="utf-8")
    assert f"```yaml\n{pig}```" in guide
