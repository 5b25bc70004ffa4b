"""Fuzzing the play prompts: a terminal game fed random lines, then end of input, never crashes.

`run_play` is driven by a scripted input function that types commands (`?`, `list`, `save`,
numbers), near-miss action words, random printable text and odd Unicode, then closes the input.
Whatever was typed, the game ends with exit 0 (input closed or game over) or 130 (`quit`), the
screen shows no traceback and no failed screen renderer, and the autosave always reloads.
"""

from __future__ import annotations

import io
import json
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from test_play_io import typed as typed_lines

from davinci.engine.game import game_variants, load_game
from davinci.engine.play import parse_seats, run_play

GAMES = game_variants()
WORDS = ["?", "help", "list", "save", "1", "2", "12", "40", "0", "-1", "", "stop", "guess", "place", "cover",
         "swap", "go", "answer", "pass", "bid", "return", "position", "draw", "reveal", "joker", "black", "b", "w",
         "r", "p", "2.3", "1,1", "row.2.1", "hand.1.1"]

lines = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
    st.text(alphabet=string.printable, max_size=30),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.tuples(st.sampled_from(WORDS), st.integers(-5, 40)).map(lambda t: f"{t[0]} {t[1]}"),
    st.sampled_from(["\x00", "a\x00b", "x" * 5000, "\x1b[2J", "\r", "\u2028", "[/red]", "[bold]x", "[link=x]y"]),
)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAMES), typed=st.lists(lines, max_size=60), hot_seat=st.booleans(),
       seed=st.integers(0, 2**31 - 1), width=st.sampled_from([30, 80, 200]))
def test_random_typing_then_end_of_input(tmp_path: Path, game: tuple[str, str | None], typed: list[str],
                                         hot_seat: bool, seed: int, width: int) -> None:
    g = load_game(*game)
    players = ",".join(["human", "human" if hot_seat else "random"] + ["random"] * (g.definition.min_players - 2))
    console = Console(file=io.StringIO(), width=width)
    save = tmp_path / f"fuzz-{seed}.json"
    code = run_play(g, parse_seats(players, g), seed, {}, console, typed_lines(typed), save_path=str(save), clear=False,
                    timer=False)
    screen = console.file.getvalue()
    assert code in (0, 130), screen[-2000:]
    assert "Traceback" not in screen and "screen failed" not in screen, screen[-2000:]
    doc = json.loads(save.read_text(encoding="utf-8"))
    g.state_from_json(doc["saved"])
    save.unlink()
