"""The Da Vinci Game's terminal screen: what each team sees, drawn from its view."""

from __future__ import annotations

import pytest
from rich.console import Console
from test_dvg_rules import Table, new_game

from davinci.games.da_vinci_game import bots, screen


@pytest.fixture(autouse=True)
def _board() -> None:
    bots.register_definition("da-vinci-game", None, new_game({"first_team": 1}).definition)


def shown(t: Table, team: int | None, width: int = 100) -> str:
    seat = None if team is None else team - 1
    console = Console(width=width, record=True, color_system=None)
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


def test_the_destination_list_names_treasures_and_teams_and_fits_the_terminal() -> None:
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
    narrow = shown(t, 1, width=80).split("Where each move lands")[1]
    assert max(len(line) for line in narrow.splitlines()) <= 80
    wide = shown(t, 1, width=160).split("Where each move lands")[1].split("\n\n")[0]
    assert len(wide.splitlines()) < len(narrow.split("\n\n")[0].splitlines())  # a wide terminal, fewer rows
    assert "Where each move lands" not in shown(t, 2)  # only the team that moves has the list


def team_lines(text: str) -> dict[str, str]:
    return {line.split("(")[0].strip(" ▶"): line for line in text.splitlines() if "Team " in line and "(" in line}


def test_own_tokens_are_shown_numbered_in_zone_order_and_others_are_counted() -> None:
    t = Table()
    t.give(1, "mona-lisa", "rose", "codex")
    t.give(2, "rose", "rose", "rose")
    t.crown(2, "rose")
    lines = team_lines(shown(t, 1))
    # the order the tokens lie in, numbered as 'return tokens.1.N' names them (not sorted)
    assert "1:M 2:R 3:C" in lines["Team 1"]
    assert "3 hidden" in lines["Team 2"] and "R" in lines["Team 2"]


def test_a_team_above_the_token_cap_sees_which_token_each_return_names() -> None:
    t = Table()
    t.give(2, "rose", "rose", "mona-lisa")
    t.put(1, "ankh")
    t.start_turn(1, 1)
    t.do(1, "go k21")
    t.do(2, f"answer 3 {t.answer()}")
    t.do(3, "pass")
    pend = t.view()["pending"]
    assert (pend["type"], pend["zone"], pend["capacity"]) == ("overflow", "tokens", 4)
    text = shown(t, 2)
    assert "6 tokens, cap 4: return 2 to the bag, one at a time" in text
    letters = {"codex": "C", "logic-key": "L", "rose": "R", "vitruvian-man": "V", "mona-lisa": "M"}
    names = {"codex": "Codex", "logic-key": "Logic Key", "rose": "Rose", "mona-lisa": "Mona Lisa"}
    held = [t.game.definition.pieces[p].attrs["category"] for p in t.st.zones["tokens#1"]]
    column = " ".join(f"{i}:{letters[c]}" for i, c in enumerate(held, 1))
    assert column in team_lines(text)["Team 2"]
    listing = text.split("Which token goes back:")[1]
    for n, action in enumerate(t.legal(2), 1):
        pos = int(action.rpartition(".")[2])
        assert f"{n} = {action}: token {pos} ({names[held[pos - 1]]})" in listing
    # returning the token the screen numbers 3 returns the Mona Lisa token
    t.do(2, "return tokens.2.3")
    assert "mona-lisa" not in t.tokens(2)
    assert "5 tokens, cap 4: return 1 to the bag. Which" in shown(t, 2)


def test_a_treasure_attempt_says_what_each_number_pays() -> None:
    t = Table()
    t.give(1, "vitruvian-man", "mona-lisa", "mona-lisa")
    t.put(1, "o20")
    t.start_turn(1, 1)
    t.do(1, "go o19")
    assert t.legal(1) == ["attempt 1", "attempt 2", "decline"]
    text = shown(t, 1)
    assert "'attempt N' pays N Mona Lisa tokens (wild) and 2-N Vitruvian Man tokens" in text
    assert "1 = attempt 1: pay 1 Vitruvian Man + 1 Mona Lisa" in text
    assert "2 = attempt 2: pay 2 Mona Lisa" in text
    assert "3 = decline: keep your tokens, no challenge" in text
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80


