"""The terminal front end under bad input: end of input, closed stdin, Ctrl-C, invalid options.

`davinci play` must never hang waiting on an input that will not come, never show a traceback,
and never lose a game in progress: end of input stops cleanly with a message, Ctrl-C (SIGINT)
and SIGTERM exit 130 after saving when `--save` was given, and every invalid option value is a
usage error (exit 2) or a clear error (exit 1).

The signal and stdin tests run the real command in a subprocess (with a timeout, so a hang
fails the test instead of blocking the suite).
"""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import write_game_pack
from rich.console import Console

from davinci.cli import main
from davinci.engine.game import game_variants, load_game
from davinci.engine.play import parse_seats, run_play

GAME = "da-vinci-code"
TIMEOUT = 60  # generous: a loaded CI machine starts Python slowly; a hang still fails


def davinci(*args: str, stdin: int | None = subprocess.DEVNULL, **kw: object) -> subprocess.CompletedProcess[str]:
    """Run the real `davinci` command (as `python -m`-style entry) with a timeout."""
    return subprocess.run(
        [sys.executable, "-c", "from davinci.cli import main; main()", *args],
        stdin=stdin, capture_output=True, text=True, timeout=TIMEOUT, **kw,  # type: ignore[call-overload]
    )


@pytest.mark.parametrize("game", ["da-vinci-code", "leonardos-riddle", "da-vinci-game"])
def test_a_terminal_that_cannot_show_the_screens_characters_gets_question_marks(game: str) -> None:
    # With PYTHONIOENCODING=ascii (or a Latin-1 locale) every game stopped at its first screen
    # with an internal error: UnicodeEncodeError.
    import os

    players = "human,scholar,scholar" if game == "da-vinci-game" else "human,random"
    done = davinci("play", game, "--players", players, "--seed", "1", "--no-clear",
                   env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "Input closed" in done.stdout


def test_a_letter_the_terminal_encoding_cannot_read_is_no_internal_error() -> None:
    import os

    done = davinci("play", "da-vinci-code", "--players", "human,random", "--seed", "3", "--no-clear",
                   stdin=None, input="caf\u00e9\nquit\n", env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "Game stopped." in done.stdout


def cli(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


# ------------------------------------------------------------------------------- end of input


def test_end_of_input_at_a_prompt_ends_the_game_cleanly() -> None:
    done = davinci("play", GAME, "--seed", "1", "--no-clear")
    assert done.returncode == 0
    assert "Input closed: the game stops here." in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_closed_stdin_does_not_hang_or_crash() -> None:
    # `davinci play <&-`: no standard input at all (Python sees sys.stdin as None).
    done = davinci("play", GAME, "--seed", "1", "--no-clear", stdin=None, preexec_fn=lambda: os.close(0))
    assert done.returncode == 0, done.stderr
    assert "Input closed" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_clue_practice_with_closed_stdin() -> None:
    done = davinci("clue", "--seed", "1", stdin=None, preexec_fn=lambda: os.close(0))
    assert done.returncode == 0, done.stderr
    assert "No answer given." in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_end_of_input_at_the_game_menu() -> None:
    code, out = cli("play", "--no-clear")
    assert code == 0
    assert "Input closed: no game chosen." in out


def test_end_of_input_with_save_keeps_the_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = cli("play", GAME, "--seed", "3", "--save", str(save), "--no-clear")
    assert code == 0 and "Saved to" in out and save.exists()
    code, out = cli("play", "--resume", str(save), "--no-clear")
    assert code == 0 and "Input closed" in out


# ------------------------------------------------------------------------------- prompts


def typed(lines: list[str]) -> Callable[[str], str]:
    """A player who types `lines`, then closes the input (EOF)."""
    feed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def _screen(game_id: str, players: str, lines: list[str], seed: int = 1) -> tuple[int, str]:
    game = load_game(game_id)
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats(players, game), seed, {}, console, typed(lines), clear=False, timer=False)
    return code, console.file.getvalue()


def test_an_invalid_move_is_explained_and_asked_again() -> None:
    code, out = _screen(GAME, "human,random", ["fly to the moon", "guess row.1.1 3", "999", "?"])
    assert code == 0
    assert "not possible now" in out or "not legal" in out
    assert "Type the number of an action on the list, the action itself, or its values alone" in out  # the help after '?'
    assert "Input closed" in out


def _moves(game_id: str, lines: list[str], tmp_path: Path, seed: int = 1) -> tuple[list[list[object]], str]:
    """Type `lines` at a game against one random bot; the moves made (from the save) and the screen."""
    game = load_game(game_id)
    save = tmp_path / f"{game_id}-{len(list(tmp_path.iterdir()))}.json"
    console = Console(file=io.StringIO(), width=200)
    code = run_play(game, parse_seats("human,random", game), seed, {}, console, typed(lines), clear=False, timer=False,
                    save_path=str(save))
    assert code == 0
    return json.loads(save.read_text())["saved"]["state"]["history"], console.file.getvalue()


def test_a_number_picks_from_the_whole_list_once_it_is_on_the_screen(tmp_path: Path) -> None:
    # Da Vinci Code, seed 1: the human's first decision has 48 guesses, too many to print. A bare
    # number picked one of them unseen (a player meaning the value 7 guessed the seventh entry).
    moves, out = _moves(GAME, ["2"], tmp_path)
    assert "48 possible actions (guess); 'list' shows them all, numbered (then a number picks one)" in out
    assert not moves and "no numbered list is on the screen" in out
    listed, out = _moves(GAME, ["list", "2"], tmp_path)
    second = re.search(r"^ +2\. (.+)$", out, re.M)
    assert second is not None
    assert listed[0] == [0, second.group(1)]
    moves, out = _moves(GAME, ["list", "49", "0", "²", "9" * 5000], tmp_path)
    assert not moves and out.count("type a number from 1 to 48") == 3  # 49, 0 and the 5,000 digits
    # Without the list, every number is told that no list is there (it was told to type 1 to 48,
    # which were then refused for that reason).
    moves, out = _moves(GAME, ["49", "0"], tmp_path)
    assert not moves and out.count("no numbered list is on the screen") == 2
    assert "Input closed" in out  # neither '²' nor 5,000 digits (too many for int()) stop the game


@pytest.mark.parametrize(
    ("game_id", "lines", "move"),
    [
        (GAME, ["2.2 5"], "guess row.2.2 5"),  # a tile by row and position
        (GAME, ["2 5"], "guess row.2.2 5"),  # a tile by position alone (one opponent)
        ("leonardos-riddle", ["3 1,0"], "place hand.1.3 1,0"),  # a hand card and a cell
    ],
)
def test_shorthands_made_of_numbers_still_work(tmp_path: Path, game_id: str, lines: list[str], move: str) -> None:
    moves, _ = _moves(game_id, lines, tmp_path)
    assert [0, move] in moves


def test_an_answer_no_action_can_carry_is_asked_again() -> None:
    # A NUL byte (Ctrl-@ on many terminals) or a 5,000-character answer at a challenge prompt
    # once ended the game with an error; it is now explained and asked again.
    game = load_game("da-vinci-game")
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 300:
            raise EOFError
        if prompt == "answer> ":
            return ["\x00", "x" * 5000, "?", ""][min(asked.count(prompt) - 1, 3)]
        return "list" if len(asked) % 2 else "#1"

    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats("human,random,random", game), 3, {}, console, ask, clear=False, timer=False)
    assert code == 0
    assert asked.count("answer> ") >= 4
    assert "type your answer again" in console.file.getvalue()
    # `?` is help here too (it was taken for a wrong answer).
    assert "Type your answer and press Enter; an empty answer (or 'pass') passes" in console.file.getvalue()
    assert "answered '?'" not in console.file.getvalue()


def test_typed_control_characters_are_echoed_escaped() -> None:
    # Arrow keys on a terminal without line editing type "\x1b[A"; an attacker at the keyboard
    # could type a whole escape sequence. Echoed in a message, it is shown, never obeyed.
    # Bytes that are not UTF-8 reach the prompt as lone surrogates (Python's surrogateescape).
    code, out = _screen(GAME, "human,random", ["\x1b[2J", "guess \x1b]2;pwned\x07", "\x9b31m", "guess \udcff"])
    assert code == 0
    assert "action text contains the control character \\x1b" in out
    assert "action text contains the control character \\x9b" in out
    assert "action text contains bytes that are not UTF-8" in out
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)


@pytest.mark.parametrize("args", [
    ["lint", "ESC"], ["lint", "--pack", "ESC", "HERE"], ["expr", "ESC"], ["expr", "x", "--context", "ESC"],
    ["play", "da-vinci-code", "-s", "ESC"], ["play", "da-vinci-code", "-s", "a=1", "-s", "ESC=1", "-s", "ESC=2"],
])
def test_what_was_typed_on_the_command_line_is_echoed_escaped(args: list[str]) -> None:
    # A file name, an expression or a setting quoted in an error message reached the terminal raw.
    sequence = "\x1b]0;PWN\x07\x1b[31mRED\u202eXX"
    code, out = cli(*[a.replace("ESC", sequence).replace("HERE", __file__) for a in args])
    assert code != 0
    assert "PWN" in out and not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", out)


