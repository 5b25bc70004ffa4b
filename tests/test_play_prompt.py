"""The move prompt as players meet it: short verbs, the board again, what bots did, stopping.

Each test plays a real game through `run_play` with typed lines (the input ends after them,
as Ctrl-D would) and reads the screen it printed.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from test_play_io import typed

from davinci.engine.game import load_game
from davinci.engine.play import parse_seats, run_play


def play(game_id: str, players: str, lines: list[str], seed: int = 1, **kw: object) -> tuple[int, str]:
    game = load_game(game_id)
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats(players, game), seed, {}, console, typed(lines), clear=False, timer=False,
                    **kw)  # type: ignore[arg-type]
    return code, console.file.getvalue()  # type: ignore[attr-defined]


GUESSES = ["guess row.2.1 3", "guess row.2.1 4", "guess row.2.2 5"]


def play_meddled(meddle: Callable[[], None], lines: list[str] = GUESSES, code: int = 0, **kw: object) -> str:
    """Da Vinci Code (seed 4) against a random bot, typing `lines`, with `meddle()` run before each
    move prompt (another program at work on the game's files); the screen, on one line."""
    asked = iter(lines)

    def player(prompt: str) -> str:
        if prompt == "> ":
            meddle()
        try:
            return next(asked)
        except StopIteration:
            raise EOFError from None

    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=120)
    assert run_play(game, parse_seats("human,random", game), 4, {}, console, player, clear=False, timer=False,
                    **kw) == code  # type: ignore[arg-type]
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def test_a_verb_may_be_shortened_to_a_prefix_only_one_offered_verb_has(tmp_path: Path) -> None:
    # `st` for `stop` was "'st' is not possible now"; `gues 2.1 3` had no hint either.
    save = tmp_path / "g.json"
    # Seed 5: the human's first guess (row.2.2 = 5... found by the seeded game) is right, then `st`.
    game = load_game("da-vinci-code")
    state = game.new_state(["Me", "Bot"], seed=5)
    me = state.current_seats[0]
    right = next(a for a in state.legal_actions(me) if state.clone().apply(me, a) is None
                 and "right" in _after(state, me, a))
    players = "human,random" if me == 0 else "random,human"
    code, out = play("da-vinci-code", players, [f"gues{str(right)[5:]}", "st"], seed=5, save_path=str(save))
    assert code == 0
    history = [a for _s, a in json.loads(save.read_text())["saved"]["state"]["history"]]
    assert str(right) in history and "stop" in history


def _after(state: object, seat: int, action: object) -> str:
    trial = state.clone()  # type: ignore[attr-defined]
    trial.apply(seat, action)
    return trial.view(None)["events"][-1]


def test_a_misspelt_verb_gets_a_did_you_mean() -> None:
    code, out = play("da-vinci-code", "human,random", ["guss row.2.1 3"])
    assert code == 0 and "'guss' is no action of this game; possible now: guess; did you mean 'guess'?" in out


def test_the_start_of_an_action_not_offered_now_is_refused_for_why() -> None:
    # `st` before any right guess was "no action of this game", as if the game had no `stop`.
    code, out = play("da-vinci-code", "human,random", ["st"], seed=1)
    assert code == 0 and "'stop' is not possible now: you stop only after a right guess" in " ".join(out.split())


def test_an_empty_line_shows_the_board_again() -> None:
    _code, once = play("leonardos-riddle", "human,random", [])
    _code, twice = play("leonardos-riddle", "human,random", [""])
    header = "Leonardo's Riddle"
    assert once.count(header) + 1 == twice.count(header)


def test_a_bots_move_is_told_in_the_games_own_words() -> None:
    # "Greedy 2: place hand.2.6 0,-1" where a human's move read "Me places seagull, cat at 0,0".
    code, out = play("leonardos-riddle", "random,human", ["1"], seed=2)
    assert code == 0
    assert "Random 1 places " in out and "Random 1: place hand." not in out