def test_after_a_failed_final_the_discard_choices_name_the_tokens() -> None:
    t = Table()
    t.crown(1, "codex", "logic-key", "rose", "vitruvian-man")
    t.give(1, "mona-lisa", "codex", "logic-key", "rose", "vitruvian-man")
    t.put(1, "k21")
    t.start_turn(1, 1, 4)
    t.do(1, "go ankh")
    t.do(1, "answer 30 wrong")
    text = shown(t, 1)
    assert "1:M 2:C 3:L 4:R 5:V" in team_lines(text)["Team 1"]
    assert "Give one token back to the bag (Mona Lisa tokens are kept)" in text
    # the Mona Lisa token (1) cannot be given back: action 1 names token 2
    assert "1 = discard tokens.1.2: token 2 (Codex)" in text
    assert "4 = discard tokens.1.5: token 5 (Vitruvian Man)" in text


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
    assert "follow when you press Enter" in text
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
    # Once it stands elsewhere, "must leave o1" beside another space read as stale.
    t.put(1, "o3")
    assert "may not stop on o1" in shown(t, None) and "must leave o1" not in shown(t, None)


def test_help_names_every_action() -> None:
    for verb in ("go", "reroll", "token", "attempt", "decline", "return", "category", "discard"):
        assert verb in screen.HELP


def test_help_gives_the_rules_as_the_settings_have_them() -> None:
    # `?` listed the commands only: nothing said how far a throw moves, what a bid wins, the cap...
    text = " ".join(screen.help_text({"awards": [3, 2, 1, 1, 1], "token_cap": 4, "timer_seconds": 60}).split())
    assert "a 5 moves 1 to 5" in text and "within 60 seconds" in text and "at most 4 tokens" in text
    assert "take 3, 2, 1, 1, 1 tokens (the last number repeats) from the bag" in text
    text = " ".join(screen.help_text({"awards": [2], "token_cap": 6, "timer_seconds": 0}).split())
    assert "(untimed)" in text and "take 2 tokens each from the bag" in text and "at most 6 tokens" in text
    assert all(len(line) <= 80 for line in screen.help_text({}).splitlines())


def test_an_untimed_game_shows_its_challenges_as_untimed() -> None:
    import io

    from rich.console import Console
    from test_play_io import typed

    from davinci.engine.game import load_game
    from davinci.engine.play import parse_seats, run_play

    game = load_game("da-vinci-game")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    run_play(game, parse_seats("human,scholar,random", game), 2, {}, console, typed([""] * 12), clear=False,
             timer=False)
    out = console.file.getvalue()
    assert "Untimed" in out and "Time: 60 s" not in out


def test_on_a_short_terminal_fewer_events_are_shown() -> None:
    import io

    from rich.console import Console

    from davinci.engine.bots import RandomBot
    from davinci.engine.game import load_game
    from davinci.games.da_vinci_game import screen

    st = load_game("da-vinci-game").new_state(3, seed=7)
    bot = RandomBot(1)
    for _ in range(60):
        seat = st.current_seats[0]
        st.apply(seat, bot.choose({}, st.legal_actions(seat)))

    def lines(height: int | None) -> list[str]:
        console = Console(file=io.StringIO(), width=120)
        console.print(screen.render(st.view(st.current_seats[0]), st.current_seats[0], height=height))
        return console.file.getvalue().splitlines()  # type: ignore[attr-defined]

    tall, short = lines(None), lines(45)
    assert len(short) < len(tall)
    # The fewest events kept are 3; the last challenge's card gives way first, leaving room for more.
    events = sum(line.startswith("· ") for line in short)
    assert 3 <= events < sum(line.startswith("· ") for line in tall) or events == 3
    assert tall[:30] == short[:30]  # the board and the header stay whole


