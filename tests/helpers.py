"""Small helpers shared by the tests (pytest puts this folder on the import path)."""

from __future__ import annotations

from pathlib import Path


def write_game_pack(folder: Path, stem: str, game: str) -> str:
    """Make `folder` a content pack holding one game file, `stem`.yaml with the text `game`;
    returns the folder, as `load_game(..., packs=[...])` and `lint_paths` take it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.yaml").write_text(game, encoding="utf-8")
    (folder / "pack.yaml").write_text(
        f'kind: pack\nid: {stem}\nname: {stem}\nversion: "1.0"\ngames: [{stem}.yaml]\n', encoding="utf-8"
    )
    return str(folder)


# The flow's end for a test game about its setup: the first seat's one decision ends the game,
# and nothing else does. Tests append it to their game's text after `setup:`.
STOP_AT_ONCE = """\
  turn:
    - choose:
        options:
          - action: stop
            do: [{end_game: true}]
end:
  when: "false"
  winners: "seats"
"""