def test_the_first_guess_of_a_turn_does_not_offer_stop() -> None:
    game = load_game("da-vinci-code")
    state = game.new_state(2, seed=1)
    seat = state.current_seats[0]
    assert state.view(seat)["pending"]["prompt"] == "Guess an opponent's hidden tile (target and number)"
    for a in state.legal_actions(seat):
        trial = state.clone()
        trial.apply(seat, a)
        if "stop" in trial.legal_actions(seat):
            assert trial.view(seat)["pending"]["prompt"].endswith(", or stop")
            return
    pytest.fail("no guess was right")


def test_the_game_over_screen_marks_nobody_to_move() -> None:
    code, out = play("leonardos-riddle", "random,random", [], seed=3)
    end = out[out.rindex("Leonardo's Riddle"):]
    assert code == 0 and "Game over" in end and " *" not in end


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_ctrl_d_at_a_terminal_offers_to_save_and_the_resume_hint_keeps_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-D without --save threw the game away; the hint after a save left out --log.
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt: "kept.json")
    monkeypatch.chdir(tmp_path)
    code, out = play("da-vinci-code", "human,random", [], seed=7, log_path="game.log")
    assert code == 0
    assert json.loads((tmp_path / "kept.json").read_text())["davinci_save"] == 1
    assert "resume with: davinci play da-vinci-code --resume kept.json --log game.log" in out


def test_input_ending_without_a_terminal_says_the_game_was_not_saved() -> None:
    code, out = play("da-vinci-code", "human,random", [])
    assert code == 0 and "Not saved (give --save FILE to keep a game that input may end)" in out


def test_a_save_another_session_rewrote_is_not_overwritten(tmp_path: Path) -> None:
    # Two sessions resuming one save: the last to write silently wiped the other's moves.
    save, log = tmp_path / "g.json", tmp_path / "g.log"
    other = '{"davinci_save": 1, "other session": true}'

    def another_session() -> None:
        if save.exists() and "other session" not in save.read_text():
            save.write_text(other)  # another davinci resumed the same save and wrote it

    out = play_meddled(another_session, save_path=str(save), log_path=str(log), code=1)  # (the save is not whole)
    assert save.read_text() == other  # the other session's moves are kept
    assert "was changed by another program since this game last wrote it" in out
    assert "The game goes on, no longer saved to" in out
    # The log is this session's own: it is still written, with every move.
    assert len(json.loads(log.read_text())["actions"]) >= 2


def test_an_invisible_character_in_a_refused_action_is_shown_escaped() -> None:
    # "'roll​' is not possible now; possible: bank, roll" read as a contradiction.
    from davinci.engine.errors import IllegalAction

    game = load_game("pig", packs=[str(Path(__file__).parent / "packs" / "tutorial")])
    state = game.new_state(2, seed=9)
    with pytest.raises(IllegalAction) as e:
        state.apply(state.current_seats[0], state.parse_action("roll\u200b"))
    assert e.value.message.startswith("'roll\\u200b' is no action of this game")


def test_save_with_an_empty_name_is_refused_and_the_game_goes_on() -> None:
    # `save ""` was an internal error (exit 3), and the game was lost.
    code, out = play("da-vinci-code", "human,deducer", ['save ""', "save ' '"], seed=5)
    assert code == 0 and out.count("not saved: name a file (save FILE)") == 2


def test_a_save_name_moved_to_another_file_is_not_followed(tmp_path: Path) -> None:
    # The stamps were kept by the file a name led to: a link moved to another unfinished save
    # had no stamp, and that save was overwritten.
    import os

    first, victim = tmp_path / "first.json", tmp_path / "victim.json"
    victim.write_text("precious")
    link = tmp_path / "cur.json"
    os.symlink(first, link)

    def move_the_link() -> None:
        if first.exists() and os.readlink(link) == str(first):
            link.unlink()
            os.symlink(victim, link)  # the name now leads elsewhere

    out = play_meddled(move_the_link, save_path=str(link), code=1)
    assert victim.read_text() == "precious" and "now leads to" in out
    assert "Not saved: the --save file was given up during the game" in out


