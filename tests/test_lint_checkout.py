"""Linting a checkout of davinci while another copy of it is installed (`pip install .`): the
checkout's pack stands for the installed one, so its games and decks are not clashes with
themselves (authoring.md's first step lints content/rose.yaml)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from davinci.engine.lint.runner import lint_paths
from davinci.engine.packs import builtin_root


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second copy of the built-in pack, as a git checkout beside an installed copy is."""
    root = tmp_path_factory.mktemp("checkout") / "davinci"
    installed = builtin_root()
    root.mkdir()
    shutil.copy(installed / "pack.yaml", root / "pack.yaml")
    for folder in ("games", "content", "schemas"):
        shutil.copytree(installed / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.mark.parametrize("target", [".", "content/rose.yaml", "games/da_vinci_code/advanced.yaml",
                                    "games/da_vinci_game/game.yaml"])
def test_a_checkout_lints_clean_beside_its_installed_copy(checkout: Path, target: str) -> None:
    problems = lint_paths([str(checkout / target)])
    assert [(p.code, p.message) for p in problems if p.severity == "error"] == []


def test_a_clash_inside_the_checkout_is_still_found(checkout: Path, tmp_path: Path) -> None:
    copy = tmp_path / "davinci"
    shutil.copytree(checkout, copy)
    rose = copy / "content" / "rose.yaml"
    (copy / "content" / "rose2.yaml").write_text(rose.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = copy / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "  - content/rose.yaml\n", "  - content/rose.yaml\n  - content/rose2.yaml\n"), encoding="utf-8")
    codes = {p.code for p in lint_paths([str(copy)]) if p.severity == "error"}
    assert "DV021" in codes