def test_the_movers_header_shows_the_die_at_every_choice_of_its_turn() -> None:
    from davinci.engine.bots import RandomBot
    from davinci.engine.game import load_game
    from davinci.games.da_vinci_game import screen

    st = load_game("da-vinci-game").new_state(3, seed=0)
    bot = RandomBot(1)
    shown = 0
    for _ in range(300):
        seat = st.current_seats[0]
        if st.pending["type"] == "choose" and seat == st.current and st.locals.get("die"):
            assert f"die: {st.locals['die']}" in screen.header(st.view(seat), seat).plain
            shown += 1
        st.apply(seat, bot.choose({}, st.legal_actions(seat)))
    assert shown > 20  # moves, Triskel choices and Treasure tries after a throw


def test_on_a_short_terminal_the_header_comes_again_next_to_the_prompt() -> None:
    # The board is 28 lines: at 80x24 the turn, the die and whose view it is had scrolled off.
    from io import StringIO

    from rich.console import Console

    from davinci.engine.game import load_game

    st = load_game("da-vinci-game").new_state(3, seed=1)
    seat = st.current_seats[0]

    def shown(height: int | None) -> str:
        out = StringIO()
        Console(file=out, width=80, color_system=None).print(screen.render(st.view(seat), seat, height=height, width=80))
        return out.getvalue()

    tall, short = shown(100), shown(24)
    assert tall.count("The Da Vinci Game - turn 1") == 1
    assert short.count("The Da Vinci Game - turn 1") == 2
    assert short.rstrip().splitlines()[-5].startswith("The Da Vinci Game - turn 1, Team 2 to play   die: 2")


def test_a_team_that_passed_is_not_listed_as_locked_in() -> None:
    # "Locked in (bid order): A" for a team whose empty answer was a pass.
    from davinci.engine.game import load_game

    g = load_game("da-vinci-game")
    st = g.new_state(3, seed=1)
    while (st.pending or {}).get("type") != "respond":
        seat = st.current_seats[0]
        st.apply(seat, st.legal_actions(seat)[0])
    first = st.current_seats[0]
    st.apply(first, "pass")
    pending = st.view(None)["pending"]
    assert pending["locked"] == [] and pending["passed"] == [first + 1]


def test_a_token_is_given_back_by_its_number() -> None:
    # The help numbers the tokens (1:C 2:V ...), yet `return 3` was "not possible there".
    view = {"seat": 2}
    assert screen.expand("return 3", view) == "return tokens.2.3"
    assert screen.expand("Discard 1", view) == "discard tokens.2.1"
    assert screen.expand("return tokens.2.3", view) is None and screen.expand("go 3", view) is None
    assert "short: [bold]return 3[/bold]" in screen.HELP


def test_on_a_short_terminal_the_last_challenges_card_gives_way_to_the_board() -> None:


    from davinci.engine.game import load_game

    st = load_game("da-vinci-game").new_state(3, seed=3)
    k = 0
    while True:  # up to a move decision shown with the last challenge's card
        seat = st.current_seats[0]
        view = st.view(seat)
        if (view.get("pending") or {}).get("type") == "choose" and "Last challenge" in _shown(view, seat, None):
            break
        legal = st.legal_actions(seat)
        st.apply(seat, legal[(k * 7) % len(legal)])
        k += 1
    assert "Last challenge" not in _shown(view, seat, 40)
    assert "Last challenge" in _shown(view, seat, 200)


def _shown(view: dict, seat: int, height: int | None) -> str:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    Console(file=out, width=100, color_system=None).print(screen.render(view, seat, height=height, width=100))
    return out.getvalue()


def test_a_variants_display_of_another_shape_leaves_the_defaults_standing() -> None:
    # `display: {categories: 5}` in a pack's variant failed the screen every turn (TypeError).
    t = Table()
    for display in ({"categories": 5, "spaces": [1], "teams": 7}, {"categories": {"codex": "C"}, "teams": [3]}):
        style = screen.Style(display)
        assert style.cat("codex")["letter"] == "C" and style.team(1) == "bright_yellow"
        assert "A" in screen.board_text(t.st.view(0), t.game.definition, style).plain