def test_a_save_touched_but_not_changed_is_still_this_games(tmp_path: Path) -> None:
    # `touch` (a sync tool, an editor's no-op save) made the game give its save up.
    import os

    save = tmp_path / "g.json"
    out = play_meddled(lambda: os.utime(save, ns=(1, 1)) if save.exists() else None, GUESSES[:2],
                       save_path=str(save))
    assert "changed by another program" not in out
    assert len(json.loads(save.read_text())["saved"]["state"]["history"]) >= 2


def test_help_examples_name_the_readers_own_seat() -> None:
    # Seat 2 read `place hand.1.3 1,0` (refused: not its hand) and `guess row.2.3 7` (its own row).
    from davinci.games.da_vinci_code import screen as dvc
    from davinci.games.da_vinci_game import screen as dvg
    from davinci.games.leonardos_riddle import screen as lr

    assert "place hand.2.3 1,0" in lr.help_text({}, seat=2) and "hand.1." not in lr.help_text({}, seat=2)
    text = dvc.help_text({}, seat=2)
    assert "guess row.1.3 7" in text and "seat 1's third tile" in text and "reveal row.2.2" in text
    assert "return tokens.3.3" in dvg.help_text({}, seat=3)
    code, out = play("leonardos-riddle", "random,human", ["?"], seed=2)
    assert "place hand.2.3 1,0" in out


def test_one_letter_is_no_verb_prefix_and_an_ambiguous_one_asks_for_more() -> None:
    # `q` (meant as quit) played a verb starting with q; `h` among hel, hello, hist was "no action".
    from davinci.engine.play import _several_verbs, _whole_verb

    assert _whole_verb("q", ["quits", "bank"]) == "q" and _whole_verb("qu", ["quits", "bank"]) == "quits"
    assert _whole_verb("t", ["token"]) == "token"  # the one verb offered
    assert _several_verbs("he", ["hel", "hello", "hist"]) == ["hel", "hello"]
    assert _several_verbs("hel", ["hel", "hello"]) == []  # a whole verb


def test_a_log_further_on_is_kept_even_when_its_game_is_finished(tmp_path: Path) -> None:
    # Resuming an older save with the game's --log replaced the finished game's whole log.
    from davinci.engine.errors import SaveError
    from davinci.engine.play import check_write_target

    log = tmp_path / "g.log"
    code, _ = play("da-vinci-code", "random,random", [], seed=2, log_path=str(log))
    assert code == 0 and json.loads(log.read_text())["result"] is not None
    doc = json.loads(log.read_text())
    key = (doc["game"], doc["variant"], doc["seed"], tuple(s["name"] for s in doc["seats"]),
           json.dumps(doc["settings_override"], sort_keys=True, default=str))
    with pytest.raises(SaveError, match="holds this game further on .*replay it with: davinci replay"):
        check_write_target(str(log), "log", (key, [tuple(a) for a in doc["actions"][:1]]))