def test_the_screen_shows_text_with_control_characters_escaped() -> None:
    from davinci.engine.play import esc

    def shown(text: str) -> str:
        console = Console(file=io.StringIO(), width=200, color_system=None)
        console.print(esc(text))
        return console.file.getvalue()

    assert shown("'\x1b[2j' is not possible now") == "'\\x1b[2j' is not possible now\n"
    assert shown("\x1b[red]\\[bold]\x07") == "\\x1b[red]\\[bold]\\x07\n"  # markup stays text too
    assert shown("two\nlines\tand a tab").split() == ["two", "lines", "and", "a", "tab"]  # not escaped


@pytest.mark.parametrize("typed_word", ["quit", "QUIT", "  Quit  ", "exit"])
def test_quit_stops_the_game_normally_with_exit_0(typed_word: str) -> None:
    # Typing quit is a choice, not an interruption (Ctrl-C exits 130, see the signal tests).
    code, out = _screen(GAME, "human,random", [typed_word])
    assert code == 0 and "Game stopped." in out and "Interrupted" not in out


# ------------------------------------------------------------------------------- signals


def _start_at_prompt(tmp_path: Path, save: Path | None) -> subprocess.Popen[bytes]:
    saving = ["--save", str(save)] if save is not None else []
    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "play", GAME, "--players", "human,random",
         "--seed", "5", *saving, "--no-clear"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
    )
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    while b"> " not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
    assert b"> " in seen, seen.decode(errors="replace")
    return proc


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT], ids=["SIGINT", "SIGTERM", "SIGQUIT"])
def test_interrupt_at_a_prompt_saves_and_exits_130(tmp_path: Path, signum: int) -> None:
    save = tmp_path / "interrupted.json"
    proc = _start_at_prompt(tmp_path, save)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in out + err
    assert b"Interrupted" in out and b"Saved to" in out
    doc = json.loads(save.read_text(encoding="utf-8"))
    game = load_game(GAME)
    assert game.state_from_json(doc["saved"]).legal_actions(0)
    code, text = cli("play", "--resume", str(save), "--no-clear")
    assert code == 0 and "Input closed" in text


def test_a_stop_signal_with_nobody_to_ask_and_no_save_file_saves_beside(tmp_path: Path) -> None:
    # Input from a pipe, no --save, a SIGTERM: "Interrupted." and the game was gone, while a
    # closed terminal (SIGHUP) in the same place saved it to a file of its own.
    proc = _start_at_prompt(tmp_path, None)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130, err.decode()
    beside = tmp_path / f"davinci-{GAME}-5.json"
    assert b"Saved to " + beside.name.encode() in out
    assert load_game(GAME).state_from_json(json.loads(beside.read_text(encoding="utf-8"))["saved"]).legal_actions(0)


def test_interrupt_outside_a_game_exits_130_without_a_traceback(tmp_path: Path) -> None:
    # "ready" is printed once Python and the command group are imported; the command itself
    # (loading the game, then a long simulation) is what gets interrupted.
    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; print('ready', flush=True); main()", "simulate",
         GAME, "--players", "random,random", "--games", "1000000", "--json"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in out + err
    # The games played before Ctrl-C are reported, marked interrupted (or just "interrupted" if none).
    assert b'"interrupted": true' in out or b"davinci: interrupted" in err


# ------------------------------------------------------------------------------- options

BAD_OPTIONS: list[tuple[list[str], int, str]] = [
    (["play", GAME, "--players", "nobody"], 2, "unknown player 'nobody'"),
    (["play", GAME, "--players", "random"], 2, "takes 2-4 players"),
    (["play", GAME, "--players", ",,,"], 2, "seat 1 is empty"),
    (["play", GAME, "--players", "random,,random"], 2, "seat 2 is empty"),
    (["play", GAME, "--players", "random,random,"], 2, "seat 3 is empty"),
    (["simulate", GAME, "--players", "random,,random"], 2, "seat 2 is empty"),
    (["play", GAME, "-s", "hand_small=3", "--setting", "hand_small=4"], 2, "'hand_small' is set more than once"),
    (["simulate", GAME, "-p", "random,random", "-s", "hand_small=3", "-s", "hand_small=4"], 2, "set more than once"),
    # The last one silently won (deducer against naive), as for any option given twice.
    (["simulate", GAME, "-p", "random,random", "--players=deducer,naive"], 2, "option '--players' is given more than once"),
    (["play", GAME, "--seed", "1", "--seed", "2"], 2, "option '--seed' is given more than once"),
    (["simulate", GAME, "-p", "random,random", "-prandom,naive"], 2, "option '--players' is given more than once"),
    (["lint", "--pack", "/nonexistent_dir", str(Path(__file__).parents[1] / "games" / "da_vinci_code" / "game.yaml")], 2, "no such pack folder"),
    # The other commands said DV031 with exit 1 for the same typo.
    (["simulate", GAME, "--pack", "/nonexistent_dir", "-n", "1"], 2, "no such pack folder: /nonexistent_dir"),
    (["list", "--pack", "/nonexistent_dir"], 2, "no such pack folder: /nonexistent_dir"),
    (["play", GAME, "--pack", "/nonexistent_dir"], 2, "no such pack folder: /nonexistent_dir"),
    # A file, or a folder without pack.yaml, named as a pack: the same kind of mistake (it was DV031, exit 1).
    (["simulate", GAME, "--pack", str(Path(__file__).parents[1] / "README.md"), "-n", "1"], 2,
     "README.md is a file, not a pack folder"),
    (["list", "--pack", str(Path(__file__).parents[1] / "docs")], 2, "docs is not a pack folder (no pack.yaml)"),
    (["play", GAME, "--setting", "hand_small=banana", "--players", "random,random"], 1, "must be an integer"),
    (["play", GAME, "--setting", "hand_small=99999999999999999999", "--players", "random,random"], 1, "must be <="),
    (["play", GAME, "--setting", "hand_size=3", "--players", "random,random"], 1, "; settings: hand_small, hand_large"),
    (["play", GAME, "--setting", "=3"], 2, "is not KEY=VALUE"),
    (["play", GAME, "--seed", "abc"], 2, "'abc' is not a seed: write a whole number"),
    (["play", GAME, "--seed", "1_0", "--players", "random,random"], 2, "'1_0' is not a seed"),  # int() read these
    (["play", GAME, "--seed", "\u0661\u0660", "--players", "random,random"], 2, "is not a seed"),
    (["play", GAME, "--seed", " 5 ", "--players", "random,random"], 2, "' 5 ' is not a seed"),
    (["play", GAME, "--pack", "", "--players", "random,random"], 2, "needs a folder name"),
    (["lint", "--pack", " "], 2, "needs a folder name"),
    (["play", GAME, "--variant", "nope", "--players", "random,random"], 2, "has no variant 'nope'"),
    (["play", "chess"], 2, "unknown game 'chess'"),
    (["play", GAME, "--log", "/"], 2, "is a directory"),
    (["simulate", GAME, "--games", "-5", "--players", "random,random"], 2, "'-5' is not a number of games"),
    (["simulate", GAME, "--games", "0", "--players", "random,random"], 2, "0 is not a number of games of at least 1"),
    (["simulate", GAME, "--jobs", "0", "--players", "random,random"], 2, "0 is not a number of processes from 1 to 64"),
    (["simulate", GAME, "--jobs", "\u0662", "--players", "random,random"], 2, "in digits 0-9"),  # it ran with 2 jobs
    (["simulate", GAME, "--players", "random,nobody", "--games", "2"], 2, "nobody"),
    (["simulate", GAME, "--players", "nobody", "--games", "2"], 2, "unknown bot 'nobody'"),  # (not: takes 2-4 players)
    (["simulate", "chess", "--players", "random,random"], 2, "unknown game 'chess'"),
    (["replay", "/nonexistent/log.json"], 1, "cannot read log"),
    (["lint", "/nonexistent/pack"], 2, "no such file or folder"),
    (["rule", "DV99999"], 2, "DV99999"),
    # A documented code that lint never reports was "did you mean DV306?".
    (["rule", "DV061"], 2, "DV061 is not a lint rule: a bot failed in play or simulate"),
    (["rule", "DV1"], 2, "unknown lint rule 'DV1' (did you mean DV001?)"),  # it was "did you mean DV314?"
    (["rule", "dv44"], 2, "(did you mean DV044?)"),
    # Seat names are one short line without terminal escapes; what was typed is quoted escaped.
    (["play", GAME, "--players", "human:Nim\x1b]2;pwned\x07,random"], 2,
     "--players: the name 'Nim\\x1b]2;pwned\\x07' holds a control character"),
    (["play", GAME, "--players", "human:Ana\tBen,random"], 2, "the name 'Ana\\tBen' holds a control character"),
    (["play", GAME, "--players", "human:" + "x" * 30_000 + ",random"], 2, "is 30,000 characters long (at most 40)"),
    (["play", GAME, "--players", "\x1b[2J,random"], 2, "unknown player '\\x1b[2J'"),
    # An empty file name played on and saved nothing.
    (["play", GAME, "--players", "random,random", "--save", ""], 2, "--save needs a file name"),
    (["play", GAME, "--players", "random,random", "--log", " "], 2, "--log needs a file name"),
    (["play", GAME, "--variant", ""], 2, "the variant name is empty"),
    # An unknown schema was exit 1 (every other unknown name is 2); a name beside --out was ignored.
    (["schema", "gam"], 2, "no schema named 'gam' (did you mean 'game'?)"),
    (["schema", "game", "--out", "x"], 2, "--out writes every schema (they refer to each other)"),
    (["simulate", GAME, "--variant", "", "-n", "1", "-p", "random,random"], 2, "the variant name is empty"),
]


