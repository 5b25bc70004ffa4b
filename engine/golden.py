"""Golden playthroughs: a seeded random game written out as text (actions and views).

Regenerate all of them with:

    python -m davinci.engine.golden tests/golden

The test suite replays each file's game and compares the text line by line, so any change in
rules, views or chance shows up as a readable diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from davinci.engine.bots import RandomBot
from davinci.engine.game import game_variants, load_game

VIEW_AT = frozenset({1, 10, 50, 200})


def playthrough(game_id: str, variant: str | None, seed: int, players: int) -> str:
    """The text of one seeded random playthrough."""
    game = load_game(game_id, variant)
    st = game.new_state(players, seed=seed)
    bot = RandomBot(seed)
    lines = [
        f"game: {game_id}",
        f"variant: {variant or '-'}",
        f"seed: {seed}",
        f"players: {players}",
        f"content: {game.content_hash}",
        "",
    ]
    n = 0
    while not st.is_terminal():
        seat = st.current_seats[0]
        action = bot.choose({}, st.legal_actions(seat))
        st.apply(seat, action)
        n += 1
        lines.append(f"{n}. seat {seat + 1}: {action}")
        if n in VIEW_AT:
            lines.append("view seat 1: " + json.dumps(_compact(st.view(0)), sort_keys=True))
    lines.append("final view seat 1: " + json.dumps(_compact(st.view(0)), sort_keys=True))
    lines.append("result: " + json.dumps(st.result(), sort_keys=True))
    return "\n".join(lines) + "\n"


def _compact(view: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in view.items() if k not in ("settings", "legal")}


def cases() -> list[tuple[str, str | None, int, int]]:
    """One golden game per game and variant (minimum players, seed 1)."""
    return [(gid, variant, 1, max(load_game(gid).definition.min_players, 2)) for gid, variant in game_variants()]


def file_name(game_id: str, variant: str | None) -> str:
    return f"{game_id}{'--' + variant if variant else ''}.txt"


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "tests/golden")
    folder.mkdir(parents=True, exist_ok=True)
    for gid, variant, seed, players in cases():
        path = folder / file_name(gid, variant)
        path.write_text(playthrough(gid, variant, seed, players), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