def _pauses_at_24_rows(game_id: str, players: str, lines: list[str]) -> list[str]:
    """The pager's pauses while a human types `lines` on an 80x24 terminal."""
    game = load_game(game_id)
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    asked: list[str] = []
    feed = iter(lines)

    def player(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    run_play(game, parse_seats(players, game), 3, {}, console, player, clear=False, timer=False)
    return [p for p in asked if p.startswith("-- more (")]


def test_help_longer_than_the_terminal_comes_a_screenful_at_a_time() -> None:
    # The Da Vinci Game's `?` (about 50 lines) scrolled its rules away on a 24-row terminal.
    pauses = _pauses_at_24_rows("da-vinci-game", "human:A,random,random", ["?", "", "q"])
    assert len(pauses) == 2 and pauses[0].startswith("-- more (22 of ")


def test_list_longer_than_the_terminal_comes_a_screenful_at_a_time() -> None:
    # `list` printed 36 actions straight through on 24 rows, where `?` paged.
    pauses = _pauses_at_24_rows("da-vinci-code", "human:A,random", ["list", "q"])
    assert len(pauses) == 1 and pauses[0].startswith("-- more (22 of ")  # then q stops it


def test_end_of_input_at_the_pager_stops_the_game_at_once() -> None:
    # Ctrl-D at `-- more` closed the pager, and a second Ctrl-D was needed at the move prompt.
    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    asked: list[str] = []

    def player(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            return "list"
        raise EOFError

    assert run_play(game, parse_seats("human,random", game), 3, {}, console, player, clear=False, timer=False) == 0
    assert len(asked) == 2 and asked[1].startswith("-- more (")  # no move prompt asked after it


def test_a_dumb_terminals_pager_writes_no_cursor_escapes() -> None:
    import os

    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    os.environ["TERM"], old = "dumb", os.environ.get("TERM")
    try:
        console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
        assert console.is_dumb_terminal
        run_play(game, parse_seats("human,random", game), 3, {}, console, typed(["list", ""]), clear=False, timer=False)
    finally:
        if old is None:
            del os.environ["TERM"]
        else:
            os.environ["TERM"] = old
    assert "\x1b[" not in console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed_value", ["x1", "X1"])
def test_the_values_of_one_offered_action_stand_for_it(tmp_path: Path, typed_value: str) -> None:
    # `x1` at The Da Vinci Game's move prompt was "no action of this game" (it meant `go x1`).
    save = tmp_path / "g.json"
    code, out = play("da-vinci-game", "human:Me,scholar,scholar", ["", typed_value], seed=5, save_path=str(save))
    assert code == 0 and "is no action of this game" not in out
    assert (0, "go x1") in [tuple(m) for m in json.loads(save.read_text())["saved"]["state"]["history"]]


def test_a_number_that_is_also_a_value_is_not_taken_for_a_list_entry() -> None:
    # `3` at "bid how many tricks (0 to 5)" played the third entry, a sealed bid of 2.
    pack = str(Path(__file__).parent / "packs" / "from-docs")
    game = load_game("sealed-trumps", packs=[pack])
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,random,random", game), 1, {}, console, typed(["3", "bid 3"]), clear=False,
             timer=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "'3' could be action 3 of the list (bid 2) or 'bid 3': type the action itself" in out
    assert "You bid 3" in out and "You bid 2" not in out


def test_a_number_picks_from_a_list_only_once_it_is_on_the_screen() -> None:
    # With 48 actions and no list shown, `7` played the seventh of a list the player never saw.
    code, out = play("da-vinci-code", "human,deducer", ["7", "list", "30"], seed=1)
    assert code == 0 and "no numbered list is on the screen: type 'list'" in " ".join(out.split())
    assert "Player 1 guessed row." in out  # 30, after `list`, played (no tile's value: no doubt)


def test_an_action_written_as_the_list_writes_it_is_taken_whatever_the_short_forms(tmp_path: Path) -> None:
    # `return tokens.1.3`, as the screen lists it, was "could not read: the short form is return N".
    save = tmp_path / "g.json"
    game = load_game("da-vinci-game", settings={"awards": [4, 3, 2]})
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human:Me,scholar,scholar", game), 11, {"awards": [4, 3, 2]}, console,
             typed(["2", "2", "token", "backpack", "return tokens.1.3"]), clear=False, timer=False, save_path=str(save))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "could not read" not in out and "Me returns token" in out
    assert (0, "return tokens.1.3") in [tuple(m) for m in json.loads(save.read_text())["saved"]["state"]["history"]]


def test_one_letter_of_several_verbs_is_said_too_short() -> None:
    # `a` at attempt/decline was "no action of this game".
    pack = str(Path(__file__).parent / "packs" / "tutorial")
    game = load_game("pig", packs=[pack])
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["", "b"]), clear=False, timer=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "'b' is too short to name an action: type more of bank" in out and "no action of this game" not in out


def test_values_that_fit_two_offered_actions_ask_for_the_word(tmp_path: Path) -> None:
    # `hand.1.2 0,0` fitting cover and swap in Leonardo's Riddle was "'hand.1.2' is no action of
    # this game" (its screen now says to cover or swap); any game's values ask for the word.
    code, out = play("leonardos-riddle", "human,greedy", ["hand.1.2 0,0"], seed=1)
    assert code == 0 and "0,0 holds a card: type c 2 0,0 to cover it, or s 2 0,0 to swap" in out
    from helpers import write_game_pack

    game = load_game("twoverbs", packs=[write_game_pack(tmp_path, "twoverbs", TWO_VERBS.replace("[10, 20]", "['red', 'blue']"))])
    console = Console(file=io.StringIO(), width=200)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["red"]), clear=False, timer=False)
    assert "'red' could be take or give: type the action's word too" in console.file.getvalue()  # type: ignore[attr-defined]