@pytest.mark.parametrize(("args", "code", "words"), BAD_OPTIONS, ids=[" ".join(a[:3]) for a, _, _ in BAD_OPTIONS])
def test_invalid_option_values(args: list[str], code: int, words: str) -> None:
    got, out = cli(*args)
    assert got == code, out
    assert words in out
    assert "internal error" not in out
    assert "\x1b" not in out and len(out) < 2000


@pytest.mark.parametrize("game_id", sorted({g for g, _ in game_variants()}))
def test_each_games_help_fits_an_80_column_terminal(game_id: str) -> None:
    from davinci.engine.play import screen_module

    mod = screen_module(game_id)
    if mod is None or not getattr(mod, "HELP", None):
        pytest.skip("this game uses the generic screen")
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(mod.HELP)
    lines = out.getvalue().splitlines()
    # Only [bold] is markup: any other bracketed word is text and must survive rendering.
    assert lines == re.sub(r"\[/?bold\]", "", mod.HELP.replace("\\[", "[")).splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80


@pytest.mark.parametrize("args", [["lint"], ["--help"], ["--version"], ["list"], ["rule", "DV011"], ["expr", "1 + 2"],
                                  ["simulate", "da-vinci-code", "-n", "4", "-p", "random,random"],
                                  ["play", "da-vinci-code", "-p", "human,random", "--seed", "1", "--no-clear"]])
def test_a_closed_output_pipe_ends_the_command_quietly(args: list[str]) -> None:
    # `davinci lint | head -1`: the reader is gone before we write; no traceback, no "internal error".
    r, w = os.pipe()
    os.close(r)
    try:
        result = subprocess.run([sys.executable, "-c", "from davinci.launch import main; import sys; sys.exit(main())",
                                 *args], stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE, text=True,
                                timeout=TIMEOUT)
    finally:
        os.close(w)
    assert result.stderr == ""
    assert result.returncode == 141  # rich's own handler (exit 1) is replaced: a closed pipe is not a failure


def test_history_before_anything_happened_says_so() -> None:
    code, out = _screen("da-vinci-code", "human,random", ["history"], seed=1)  # the human moves first
    assert code == 0 and "Nothing has happened yet." in out and "The last 0 of 0" not in out


def test_history_shows_the_events_that_scrolled_away() -> None:
    # A game of many turns: by the end the screen's few event lines are long gone.
    code, out = _screen("leonardos-riddle", "human,random", ["list", "#1"] * 5 + ["history all", "history 2"])
    assert code == 0
    total = int(re.search(r"All (\d+) events:", out)[1])  # type: ignore[index]
    assert total > 8
    assert f"The last 2 of {total} events:" in out


def test_two_players_of_one_name_are_refused() -> None:
    from davinci.engine.errors import UsageError

    game = load_game(GAME)
    with pytest.raises(UsageError, match="two seats are named 'ana'"):
        parse_seats("human:Ana,human:ana", game)
    assert [s.name for s in parse_seats("human:Ana,human:Ben", game)] == ["Ana", "Ben"]


def test_a_refused_action_says_which_value_is_wrong_and_what_is_possible() -> None:
    from davinci.engine.errors import IllegalAction

    st = load_game("da-vinci-code").new_state(2, seed=3)
    seat = st.current_seats[0]
    cases = {
        # Named by the option's argument names (`target`, `value`): which of the values is wrong.
        "guess row.2.9 3": "row.2.9 is not possible as TARGET (possible: row.2.1, row.2.2, row.2.3, row.2.4)",
        "guess row.2.1 99": "99 is not possible as VALUE (possible: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalAction) as info:
            st.apply(seat, text)
        assert info.value.message == f"'{text}' is not legal now; {why}"
    # The wrong number of values: the form is wrong, whatever the values.
    with pytest.raises(IllegalAction) as info:
        st.apply(seat, "guess row.2.1")
    assert info.value.message == "'guess' takes 2 values (TARGET VALUE), as in 'guess row.2.1 0'"


ONE_WAY = """\
kind: game
id: one-way
name: One way
players: {min: 2, max: 2}
vars:
  steps: 0
flow:
  turn:
    - choose:
        options:
          - action: walk
            args: {to: "[steps + 1]"}
            do:
              - set: {steps: to}
end:
  when: "steps >= 3"
  winners: "seats where index == 1"
"""


def test_just_the_verb_plays_the_only_action_with_that_verb(tmp_path: Path) -> None:
    game = load_game("one-way", packs=[write_game_pack(tmp_path, "one-way", ONE_WAY)])
    save = tmp_path / "s.json"
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["walk", "WALK"]),
                    clear=False, timer=False, save_path=str(save))
    assert code == 0
    assert [a for _, a in json.loads(save.read_text())["saved"]["state"]["history"]] == ["walk 1", "walk 2", "walk 3"]


def test_just_the_verb_of_many_actions_says_how_the_action_goes() -> None:
    code, out = _screen(GAME, "human,random", ["guess"])
    assert code == 0
    assert "'guess' takes 2 values (TARGET VALUE), as in 'guess row.2.1 0'" in out


@pytest.mark.parametrize("game_id", ["da-vinci-code", "leonardos-riddle"])
def test_the_final_screen_says_the_game_is_over_not_whose_turn_it_is(game_id: str) -> None:
    from davinci.engine.values import turn_text

    assert turn_text({"turn": 7}, "Ana") == "turn 7, Ana to play"
    assert turn_text({"turn": 13, "result": {"turns": 12}}, "Ana") == "game over after turn 12"
    game = load_game(game_id)
    console = Console(file=io.StringIO(), width=200)
    code = run_play(game, parse_seats("random,random", game), 2, {}, console, typed([]), clear=False, timer=False)
    assert code == 0
    first = console.file.getvalue().strip().splitlines()[0]
    assert "game over after turn" in first and "to play" not in first


def test_a_game_over_before_the_first_move_says_so(tmp_path: Path) -> None:
    from davinci.engine.values import turn_text

    assert turn_text({"turn": 1, "result": {"turns": 1, "actions": 0}}, "Ana") == "game over before the first move"
    already_over = ONE_WAY.replace('when: "steps >= 3"', 'when: "steps >= 0"')
    game = load_game("one-way", packs=[write_game_pack(tmp_path, "one-way", already_over)])
    console = Console(file=io.StringIO(), width=120)
    assert run_play(game, parse_seats("human,random", game), 1, {}, console, typed([]), clear=False, timer=False) == 0
    first = console.file.getvalue().strip().splitlines()[0]
    assert first == "One way - game over before the first move"


def test_the_da_vinci_game_header_says_the_game_is_over() -> None:
    from davinci.games.da_vinci_game.screen import header

    view = load_game("da-vinci-game").new_state(3, seed=1).view(0)
    assert "to play" in header(view, 0).plain
    view["result"] = {"turns": 40}
    assert header(view, 0).plain.startswith("The Da Vinci Game - game over after turn 40")


def test_the_generic_screen_says_the_game_is_over() -> None:
    from davinci.engine.play import generic_render

    st = load_game("da-vinci-code").new_state(2, seed=1)
    view = st.view(None)
    assert "Player 1 to play" in generic_render(view) or "Player 2 to play" in generic_render(view)
    view["result"] = {"turns": 9}
    assert generic_render(view).splitlines()[0] == "da-vinci-code - game over after turn 9"


def test_the_generic_screen_shows_everything_since_the_viewers_move_and_flags_as_words() -> None:
    # It showed the last 6 log lines, so what a long stretch of other turns did scrolled away;
    # and seat variables read as Python's `finished=False`.
    from davinci.engine.play import generic_render

    view = {
        "game": "race", "turn": 3, "current": 1, "seat": 1, "zones": {},
        "seats": [{"name": "Ana", "active": True, "vars": {"finished": False, "path": [1, 2]}, "zones": {}},
                  {"name": "Ben", "active": True, "vars": {"finished": True, "path": None}, "zones": {}}],
        "events": ["Ana: go m2", *(f"Ben does thing {i}" for i in range(9))],
    }
    text = generic_render(view)
    assert "Ana: finished=no, path=[1, 2]" in text and "Ben: finished=yes, path=none" in text
    assert all(f"  . Ben does thing {i}" in text for i in range(9))


