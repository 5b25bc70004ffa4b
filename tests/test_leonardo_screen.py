"""Leonardo's Riddle terminal screen: the grid, hand, Keys and deck drawn from a view; short commands."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from test_leonardo_rules import KE, MC, MF, MPH, SC, SIX, game, position

from davinci.engine.errors import ShortFormError
from davinci.games.leonardos_riddle.screen import HELP, expand, legend, render


def text_of(renderable: object) -> str:
    """What the screen shows, as plain text."""
    console = Console(width=120, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def screen_position():  # type: ignore[no-untyped-def]
    return position(
        game(),
        hands={1: [MPH, *SIX[:5]]},
        grid={(0, 0): [MC, KE], (1, 0): [SC]},
        keys={2: ["eclipse"]},
    )


def test_the_screen_shows_grid_stacks_hand_keys_and_deck() -> None:
    st = screen_position()
    out = text_of(render(st.view(0), 0))
    assert "Sk Ec x2" in out, "the top card at 0,0 over a stack of two"
    assert "Gu Ca" in out
    assert "+" in out, "free cells are marked"
    assert "1. Me Pr Hb" in out, "the hand, numbered"
    assert f"deck: {st.view(0)['zones']['deck']['count']} cards" in out
    assert "Keys: 1: Ec" in out and "no Keys" in out
    assert "eclipse" in out and "mechanism" in out, "the legend names the symbols"


def test_the_screen_shows_only_the_viewers_hand() -> None:
    st = screen_position()
    mine = text_of(render(st.view(0), 0))
    theirs = text_of(render(st.view(1), 1))
    assert "1. Me Pr Hb" in mine and "Me Pr Hb" not in theirs


def test_the_legend_and_help_explain_the_glyphs_and_commands() -> None:
    assert text_of(legend()).count(" ") > 12
    for word in ("place", "cover", "swap", "skip", "5x5", "Key"):
        assert word in HELP


def test_the_help_says_what_the_games_settings_say() -> None:
    # It said "draw back to 6 cards" and "three top cards" whatever the settings were.
    from davinci.games.leonardos_riddle.screen import help_text

    plain = help_text({"hand_size": 4, "line_length": 4, "diagonals": True, "key_copies": 2, "one_key_each": False,
                       "senior_first": True})
    for said in ("draw back to 4 cards", "A Key: four top cards in a row, column or diagonal sharing", "2 of each symbol",
                 "may hold several Keys of one symbol", "Mechanism is the highest"):
        assert said in plain
    assert help_text(game().new_state(2, seed=0).view(None)["settings"]) == HELP  # the defaults
    assert "draw back to 6 cards" in HELP and "three top cards in a row or column sharing" in HELP
    assert max(len(line) for line in plain.replace("[bold]", "").replace("[/bold]", "").splitlines()) <= 80


def test_every_grid_mark_is_explained_in_the_help() -> None:
    # Cards on a diagonal leave empty cells that touch no card: the grid draws them as ·
    st = position(game(), hands={1: [MPH, *SIX[:5]]}, grid={(0, 0): [MC, KE], (1, 1): [SC], (2, 2): [MF]})
    out = text_of(render(st.view(0), 0))
    assert "·" in out and "+" in out and "x2" in out
    plain = HELP.replace("[bold]", "").replace("[/bold]", "")
    assert "+ marks a free cell" in plain
    assert "· an empty cell\nthat touches no card yet" in plain
    assert "xN a stack of N cards" in plain


def test_short_commands_expand_to_actions() -> None:
    view = screen_position().view(0)
    assert expand("p 3 1,1", view) == "place hand.1.3 1,1"
    assert expand("3 -1,0", view) == "place hand.1.3 -1,0"
    assert expand("c 2 0,0", view) == "cover hand.1.2 0,0"
    assert expand("s 1 1,0", view) == "swap hand.1.1 1,0"
    with pytest.raises(ShortFormError, match="0,0 holds a card: type c 2 0,0 to cover it, or s 2 0,0 to swap"):
        expand("2 0,0", view)  # an occupied cell: cover or swap must be said (it was "'2' is no action")
    # Only what is possible is suggested: card 3 shares no symbol with the card at 0,0 (c 3 0,0
    # was suggested, then refused).
    with pytest.raises(ShortFormError, match="0,0 holds a card, which card 3 can neither cover nor swap now"):
        expand("3 0,0", view)
    assert expand("skip", view) == "skip"
    assert expand("hello", view) is None
    assert expand("place hand.1.3 1,1", view) == "place hand.1.3 1,1"
    # Another player's card is not a short form of one's own (it played seat 1's card 1): the
    # rules refuse it as written.
    assert expand("place hand.2.1 1,0", view) is None


def test_the_screen_survives_the_end_of_a_game() -> None:
    st = position(game(), hands={1: [MF]}, grid={(0, 0): [KE]}, deck_size=0, turns_left=1)
    st.apply(0, "place hand.1.1 1,1")
    assert st.is_terminal()
    assert "Game over" in text_of(render(st.view(None), None))


def test_a_misread_short_form_is_explained() -> None:
    from test_play_io import _screen

    code, out = _screen("leonardos-riddle", "human,greedy", ["p 1 1.0", "p 1 1,0 extra"], seed=4)
    assert code == 0
    assert out.count("could not read 'p 1 1.0': the short form is p N X,Y (place card N on cell X,Y)") == 1
    assert "could not read 'p 1 1,0 extra'" in out
    assert "'p' is not possible now" not in out


def test_a_seats_keys_are_counted_and_listed_by_seniority() -> None:
    from davinci.games.leonardos_riddle.screen import _keys_line

    keys = [{"symbol": "eclipse", "seniority": 12}, {"symbol": "mechanism", "seniority": 1},
            {"symbol": "cat", "seniority": 6}]
    assert _keys_line(keys).plain == "3: Me Ca Ec"
    assert _keys_line([]).plain == "no Keys"


def test_the_game_over_screen_lists_every_hand() -> None:
    import io

    from rich.console import Console

    from davinci.engine.game import load_game
    from davinci.engine.play import parse_seats, run_play

    g = load_game("leonardos-riddle")
    console = Console(file=io.StringIO(), width=100)
    assert run_play(g, parse_seats("random,random", g), 3, {}, console, lambda prompt="": "", clear=False) == 0
    final = console.file.getvalue().rsplit("game over after turn", 1)[1]  # type: ignore[attr-defined]
    assert "Random 1's hand:" in final and "Random 2's hand:" in final


@pytest.mark.parametrize("players", [2, 4, 5])
def test_at_80x24_the_grid_stays_in_sight_above_the_move_prompt(players: int) -> None:
    # The hand, the legend and the recent events had pushed the grid off the top at every prompt.
    from helpers import screens_at_80x24

    for text in screens_at_80x24("leonardos-riddle", players, 1, render, 150):
        assert text.startswith("Leonardo's Riddle") and "y\\x" in text and "Your hand:" in text


def test_a_tie_on_keys_says_the_senior_key_decided() -> None:
    # Both players had 4 Keys and the screen only named the winner.
    view = {"seats": [{"name": "Ana", "index": 1, "zones": {"hand": {"count": 0}, "keys": {"pieces": []}}},
                      {"name": "Ben", "index": 2, "zones": {"hand": {"count": 0}, "keys": {"pieces": []}}}],
            "current": 1, "turn": 40, "zones": {"grid": {"cells": []}, "deck": {"count": 0}}, "vars": {},
            "events": [], "result": {"winners": [0], "scores": [4, 4], "ranking": [0, 1], "reason": "end"}}
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(render(view, None))
    assert "Game over - winner: Ana (4 Keys each: the senior Key decides)" in out.getvalue()


def test_help_holds_the_symbol_legend_a_short_screen_leaves_out() -> None:
    assert "Symbols: Me mechanism" in HELP and "Ec eclipse" in HELP
