"""Da Vinci Code terminal screen: what a player sees, short commands, help and hints."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from test_dvc_positions import game, play, position

from davinci.engine.errors import ShortFormError
from davinci.engine.play import SeatSpec, run_play
from davinci.games.da_vinci_code import screen


def text_of(view: dict[str, Any], **kw: Any) -> str:
    """The screen as plain text."""
    console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    console.print(screen.render(view, None, **kw))
    return console.export_text()


def lines_after(text: str, heading: str, n: int = 1) -> list[str]:
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(heading))
    return lines[i + 1 : i + 1 + n]


def test_own_row_shows_numbers_and_marks_face_up_tiles() -> None:
    st = position(["b1 w4* b9", "b2 w5*"], drawn="w7")
    text = text_of(st.view(0))
    chips, places = lines_after(text, "Your row", 2)
    assert chips.strip() == "b 1 [w 4] b 9"
    assert places.split() == ["1", "2", "3"]
    assert "Drawn:  w 7" in text


def test_opponents_hidden_tiles_are_blocks_with_colours_and_revealed_numbers_show() -> None:
    st = position(["b1 w4", "b2 w5* b8"], drawn="w7")
    text = text_of(st.view(0))
    (chips,) = lines_after(text, "Player 2 (seat 2)")
    assert chips.split() == ["b██", "w", "5", "b██"]
    assert "2 hidden" in text


def test_no_hidden_number_reaches_the_screen() -> None:
    """The opponent's view of seat 1 never contains seat 1's hidden numbers or drawn tile."""
    st = position(["b1 w10", "b2 w5"], drawn="w7")
    play(st, "guess row.2.1 2")  # right, then the screen is drawn for seat 2... during seat 1's turn
    text = text_of(st.view(1))
    (chips,) = lines_after(text, "Player 1 (seat 1)")
    assert chips.split() == ["b██", "w██"]
    header, body = text.split("\n", 1)  # the header counts the pile's colours ("10 black")
    assert "w 7" not in text and "10" not in body and "w10" not in header


def test_pile_size_turn_and_recent_events() -> None:
    st = position(["b1 w4", "b2 w5", "b3 w6"], drawn="w7")
    play(st, "guess row.2.1 2")
    play(st, "guess row.3.2 9")
    text = text_of(st.view(1))
    assert "pile: 8 black, 8 white tiles" in text.splitlines()[0]  # 24 - 6 in rows - 2 drawn; colours show on the backs
    assert "Player 2 to play" in text.splitlines()[0]
    recent = text[text.index("Recent:") :]
    assert "Player 1 guessed row.2.1 = 2: right" in recent
    assert "Player 1 guessed row.3.2 = 9: wrong" in recent
    assert "Player 1: guess" not in recent  # the engine's echo repeats the outcome line


def test_hints_list_each_hidden_opponent_tile_s_candidates() -> None:
    """--hints: the 002 worked example, as shown under the opponent's row."""
    st = position(["b0 w0 b1", "b2* w3 w5*"], drawn="b11")
    assert "   2: 2 3 4" in text_of(st.view(0), hints=True).splitlines()
    assert "   possible values per hidden place:" in text_of(st.view(0), hints=True).splitlines()  # (unlabelled, they puzzled)
    assert "   2: 2 3 4" not in text_of(st.view(0)).splitlines()


def test_prompts_for_joker_place_own_reveal_and_colour() -> None:
    st = position(["b1 w4", "b2 w5"], drawn="bj", variant="advanced")
    play(st, "guess row.2.1 2")
    play(st, "stop")
    text = text_of(st.view(0))
    assert "Place your black joker: p N puts it at place N (1-3) of your row" in text
    assert "  p 2: b1 JOKER w4" in text.splitlines()  # the row as each place leaves it
    st = position(["b1 w4", "b2 w5"], drawn="", pile="")
    play(st, "guess row.2.1 3")
    assert "reveal one of your own hidden tiles" in text_of(st.view(0))
    st = position(["b1 w4", "b2 w5"], drawn="", variant="colour-choice")
    assert "Choose the colour" in text_of(st.view(0))