TWO_VERBS = """\
kind: game
id: twoverbs
name: Two verbs
players: {min: 2, max: 2}
turn_order: {first: "1"}
flow:
  turn:
    - choose:
        options:
          - action: take
            args: {n: "[10, 20]"}
            do: [{end_game: true}]
          - action: give
            args: {n: "[10, 20]"}
            do: [{end_game: true}]
end:
  when: "false"
  winners: seats
"""


@pytest.mark.parametrize(("game", "pack", "typed_number", "words"), [
    # `03` played `bid 2` (the third entry) where `3` was refused as ambiguous.
    ("sealed-trumps", "from-docs", "03", "'03': type a number without a leading zero"),
    # `6` (one past the bids 0 to 5) played `bid 5`, the sixth entry.
    ("sealed-trumps", "from-docs", "6", "'6' is the value of no action offered now"),
    # `10` fits `take 10` and `give 10`: it played the first.
    ("twoverbs", None, "10", "'10' could be take 10 or give 10: type the action itself"),
])
def test_a_number_that_could_mean_another_action_is_refused(
        tmp_path: Path, game: str, pack: str | None, typed_number: str, words: str) -> None:
    from helpers import write_game_pack

    folder = str(Path(__file__).parent / "packs" / pack) if pack else write_game_pack(tmp_path, game, TWO_VERBS)
    loaded = load_game(game, packs=[folder])
    console = Console(file=io.StringIO(), width=200)
    players = "human,random,random" if game == "sealed-trumps" else "human,random"
    run_play(loaded, parse_seats(players, loaded), 1, {}, console, typed([typed_number]), clear=False, timer=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert words in out and "You bid" not in out and "takes" not in out


def test_a_list_line_pasted_back_with_its_piece_note_is_the_action() -> None:
    # `take market.1 (pepper)`, copied from the list, was "'take' takes 1 value (CARD)".
    pack = str(Path(__file__).parent / "packs" / "from-docs")
    game = load_game("spice-stall", packs=[pack])
    console = Console(file=io.StringIO(), width=200)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["take market.3 (pepper)"]), clear=False,
             timer=False)
    assert "Player 1 takes pepper from the market" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_number_after_history_says_history_came_after_the_list() -> None:
    # "no numbered list is on the screen" was untrue: the list stood three lines above `history 2`.
    code, out = play("da-vinci-game", "human:Me,scholar,random-mover", ["history 2", "1"], seed=11)
    flat = " ".join(out.split())
    assert code == 0 and "'history' came after the numbered list, so a number waits for the list again" in flat
    assert "no numbered list is on the screen" not in flat


def test_a_list_redrawn_away_takes_its_numbers_with_it() -> None:
    # `list`, then an empty line (the board again, no list), then `3` played the third entry unseen.
    code, out = play("da-vinci-code", "human,deducer", ["list", "", "3"], seed=11)
    assert code == 0 and "no numbered list is on the screen" in " ".join(out.split())
    assert "Player 1 guessed" not in out


def test_a_list_number_that_is_also_a_tiles_value_is_refused() -> None:
    # With one hidden tile left, entry 2 was `guess row.2.3 1`: a player typing the value 2 guessed 1.
    code, out = play("da-vinci-code", "human,deducer",
                     ["2.1 0", "s", "2.2 1", "st", "2.5 4", "2.4 4", "list", "2"], seed=11)
    assert code == 0
    assert "'2' could be action 2 of the list (guess row.2.3 1) or 'guess row.2.3 2'" in " ".join(out.split())
    code, out = play("da-vinci-code", "human,deducer",
                     ["2.1 0", "s", "2.2 1", "st", "2.5 4", "2.4 4", "list", "#2"], seed=11)
    assert "Player 1 guessed row.2.3 = 1" in out  # `#2` is the list's entry, whatever the values
    # ... of a list on the screen: `#1` with none played a guess the player never saw.
    code, out = play("da-vinci-code", "human,deducer", ["#1"], seed=11)
    assert "no numbered list is on the screen: type 'list'" in " ".join(out.split())
    assert "Player 1 guessed" not in out


