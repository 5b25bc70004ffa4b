"""Small helpers shared by the tests (pytest puts this folder on the import path)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any


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


def screens_at_80x24(game_id: str, players: int, seed: int, render: Any, moves: int) -> Iterator[str]:
    """Play `moves` moves of a seeded game (a fixed, varied policy) and yield, before each, what
    the game's `render` shows the seat to move on an 80x24 terminal; asserts that it fits above
    the move prompt play prints under it."""
    from io import StringIO

    from rich.console import Console

    from davinci.engine.game import load_game
    from davinci.engine.values import prompt_lines

    st = load_game(game_id).new_state(players, seed=seed)
    k = 0
    while not st.is_terminal() and k < moves:
        seat = st.current_seats[0]
        view = st.view(seat)
        out = StringIO()
        Console(file=out, width=80, color_system=None).print(render(view, seat, height=24, width=80))
        text = out.getvalue()
        assert len(text.splitlines()) + prompt_lines(view, 80) <= 24, text
        yield text
        legal = st.legal_actions(seat)
        st.apply(seat, legal[(k * 7) % len(legal)])
        k += 1