def test_the_guess_example_names_an_opponent_s_hidden_tile() -> None:
    # seat 2's example named seat 2's own row ('e.g. 2.3 7')
    st = position(["b1 w4 b6", "b2 w5"], current=2, drawn="w7")
    assert "(e.g. 1.1 7)" in text_of(st.view(1))
    st = position(["b1* w4 b6", "b2 w5", "b3 w6"], current=2, drawn="w7")
    assert "(e.g. 3.1 7)" in text_of(st.view(1))  # the next seat on, its first hidden tile
    st = position(["b1 w4", "b2 w5"], current=1, drawn="w7")
    assert "(e.g. 2.1 7)" in text_of(st.view(0))


def test_a_joker_dealt_at_the_start_gets_a_clear_screen() -> None:
    g = game("advanced", jokers_in_start=True)
    st = g.new_state(2, seed=5)
    assert st.pending is not None and st.pending["type"] == "position" and st.pending["seat"] == 0
    text = text_of(st.view(0))
    lines = text.splitlines()
    assert "dealing the tiles" in lines[0] and "turn 0" not in lines[0]
    # the second row is not dealt yet: no '0 hidden' and no empty row
    assert "Player 2 (seat 2)  no tiles yet" in text and "0 hidden" not in text
    assert "Place your white joker: p N puts it at place N (1-4) of your row, from the left." in lines
    assert sum(1 for line in lines if line.startswith("  p ") and "JOKER" in line) == 4
    assert max(len(line.rstrip()) for line in lines) <= 80


def test_spectator_sees_every_number() -> None:
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    text = text_of(st.view(None))
    assert "b 2" in text and "w 5" in text and "b 1" in text


def test_the_end_names_the_winner() -> None:
    st = position(["b1 w4", "b2* w5"], drawn="w7")
    play(st, "guess row.2.2 5")
    assert "Game over - winner: Player 1" in text_of(st.view(0))


def test_help_explains_the_commands() -> None:
    for word in ("guess row.2.3 7", "stop", "joker", "reveal", "position", "draw black", "2.3 7"):
        assert word in screen.HELP


def test_short_commands_expand_to_actions() -> None:
    two = position(["b1 w4", "b2 w5"], drawn="w7").view(0)
    three = position(["b1 w4", "b2 w5", "b3 w6"], drawn="w7").view(0)
    assert screen.expand("2.3 7", three) == "guess row.2.3 7"
    assert screen.expand("g 3 2 j", three) == "guess row.3.2 joker"
    assert screen.expand("2 7", two) == "guess row.2.2 7"
    with pytest.raises(ShortFormError, match="with 2 opponents, name the seat too: SEAT.PLACE VALUE"):
        screen.expand("2 7", three)  # with two opponents the seat must be named
    assert screen.expand("2.3 -", three) == screen.expand("2.3 —", three) == "guess row.2.3 joker"  # as drawn
    assert screen.expand("2.1 -1", three) == "guess row.2.1 -1"  # expanded, so the refusal names the -1
    assert screen.expand("s", two) == "stop"
    assert screen.expand("r 2", two) == "reveal row.1.2"
    assert screen.expand("p 3", two) == "position 3"
    assert screen.expand("w", two) == "draw white"
    assert screen.expand("hello", two) is None
    # Half-right short forms say which part is wrong ("'1.2' is not possible now" dropped the x).
    with pytest.raises(ShortFormError, match="'x' is not a tile's value: guess a number from 0 to 11 \\(e.g"):
        screen.expand("1.2 x", three)  # no jokers in the basic game: 'joker' is not offered
    jokers = {**three, "settings": {**three["settings"], "jokers": True}}
    with pytest.raises(ShortFormError, match="guess a number from 0 to 11, or 'joker'"):
        screen.expand("1.2 x", jokers)
    with pytest.raises(ShortFormError, match="a guess names a tile and a value: 1.2 VALUE"):
        screen.expand("1.2", three)
    # '3' and '2.1' were "not possible now": the value, or a word too many, was what was wrong.
    with pytest.raises(ShortFormError, match="'7x' is not a tile's value: guess a number from 0 to 11 \\(e.g. 3 7\\)"):
        screen.expand("3 7x", two)
    with pytest.raises(ShortFormError, match="a guess names one tile and one value: 2.1 VALUE"):
        screen.expand("2.1 7 8", two)