@pytest.mark.parametrize(("typed_number", "played"), [("2", "attempt 1"), ("3", "decline")])
def test_the_treasure_attempts_numbered_on_the_screen_are_picked_by_number(
    tmp_path: Path, typed_number: str, played: str
) -> None:
    # The screen numbers them (1 = attempt 0, 2 = attempt 1, 3 = decline), yet 2 and 3 were refused:
    # "'3' is the value of no action offered now", `decline` not being one of the screen's verbs.
    import random

    from davinci.engine.play import save_document

    game = load_game("da-vinci-game", settings={"timer_seconds": 0})
    st, pick = game.new_state(["Ana", "Ben", "Cy"], seed=18), random.Random(18)
    while sorted(map(str, st.legal_actions(st.current_seats[0]))) != ["attempt 0", "attempt 1", "decline"] \
            or st.current_seats[0] != 0:
        seat = st.current_seats[0]
        legal = [str(a) for a in st.legal_actions(seat)]
        solved = [a for a in legal if a.startswith("claim") and a.endswith("solved")]
        st.apply(seat, solved[0] if solved else "token" if "token" in legal else legal[pick.randrange(len(legal))])
    seats = parse_seats("human:Ana,human:Ben,human:Cy", game)
    save = tmp_path / "treasure.json"
    save.write_text(json.dumps(save_document(st, seats, 18, {"timer_seconds": 0}, timer=False)), encoding="utf-8")
    console = Console(file=io.StringIO(), width=100)
    run_play(game, seats, 18, {"timer_seconds": 0}, console, typed(["", typed_number, "quit"]), resume=str(save),
             clear=False, timer=False)
    out = console.file.getvalue()
    assert "is the value of no action" not in out
    assert ("Ana declines" in out) if played == "decline" else ("reads a Vitruvian Man card to Ana alone" in out)


