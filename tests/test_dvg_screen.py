"""The Da Vinci Game's terminal screen: what each team sees, drawn from its view."""

from __future__ import annotations

import pytest
from rich.console import Console
from test_dvg_rules import Table, new_game

from davinci.games.da_vinci_game import bots, screen


@pytest.fixture(autouse=True)
def _board() -> None:
    bots.register_definition("da-vinci-game", None, new_game({"first_team": 1}).definition)


def shown(t: Table, team: int | None) -> str:
    seat = None if team is None else team - 1
    console = Console(width=100, record=True, color_system=None)
    console.print(screen.render(t.st.view(seat), seat))
    return console.export_text()


def board_part(text: str) -> str:
    """The board drawing of a screen (what comes before the teams table)."""
    return text.split(" treasures ")[0]


def test_the_board_shows_every_space_type_and_the_pieces() -> None:
    t = Table()
    t.put(2, "o1")
    text = shown(t, 1)
    assert "The Da Vinci Game - turn" in text
    board = board_part(text)
    for glyph in ("C", "L", "R", "V", "@", "A"):
        assert glyph in board
    assert "·" in board  # the tracks between spaces
    # teams 1 and 3 share the Ankh (+); team 2 stands on the Codex Treasure
    assert "A+" in board and "c2" in board


def test_without_colour_treasures_differ_from_clues_and_intersections_are_marked() -> None:
    t = Table()
    t.put(2, "o1")
    definition = t.game.definition
    style = screen.Style(definition.display or {})
    rows = screen.board_text(t.st.view(1), definition, style).plain.splitlines()

    def drawn(sid: str) -> str:
        x, y = definition.board.spaces[sid].pos
        return rows[y].ljust(x + 2)[x : x + 2]

    letters = {c: style.cat(c)["letter"] for c in screen.CATEGORY_ORDER}
    for sid, sp in definition.board.spaces.items():
        if sp.type == "treasure":
            assert drawn(sid)[0] == letters[sp.attrs["category"]].lower(), sid
        elif sp.type == "clue":
            assert drawn(sid)[0] == letters[sp.attrs["category"]], sid
            assert drawn(sid)[1] == ("x" if sp.no_turn else " "), sid
    assert drawn("o1") == "c2"  # team 2 on the Codex Treasure
    # the legend names what is drawn, and nothing that needs colour
    assert "c l r v" in screen.HELP and "Lx" in screen.HELP
    assert "T Treasure" not in screen.HELP and "underlined" not in screen.HELP


def test_destinations_are_numbered_as_the_prompt_lists_them() -> None:
    t = Table()
    t.start_turn(1, 6)
    text = shown(t, 1)
    assert "die: 6" in text
    legal = t.legal(1)
    assert legal == ["go o10", "go o16", "go o22", "go o28", "go o4"]
    # on the board a destination reads >1 to >9 (never a blank and a digit, like a team piece)
    rows = board_part(text).splitlines()[1:]  # the header, then the board from its row 0
    spaces = t.game.definition.board.spaces
    for n, action in enumerate(legal, 1):
        x, y = spaces[action.split()[1]].pos
        assert rows[y][x : x + 2] == f">{n}", action
    # and a list under the board says what each number lands on
    listing = text.split("Where each move lands")[1]
    for line in ("1 = o10 Clue (Codex)", "2 = o16 Clue (Logic Key)", "3 = o22 Clue (Rose)", "4 = o28 Triskel"):
        assert line in listing
    assert "5 = o4 Triskel" in listing


def test_the_destination_list_names_treasures_and_teams_and_fits_80_columns() -> None:
    t = Table()
    t.put(1, "x5")
    t.start_turn(1, 5)
    legal = t.legal(1)
    assert len(legal) > 12  # the prompt only counts them; the list under the board names them
    listing = shown(t, 1).split("Where each move lands")[1]
    for n, action in enumerate(legal, 1):
        assert f"{n:>2} = {action.split()[1]} " in listing, action
    n = legal.index("go o1") + 1
    assert f"{n} = o1 Treasure (Codex)" in listing
    assert "1 = ankh Ankh, team 2+3" in listing
    assert max(len(line) for line in listing.splitlines()) <= 80
    assert "Where each move lands" not in shown(t, 2)  # only the team that moves has the list