def test_a_terminal_game_against_the_deducer_uses_this_screen() -> None:
    """`davinci play da-vinci-code --players human,deducer`: the human types a short command first,
    then always asks for the full list and takes its first action."""
    from davinci.engine.game import load_game

    script = iter(["2.1 0"])
    turn = [0]

    def typed(prompt: str) -> str:
        nxt = next(script, None)
        if nxt is not None:
            return nxt
        turn[0] += 1
        return "list" if turn[0] % 2 else "#1"

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    g = load_game("da-vinci-code")
    code = run_play(g, [SeatSpec("human", "Ana"), SeatSpec("deducer", "Deducer 2")], 5, {}, console, typed)
    text = out.getvalue()
    assert code == 0
    assert "Your row - Ana (seat 1)" in text
    assert "Ana guessed row.2.1 = 0:" in text  # the short command became `guess row.2.1 0`
    assert "screen failed" not in text
    assert text.count("Game over") == 1  # the game's screen says it; the play loop does not repeat it


def test_the_joker_placement_prompt_says_what_to_do() -> None:
    # The decision comes from the engine (a free piece entering a row), not from a YAML prompt.
    from test_play_io import typed

    from davinci.engine.game import load_game

    game = load_game("da-vinci-code", "advanced")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    run_play(game, [SeatSpec("human", "Ana"), SeatSpec("deducer", "Deducer 2")], 5, {}, console, typed([]),
             clear=False, timer=False)
    assert "Ana: Choose where your joker goes in your row (it never moves afterwards)" in console.file.getvalue()


def test_the_pile_colours_are_counted_from_the_backs_in_view() -> None:
    from davinci.engine.game import load_game
    from davinci.games.da_vinci_code.screen import pile_colours

    st = load_game("da-vinci-code").new_state(2, seed=1)
    left = pile_colours(st.view(0))
    colours = [st.game.pieces[p].attrs["colour"] for p in st.zones["pile"]]
    assert left == {c: colours.count(c) for c in ("black", "white")}
    assert "pieces" not in st.view(0)["zones"]["pile"]  # the view itself shows no tile of the pile


def test_at_the_end_against_a_bot_every_tile_shows() -> None:
    # The hot-seat end screen showed every number, a game against a bot kept the bot's hidden.
    from davinci.engine.game import load_game
    from davinci.engine.play import parse_seats

    g = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=100)
    moves = iter(["list", "#1"] * 300)
    code = run_play(g, parse_seats("human,naive", g), 3, {}, console, lambda prompt="": next(moves), clear=False)
    final = console.file.getvalue().rsplit("game over after turn", 1)[1]  # type: ignore[attr-defined]
    assert code == 0 and "Game over - winner: Naive 2" in final
    assert "█" not in final and "hidden" in final  # "5 hidden" still counts them


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_80x24_the_screen_and_the_move_prompt_fit_so_your_row_stays_in_sight(players: int) -> None:
    # With 3-4 players the title, your row and your drawn tile had scrolled off by the prompt.
    from helpers import screens_at_80x24

    for text in screens_at_80x24("da-vinci-code", players, 3, screen.render, 300):
        assert "Your row" in text


def _right_guess(st: Any, seat: int, guess: Any) -> bool:
    """Whether `guess` is right: it wins the game, or the seat may stop after it."""
    after = st.clone_apply(seat, guess)
    return bool(after.is_terminal() or "stop" in after.legal_actions(seat))


def test_the_game_over_screen_marks_face_up_tiles_and_shows_the_winners_drawn_tile() -> None:
    # Seen whole, hidden and face-up tiles looked alike, and the winner's drawn tile was nowhere.
    from davinci.engine.game import load_game

    st = load_game("da-vinci-code", settings={"first_player": 1}).new_state(2, seed=1)
    while not st.is_terminal():  # seat 1 guesses right every time (it reads the state), seat 2 at random
        seat = st.current_seats[0]
        legal = list(st.legal_actions(seat))
        right = [a for a in legal if a.verb == "guess" and _right_guess(st, seat, a)]
        st.apply(seat, right[0] if seat == 0 and right else legal[len(st.history) % len(legal)])
    view = st.view(None)
    assert st.result()["winners"] == [0] and screen.read_drawn(view, 1)  # won with a drawn tile in hand
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(screen.render(view, None))
    text = out.getvalue()
    face_up = sum(1 for t in screen.read_rows(view).values() for tile in t if tile.revealed)
    assert text.count("[") - text.count("[brackets]") == face_up
    drawn = [s for s in range(1, 3) if screen.read_drawn(view, s)]
    assert text.count("Drawn:") == len(drawn)