def test_the_generic_screen_counts_a_pile_it_cannot_see_into() -> None:
    # A hidden pile printed one '?' per piece (forty of them for a discard box).
    from davinci.engine.play import generic_render

    hidden = [{"ref": f"box.{i}", "hidden": True, "revealed": False} for i in range(1, 41)]
    view = {
        "game": "g", "turn": 1, "current": 1, "seat": 1, "events": [],
        "seats": [{"name": "Ana", "active": True, "vars": {}, "zones": {}}],
        "zones": {"box": {"kind": "pile", "count": 40, "pieces": hidden},
                  "table": {"kind": "pile", "count": 2, "pieces": [hidden[0], {"ref": "table.2", "n": 5, "revealed": True}]}},
    }
    text = generic_render(view)
    assert "box: 40 hidden pieces" in text and "table: ? 5*" in text


def test_list_shows_setting_defaults_as_yaml_writes_them() -> None:
    code, out = cli("list")
    assert code == 0
    assert "jokers (bool, default false)" in out and "True" not in out and "False" not in out


def test_replay_events_shows_the_public_log_under_each_action(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    code, _ = cli("play", GAME, "--players", "random,random", "--seed", "2", "--no-clear", "--log", str(log))
    assert code == 0
    code, plain = cli("replay", str(log))
    assert code == 0 and "guessed" not in plain
    code, out = cli("replay", str(log), "--events")
    assert code == 0
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("1. "))
    action = lines[first].split(": ", 1)[1]  # "guess row.1.4 3"
    target, value = action.split()[1:]
    assert re.fullmatch(rf" +\S+ \d guessed {re.escape(target)} = {value}: (right|wrong)", lines[first + 1])
    # Every action line of the plain replay is still there, in order, with the log lines between.
    numbered = [line for line in lines if re.match(r" +\d+\. ", line)]
    assert numbered == [line for line in plain.splitlines() if re.match(r" +\d+\. ", line)]
    assert len(lines) > len(plain.splitlines())


def _bots_play_logged(folder: Path, game: str) -> tuple[int, str, Path]:
    """Two random bots play `game` (a one-way variant) from the command line with --log."""
    write_game_pack(folder, "one-way", game)
    log = folder / "game.json"
    code, out = cli("play", "one-way", "--pack", str(folder), "--players", "random,random", "--seed", "1",
                    "--no-clear", "--log", str(log))
    return code, out, log


def test_a_game_whose_rules_fail_mid_play_leaves_a_log_that_replays_to_the_failure(tmp_path: Path) -> None:
    broken = ONE_WAY.replace('args: {to: "[steps + 1]"}', 'args: {to: "[steps + 1] if steps < 2 else []"}')
    code, out, log = _bots_play_logged(tmp_path, broken)
    assert code == 1
    # The note is a line of its own (it read "^\n(the log ..." after the expression's caret).
    assert "DV044 no legal option" in out and f"\n(the log {log} ends with the action that failed" in out
    doc = json.loads(log.read_text())
    assert [a for _, a in doc["actions"]] == ["walk 1", "walk 2"]
    assert doc["failure"] == {"where": "action", "action": 2, "code": "DV044"}
    code, out = cli("replay", str(log))
    # A faithful replay of a recorded failure: exit 1 (the rules failed), but no DV071 (which says
    # a log differs from its game).
    assert code == 1 and "DV071" not in out
    assert re.search(r"the game's rules fail at action 2, as the log records:\n.*one-way.yaml:\d+:\d+: DV044 no legal "
                     "option", out)
    # --verify confirms the replay fails where and as the log says; a log whose failure record
    # was changed, or removed, does not verify.
    code, out = cli("replay", str(log), "--verify")
    assert code == 0 and "verified: 2 actions replay to the failure the log recorded (action 2 fails):" in out
    for failure in ({"where": "action", "action": 2, "code": "DV042"}, None):
        doc["failure"] = failure
        log.write_text(json.dumps(doc))
        code, out = cli("replay", str(log), "--verify")
        assert code == 1 and "fails:" in out
    doc["failure"] = {"where": "action", "action": 2, "code": "DV044"}
    doc["actions"].append(doc["actions"][-1])  # an action logged after the failure
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and "the rules fail at action 2, as the log records, but the log goes on with 1 action after it" in out
    doc["actions"] = doc["actions"][:1]
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and "the log records that the game's rules failed" in out and "but the replay does not fail" in out


def test_replay_events_shows_what_the_failing_action_logged_before_it_failed(tmp_path: Path) -> None:
    # The lines an author adds to find a failure were the ones left out: those of the failing action.
    broken = ONE_WAY.replace('args: {to: "[steps + 1]"}', 'args: {to: "[steps + 1] if steps < 2 else []"}')
    broken = broken.replace("              - set: {steps: to}\n",
                            "              - set: {steps: to}\n              - log: \"debug: steps is {steps}\"\n")
    code, _, log = _bots_play_logged(tmp_path, broken)
    assert code == 1
    code, out = cli("replay", str(log), "--events")
    assert code == 1
    tail = out[out.index("   2. "):]
    assert tail.index("debug: steps is 2") < tail.index("the game's rules fail at action 2")


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (ONE_WAY, ["walk 1", "walk 2", "walk 3", "walk 4"]),
        # The refused action has the same text as the one before it: it is still added.
        (ONE_WAY.replace('args: {to: "[steps + 1]"}', "args: {}").replace("{steps: to}", "{steps: steps + 1}"),
         ["walk"] * 4),
    ],
)
def test_a_turn_over_the_decision_limit_leaves_the_refused_action_in_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, expected: list[str]
) -> None:
    # The engine refuses the decision over the limit before recording it; the log still ends with it.
    from davinci.engine import state as state_module
    from davinci.engine.errors import DavinciError

    monkeypatch.setattr(state_module, "MAX_TURN_ACTIONS", 3)
    turn = game[game.index("    - choose:") : game.index("end:")]
    endless = game.replace(turn, '    - while: "true"\n      do:\n' + textwrap.indent(turn, "    "))
    endless = endless.replace('when: "steps >= 3"', 'when: "steps >= 99"')
    assert "while" in endless
    loaded = load_game("one-way", packs=[write_game_pack(tmp_path, "one-way", endless)])
    log = tmp_path / "game.json"
    with pytest.raises(DavinciError) as info:
        run_play(loaded, parse_seats("random,random", loaded), 1, {}, Console(file=io.StringIO()), typed([]),
                 clear=False, timer=False, log_path=str(log))
    assert info.value.code == "DV043" and f"the log {log} ends with the action that failed" in str(info.value)
    assert [a for _, a in json.loads(log.read_text())["actions"]] == expected


def test_a_game_whose_score_fails_at_the_end_keeps_every_action_in_its_log(tmp_path: Path) -> None:
    scored = ONE_WAY.replace('winners: "seats where index == 1"', 'winners: "seats where index == 1"\n  score: "10 // (3 - steps)"')
    code, out, log = _bots_play_logged(tmp_path, scored)
    assert code == 1 and "DV042" in out and "division by zero" in out
    assert f"(the log {log} holds every action; working out the result failed after the last" in " ".join(out.split())
    doc = json.loads(log.read_text())
    assert [a for _, a in doc["actions"]] == ["walk 1", "walk 2", "walk 3"] and doc["result"] is None
    assert doc["failure"] == {"where": "result", "action": 3, "code": "DV042"}
    code, out = cli("replay", str(log), "--verify")
    assert code == 0 and "verified: 3 actions replay to the failure the log recorded (working out the result):" in out
    assert "division by zero" in out
    # A failure record that does not match is named beside the failure the replay met.
    doc["failure"]["where"] = "action"
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and "DV071" in out and "working out the result after the last action fails" in out
    assert '\n(the log records the failure {"where": "action", "action": 3, "code": "DV042"})' in out  # (its own line)
    doc["failure"]["where"], doc["result"] = "result", {"winners": [0]}
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and "records both a result and a failure of the rules" in out


def test_actions_are_lower_case_words_that_are_not_prompt_commands(tmp_path: Path) -> None:
    from davinci.engine.lint.runner import lint_paths

    for verb, words in [("Walk", "option action must be lower case, got 'Walk'"),
                        ("history", "option action 'history' is a command of the play prompt")]:
        write_game_pack(tmp_path, "one-way", ONE_WAY.replace("action: walk", f"action: {verb}"))
        problems = lint_paths([str(tmp_path)])
        assert len(problems) == 1 and words in problems[0].message, problems
        assert (problems[0].location.line, problems[0].location.col) == (11, 21)


def test_an_action_without_values_given_values_says_to_type_just_the_verb(tmp_path: Path) -> None:
    from davinci.engine.errors import IllegalAction

    no_values = ONE_WAY.replace('args: {to: "[steps + 1]"}', "args: {}").replace("{steps: to}", "{steps: steps + 1}")
    game = load_game("one-way", packs=[write_game_pack(tmp_path, "one-way", no_values)])
    st = game.new_state(2, seed=1)
    with pytest.raises(IllegalAction) as info:
        st.apply(st.current_seats[0], "walk 3")
    assert info.value.message == "'walk' takes no values: type just 'walk'"