def test_own_tokens_are_shown_by_category_and_others_are_counted() -> None:
    t = Table()
    t.give(1, "codex", "mona-lisa")
    t.give(2, "rose", "rose", "rose")
    t.crown(2, "rose")
    text = shown(t, 1)
    lines = {line.split("(")[0].strip(" ▶"): line for line in text.splitlines() if "Team " in line and "(" in line}
    assert " C " in lines["Team 1"] and " M " in lines["Team 1"]
    assert "3 hidden" in lines["Team 2"] and "R" in lines["Team 2"]


def test_the_challenge_card_is_shown_without_its_answer_during_the_race() -> None:
    t = Table()
    t.put(1, "ankh")
    t.start_turn(1, 1)
    t.do(1, "go k21")
    answer = t.answer()
    text = shown(t, 2)
    assert "Codex challenge" in text and "test clue" in text
    assert "Answering: Team 2, Team 3" in text
    assert answer not in text
    t.do(3, f"answer 4 {answer}")
    assert "Locked in (bid order): Team 3" in shown(t, 2)
    t.do(2, "pass")
    after = shown(t, 2)
    assert "Last challenge (Codex)" in after and f"Answer: {answer}" in after
    assert "1:3" not in after  # team 2's turn: the bid board went with the challenge


def test_the_bid_board_is_shown_only_for_the_challenge_in_progress_or_just_decided() -> None:
    t = Table()
    t.give(2, "rose", "rose")
    t.put(1, "ankh")
    t.start_turn(1, 1)
    t.do(1, "go k21")
    assert "Bids:  1:- 2:-" in shown(t, 2)
    t.do(2, f"answer 4 {t.answer()}")
    t.do(3, "pass")
    # five tokens for a cap of four: still team 1's turn, team 2 returns one and sees its bid
    assert t.view()["pending"]["type"] == "overflow"
    assert "Bids:  1:2" in shown(t, 2)
    t.do(2, t.legal(2)[0])
    # the spare piece stays on bid space 1 until the next card, but that challenge is over
    assert t.view()["current"] == 2 and t.bids() == {1: 2}
    text = shown(t, 2)
    assert "Bids:" not in text and "1:2" not in text


def test_a_vitruvian_man_card_shows_only_its_anagram_until_the_clock_starts() -> None:
    # The rule: the anagram is read first; the hint and the letter counts come with the clock
    # (the play loop shows them after Enter), so the screen drawn before that keeps them back.
    t = Table()
    t.put(1, "ankh")
    t.start_turn(1, 1)
    t.do(1, "go k41")
    text = shown(t, 3)
    card = t.card()
    assert f"Anagram: {card['anagram']}" in text
    assert card["hint"] not in text and card["lengths"] not in text
    assert "follow when the clock starts" in text
    # once the challenge is over, the whole card is shown with its answer
    t.do(2, "pass")
    t.do(3, "pass")
    after = shown(t, 3)
    assert card["hint"] in after and card["lengths"] in after and f"Answer: {card['answer']}" in after


def test_barred_teams_are_noted() -> None:
    t = Table()
    t.give(1, "codex", "codex")
    t.put(1, "o3")
    t.start_turn(1, 2)
    t.do(1, "go o1")
    t.do(1, "attempt 0")
    t.do(1, "answer 3 nothing")
    assert "must leave o1" in shown(t, None)


def test_help_names_every_action() -> None:
    for verb in ("go", "reroll", "token", "attempt", "decline", "return", "category", "discard"):
        assert verb in screen.HELP