def test_a_board_drawn_beyond_a_screens_size_is_not_drawn() -> None:
    # `at: [1000000, 14]` built a canvas of a million columns: play hung with 400 MB.
    import dataclasses
    from types import SimpleNamespace

    t = Table()
    d = t.game.definition
    spaces = dict(d.board.spaces)
    spaces["ankh"] = dataclasses.replace(spaces["ankh"], pos=(400, 14))
    far = SimpleNamespace(board=dataclasses.replace(d.board, spaces=spaces), display=d.display)
    text = screen.board_text(t.st.view(0), far, screen.Style({})).plain
    assert text == "(the board's drawing positions reach column 400, row 27: more than a screen draws, 300 x 150)"


def test_drawing_positions_are_bounded_by_the_schema(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from helpers import write_game_pack

    from davinci.engine.lint.runner import lint_paths

    game = ("kind: game\nid: far\nname: Far\nplayers: {min: 2, max: 2}\nzones:\n  board: {kind: board}\n"
            "board:\n  spaces:\n    - {id: a, type: plain, at: [1000000, 1]}\n    - {id: b, type: plain, at: [-1, 2]}\n"
            "  tracks:\n    - {id: t, spaces: [a, b]}\nflow:\n  turn:\n    - choose:\n        options:\n"
            "          - action: stop\n            do: [{end_game: true}]\nend:\n  when: 'false'\n  winners: seats\n")
    problems = lint_paths([write_game_pack(tmp_path, "far", game)])
    assert [(p.code, p.location.line, p.message) for p in problems] == [
        ("DV016", 9, "item 1 of 'at' must be at most 500, got 1000000"),
        ("DV016", 10, "item 1 of 'at' must be at least 0, got -1"),
    ]


def test_display_values_that_could_do_more_than_colour_are_judged_and_left_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A pack variant's colour "link https://..." made the terminal print hyperlinks on the board.
    from davinci.engine.lint.runner import lint_paths

    display = {"categories": {"codex": {"letter": "CC", "colour": "link https://evil.example"}},
               "spaces": {"triskel": {"style": "bold link https://x"}}, "teams": ["red", "#zzzzzz"]}
    assert [(path, message) for path, message in screen.check_display(display)] == [
        (("categories", "codex", "letter"), "letter must be one character one column wide"),
        (("categories", "codex", "colour"), "'link https://evil.example' is no colour the terminal screen knows"),
        (("spaces", "triskel", "style"), "'bold link https://x' holds a link: a style only colours the screen"),
        (("teams", 1), "'#zzzzzz' is no colour the terminal screen knows"),
    ]
    style = screen.Style(display)
    assert style.cat("codex") == {"letter": "C", "name": "Codex", "colour": "dark_orange"}  # the defaults stand
    assert style.spaces["triskel"]["style"] == "bold white on purple4" and style.team(2) == "bright_cyan"
    t = Table()
    console = Console(width=100, record=True, force_terminal=True)
    console.print(screen.board_text(t.st.view(0), t.game.definition, style))
    assert "evil.example" not in console.export_text(styles=True)
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: p9\nname: P\nversion: "1.0"\nvariants: [v.yaml]\n')
    (tmp_path / "v.yaml").write_text("kind: variant\nid: garish\nextends: da-vinci-game\nname: Garish\ndisplay:\n"
                                     "  categories:\n    codex: {letter: C, colour: \"link https://evil.example\"}\n")
    [problem] = lint_paths([str(tmp_path)])
    assert (problem.code, problem.location.line, problem.severity) == ("DV067", 7, "warning")


@pytest.mark.parametrize(("section", "key", "value", "words"), [
    ("categories", "letter", "字", "letter must be one character one column wide"),  # (shifted the board's columns)
    ("categories", "letter", "\u0301", "letter must be one character one column wide"),
    ("spaces", "style", "conceal", "'conceal' hides or blinks what it styles: a style only colours the screen"),
    ("spaces", "style", "blink reverse", "'blink reverse' hides or blinks what it styles: a style only colours the screen"),
    ("categories", "name", "Vitruvian\u00a0Man", "name must be plain text (no control or invisible characters, no "
                                                  "no-break space)"),
])
def test_display_values_that_break_or_hide_the_board_are_judged(section: str, key: str, value: str, words: str) -> None:
    entry = "codex" if section == "categories" else "ankh"
    assert screen.check_display({section: {entry: {key: value}}}) == [((section, entry, key), words)]