def test_a_log_marked_true_rather_than_1_is_not_a_log(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    assert cli("play", GAME, "--players", "random,random", "--seed", "2", "--no-clear", "--log", str(log))[0] == 0
    doc = json.loads(log.read_text())
    doc["davinci_log"] = True
    log.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("replay", str(log))
    assert code == 1 and "not a davinci log" in out


# ------------------------------------------------------------------------------- saving in game


def test_save_with_a_file_name_saves_there_and_keeps_saving_each_turn(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    code, out = _screen(GAME, "human,random", ["guess row.2.1 3", f"save {save}", "stop"])
    assert code == 0
    assert f"saved to {save} (and autosaved there from now on)" in out
    # The end of input came a turn later: the file holds that later position, and resumes.
    assert "Saved to " + str(save) in out
    doc = json.loads(save.read_text())
    assert doc["davinci_save"] == 1 and len(doc["saved"]["state"]["history"]) >= 2
    code, out = cli("play", "--resume", str(save), "--no-clear")
    assert code == 0 and "Input closed" in out


def test_save_without_a_file_asks_for_one_and_an_empty_answer_saves_nothing(tmp_path: Path) -> None:
    code, out = _screen(GAME, "human,random", ["save", ""])
    assert "Save to which file?" not in out  # the question goes to the prompt, not the screen
    assert "not saved" in out and code == 0
    # A piped script's next line, `quit`, was taken for the file name and made a file `quit`.
    code, out = _screen(GAME, "human,random", ["save", "quit", "quit"])
    assert "not saved" in out and "Game stopped" in out and not Path("quit").exists()
    target = tmp_path / "asked.json"
    code, out = _screen(GAME, "human,random", ["save", str(target)])
    assert f"saved to {target}" in out and target.exists()


def test_save_to_a_name_with_a_nul_byte_is_refused_and_the_game_goes_on() -> None:
    code, out = _screen(GAME, "human,random", ["save a\x00b", "guess row.2.1 3"])  # was an internal error
    assert code == 0 and "the name holds the character \\x00; give a plain file name" in out and "Player 1 guessed row.2.1 = 3" in out


def test_save_refuses_a_file_that_is_not_a_save_and_the_game_goes_on(tmp_path: Path) -> None:
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes")
    code, out = _screen(GAME, "human,random", [f"save {precious}", f"save {tmp_path}", "guess row.2.1 3"])
    assert code == 0
    assert "already exists and is not a davinci save" in out
    assert "cannot write the save to" in out
    assert precious.read_text() == "my notes"
    assert "Player 1 guessed row.2.1 = 3" in out  # the game went on after both refusals


def test_screens_show_what_happened_since_the_viewers_own_last_move() -> None:
    from davinci.engine.values import events_since_own_move

    seats = [{"name": "Ana"}, {"name": "Ben"}]
    before = [f"old line {i}" for i in range(10)]
    after = ["Ana reads a card", *(f"Ben does thing {i}" for i in range(9)), "Ben: guess row.1.1 3", "Ben is right"]
    view = {"seat": 1, "seats": seats, "events": [*before, "Ana: go k13", *after]}
    assert events_since_own_move(view) == after  # 12 lines: more than the 6 a quiet turn shows
    assert events_since_own_move(view, ("guess",)) == [x for x in after if not x.startswith("Ben: guess")]
    assert events_since_own_move(view, most=5) == after[-5:]
    quiet = {"seat": 1, "seats": seats, "events": [*before, "Ana: go k13", "Ben rolls 2"]}
    assert events_since_own_move(quiet) == [*before[-4:], "Ana: go k13", "Ben rolls 2"]  # at least 6
    assert events_since_own_move({"seat": None, "seats": seats, "events": before}, most=3) == before[-3:]


def test_the_da_vinci_game_shows_the_challenge_the_player_set_and_its_result() -> None:
    # Team 1 moves onto a Rose clue; the bots race for it, then play their turns and set a Codex
    # clue Team 1 passes on. Team 1's next screen still shows its own challenge and who won it.
    code, out = _screen("da-vinci-game", "human,scholar,scholar", ["1", ""], seed=16)
    screen = out[out.rfind("The Da Vinci Game - turn"):]
    assert code == 0
    lines = [line[2:] for line in screen.splitlines() if line.startswith("· ")]
    assert lines[:6] == ["Team 1 reads a Rose card to the other teams", "Scholar 2 locks in at 14.7s", "Scholar 3 passes",
                         "Scholar 2 answered (simulated): right", "The answer: Hungary",
                         "Scholar 2: correct bid 1, 3 tokens"]


def test_an_untimed_challenge_the_bots_settle_after_the_player_shows_its_outcome() -> None:
    # Untimed (or with no terminal for a race), the player answers first and the bots after: the
    # last bot's answer settles it, and nothing printed how (the next screen's recent lines, cut
    # to the terminal's height, could leave it out).
    code, out = _screen("da-vinci-game", "human,scholar,scholar", ["58"], seed=1)
    assert code == 0
    after = out[out.index("Team 1: type your answer"):]
    settled = after.index("Team 1 answered '58': right")
    assert settled < after.index("Team 1: correct bid 1, 3 tokens") < after.index("The Da Vinci Game - turn")


def test_a_move_typed_at_a_pause_is_said_to_be_ignored() -> None:
    # Typed at "Pass the keyboard", a move was dropped without a word.
    code, out = _screen("da-vinci-code", "human,human", ["2.1 5", ""])
    assert code == 0 and "(not a move: '2.1 5' was typed at a pause and is ignored)" in out


def test_quit_at_pass_the_keyboard_stops_the_game() -> None:
    # It was read as Enter: the next player's private screen came up.
    code, out = _screen("da-vinci-code", "human,human", ["quit"])
    assert code == 0 and "Pass the keyboard to Player 1" in out
    assert out.rstrip().endswith("Game stopped.") and "Your row" not in out


def test_quit_at_a_challenges_answer_prompt_stops_the_game_rather_than_answering_quit() -> None:
    code, out = _screen("da-vinci-game", "human,scholar,scholar", ["1", "quit"])
    assert code == 0 and "Game stopped." in out
    assert "answered 'quit'" not in out


def test_quit_at_a_teams_own_challenge_warns_that_it_counts_as_wrong_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Treasure or the final challenge is one team's alone: stopping settled it as a pass, and the
    # team lost the tokens it paid with nothing said. The challenge here is made one team's own.
    from davinci.engine.state import State

    real = State.view

    def solo(self: State, seat: int | None = None) -> dict[str, Any]:
        view = real(self, seat)
        pending = view.get("pending") or {}
        if pending.get("type") == "respond" and seat is not None:
            pending["seats"] = [seat + 1]
        return view

    monkeypatch.setattr(State, "view", solo)
    code, out = _screen("da-vinci-game", "human,scholar,scholar", ["quit", "quit"])
    assert code == 0 and "Game stopped." in out
    assert "Stopping now passes this challenge: it counts as not solved" in out
    assert out.index("Stopping now passes") < out.index("Team 1 passes") < out.index("Game stopped.")  # what came of it


def test_a_save_path_that_cannot_be_used_is_refused_before_the_seed_is_printed(tmp_path: Path) -> None:
    notes = tmp_path / "t.log"
    notes.write_text("hello")
    code, out = cli("play", GAME, "--save", str(notes), "--no-clear")
    assert code == 1 and "is not a davinci save" in out
    assert "seed " not in out and notes.read_text() == "hello"


def test_a_bot_that_cannot_play_the_game_is_refused_before_the_seed_is_printed() -> None:
    code, out = cli("play", "leonardos-riddle", "--players", "naive,random", "--no-clear")
    assert code == 2 and "bot 'naive' plays da-vinci-code, not leonardos-riddle" in out
    assert "seed " not in out


@pytest.mark.parametrize("arg", ["abc", "-3", "0", "2x"])
def test_history_refuses_what_is_not_a_number_of_lines(arg: str) -> None:
    code, out = _screen("da-vinci-code", "human,random", ["1", f"history {arg}"], seed=1)
    assert code == 0
    assert f"'history' takes a number of lines or 'all' (history 10, history all), not '{arg}'" in out
    assert "events:" not in out


@pytest.mark.parametrize("typed", ["list extra", "? foo", "quit now"])
def test_commands_followed_by_words_are_not_taken_for_actions(typed: str) -> None:
    code, out = _screen("da-vinci-code", "human,random", [typed], seed=1)
    assert code == 0
    assert f"'{typed.split()[0]}' takes nothing after it" in out and "is not possible now" not in out


def test_help_starts_with_the_games_description() -> None:
    code, out = _screen("da-vinci-code", "human,random", ["?"], seed=1)
    assert code == 0 and "Da Vinci Code: Black and white number tiles stand in sorted rows" in out
    # Each action with what its values are (the option's argument names): `keep 0 0 1` said nothing.
    assert "Actions now: guess TARGET VALUE" in " ".join(out.split())


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["list"], ["lint", "--format", "json"], ["simulate", GAME, "-n", "2", "-p", "random,random"]])
def test_a_full_disk_on_the_output_is_a_clear_error(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", "from davinci.cli import main; main()", *args],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert done.stderr.strip() == "davinci: cannot write the output: No space left on device"


@pytest.mark.parametrize("args", [["list"], ["--help"], ["rule", "DV001"], ["play", GAME, "--no-clear"],
                                  ["schema", "--out", "never-written"]])
def test_a_command_started_with_its_output_closed_fails_saying_so(args: list[str]) -> None:
    # As `ls >&-` does: what the command was asked to print would be lost, so it is no success; and
    # it is refused before any work (`schema --out` wrote its files, then failed).
    done = subprocess.run([sys.executable, "-c", "import sys; from davinci.launch import main; sys.exit(main())", *args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=TIMEOUT, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert done.stderr == "davinci: cannot write the output: standard output is closed (nothing was done)\n"


def test_a_zero_column_terminal_setting_still_shows_the_output() -> None:
    done = subprocess.run([sys.executable, "-c", "from davinci.cli import main; main()", "list"],
                          capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, "COLUMNS": "0"})
    assert done.returncode == 0 and "da-vinci-code" in done.stdout


@pytest.mark.parametrize("command", [["play", GAME, "--no-clear"], ["simulate", GAME, "-n", "1", "-p", "random,random"]])
def test_a_seed_of_thousands_of_digits_is_refused_without_echoing_it(command: list[str]) -> None:
    code, out = cli(*command, "--seed", "7" * 5000)
    assert code == 2 and "(5,000 characters) is not a seed from 0 to 18446744073709551615" in out
    assert len(out) < 1000


def test_without_players_the_seating_is_said_and_no_clear_at_hot_seat_is_warned() -> None:
    code, out = cli("play", GAME, "--no-clear", stdin="quit\n")
    assert code == 0 and "You play Player 1 against Deducer 2 (deducer); choose the seats with --players" in out
    code, out = cli("play", GAME, "--players", "human:Ana,human:Ben", "--no-clear", stdin="quit\n")
    assert code == 0 and "--no-clear keeps each player's screen in the scrollback" in " ".join(out.split())


def test_against_bots_a_players_move_shows_what_it_led_to_before_the_bots_move() -> None:
    code, out = _screen("da-vinci-code", "human,naive", ["stop", "list", "#1", "list", "#1", "list", "#1"], seed=3)
    wrong = out.find(": wrong\n")  # the player's first wrong guess ends the turn: the bot moves next
    assert code == 0 and wrong > 0 and "Naive 2 guessed " in out  # the bot's move, in the game's words
    assert out.rfind("Player 1 guessed", 0, wrong) < wrong < out.find("Naive 2 guessed ")


def test_save_expands_the_home_folder_and_refuses_control_characters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out = _screen(GAME, "human,random", ["save ~/g.json", "save a\x01b.json", 'save "~/my game.json"',
                                               "guess row.2.1 3"])
    assert code == 0 and (tmp_path / "g.json").is_file()
    assert (tmp_path / "my game.json").is_file()  # quoted as in a shell (the quotes were kept in the name)
    assert "cannot write the save to a\\x01b.json: the name holds the character \\x01" in out


@pytest.mark.parametrize("args", [["play", GAME, "-p", ""], ["schema", "--out", ""]])
def test_an_empty_option_value_is_refused(args: list[str]) -> None:
    code, out = cli(*args)
    assert code == 2 and "needs" in out


def test_the_generic_screen_shows_the_games_vars_and_leaves_out_hidden_zones(tmp_path: Path) -> None:
    from helpers import STOP_AT_ONCE

    from davinci.engine.lint.runner import lint_paths
    from davinci.engine.play import generic_render

    game = """\
kind: game
id: tray
name: Tray
description: A supply nobody needs to see.
players: {min: 2, max: 2}
vars: {round: 3}
components:
  chip: {fields: {n: int}, product: {n: {from: 1, to: 3}}}
zones:
  supply: {kind: pile, visibility: public, contents: [chip]}
  table: {kind: pile, visibility: public}
display:
  hide: [supply]
flow:
  setup:
    - draw: {from: supply, to: table}
""" + STOP_AT_ONCE
    g = load_game("tray", packs=[write_game_pack(tmp_path, "tray", game)])
    view = g.new_state(2, seed=1).view(0)
    shown = generic_render(view, frozenset(g.definition.display["hide"]))
    assert "table: round=3" in shown and "supply" not in shown and "supply" in generic_render(view)
    broken = write_game_pack(tmp_path / "b", "tray", game.replace("hide: [supply]", "hide: [suply]"))
    [problem] = lint_paths([broken])
    assert problem.code == "DV050" and "'suply' is neither a zone nor a variable of the game" in problem.message
    # A variable the rules keep for themselves may be left out too; an empty text shows as "".
    g2 = load_game("tray", packs=[write_game_pack(tmp_path / "c", "tray", game.replace(
        "vars: {round: 3}", "vars: {round: 3, lead: '', best: 0}").replace("hide: [supply]", "hide: [supply, best]"))])
    shown = generic_render(g2.new_state(2, seed=1).view(0), frozenset(g2.definition.display["hide"]))
    assert 'table: round=3, lead=""' in shown and "best" not in shown


def test_hot_seat_with_a_bot_shows_the_players_outcome_first_and_each_bot_move_once() -> None:
    # With two humans and a bot, the bot's move was printed before the human's outcome, then
    # again in the outcome the human confirmed.
    game = load_game(GAME)
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats("human:Ana,human:Ben,deducer", game), 11, {}, console,
                    typed(["", "", "guess row.1.1 0", "", ""]), clear=False, timer=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    after = out[out.index("Ben guessed row.1.1 = 0"):]
    bot_moves = [line for line in after.splitlines() if line.startswith("Deducer 3 guessed ")]
    assert code == 0 and bot_moves and len(bot_moves) == len(set(bot_moves))
    assert out.index("Ben guessed row.1.1 = 0") < out.index(bot_moves[0])


def test_resuming_a_hot_seat_save_with_no_clear_warns_too(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    assert cli("play", GAME, "--players", "human:Ana,human:Ben", "--save", str(save), "--no-clear", stdin="quit\n")[0] == 0
    code, out = cli("play", "--resume", str(save), "--no-clear", stdin="\nquit\n")
    assert code == 0 and "--no-clear keeps each player's screen in the scrollback" in " ".join(out.split())


def test_no_timer_plays_with_the_games_timer_settings_at_zero_and_logs_it(tmp_path: Path) -> None:
    # Untimed answers were clamped to the time limit: every answer slower than it tied, and the
    # lowest seat won the tie. The game's `timer: true` setting is 0 now, as the log records.
    log = tmp_path / "game.json"
    code, _ = cli("play", "da-vinci-game", "--players", "random-mover,random-mover,random-mover", "--seed", "2",
                  "--no-clear", "--no-timer", "--log", str(log))
    assert code == 0
    assert json.loads(log.read_text())["settings_override"]["timer_seconds"] in (0, "0")
    # A time limit given beside --no-timer contradicts it; a resumed timed game stays timed.
    code, out = cli("play", "da-vinci-game", "--players", "random-mover,random-mover,random-mover", "--no-timer",
                    "-s", "timer_seconds=30")
    assert code == 2 and "--no-timer plays untimed, and --setting timer_seconds=30 sets a time limit" in out
    save = tmp_path / "timed.json"
    cli("play", "da-vinci-game", "--players", "human,scholar,scholar", "--seed", "2", "--no-clear", "--save", str(save),
        stdin="quit\n")
    code, out = cli("play", "--resume", str(save), "--no-timer", "--no-clear", stdin="quit\n")
    assert code == 2 and "--no-timer cannot be used with --resume of a timed game (timer_seconds=60)" in out


def test_a_terminal_that_cannot_clear_pushes_the_last_players_view_off_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    # TERM=dumb: clearing wrote nothing, and Ben's screen showed Ana's row above his own.
    monkeypatch.setenv("TERM", "dumb")
    game = load_game(GAME, settings={"first_player": 1})
    console = Console(file=io.StringIO(), width=100, height=30, force_terminal=True)
    assert console.is_dumb_terminal
    run_play(game, parse_seats("human:Ana,human:Ben", game), 7, {"first_player": 1}, console,
             typed(["", "guess row.2.1 1", "", ""]), clear=True, timer=False)
    out = console.file.getvalue()
    handover = out.index("Pass the keyboard to Ben")
    ana_row = out.index("Your row - Ana")
    assert ana_row < handover and "\n" * 60 in out[ana_row:handover]  # her view was pushed up first


@pytest.mark.parametrize(("width", "told"), [(40, True), (140, False)])
def test_a_terminal_narrower_than_the_board_is_told_once(width: int, told: bool) -> None:
    # At 40 columns the pentacle wrapped into a jumble and nothing said why.
    game = load_game("da-vinci-game")
    console = Console(file=io.StringIO(), width=width, height=60, force_terminal=True, color_system=None)
    run_play(game, parse_seats("human,scholar,scholar", game), 2, {}, console, typed(["1", "1", "1"]), clear=False,
             timer=False)
    out = " ".join(console.file.getvalue().split())
    assert ("columns and the terminal has 40: widen the window" in out) is told
    assert out.count("widen the window") == (1 if told else 0)


def test_an_option_not_offered_now_says_why_in_the_games_words() -> None:
    # "'stop' is not possible now; possible: guess" did not say that a turn starts with a guess.
    code, out = _screen(GAME, "human,random", ["stop"])
    assert code == 0
    assert "'stop' is not possible now: you stop only after a right guess (every turn starts with at least one " \
           "guess); possible: guess" in " ".join(out.split())


def test_possible_grid_cells_are_listed_apart_from_their_own_commas() -> None:
    # "possible: -1,-1, 0,-1, 1,-1": the separator was the comma inside each cell.
    from davinci.engine.errors import IllegalAction

    st = load_game("leonardos-riddle", settings={"first_player": 1}).new_state(2, seed=5)
    st.apply(0, "place hand.1.1 0,0")
    with pytest.raises(IllegalAction, match=r"possible: -1,-1 / 0,-1 / 1,-1 / -1,0 / 1,0 / -1,1 / 0,1 / 1,1\)"):
        st.apply(1, "place hand.2.1 5,5")
    # A cover the game's filter refuses says why, in the game's words (`not_now` beside `when`).
    with pytest.raises(IllegalAction, match="'cover hand.2.1 0,0' is not legal now: the card must share a symbol "
                                            "with the top card it covers; hand.2.1 is not possible as CARD"):
        st.apply(1, "cover hand.2.1 0,0")
    # ... but not for a cell where no card lies: that is not why it is refused.
    with pytest.raises(IllegalAction) as e:
        st.apply(1, "cover hand.2.1 9,9")
    assert "'cover hand.2.1 9,9' is not legal now; " in e.value.message and "share a symbol" not in e.value.message
    # A cell no card can cover is named, whatever the card: `cover hand.2.2 9,9` blamed a card that
    # could cover elsewhere, and offered cards that could not cover 9,9 either.
    cards = {a.args[0] for a in st.legal_actions(1) if a.verb == "cover"}
    with pytest.raises(IllegalAction) as e:
        st.apply(1, f"cover {sorted(cards)[0]} 9,9")
    assert "; 9,9 is not possible as CELL (possible: 0,0)" in e.value.message and "as CARD" not in e.value.message


def test_a_game_for_exactly_two_says_2_players(tmp_path: Path) -> None:
    # The menu read "Connect Four (connect4, 2-2 players)".
    from helpers import STOP_AT_ONCE, write_game_pack

    pack = write_game_pack(tmp_path, "duel", "kind: game\nid: duel\nname: Duel\nplayers: {min: 2, max: 2}\nflow:\n"
                           + STOP_AT_ONCE)
    code, out = cli("play", "--pack", pack, stdin="quit\n")
    assert code == 0 and "Duel (duel, 2 players)" in out
    code, out = cli("list", "--pack", pack)
    assert code == 0 and "2-2" not in out


def test_save_typed_again_at_the_file_question_and_a_long_number_at_the_prompt(tmp_path: Path) -> None:
    # "save adir" at "Save to which file?" made a file named "save adir"; 999999999999 was "not
    # possible now" where 0 was "there is no action 0".
    target = tmp_path / "again.json"
    code, out = _screen(GAME, "human,random", ["save", f"save {target}", "list", "999999999999"])
    assert code == 0 and target.exists() and not (tmp_path / f"save {target.name}").exists()
    assert "there is no action 999999999999: type a number from 1 to" in " ".join(out.split())


def test_the_generic_screen_is_titled_with_the_games_name() -> None:
    # It showed the id ("pig - turn 2"), while help and simulate used the name.
    pack = str(Path(__file__).parent / "packs" / "tutorial")
    game = load_game("pig", packs=[pack])
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed([]), clear=False, timer=False)
    assert "Pig - turn " in console.file.getvalue() and "pig - turn" not in console.file.getvalue()


def test_help_header_and_list_name_the_variant_and_what_it_changes() -> None:
    # A variant's name and description were shown nowhere: `?` described the base game alone.
    code, out = _screen("da-vinci-code", "human,random", ["?"], seed=1)
    assert code == 0 and "Variant:" not in out
    game = load_game("da-vinci-code", variant="advanced")
    console = Console(file=io.StringIO(), width=200)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["?"]), clear=False, timer=False)
    assert ("Variant: Advanced rules (jokers) (advanced): Adds the two jokers; a joker's owner places it anywhere "
            "in the row and it never moves.") in console.file.getvalue()
    pack = str(Path(__file__).parent / "packs" / "tutorial")
    game = load_game("pig", variant="short", packs=[pack])
    console = Console(file=io.StringIO(), width=200)
    run_play(game, parse_seats("human,random", game), 1, {}, console, typed(["?"]), clear=False, timer=False)
    out = console.file.getvalue()
    assert "Pig (short) - turn " in out and "Variant: Short game (short)\n" in out  # (it has no description)
    code, out = cli("list", "--pack", pack, "--json")
    [pig] = [g for g in json.loads(out)["games"] if g["id"] == "pig"]
    # One entry per pack (it was one per file: ["tutorial", "tutorial"]).
    assert pig["packs"] == ["tutorial"] and pig["variants"] == ["short"]
    assert pig["variant_details"] == [{"id": "short", "name": "Short game", "description": "",
                                       "settings": {"target": {"default": 20}}}]
    code, out = cli("list")
    assert code == 0 and "diagonals (Diagonal lines): Three cards sharing a symbol" in " ".join(out.split())


