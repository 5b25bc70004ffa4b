"""Games newcomers wrote from the docs alone (tests/packs/from-docs), kept as a check that
the documented vocabulary is enough for new games: Nim (and its normal-play variant), tic-tac-toe
on a grid laid out with blank pieces (and a 4x4 variant), a hidden-hand card game, a roll-and-move
race on a board with a shortcut track (and a d4 variant), a tile-guessing game where the other
players bet at once (a `respond` step) and players are eliminated, and the trick-taking game of
docs/authoring.md, whose trick winner leads the next trick (`turn_order.next`). Three more came
with named expressions (`define`): liar's dice with secret cups (`roll` with `to:`), a market
set-collection game with a hand limit, and a trick-taking game with sealed bids (`private`).

The grid mistakes below are the ones such a newcomer can make; each is reported by lint at its
place instead of failing later with an engine message.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_author_mistakes import assert_one_problem, lint_edited

from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths
from davinci.engine.rng import Rng
from davinci.engine.simulate import SimConfig, run

PACK = Path(__file__).parent / "packs" / "from-docs"


def test_the_pack_lints_clean() -> None:
    assert lint_paths([str(PACK)]) == []


@pytest.mark.parametrize(("game", "variant"), [("nim", None), ("nim", "normal"), ("tictactoe", None),
                                               ("tictactoe", "four"), ("higher-card", None), ("shortcut-race", None),
                                               ("shortcut-race", "d4"), ("tile-hunt", None),
                                               ("follow-suit", None), ("cup-liars", None), ("spice-stall", None),
                                               ("sealed-trumps", None)])
def test_every_game_plays_to_its_end(game: str, variant: str | None) -> None:
    report = run(SimConfig(game, variant, ("random", "random"), 30, 5, {}, (str(PACK),)))
    assert report["games"] == 30
    assert report["turn_limit_games"] == 0


def test_tic_tac_toe_between_random_players_favours_the_first() -> None:
    # Random play: the first player wins about 58 % of games, the second 29 %, draws 13 %.
    report = run(SimConfig("tictactoe", None, ("random", "random"), 300, 1, {}, (str(PACK),)))
    first, second = report["wins"]
    assert 0.48 < first / 300 < 0.68
    assert 0.20 < second / 300 < 0.38
    assert 0.06 < report["draws"] / 300 < 0.20


@pytest.mark.parametrize(("variant", "taker_wins"), [(None, False), ("normal", True)])
def test_whoever_takes_the_last_token_loses_or_wins_by_variant(variant: str | None, taker_wins: bool) -> None:
    game = load_game("nim", variant, {"tokens": 1}, packs=(str(PACK),))
    for seed in range(4):
        st = game.new_state(2, seed=seed)
        taker = st.current_seats[0]
        st.apply(taker, "take 1")
        assert st.is_terminal()
        assert st.result()["winners"] == ([taker] if taker_wins else [1 - taker])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_winner_of_a_trick_leads_the_next_and_the_others_follow_suit(players: int) -> None:
    from davinci.engine.bots import RandomBot

    game = load_game("follow-suit", packs=(str(PACK),))
    for seed in range(5):
        st = game.new_state(players, seed=seed)
        bot = RandomBot(seed)
        trick: list[tuple[int, str, int]] = []  # (seat, suit, rank) of each card played to this trick
        while not st.is_terminal():
            seat = st.current_seats[0]
            hand = st.view(seat)["seats"][seat]["zones"]["hand"]["pieces"]
            if trick:
                assert seat == (trick[-1][0] + 1) % players  # clockwise inside a trick
            action = str(bot.choose({}, st.legal_actions(seat)))
            card = hand[int(action.rsplit(".", 1)[1]) - 1]  # "play hand.SEAT.POSITION"
            if trick and any(p["suit"] == trick[0][1] for p in hand):
                assert card["suit"] == trick[0][1]  # must follow suit when able
            trick.append((seat, card["suit"], card["rank"]))
            st.apply(seat, action)
            if len(trick) == players:
                winner = max((t for t in trick if t[1] == trick[0][1]), key=lambda t: t[2])[0]
                assert st.seat_records()[winner].field("tricks") >= 1
                if not st.is_terminal():
                    assert st.current_seats[0] == winner  # the winner leads the next trick
                trick = []
        assert sum(s.field("tricks") for s in st.seat_records()) == 6  # one per card in a hand


# (what, text in ttt.yaml, replacement, code, line, column, words in the message)
MISTAKES = [
    ("a second grid", "  board: {kind: grid, width: 4, height: 4, adjacency: king, visibility: public}\n",
     "  board: {kind: grid, width: 4, height: 4, adjacency: king, visibility: public}\n"
     "  spare: {kind: grid, visibility: public}\n",
     "DV050", 36, 17, "a game has one grid zone at most ('board' and 'spare' are both grids)"),
    ("a grid zone with contents", "adjacency: king, visibility: public}", "adjacency: king, contents: [blank]}",
     "DV050", 35, 71, "a grid zone starts empty"),
    ("a move to the grid without a cell", "to: board, cell: c}", "to: board}",
     "DV050", 65, 23, "a move to 'board' (a grid zone) needs 'cell:'"),
    ("a cell on a pile", "to: board, cell: c}", "to: blanks, cell: c}",
     "DV050", 65, 97, "'cell:' places pieces on a grid zone; 'blanks' is a pile zone"),
    ("a misspelt field in a line", "settings.line, 'symbol'", "settings.line, 'symbl'",
     "DV041", 67, 61, "argument 4 of lines_through() names a field of the components; none has 'symbl'; did you "
                      "mean 'symbol'?"),
    ("a grid helper on a pile", "cell: \"first(free_cells(board) where", "cell: \"first(free_cells(blanks) where",
     "DV041", 57, 39, "argument 1 of free_cells() must be a zone (a grid or board zone; other zones read as their list of pieces), "
     "got a list[piece]"),
]


@pytest.mark.parametrize(("old", "new", "code", "line", "col", "words"), [m[1:] for m in MISTAKES],
                         ids=[m[0] for m in MISTAKES])
def test_a_grid_mistake_is_reported_where_it_is(
    tmp_path: Path, old: str, new: str, code: str, line: int, col: int, words: str
) -> None:
    problems = [p for p in lint_edited(tmp_path, PACK, "ttt.yaml", old, new) if p.location.path.endswith("ttt.yaml")]
    assert_one_problem(problems, "ttt.yaml", code, line, col, words)


def test_grid_helpers_refuse_a_board_zone_and_a_board_has_no_cells() -> None:
    from davinci.engine.errors import EvalError
    from davinci.engine.functions import free_cells, lines
    from davinci.engine.values import ZoneV

    st = load_game("da-vinci-game").new_state(3, seed=1)
    board = ZoneV(st, "board")
    with pytest.raises(EvalError, match=r"lines\(\) needs the grid zone, got 'board' \(a board zone\)"):
        lines(board, 3, "category", "rose")
    with pytest.raises(EvalError, match=r"free_cells\(\) needs the grid zone"):
        free_cells(board)
    assert board.field("cells") == []


def test_a_line_of_one_cell_is_counted_once() -> None:
    from davinci.engine.functions import lines
    from davinci.engine.values import ZoneV

    game = load_game("tictactoe", packs=(str(PACK),))
    st = game.new_state(2, seed=0)
    assert lines(ZoneV(st, "board"), 1, "symbol", ".", True) == 9  # the nine blanks, once each


def test_a_list_in_a_log_line_reads_as_items_not_python() -> None:
    game = load_game("higher-card", packs=(str(PACK),))
    st = game.new_state(2, seed=3)
    dealt = [e for e in st.view(0)["events"] if e.startswith("You are dealt")]
    assert len(dealt) == 1
    numbers = dealt[0].removeprefix("You are dealt ").split(", ")
    assert len(numbers) == 5 and all(n.isdigit() for n in numbers), dealt


def test_a_prompt_fills_in_its_expressions() -> None:
    game = load_game("nim", packs=(str(PACK),))
    st = game.new_state(2, seed=0)
    first = st.current_seats[0]
    assert st.view(first)["pending"]["prompt"] == "How many tokens do you take? (21 left)"
    st.apply(first, "take 3")
    assert st.view(1 - first)["pending"]["prompt"] == "How many tokens do you take? (18 left)"
    assert st.view(first)["pending"]["prompt"] == ""  # a prompt is for the seat deciding


def test_the_generic_screen_draws_the_grid_and_numbers_a_seats_pieces() -> None:
    from davinci.engine.play import generic_render

    st = load_game("tictactoe", packs=(str(PACK),)).new_state(2, seed=0)
    st.apply(st.current_seats[0], "place 1,1")
    board = generic_render(st.view(0)).split("board:\n")[1].splitlines()[:4]
    assert [row.split() for row in board] == [["y\\x", "0", "1", "2"], ["0", ".", ".", "."],
                                             ["1", ".", "X+1", "."], ["2", ".", ".", "."]]  # X on a blank
    st = load_game("higher-card", packs=(str(PACK),)).new_state(2, seed=3)
    mine = next(line for line in generic_render(st.view(0)).splitlines() if line.strip().startswith("hand:"))
    assert [p.split(":")[0] for p in mine.split(": ", 1)[1].split()] == ["1", "2", "3", "4", "5"]


def test_the_generic_screen_ends_with_the_winner_once() -> None:
    import io

    from rich.console import Console
    from test_play_io import typed

    from davinci.engine.play import parse_seats, run_play

    game = load_game("nim", packs=(str(PACK),))
    console = Console(file=io.StringIO(), width=100, color_system=None)
    code = run_play(game, parse_seats("random,random", game), 4, {}, console, typed([]), clear=False)
    text = console.file.getvalue()
    assert code == 0 and text.count("Game over.") == 1 and "Winner: " in text and "(end)" not in text
    assert re.search(r"Ranking: 1\. Random \d \(\d+\), 2\. Random \d \(\d+\)", text), text[-300:]


def test_a_respond_prompt_is_shown_to_the_people_answering() -> None:
    import io

    from rich.console import Console
    from test_play_io import typed

    from davinci.engine.play import parse_seats, run_play

    game = load_game("tile-hunt", packs=(str(PACK),))
    console = Console(file=io.StringIO(), width=120, color_system=None)
    run_play(game, parse_seats("human,random,random", game), 1, {}, console, typed(["1"]), clear=False, timer=False)
    assert "answer yes or no" in console.file.getvalue()  # the step's own prompt, filled in


def test_a_components_label_names_its_pieces_on_the_generic_screen() -> None:
    from davinci.engine.play import noted_action, piece_notes

    game = load_game("higher-card", packs=[str(PACK)])
    view = game.new_state(2, seed=3).view(0)
    mine = view["seats"][0]["zones"]
    pieces = [p for z in mine.values() for p in z.get("pieces", ())]
    assert pieces and all(p["name"] == str(p["number"]) for p in pieces)
    theirs = [p for z in view["seats"][1]["zones"].values() for p in z.get("pieces", ())]
    assert all("name" not in p for p in theirs if p.get("hidden"))  # a hidden number names nothing
    notes = piece_notes(view)
    ref = pieces[0]["ref"]
    assert noted_action(f"play {ref}", notes) == f"play {ref} ({pieces[0]['number']})"
    assert noted_action("pass", notes) == "pass"


def test_a_capture_in_the_ludo_race_sends_the_pawn_home_and_resets_its_progress() -> None:
    game = load_game("ludo-lite", packs=[str(PACK)])
    st = game.new_state(4, seed=0)
    rng = Rng(0)
    captures = 0
    while not st.is_terminal():
        before = st.logged
        seat = st.current_seats[0]
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.below(len(legal))])
        new = [text for _, text in st.events[-(st.logged - before):]] if st.logged > before else []
        for text in new:
            m = re.fullmatch(r"Racer \d captures (Racer (\d))'s (\w+) pawn on (s\d+): back to start", text)
            if m is None:
                continue
            captures += 1
            victim = int(m.group(2)) - 1
            pawn = next(p for p in st.piece_records() if p.field("colour") == m.group(3))
            assert st.pos[pawn.pid] == "s0" and st.seat_vars[victim]["progress"] == 0
    assert captures >= 1
    assert st.result()["winners"]


def test_the_race_recipe_quotes_the_ludo_game_it_points_to() -> None:
    guide = (Path(__file__).parent.parent / "docs" / "authoring.md").read_text(encoding="utf-8")
    recipe = guide.split("## Recipe: a race around a looping track", 1)[1].split("\n## ", 1)[0]
    block = recipe.split("```yaml", 1)[1].split("```", 1)[0]
    game = (PACK / "ludo.yaml").read_text(encoding="utf-8")
    quoted = re.findall(r'"([^"]+)"', block)
    assert len(quoted) >= 7
    for text in quoted:
        assert text in game, text


def test_the_generic_help_lists_a_boards_special_spaces() -> None:
    # A pack's board game showed only its pieces (`red@s6`): players could not learn where the
    # traps and bonuses were. `?` lists every space of a type other than the commonest.
    import io

    from rich.console import Console

    from davinci.engine.play import board_layout, parse_seats, run_play

    game = load_game("shortcut-race", packs=(str(PACK),))
    assert board_layout(game.definition.board).splitlines() == [
        "The board: 15 spaces, 9 of them plain; the others:", "  start: s", "  bonus: a2, a5", "  trap: a8, t1",
        "  goal: g"]
    console = Console(file=io.StringIO(), width=100)
    lines = iter(["?"])

    def ask(prompt: str) -> str:
        for line in lines:
            return line
        raise EOFError

    run_play(game, parse_seats("human,random", game), 1, {}, console, ask, clear=False)
    assert "trap: a8, t1" in console.file.getvalue()