def _disk_full_while(full: Callable[[], bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every write of a file fail as on a full disk while `full()` says so."""
    import tempfile

    real = tempfile.mkstemp

    def mkstemp(*args: object, **kw: object) -> tuple[int, str]:
        if full():
            raise OSError(28, "No space left on device")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


def test_a_save_the_full_disk_refused_is_written_again_once_there_is_room(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # After one failed write the --save file was given up for good: the game ended unsaved, exit 0.
    save = tmp_path / "g.json"
    prompts = [0]

    def meddle() -> None:
        prompts[0] += 1

    _disk_full_while(lambda: prompts[0] == 2, monkeypatch)  # full at the second move prompt only
    out = play_meddled(meddle, save_path=str(save))
    assert "No space left on device" in out and "davinci tries" in out and "again at each save" in out
    assert f"Saved to {save} again." in out
    assert len(json.loads(save.read_text())["saved"]["state"]["history"]) >= 3


def test_input_ending_while_the_save_file_is_refused_saves_beside_it_or_says_nothing_was_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The game ended "Not saved", exit 0, though only the --save file's disk was full.
    import tempfile

    monkeypatch.chdir(tmp_path)
    save = tmp_path / "full" / "g.json"
    save.parent.mkdir()
    started, real = [False], tempfile.mkstemp

    def meddle() -> None:
        started[0] = True

    def full_folder(*args: object, **kw: object) -> tuple[int, str]:
        if started[0] and str(kw.get("dir", "")).endswith("full"):
            raise OSError(28, "No space left on device")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", full_folder)
    out = play_meddled(meddle, GUESSES[:2], save_path=str(save))
    beside = tmp_path / "davinci-da-vinci-code-4.json"
    assert f"Saved to {beside.name}" in out
    assert len(json.loads(beside.read_text())["saved"]["state"]["history"]) >= 2
    # Nowhere to write at all: said, and not a success.
    beside.unlink()

    def no_room(*args: object, **kw: object) -> tuple[int, str]:
        if started[0]:
            raise OSError(28, "No space left on device")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", no_room)
    started[0] = False
    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=120)
    lines = iter(GUESSES[:2])

    def player(prompt: str) -> str:
        started[0] = True
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    code = run_play(game, parse_seats("human,random", game), 4, {}, console, player, clear=False, timer=False,
                    save_path=str(tmp_path / "new.json"))  # type: ignore[arg-type]
    said = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert code == 1 and "Not saved: neither the --save file nor a file in this folder could be written" in said


def test_history_all_after_a_resume_says_the_save_kept_only_the_latest_events(tmp_path: Path) -> None:
    # A resumed game said "All 40 events:" of a game with 68.
    save = tmp_path / "g.json"
    code, out = play("da-vinci-code", "human:Ana,random", ["list", "1"] * 12 + ["history all"], seed=8,
                     save_path=str(save))
    assert "All 68 events:" in out
    code, out = play("da-vinci-code", "human:Ana,random", ["history all"], seed=8, resume=str(save), save_path=str(save))
    said = " ".join(out.split())
    assert "The last 40 events (the save this game was resumed from kept only its latest 40" in said


def test_a_game_saved_beside_goes_home_when_the_working_folder_refuses(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # A closed terminal in a folder the player may not write: "Permission denied", game lost.
    import os
    import tempfile

    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    save = tmp_path / "full" / "g.json"
    save.parent.mkdir()
    started, real = [False], tempfile.mkstemp

    def refusing(*args: object, **kw: object) -> tuple[int, str]:
        folder = os.path.realpath(str(kw.get("dir", "")))
        if started[0] and folder in (os.path.realpath(work), os.path.realpath(save.parent)):
            raise OSError(13, "Permission denied")
        return real(*args, **kw)  # type: ignore[arg-type]

    def meddle() -> None:
        started[0] = True

    monkeypatch.setattr(tempfile, "mkstemp", refusing)
    out = play_meddled(meddle, GUESSES[:2], save_path=str(save))
    kept = home / "davinci-da-vinci-code-4.json"
    assert kept.exists() and f"Saved to {kept}" in out


def test_a_log_the_disk_refused_until_the_end_makes_the_game_exit_1(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A bots-only game whose --log could not be written exited 0: a script could not tell.
    import tempfile

    log = tmp_path / "full" / "g.log"
    log.parent.mkdir()
    writes, real = [0], tempfile.mkstemp

    def filling(*args: object, **kw: object) -> tuple[int, str]:
        if str(kw.get("dir", "")).endswith("full"):
            writes[0] += 1
            if writes[0] > 1:  # the first write (before any move) goes through
                raise OSError(28, "No space left on device")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", filling)
    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats("random,random", game), 4, {}, console, typed([]), clear=False, timer=False,
                    log_path=str(log))
    said = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert code == 1 and "davinci tries the log again at each save" in said
    assert "Note: this game's log file could not be kept up during the game" in said


def test_every_games_end_screen_ranks_the_seats_with_their_scores() -> None:
    # The Da Vinci Game and Da Vinci Code said only who won; their scores were in the log alone.
    import re

    # (Places only: a game's own screen shows what counts, and its `end.score` may be an internal
    # ranking key, as The Da Vinci Game's treasures x 10 + tokens is.)
    for game_id, players in (("da-vinci-code", "random,random"), ("leonardos-riddle", "random,random")):
        code, out = play(game_id, players, [], seed=3)
        assert code == 0 and re.search(r"Ranking: 1\. \S+ \d+, 2\. \S+ \d+\n", out), out[-400:]


def test_quit_when_another_program_changed_the_save_keeps_the_game_elsewhere(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Found at the stop (no autosave since the change): "not overwritten", and the game was saved
    # nowhere, exit 0.
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "g.json"
    other = '{"davinci_save": 1, "other session": true}'
    asked = iter(GUESSES[:1] + ["quit"])

    def player(prompt: str) -> str:
        text = next(asked)
        if text == "quit":
            save.write_text(other)  # another davinci resumed the same save and wrote it
        return text

    game = load_game("da-vinci-code")
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats("human,random", game), 4, {}, console, player, clear=False, timer=False,
                    save_path=str(save))
    said = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert save.read_text() == other and "changed by another program" in said
    beside = tmp_path / "davinci-da-vinci-code-4.json"
    assert beside.exists() and f"Saved to {beside.name}" in said and code == 1


def test_values_alone_of_an_action_not_possible_now_are_refused_for_why() -> None:
    # A taken square typed alone (`0,0`) was "no action of this game", where `place 0,0` said why.
    from davinci.engine.game import clear_cache

    pack = str(Path(__file__).parent / "packs" / "from-docs")
    game = load_game("tictactoe", packs=(pack,))
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["place 0,0", "0,0", "5"]), clear=False)
    out = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "'place 0,0' is not legal now; 0,0 is not possible as C" in out
    assert "no action of this game" not in out
    clear_cache()


def one_choice_game(folder: Path, verb: str, args: str) -> object:
    """A solitaire of one decision, `verb` with the YAML mapping `args`; the game ends after it."""
    from helpers import write_game_pack

    text = f"""kind: game
id: once
name: Once
players: {{min: 1, max: 1}}
flow:
  turn:
    - choose:
        options:
          - action: {verb}
            args: {args}
            do: [{{end_game: true}}]
end:
  when: "false"
  winners: "seats"
"""
    return load_game("once", packs=(write_game_pack(folder, "once", text),))


def played(game: object, lines: list[str], save: Path) -> tuple[list[list[object]], str]:
    """The moves a human typing `lines` made (from the save), and the screen."""
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human", game), 1, {}, console, typed(lines), clear=False,  # type: ignore[arg-type]
             save_path=str(save))
    return json.loads(save.read_text())["saved"]["state"]["history"], console.file.getvalue()  # type: ignore[attr-defined]


def test_the_start_of_exactly_one_offered_action_is_that_action(tmp_path: Path) -> None:
    # `move 4` with `move 4 s5` and `move 5 s6` offered was "'move' takes 2 values".
    game = one_choice_game(tmp_path, "pick", '{a: "[1, 2]", b: "[5, 6] if a == 2 else [5]"}')
    assert played(game, ["pick 1"], tmp_path / "a.json")[0] == [[0, "pick 1 5"]]
    assert played(game, ["pick 2 6"], tmp_path / "b.json")[0] == [[0, "pick 2 6"]]
    _history, screen = played(game, ["pick 2"], tmp_path / "c.json")
    assert "'pick' takes 2 values" in screen  # (two begin so)


def test_one_offered_action_is_picked_by_1_even_after_history(tmp_path: Path) -> None:
    # After `history` (or `?`), `1` waited for the list again even when one action was offered.
    game = one_choice_game(tmp_path, "stop", "{}")
    assert played(game, ["history", "1"], tmp_path / "g.json")[0] == [[0, "stop"]]


def test_a_full_action_of_a_screens_short_form_verb_and_a_space_alone_are_refused_for_why() -> None:
    # `return tokens.1.1` (the documented long form) was "could not read: the short form is return N"
    # when no return was offered; `ankh` alone was "no action of this game" where `k99` said why.
    code, out = play("da-vinci-game", "human:Ana,scholar,scholar", ["return tokens.1.1", "ankh"], seed=3)
    flat = " ".join(out.split())
    assert "'return' is not possible now; possible: go" in flat and "could not read" not in flat
    assert "'go ankh' is not legal now; ankh is not possible as TO" in flat


def test_the_first_values_of_exactly_one_offered_action_are_that_action(tmp_path: Path) -> None:
    # `hand.1.2` alone, with `play hand.1.2 left` the one action it begins, was "no action of this game".
    game = one_choice_game(tmp_path, "put", "{tile: \"['red', 'blue']\", "
                                            "side: \"['left', 'right'] if tile == 'blue' else ['left']\"}")
    history, screen = played(game, ["blue", "red"], tmp_path / "g.json")
    assert history == [[0, "put red left"]] and "'blue' could be" not in screen