def test_list_names_a_game_its_schema_refuses_and_fails(tmp_path: Path) -> None:
    # A name holding line feeds drew fake rows ("Game over. Winners: Mallory") into the table,
    # with exit 0, for a pack `play` refuses.
    import shutil

    pack = tmp_path / "t"
    shutil.copytree(Path(__file__).parent / "packs" / "tutorial", pack)
    pig = pack / "pig.yaml"
    pig.write_text(pig.read_text().replace("name: Pig\n", 'name: "Pig\\n\\nGame over. Winners: Mallory"\n'))
    code, out = cli("list", "--pack", str(pack))
    assert code == 1 and "Mallory" not in out.split("davinci: ")[0]
    assert "(not valid:" in out  # (the row, in place of its name)
    assert "davinci: DV015 1 of the games and variants listed is not valid (pig: " in out
    assert "DV015 'name' must be one line of text" in out
    code, out = cli("list", "--pack", str(pack), "--json")
    assert code == 1
    [entry] = [g for g in json.loads(out[: out.index("davinci: ")])["games"] if g["id"] == "pig"]
    assert set(entry) == {"id", "invalid", "packs"}
    # A variant its schema refuses is listed as not valid; its game and the other variants are not.
    pig.write_text((Path(__file__).parent / "packs" / "tutorial" / "pig.yaml").read_text())
    short = pack / "pig-short.yaml"
    short.write_text(short.read_text() + "dcc: x\n")
    code, out = cli("list", "--pack", str(pack), "--json")
    [entry] = [g for g in json.loads(out[: out.index("davinci: ")])["games"] if g["id"] == "pig"]
    assert code == 1 and entry["name"] == "Pig" and set(entry["variant_details"][0]) == {"id", "invalid"}
    assert "DV011 1 of the games and variants listed is not valid (pig/short: " in out
    # A file that is no YAML at all: the installed content is listed, and the file named.
    short.write_text("kind: variant\nid: short\nextends: pig\nname: [unclosed\n")
    code, out = cli("list", "--pack", str(pack))
    assert code == 1 and "da-vinci-code" in out and "davinci: DV001 only the installed content is listed, a pack " in out
    assert out.count("DV001") == 1
    code, out = cli("list", "--pack", str(pack), "--json")
    assert code == 1 and json.loads(out[: out.index("davinci: ")])["unreadable"].startswith(str(short))


def test_list_shows_a_settings_bounds_and_no_empty_headings(tmp_path: Path) -> None:
    code, out = cli("list")
    assert code == 0 and "key_copies (int, default 3, min 1, max 5)" in " ".join(out.split())
    pack = str(Path(__file__).parent / "packs" / "from-docs")
    code, out = cli("list", "--pack", pack)
    lines = out.splitlines()
    assert code == 0 and not any(line.endswith(" settings:") and (i + 1 == len(lines) or not lines[i + 1].startswith("  "))
                                 for i, line in enumerate(lines))


def test_the_header_names_the_seat_deciding_when_it_is_not_the_one_whose_turn_it_is() -> None:
    # A bid asked of each seat in turn (`choose` with `seat:`) showed "Ana to play" above Ben's bid.
    from davinci.engine.values import turn_text

    view = {"turn": 3, "current": 1, "to_act": [2], "seats": [{"name": "Ana"}, {"name": "Ben"}]}
    assert turn_text(view, "Ana") == "turn 3 (Ana's), Ben to decide"
    assert turn_text({**view, "to_act": [1]}, "Ana") == "turn 3, Ana to play"
    assert turn_text({**view, "to_act": [1, 2]}, "Ana") == "turn 3, Ana to play"  # all answering at once


def test_players_are_counted_before_each_seat_is_checked() -> None:
    # 5,000 seats took 53 s to be refused (each seat's name was checked against those before it).
    from davinci.engine.errors import UsageError

    game = load_game(GAME)
    with pytest.raises(UsageError) as info:
        parse_seats(",".join(["random"] * 4 + ["human:Ana", "human:Ana"]), game)
    assert info.value.message == "Da Vinci Code takes 2-4 players, got 6"  # (not: two seats named Ana)


def test_replay_prints_no_line_a_ci_runner_would_obey(tmp_path: Path) -> None:
    # A log whose seat name was edited to `::error::seat` printed `::error::seat takes 1` (indented,
    # which a runner skips before it looks for `::`).
    log = tmp_path / "g.json"
    code, _ = cli("play", GAME, "--players", "random,random", "--seed", "1", "--no-clear", "--log", str(log))
    doc = json.loads(log.read_text())
    doc["seats"][0]["name"] = "::error::seat"
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--events")
    assert "error::seat" in out and not any(line.lstrip().startswith("::") for line in out.splitlines()), out


def test_the_generic_screen_counts_a_run_of_like_pieces() -> None:
    # Nim's box of 179 spare tokens filled five lines of `o o o ...` above the pile.
    pack = str(Path(__file__).parent / "packs" / "from-docs")
    game = load_game("nim", packs=[pack])
    console = Console(file=io.StringIO(), width=80)
    run_play(game, parse_seats("human,random", game), 3, {}, console, typed([]), clear=False, timer=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert re.search(r"^box: o x\d+$", out, re.M) and "o o o o" not in out


def test_pass_typed_at_the_answer_prompt_passes() -> None:
    # "Ben answered 'pass': wrong": the prompt says an empty line passes, and a newcomer types the word.
    game = load_game("da-vinci-game")
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 300 or asked.count("answer> ") > 2:
            raise EOFError
        if prompt == "answer> ":
            return "Pass"
        return "list" if len(asked) % 2 else "#1"

    console = Console(file=io.StringIO(), width=120)
    assert run_play(game, parse_seats("human,random,random", game), 3, {}, console, ask, clear=False, timer=False) == 0
    out = console.file.getvalue()
    assert asked.count("answer> ") >= 1 and "answered 'Pass'" not in out and "passes" in out


def test_after_help_a_number_waits_for_the_screen_that_numbers_the_moves() -> None:
    # The Da Vinci Game numbers the spaces a move reaches on its board; `?` printed 51 lines over
    # it, and a `3` still moved the piece to a space no longer on the screen.
    code, out = _screen("da-vinci-game", "human,scholar,scholar", ["?", "3", "", "3"], seed=3)
    flat = " ".join(out.split())
    said = "the help came after the numbered list, so a number waits for the list again"
    assert code == 0 and said in flat
    # Then, the board drawn again (an empty line), 3 moves the piece (to k13, a Rose clue).
    assert flat.index(said) < flat.index("Team 1 reads a Rose card")



@pytest.mark.parametrize("command", ["save", "history 12", "History all", "save game.json", "list"])
def test_a_move_prompt_command_typed_as_an_answer_is_asked_about_once(command: str) -> None:
    # "Team 1 answered 'save': wrong": a player meaning to save lost the bid without noticing; then
    # 'history 12' was locked in the same way.
    game = load_game("da-vinci-game")
    answers = iter([command, command])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 300 or (prompt == "answer> " and asked.count(prompt) > 2):
            raise EOFError
        if prompt == "answer> ":
            return next(answers)
        return "list" if len(asked) % 2 else "#1"

    console = Console(file=io.StringIO(), width=120)
    assert run_play(game, parse_seats("human,random,random", game), 3, {}, console, ask, clear=False, timer=False) == 0
    out = " ".join(console.file.getvalue().split())
    assert f"'{command}' is a command at the move prompt, not here: type it again to answer it" in out
    assert f"answered '{command}'" in out  # typed again: the answer


@pytest.mark.parametrize(("text", "command"), [("save", True), ("save game.json", True), ("history 3", True),
                                               ("history all", True), ("list", True), ("save the queen", False),
                                               ("history of art", False), ("listen", False), ("Saves", False)])
def test_which_answers_read_as_move_prompt_commands(text: str, command: bool) -> None:
    from davinci.engine.race import command_typed

    assert command_typed(text) is command


def test_a_bots_move_is_shown_unless_its_log_lines_name_an_argument_outside_the_seats_names() -> None:
    # "Random 3 says: go fish!" hid the bot's `ask 1 3`: the 3 of a seat's name passed for the rank.
    from davinci.engine.play import names_an_arg

    seats = ["Random 1", "Random 2", "Random 3", "Random 13"]
    assert not names_an_arg(["1", "3"], ["Random 3 says: go fish!"], seats)
    assert not names_an_arg(["13"], ["Random 13 fishes"], seats)
    assert names_an_arg(["3", "5"], ["Random 2 takes every 5 from Random 3"], seats)
    assert not names_an_arg(["5"], ["Random 2 draws 15 cards"], seats)
    assert names_an_arg(["hand.1.1", "1,1"], ["Random 1 places horseman, flower at 1,1"], seats)
    assert not names_an_arg(["row.1.1"], ["Ann looks at row.1.12"], seats)
    assert not names_an_arg(["2"], ["the 2.5 mark"], seats)


def test_an_endless_input_line_ends_the_input_instead_of_filling_the_memory() -> None:
    # `davinci play ... </dev/zero` grew to gigabytes reading one line before checking it.
    with open("/dev/zero", "rb") as zero:
        done = davinci("play", "da-vinci-code", "--players", "human,random", "--seed", "1", "--no-clear", stdin=zero)
    assert done.returncode == 1, done.stderr  # (the input was cut short: a script must know)
    said = " ".join(done.stdout.split())
    assert "an input line longer than 65,536 characters" in said and "Input closed" in said


def test_a_piped_answer_is_echoed_with_its_control_characters_escaped() -> None:
    done = davinci("clue", "--seed", "1", "--no-timer", input="abc\x1b[31mRED\n", stdin=None)
    assert "\x1b[31m" not in done.stdout and "abc\\x1b[31mRED" in done.stdout


def test_standard_input_that_cannot_be_read_is_its_end(tmp_path: Path) -> None:
    with open(tmp_path / "x.txt", "w") as wrong_way:  # `0>x.txt`: input opened for writing
        done = davinci("play", "da-vinci-code", "--players", "human,random", "--seed", "1", "--no-clear",
                       stdin=wrong_way)
    assert done.returncode == 0 and "Input closed" in done.stdout, done.stderr


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["lint", "--help"]])
def test_help_to_a_full_disk_says_so_without_a_traceback(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", "from davinci.launch import main; raise SystemExit(main())", *args],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert done.returncode == 1 and done.stderr == "davinci: cannot write the output: No space left on device\n"


def test_one_player_at_a_terminal_reads_a_challenges_outcome_before_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The bots' moves and the next screen (a board taller than the window) followed the verdict at
    # once: "The answer: 49" and "Me answered ...: right" were out of sight before anyone read them.
    from davinci.engine import play as play_module

    monkeypatch.setattr(play_module, "_at_terminal", lambda: True)
    game = load_game("da-vinci-game")
    asked: list[str] = []
    seen: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if asked.count("Press Enter to go on ") > 2 or len(asked) > 400:
            raise EOFError
        if prompt == "Press Enter to go on ":
            seen.append(" ".join(console.file.getvalue().split()))
            return ""
        if prompt == "answer> ":
            return "lantern"
        return "list" if len(asked) % 2 else "#1"

    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human:Me,random,random", game), 3, {}, console, ask, clear=False, timer=False,
             save_path=str(tmp_path / "g.json"))  # (saved at the end of input: no question asked)
    assert len(seen) == 2, asked[-5:]
    # Each pause comes right after a challenge's outcome: the answer stands just above it.
    assert all("The answer: " in text[-300:] for text in seen), [t[-300:] for t in seen]


def test_a_game_its_requirements_refuse_prints_no_seed_first() -> None:
    # "seed 754341571568" was printed, then the game refused to start with these settings.
    code, out = cli("play", GAME, "-p", "random,random,random", "--setting", "first_player=4", "--no-clear")
    assert code == 1 and "DV081 the game cannot start: first_player names a seat that is not at the table" in out
    assert "seed " not in out
