"""Saves and logs: written atomically after every turn, refused with a clear message when damaged.

A save or a log may come from someone else (a shared file, a bug report) or be cut short by a
full disk. Resuming (`davinci play --resume FILE`) and replaying (`davinci replay FILE --verify`)
must refuse anything truncated, edited or made for other content with exit 1 and a message
naming the file and the problem: never a traceback, never a hang, never a position the rules
could not reach.
"""

from __future__ import annotations

import copy
import io
import json
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from davinci.cli import main
from davinci.engine import play as play_module
from davinci.engine.errors import SaveError
from davinci.engine.game import load_game
from davinci.engine.play import atomic_write, parse_seats, run_play
from davinci.engine.serial import checksum

GAME = "da-vinci-code"


def feeder(lines: int) -> Callable[[str], str]:
    """A scripted player: shows the whole action list, picks the first action; EOF after `lines`."""
    count = [0]

    def ask(prompt: str) -> str:
        count[0] += 1
        if count[0] > lines:
            raise EOFError
        return "list" if count[0] % 2 else "#1"

    return ask


def play(tmp_path: Path, lines: int, players: str = "human,random", seed: int = 7, timer: bool = False,
         **kw: Any) -> tuple[int, str]:
    """Run a terminal game quietly; return the exit code and the screen text."""
    game = load_game(GAME)
    console = Console(file=io.StringIO(), width=120)
    code = run_play(game, parse_seats(players, game), seed, {}, console, feeder(lines), clear=False, timer=timer, **kw)
    return code, console.file.getvalue()


def test_an_untimed_game_resumes_untimed(tmp_path: Path) -> None:
    save = tmp_path / "untimed.json"
    play(tmp_path, 3, save_path=str(save))  # played with --no-timer
    assert json.loads(save.read_text())["timer"] is False
    play(tmp_path, 3, timer=True, resume=str(save), save_path=str(save))  # resumed without --no-timer
    assert json.loads(save.read_text())["timer"] is False
    timed = tmp_path / "timed.json"
    play(tmp_path, 3, timer=True, save_path=str(timed))
    assert json.loads(timed.read_text())["timer"] is True


@pytest.fixture(scope="module")
def save_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save of a game in progress (a few human moves, then end of input)."""
    path = tmp_path_factory.mktemp("saves") / "game.json"
    code, screen = play(path.parent, 9, save_path=str(path))
    assert code == 0 and "Input closed" in screen
    assert f"resume with: davinci play da-vinci-code --resume {path}" in screen.replace("\n", "")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["saved"]["state"]["history"] and not doc["saved"]["state"]["terminal"]
    return path


@pytest.fixture(scope="module")
def log_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log of a finished bot game."""
    path = tmp_path_factory.mktemp("logs") / "game.log.json"
    code, _ = play(path.parent, 0, players="random,random", log_path=str(path))
    assert code == 0
    assert json.loads(path.read_text(encoding="utf-8"))["result"] is not None
    return path


def cli(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


# ------------------------------------------------------------------------------- writing


def _spied_saves(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    writes: list[dict[str, Any]] = []
    real = play_module.atomic_write

    def spy(path: str, data: str) -> None:
        real(path, data)
        if path.endswith("auto.json"):
            writes.append(json.loads(Path(path).read_text(encoding="utf-8")))

    monkeypatch.setattr(play_module, "atomic_write", spy)
    return writes


def test_autosave_before_every_human_decision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes = _spied_saves(monkeypatch)
    save = tmp_path / "auto.json"
    code, _ = play(tmp_path, 400, players="human,random", save_path=str(save))
    assert code == 0
    states = [w["saved"]["state"] for w in writes]
    playing = [st for st in states if not st["terminal"]]
    assert states[-1]["terminal"] and len(playing) > 5
    # One save before the first move (to find an unwritable path early), then one before each of
    # the human's decisions that follows a move (within a turn too: a second guess, a stop; they
    # were saved only when the turn changed, and a closed terminal lost them), and the end.
    assert all(st["current"] == 0 for st in playing[1:])
    lengths = [len(st["history"]) for st in playing]
    assert lengths == sorted(set(lengths))  # no save written twice
    final = states[-1]["history"]
    humans_turns = {i for i, (seat, _) in enumerate(final) if seat == 0 and i > 0}
    assert humans_turns <= set(lengths) and len(humans_turns) > 5
    turns = [st["turn"] for st in states]
    assert turns == sorted(turns)
    histories = [st["history"] for st in states]
    for shorter, longer in zip(histories, histories[1:]):
        assert longer[: len(shorter)] == shorter  # each save extends the previous one


def test_bots_alone_are_saved_every_few_turns_not_every_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Saving every bot turn rewrote the whole file each turn: 2,000 turns took 93 s instead of 1.
    writes = _spied_saves(monkeypatch)
    monkeypatch.setattr(play_module, "AUTOSAVE_TURNS", 5)
    code, _ = play(tmp_path, 0, players="random,random", save_path=str(tmp_path / "auto.json"))
    assert code == 0
    turns = [w["saved"]["state"]["turn"] for w in writes if not w["saved"]["state"]["terminal"]]
    assert writes[-1]["saved"]["state"]["terminal"] and len(turns) > 3
    assert all(b - a == 5 for a, b in zip(turns, turns[1:]))  # from the save before the first move


def test_a_save_too_big_to_read_back_is_not_written_over_the_last_good_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long game's save grew past the size davinci reads back: it was written all the same, and
    # then refused on --resume. Now the last save that fits stays, and the player is told once.
    save, log = tmp_path / "big.json", tmp_path / "big.log.json"
    monkeypatch.setattr(play_module, "MAX_JSON_CHARS", 2500)  # the game's save ends near 3,500 characters
    code, out = play(tmp_path, 0, players="random,random", save_path=str(save), log_path=str(log))
    assert code == 0
    assert out.count("The save has grown past") == 1 and "The log has grown past" not in out
    kept = json.loads(save.read_text(encoding="utf-8"))
    assert len(save.read_text(encoding="utf-8")) <= 2500 and not kept["saved"]["state"]["terminal"]
    assert f"keeps the last save that fits (turn {kept['saved']['state']['turn']})" in out
    code, _ = cli("play", "--resume", str(save), "--no-clear")  # what was kept can be read back
    assert code == 0


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.json"
    atomic_write(str(target), '{"old": true}')

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(SaveError, match="No space left on device"):
        atomic_write(str(target), '{"new": true}' * 1000)
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # no temporary file left behind


def test_atomic_write_interrupted_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.json"
    atomic_write(str(target), '{"old": true}')

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(str(target), '{"new": true}')
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_unwritable_save_path_is_refused_before_the_game(tmp_path: Path) -> None:
    code, out = cli("play", GAME, "--players", "random,random", "--seed", "1", "--save",
                    str(tmp_path / "missing" / "x.json"))
    assert code == 1
    assert "DV070 cannot write" in out and "Game over" not in out


@pytest.mark.parametrize("option", ["--save", "--log"])
def test_an_unrelated_file_is_never_overwritten(tmp_path: Path, option: str) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("precious\n", encoding="utf-8")
    code, out = cli("play", GAME, "--players", "random,random", "--seed", "1", option, str(precious))
    assert code == 1, out
    assert "already exists and is not a davinci" in out and "choose another file name" in out
    assert "Game over" not in out  # refused before the game starts
    assert precious.read_text(encoding="utf-8") == "precious\n"


def test_a_save_is_not_written_over_a_log(log_file: Path, tmp_path: Path) -> None:
    code, out = cli("play", GAME, "--players", "random,random", "--seed", "1", "--save", str(log_file))
    assert code == 1 and "is not a davinci save (it is a davinci log)" in out


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs named pipes and sockets")
@pytest.mark.parametrize("option", ["--save", "--log"])
def test_a_pipe_a_socket_or_a_link_loop_is_never_replaced(tmp_path: Path, option: str) -> None:
    # Stand-ins for /dev/null: replacing a real device in a test would break the machine running
    # it (as root) if the guard ever regressed. A pipe or socket is refused the same way.
    os.mkfifo(tmp_path / "pipe")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    os.symlink("loop", tmp_path / "loop")
    for target, words in [(tmp_path / "pipe", "not a regular file"), (tmp_path / "sock", "not a regular file"),
                          (tmp_path / "loop", "cannot write")]:
        code, out = cli("play", GAME, "--players", "random,random", "--seed", "1", option, str(target))
        assert code == 1, out
        assert words in out and "Game over" not in out
    sock.close()
    assert (tmp_path / "pipe").is_fifo() and (tmp_path / "sock").is_socket()


@pytest.mark.parametrize("option", ["--save", "--log"])
def test_a_file_named_through_a_link_is_written_and_the_link_kept(tmp_path: Path, option: str) -> None:
    # The link itself was replaced by a regular file: the linked file was never updated again
    # (and `--resume /dev/stdin`, as root, replaced /dev/stdin).
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real" / "game.json", tmp_path / "link.json")
    code, out = cli("play", GAME, "--players", "random,random", "--seed", "1", option, str(tmp_path / "link.json"))
    assert code == 0, out
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real" / "game.json").is_file()
    assert json.loads((tmp_path / "link.json").read_text())  # read through the link: the file written


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_atomic_write_refuses_to_replace_what_is_not_a_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(SaveError, match="not a regular file"):
        atomic_write(str(tmp_path / "pipe"), "{}")
    assert (tmp_path / "pipe").is_fifo()


def test_a_resumed_game_saves_over_its_own_save_and_log(tmp_path: Path) -> None:
    save, log = tmp_path / "g.json", tmp_path / "g.log.json"
    play(tmp_path, 3, save_path=str(save), log_path=str(log))
    code, out = cli("play", "--resume", str(save), "--save", str(save), "--log", str(log), "--no-clear")
    assert code == 0 and "Input closed" in out, out
    empty = tmp_path / "empty.json"
    empty.touch()  # an empty file holds nothing to lose (mktemp, touch)
    play(tmp_path, 1, save_path=str(empty))
    assert json.loads(empty.read_text())["davinci_save"] == 1


def test_a_resume_without_log_says_the_session_is_not_logged(tmp_path: Path) -> None:
    # The first session's log silently stopped at its last action.
    save, log = tmp_path / "g.json", tmp_path / "g.log.json"
    play(tmp_path, 3, save_path=str(save), log_path=str(log))
    code, out = cli("play", "--resume", str(save), "--no-clear")
    assert code == 0 and "No --log: this session is not logged" in out
    code, out = cli("play", "--resume", str(save), "--log", str(log), "--no-clear")
    assert code == 0 and "No --log" not in out


def test_a_resumed_game_goes_on_saving_to_its_save(tmp_path: Path) -> None:
    # Without --save, a resumed game used to stop saving: the file stayed at the resumed turn.
    save = tmp_path / "g.json"
    play(tmp_path, 3, save_path=str(save))
    before = len(json.loads(save.read_text())["saved"]["state"]["history"])
    game = load_game(GAME)
    console = Console(file=io.StringIO(), width=120)
    assert run_play(game, [], 0, {}, console, feeder(9), resume=str(save), clear=False, timer=False) == 0
    assert len(json.loads(save.read_text())["saved"]["state"]["history"]) > before
    assert f"Saved to {save}; resume with:" in console.file.getvalue().replace("\n", "")


def test_a_read_only_save_resumes_and_says_it_is_not_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "g.json"
    play(tmp_path, 3, save_path=str(save))
    kept = save.read_text()
    monkeypatch.setattr(play_module.os, "access", lambda *args, **kwargs: False)  # as if read-only (root writes anything)
    game = load_game(GAME)
    console = Console(file=io.StringIO(), width=200)
    assert run_play(game, [], 0, {}, console, feeder(9), resume=str(save), clear=False, timer=False) == 0
    assert save.read_text() == kept
    assert "cannot be written: this game is saved only if you type 'save FILE'" in console.file.getvalue()


def test_a_log_over_8_mib_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    # 50 MiB of tiny actions took 1 GB of memory and 15 s to parse, then failed.
    log = tmp_path / "big.json"
    log.write_text('{"davinci_log": 1, "actions": [' + ",".join(['[0, "r"]'] * 1_000_000) + "]}", encoding="utf-8")
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and "the log is larger than 8,388,608 characters" in out


def test_a_save_naming_a_key_twice_is_refused(tmp_path: Path) -> None:
    # JSON keeps the last of two equal keys: `"seed": 999, ..., "seed": 3` resumed with seed 3.
    save = tmp_path / "g.json"
    play(tmp_path, 3, save_path=str(save))
    text = save.read_text()
    save.write_text(text.replace('"seed": ', '"seed": 999, "seed": ', 1))
    code, out = cli("play", "--resume", str(save), "--no-clear")
    assert code == 1 and "the save file gives the key 'seed' twice" in out


def test_save_and_log_at_one_path_is_a_usage_error(tmp_path: Path) -> None:
    same = str(tmp_path / "g.json")
    code, out = cli("play", GAME, "--players", "random,random", "--save", same, "--log", same)
    assert code == 2 and "name the same file" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _interrupted_at_the_save_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    answers: list[str]) -> tuple[int, str, list[str]]:
    """Ctrl-C at the first move on a terminal without --save; `answers` typed at the file name prompt."""
    feed = iter(answers)
    asked: list[str] = []

    def fake_input(prompt: str) -> str:
        asked.append(prompt)
        try:
            answer = next(feed)
        except StopIteration:
            raise EOFError from None
        if answer.startswith("<SIG"):  # a signal arrives while the question waits
            import signal

            signal.raise_signal(getattr(signal, answer.strip("<>")))
        return answer

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.chdir(tmp_path)
    game = load_game(GAME)
    screen = io.StringIO()
    console = Console(file=screen, width=200)
    code = run_play(game, parse_seats("human,random", game), 7, {}, console, interrupt, clear=False, timer=False)
    return code, screen.getvalue(), asked


def test_a_bad_name_at_the_save_prompt_is_explained_and_asked_again(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    code, screen, asked = _interrupted_at_the_save_prompt(
        tmp_path, monkeypatch, ["/nonexistent/dir/x.json", "notes.txt", "kept.json"])
    assert code == 130
    assert len(asked) == 3
    assert "cannot write /nonexistent/dir/x.json: No such file or directory" in screen
    assert "notes.txt already exists and is not a davinci save" in screen
    assert "enter another file name" in screen
    assert "Saved to kept.json" in screen
    assert json.loads((tmp_path / "kept.json").read_text())["davinci_save"] == 1
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_giving_up_at_the_save_prompt_exits_without_saving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, screen, asked = _interrupted_at_the_save_prompt(tmp_path, monkeypatch, ["/nonexistent/dir/x.json", ""])
    assert code == 130 and "Saved to" not in screen
    assert len(asked) == 2
    assert list(tmp_path.iterdir()) == []


def test_input_ending_at_the_save_prompt_saves_to_a_file_of_its_own(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # End of input there is no answer (a window that closed reads as it): the game was lost.
    code, screen, asked = _interrupted_at_the_save_prompt(tmp_path, monkeypatch, ["/nonexistent/dir/x.json"])
    assert code == 130 and len(asked) == 2
    assert "Saved to davinci-da-vinci-code-7.json" in screen
    assert json.loads((tmp_path / "davinci-da-vinci-code-7.json").read_text())["davinci_save"] == 1


# ------------------------------------------------------------------------------- resuming


def test_a_good_save_resumes_at_the_saved_position(save_file: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.json"
    code, out = cli("play", "--resume", str(save_file), "--save", str(again), "--no-clear")
    assert code == 0 and "Input closed" in out
    before = json.loads(save_file.read_text())
    after = json.loads(again.read_text())
    assert after == before


def test_a_save_from_before_turn_starts_were_recorded_still_resumes(save_file: Path, tmp_path: Path) -> None:
    doc = json.loads(save_file.read_text())
    del doc["saved"]["state"]["turn_start"]
    doc["saved"]["checksum"] = checksum(doc["saved"]["state"])
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("play", "--resume", str(old), "--no-clear")
    assert code == 0 and "Input closed" in out, out


@pytest.mark.parametrize("also_without_turn_start", [False, True])
def test_a_save_from_before_trails_were_per_piece_still_resumes(
    save_file: Path, tmp_path: Path, also_without_turn_start: bool
) -> None:
    doc = json.loads(save_file.read_text())
    state = doc["saved"]["state"]
    assert state.pop("turn_trails") == []
    state["turn_trail"] = []  # the one shared trail of saves made before this change
    if also_without_turn_start:
        del state["turn_start"]
    doc["saved"]["checksum"] = checksum(state)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("play", "--resume", str(old), "--no-clear")
    assert code == 0 and "Input closed" in out, out


def _damaged(save_file: Path, tmp_path: Path, change: Callable[[dict[str, Any]], Any], fix_checksum: bool) -> Path:
    doc = json.loads(save_file.read_text())
    change(doc)
    if fix_checksum:
        doc["saved"]["checksum"] = checksum(doc["saved"]["state"])
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


EDITS: dict[str, tuple[Callable[[dict[str, Any]], Any], bool, str]] = {
    # name: (edit, recompute the checksum afterwards?, expected words in the message)
    "edited turn": (_set("saved.state.turn", 99), False, "checksum does not match"),
    "edited turn, checksum recomputed": (_set("saved.state.turn", 99), True, "does not follow from its moves"),
    "tiles swapped": (lambda d: d["saved"]["state"]["zones"].update(
        {k: list(reversed(v)) for k, v in d["saved"]["state"]["zones"].items()}), True, "does not follow"),
    "a move rewritten": (_set("saved.state.history.0.1", "guess row.2.1 11"), True, "cannot be replayed"),
    "current seat off the table": (_set("saved.state.current", 99), True, "not at the table"),
    "step out of the flow": (_set("saved.state.stack.0.1", -5), True, "has no step"),
    "a piece missing": (lambda d: next(v for v in d["saved"]["state"]["zones"].values() if v).pop(), True,
                        "missing or duplicated"),
    "unknown zone": (lambda d: d["saved"]["state"]["zones"].update({"vault": []}), True, "unknown zone"),
    "pending decision forged": (_set("saved.state.pending", {"type": "choose", "seat": 0}), True, "the save is damaged"),
    "content hash": (_set("saved.content_hash", "0" * 16), False, "other game content or settings"),
    "other game": (_set("saved.game", "leonardos-riddle"), False, "other game content"),
    "unknown game": (_set("saved.game", "chess"), False, "cannot be loaded: unknown game 'chess'"),
    "other variant": (_set("saved.variant", "advanced"), False, "other game content"),
    "variant not text": (_set("saved.variant", ["advanced"]), False, "does not name its game and variant"),
    "variant left out": (lambda d: d["saved"].pop("variant"), False, "does not name its game and variant"),
    "settings not a mapping": (_set("settings_override", "fast"), False, "settings are damaged"),
    "settings written as 0": (_set("settings_override", 0), False, "settings are damaged"),
    "settings written as an empty list": (_set("settings_override", []), False, "settings are damaged"),
    "state format true": (_set("saved.format", True), True, "not a davinci save"),
    "settings changed": (_set("settings_override", {"hand_small": 3}), False, "other game content or settings"),
    "seat list damaged": (_set("seats", "two"), False, "seat list is damaged"),
    # Seat names are printed on every screen: no terminal escapes, no 100,000-character lines.
    "seat name with terminal escapes": (_set("seats.0.name", "Ana\x1b]2;pwned\x07\x1b[2J"), False,
                                        "seat name 'Ana\\x1b]2;pwned\\x07\\x1b[2J' holds a control character"),
    "seat name of 100,000 characters": (_set("seats.0.name", "x" * 100_000), False,
                                        "is 100,000 characters long (at most 40)"),
    "seat kind with terminal escapes": (_set("seats.1.kind", "\x1b[2J"), False, "seat kind '\\x1b[2J' holds"),
    "seat name in the position, checksum recomputed": (_set("saved.state.seat_names.0", "Ana\x1b[2J"), True,
                                                       "the save is damaged: the name 'Ana\\x1b[2J'"),
    # The seats' names outside the checksum: "Pass the keyboard to Zed" in a game of Player 1.
    "seat name unlike the position's": (_set("seats.0.name", "Zed"), False, "the save's seats do not match its state"),
    "seed not a number": (_set("seed", "seven"), False, "seed is damaged"),
    "not a save": (lambda d: d.pop("davinci_save"), False, "not a davinci save"),
    "settings unusable": (_set("settings_override", {"hand_small": "banana"}), False,
                          "settings cannot be used: setting 'hand_small' must be an integer"),
    "bot not installed": (_set("seats.1.kind", "nobot"), False, "seats cannot be played here: unknown bot 'nobot'"),
    "values nested 900 deep": (_set("saved.state.vars.deep", json.loads("[" * 900 + "]" * 900)), True,
                               "nested too deeply"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_edited_or_mismatched_saves_are_refused(save_file: Path, tmp_path: Path, name: str) -> None:
    change, fix, words = EDITS[name]
    path = _damaged(save_file, tmp_path, change, fix)
    code, out = cli("play", "--resume", str(path), "--no-clear")
    assert code == 1, out
    assert "DV070" in out and str(path) in out and words in out
    assert "\x1b" not in out and len(out) < 2000


def _first_zone_piece(d: dict[str, Any]) -> None:
    next(v for v in d["saved"]["state"]["zones"].values() if v)[0] = INFINITE


INFINITE = float("inf")  # written to the file as 1e999, which Python reads as infinity
OVERFLOWS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "current": _set("saved.state.current", INFINITE),
    "turn": _set("saved.state.turn", INFINITE),
    "rng": _set("saved.state.rng", INFINITE),
    "zone piece": _first_zone_piece,
    "revealed": lambda d: d["saved"]["state"]["revealed"].append(INFINITE),
    "history seat": _set("saved.state.history.0.0", INFINITE),
    "stack step": _set("saved.state.stack.0.1", INFINITE),
    "pos": _set("saved.state.pos", [[INFINITE, 0]]),
}


def _write_with_1e999(doc: dict[str, Any], path: Path) -> None:
    text = json.dumps(doc)
    assert "Infinity" in text
    path.write_text(text.replace("Infinity", "1e999"), encoding="utf-8")


@pytest.mark.parametrize("name", sorted(OVERFLOWS))
def test_a_number_too_large_for_python_is_refused_in_a_save(save_file: Path, tmp_path: Path, name: str) -> None:
    doc = json.loads(save_file.read_text())
    OVERFLOWS[name](doc)
    doc["saved"]["checksum"] = checksum(doc["saved"]["state"])  # as a forger would
    path = tmp_path / "big.json"
    _write_with_1e999(doc, path)
    code, out = cli("play", "--resume", str(path), "--no-clear")
    assert code == 1, out
    assert "DV070" in out and str(path) in out and "1e999 is not a number davinci writes" in out


@pytest.mark.parametrize("where", ["seed", "actions.0.0"])
def test_a_number_too_large_for_python_is_refused_in_a_log(log_file: Path, tmp_path: Path, where: str) -> None:
    doc = json.loads(log_file.read_text())
    _set(where, INFINITE)(doc)
    path = tmp_path / "big.log.json"
    _write_with_1e999(doc, path)
    for args in (["replay", str(path)], ["replay", str(path), "--verify"]):
        code, out = cli(*args)
        assert code == 1, out
        assert "DV070" in out and "1e999 is not a number davinci writes" in out


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "not valid JSON"),  # truncated: filled in below
        ("", "the save file is empty"),
        ("[1, 2]", "not a JSON object"),
        ('{"davinci_save": 1, "saved": {"game": NaN}}', "NaN"),
        ('{"davinci_save": 1, "seed": ' + "9" * 5000 + "}", "holds a number of 5,000 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
    ids=["truncated", "empty", "array", "nan", "huge-int", "deep", "binary"],
)
def test_unreadable_save_files_are_refused(save_file: Path, tmp_path: Path, text: str | bytes | None,
                                            words: str) -> None:
    path = tmp_path / "bad.json"
    if text is None:
        text = save_file.read_text()[:-40]
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    for args in (["play", "--resume", str(path)], ["play", GAME, "--resume", str(path)]):
        code, out = cli(*args, "--no-clear")
        assert code == 1, out
        assert "DV070" in out and words in out


def test_missing_save_file(tmp_path: Path) -> None:
    code, out = cli("play", "--resume", str(tmp_path / "nope.json"))
    assert code == 1 and "cannot read save file" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_as_save_file_is_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    code, out = cli("play", "--resume", str(tmp_path / "pipe.json"))
    assert code == 1 and "not a regular file" in out
    code, out = cli("replay", str(tmp_path / "pipe.json"))
    assert code == 1 and "not a regular file" in out


def test_resume_names_the_wrong_game(save_file: Path) -> None:
    code, out = cli("play", "leonardos-riddle", "--resume", str(save_file), "--no-clear")
    assert code == 2 and "for game 'da-vinci-code'" in out  # a usage mistake, as a wrong --variant is


# ------------------------------------------------------------------------------- logs


def test_a_good_log_verifies(log_file: Path) -> None:
    code, out = cli("replay", str(log_file), "--verify")
    assert code == 0 and "verified" in out
    assert "None" not in out  # results are told in words


def test_an_unfinished_log_verifies_as_unfinished(log_file: Path, tmp_path: Path) -> None:
    doc = json.loads(log_file.read_text())
    doc["actions"] = doc["actions"][:3]
    doc["result"] = None
    path = tmp_path / "short.log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("replay", str(path), "--verify")
    assert code == 0 and "verified: 3 actions replay; the game is unfinished, as logged" in out


LOG_EDITS: dict[str, tuple[Callable[[dict[str, Any]], Any], str, str]] = {
    "move made illegal": (_set("actions.2.1", "guess row.9.9 1"), "DV071", "diverges"),
    "moves cut short": (lambda d: d["actions"].pop(), "DV071", "the replay ends unfinished, but the log recorded"),
    "result edited": (lambda d: d["result"].update({"winners": [0, 1]}), "DV071", "the log recorded"),
    # A text "0" is no list of seats (it read as "won by" the first seat).
    "winners as text": (lambda d: d["result"].update({"winners": "0"}), "DV071",
                        "but the log recorded with a damaged result"),
    # An empty list read as "unfinished"; a 100,000-character reason was printed whole.
    "result as a list": (_set("result", []), "DV071", "but the log recorded with a damaged result ([])"),
    "a huge reason": (lambda d: d["result"].update({"reason": "x" * 100_000}), "DV071", "xxx..."),
    "seat out of range": (_set("actions.0.0", -1), "DV070", "is by seat index -1, but the log has 2 seats (its actions number them from 0: 0 to 1"),
    "content hash": (_set("content_hash", "0" * 16), "DV070", "other game content"),
    "unknown game": (_set("game", "chess"), "DV070", "cannot be loaded"),
    "unknown variant": (_set("variant", "nope"), "DV070", "cannot be loaded"),
    "variant not text": (_set("variant", ["x"]), "DV070", "damaged"),
    "too many seats": (lambda d: d["seats"].extend(d["seats"] * 3), "DV070", "seats cannot start"),
    "actions not a list": (_set("actions", "all of them"), "DV070", "damaged"),
    "settings not a mapping": (_set("settings_override", "x"), "DV070", "damaged"),
    "settings written as an empty text": (_set("settings_override", ""), "DV070", "damaged"),
    "packs listed 100,000 times": (_set("packs", [{"path": "p", "resolved": "/p"}] * 100_000), "DV070",
                                   "pack list is damaged"),
    "huge action text": (_set("actions.1.1", "x" * 100_000), "DV071", "..."),
    "not a log": (lambda d: d.pop("davinci_log"), "DV070", "not a davinci log"),
    "seed as text": (_set("seed", "5"), "DV070", "seed is damaged"),
    "seed with a fraction": (_set("seed", 5.5), "DV070", "seed is damaged"),
    "seed true": (_set("seed", True), "DV070", "seed is damaged"),
    "seed beyond 2**64": (_set("seed", 2**64 + 5), "DV070", "from 0 to 2**64 - 1"),
    "seat as text": (_set("actions.0.0", "0"), "DV070", "actions must be [seat number, text] pairs"),
    "settings unusable": (_set("settings_override", {"hand_small": "banana"}), "DV070",
                          "settings cannot be used: setting 'hand_small' must be an integer"),
    "a score written as false": (lambda d: d["result"]["scores"].__setitem__(
        d["result"]["scores"].index(0), False), "DV071", "the result's scores differ"),
    "actions counted as a fraction": (lambda d: d["result"].update({"actions": d["result"]["actions"] + 0.0}),
                                      "DV071", "the result's actions differ"),
    "scores edited": (lambda d: d["result"].update({"scores": [7, 7]}), "DV071",
                      "as logged, but the result's scores differ (scores: replay"),
    "turns and actions edited": (lambda d: d["result"].update({"turns": 1, "actions": 1}), "DV071",
                                 "but the log recorded"),
    "ranking edited": (lambda d: d["result"].update({"ranking": list(reversed(d["result"]["ranking"]))}), "DV071",
                       "the result's ranking differ"),
    "seat name with terminal escapes": (_set("seats.0.name", "Ana\x1b]2;pwned\x07"), "DV070",
                                        "seat name 'Ana\\x1b]2;pwned\\x07' holds a control character"),
    "seat name of 100,000 characters": (_set("seats.1.name", "y" * 100_000), "DV070", "(at most 40)"),
    "action with terminal escapes": (_set("actions.1.1", "guess \x1b[2J"), "DV071",
                                     "('guess \\x1b[2J' by seat 1) diverges: action text contains the control"),
}


@pytest.mark.parametrize("name", sorted(LOG_EDITS))
def test_edited_or_mismatched_logs_are_refused(log_file: Path, tmp_path: Path, name: str) -> None:
    change, code_word, words = LOG_EDITS[name]
    doc = copy.deepcopy(json.loads(log_file.read_text()))
    change(doc)
    path = tmp_path / "edited.log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("replay", str(path), "--verify")
    assert code == 1, out
    assert code_word in out and str(path) in out and words in out
    assert len(out) < 2000  # a huge action is shortened in the message
    assert "\x1b" not in out


def test_truncated_log_is_refused(log_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "cut.log.json"
    path.write_text(log_file.read_text()[:300], encoding="utf-8")
    code, out = cli("replay", str(path), "--verify")
    assert code == 1 and "DV070" in out and "truncated?" in out


# ------------------------------------------------------------------------------- content packs

TUTORIAL = Path(__file__).parent / "packs" / "tutorial"


@pytest.fixture()
def pack_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A game of `pig` from a copy of the tutorial pack, named by a relative path, stopped with 'quit'.

    Returns the pack copy, the save and the log; the working directory is then moved elsewhere,
    so only the absolute path the files recorded still finds the pack.
    """
    import shutil

    home = tmp_path / "home"
    shutil.copytree(TUTORIAL, home / "tutorial")
    monkeypatch.chdir(home)
    code, out = cli("play", "pig", "--pack", "tutorial", "--players", "human,random", "--seed", "3",
                    "--save", "s.json", "--log", "l.json", "--no-clear", stdin="roll\nquit\n")
    assert code == 0, out
    assert "resume with: davinci play pig --pack tutorial --resume s.json" in out
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return home / "tutorial", home / "s.json", home / "l.json"


def test_saves_and_logs_record_their_packs(pack_game: tuple[Path, Path, Path]) -> None:
    pack, save, log = pack_game
    for path in (save, log):
        doc = json.loads(path.read_text())
        assert doc["packs"] == [{"path": "tutorial", "resolved": str(pack.resolve())}]


def test_a_pack_game_resumes_and_replays_without_naming_the_pack(pack_game: tuple[Path, Path, Path],
                                                                  tmp_path: Path) -> None:
    _, save, log = pack_game
    again = tmp_path / "again.json"
    code, out = cli("play", "--resume", str(save), "--save", str(again), "--no-clear")
    assert code == 0 and "Input closed" in out, out
    assert json.loads(again.read_text()) == json.loads(save.read_text())  # the pack record is kept as it was
    code, out = cli("replay", str(log))
    assert code == 0 and "Random 2:" in out, out


def test_a_missing_recorded_pack_is_named(pack_game: tuple[Path, Path, Path]) -> None:
    pack, save, log = pack_game
    pack.rename(pack.with_name("moved"))
    for args in (["play", "--resume", str(save), "--no-clear"], ["replay", str(log)]):
        code, out = cli(*args)
        assert code == 1 and "DV070" in out, out
        assert f"content pack {pack.resolve()} (given as tutorial), which no longer exists" in out
        assert "--pack DIR" in out
    moved = str(pack.with_name("moved"))
    code, out = cli("play", "--resume", str(save), "--pack", moved, "--no-clear")
    assert code == 0 and "Input closed" in out, out
    code, out = cli("replay", str(log), "--pack", moved)
    assert code == 0, out


def test_old_files_without_packs_still_load(pack_game: tuple[Path, Path, Path], tmp_path: Path) -> None:
    pack, save, log = pack_game
    for path in (save, log):
        doc = json.loads(path.read_text())
        del doc["packs"]
        path.write_text(json.dumps(doc), encoding="utf-8")
    for args in (["play", "--resume", str(save), "--no-clear"], ["replay", str(log)]):
        code, out = cli(*args)
        assert code == 1 and "unknown game 'pig'" in out and "add --pack DIR" in out, out
        code, out = cli(*args, "--pack", str(pack))
        assert code == 0, out


def test_a_damaged_pack_list_is_refused(pack_game: tuple[Path, Path, Path]) -> None:
    _, save, log = pack_game
    for path, args in ((save, ["play", "--resume", str(save)]), (log, ["replay", str(log)])):
        doc = json.loads(path.read_text())
        doc["packs"] = ["tutorial"]
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, out = cli(*args)
        assert code == 1 and "DV070" in out and "pack list is damaged" in out, out


def test_a_turn_limit_log_of_an_earlier_version_still_verifies(tmp_path: Path) -> None:
    # Earlier versions recorded one turn more than was played for a game stopped by its turn
    # limit (2,001 for a limit of 2,000); such a log still verifies, any other change does not.
    from davinci.engine.bots import make_bot
    from davinci.engine.play import SeatSpec, log_document, pack_record

    game = load_game("pig", None, {"target": 100_000}, [str(TUTORIAL)])
    state = game.new_state(["A", "B"], seed=5)
    bots = [make_bot("random", i, "pig", dict(game.settings)) for i in range(2)]
    while not state.is_terminal():
        for seat in state.current_seats:
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat)))
    assert state.result()["reason"] == "turn-limit" and state.result()["turns"] == 2000
    seats = [SeatSpec("random", "A"), SeatSpec("random", "B")]
    doc = log_document(game, seats, 5, {"target": 100_000}, state, pack_record([str(TUTORIAL)]))
    path = tmp_path / "limit.log.json"
    for turns, verifies in ((2000, True), (2001, True), (2002, False), (1999, False)):
        doc["result"]["turns"] = turns
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, out = cli("replay", str(path), "--verify")
        assert (code == 0) == verifies, out


@pytest.mark.parametrize("players", ["human,random", "human,deducer", "random,human,naive"])
def test_a_resumed_games_bots_choose_as_in_the_game_played_without_a_break(tmp_path: Path, players: str) -> None:
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    play(tmp_path, 40, players=players, seed=4, save_path=str(whole))
    play(tmp_path, 6, players=players, seed=4, save_path=str(part))  # stops early: the input ends
    play(tmp_path, 34, players=players, seed=4, resume=str(part), save_path=str(part))
    moves = [json.loads(f.read_text())["saved"]["state"]["history"] for f in (whole, part)]
    assert len(moves[0]) > 10 and moves[0] == moves[1]


def test_a_seat_name_that_no_terminal_can_print_is_refused(tmp_path: Path, log_file: Path) -> None:
    # A lone surrogate: from a JSON `\\ud800` in a log, or from bytes that are not UTF-8 on the command line.
    doc = json.loads(log_file.read_text())
    doc["seats"][0]["name"] = "\ud800"
    bad = tmp_path / "surrogate.json"
    bad.write_text(json.dumps(doc))
    code, out = cli("replay", str(bad))
    assert code == 1 and "DV070" in out and "holds a control character" in out
    code, out = cli("play", GAME, "--players", "human:A\udcff,random")
    assert code == 2 and "not UTF-8" in out


@pytest.mark.parametrize("option", [["--seed", "5"], ["--players", "human,human"], ["--setting", "hand_small=3"],
                                    ["--variant", "advanced"]])
def test_an_option_that_would_change_a_resumed_game_is_a_usage_error(save_file: Path, option: list[str]) -> None:
    code, out = cli("play", "--resume", str(save_file), *option, "--no-clear")
    assert code == 2 and option[0] in out
    assert "DV070" not in out  # the file is fine: the option is the mistake


@pytest.mark.parametrize("variant", [None, "advanced"])
def test_a_save_resumed_under_another_games_name_names_both_games(tmp_path: Path, variant: str | None) -> None:
    # With a variant, the variant was looked for in the named game first: "leonardos-riddle has
    # no variant 'advanced'" hid what was wrong.
    save = tmp_path / "s.json"
    args = ["play", GAME, "--players", "random,random", "--seed", "3", "--save", str(save), "--no-clear"]
    assert cli(*args, *(["--variant", variant] if variant else []))[0] == 0
    # (Exit 2, a usage mistake, as a wrong --variant on the right game is.)
    code, out = cli("play", "leonardos-riddle", "--resume", str(save), "--no-clear")
    assert code == 2 and "this save is for game 'da-vinci-code', not 'leonardos-riddle'" in out
    code, out = cli("play", "leonardos-riddle", "--variant", "diagonals", "--resume", str(save), "--no-clear")
    assert code == 2 and "this save is for game 'da-vinci-code', not 'leonardos-riddle'" in out


@pytest.mark.parametrize(("edit", "words"), [
    (lambda s: s["locals"].__setitem__("roll", []), "a value in it is of the wrong kind"),  # a die roll that is a list
    (lambda s: s["locals"].__setitem__("dests", ""), "seat 3 must decide, but has nothing to choose from"),
    (lambda s: (s["pending"].pop("seat"), s["pending"].__setitem__("seats", 5)), "seats are not a list"),
])
def test_a_doctored_state_is_refused_when_loaded_not_at_its_first_move(edit: Any, words: str) -> None:
    # Loaded, then the first apply raised a bare TypeError, or a bot loop waited on no action.
    import copy

    from davinci.engine.errors import SaveError
    from davinci.engine.serial import checksum

    game = load_game("da-vinci-game")
    doc = game.new_state(3, seed=38).to_json()  # team 3 chooses where its roll takes it
    assert doc["state"]["locals"]["roll"] == 1 and doc["state"]["pending"]["type"] == "choose"
    forged = copy.deepcopy(doc)
    edit(forged["state"])
    forged["checksum"] = checksum(forged["state"])
    with pytest.raises(SaveError, match=words):
        game.state_from_json(forged)


ONE_OPTION_FAILS = """\
kind: game
id: sv
name: Sv
description: test
players: {min: 2, max: 2}
bots: [random]
vars:
  x: null
components:
  tile:
    fields: {number: int}
    items:
      - {number: 1}
zones:
  pile: {kind: pile, visibility: public, contents: [tile]}
flow:
  turn:
    - choose:
        prompt: go
        options:
          - action: boom
            do:
              - roll: {sides: x, as: d}
          - action: stop
            do:
              - end_game: true
end:
  when: "false"
  winners: "seats"
"""


def test_a_save_whose_first_option_fails_by_the_games_own_rules_still_loads(tmp_path: Path) -> None:
    # The check of a loaded state tried only the first move; the game's own `none` there made a
    # good save "damaged", though `stop` plays.
    from helpers import write_game_pack

    game = load_game("sv", packs=[write_game_pack(tmp_path, "sv", ONE_OPTION_FAILS)])
    st = game.state_from_json(game.new_state(2, seed=1).to_json())
    st.apply(st.current_seats[0], "stop")
    assert st.is_terminal()


def test_a_resumed_bot_that_remembers_what_it_saw_plays_on_as_without_the_break(tmp_path: Path) -> None:
    # The deducer keeps what earlier views ruled out; rebuilt on resume, it had forgotten, and
    # guessed 'joker' at the 16th action where the unbroken game guessed 6.
    args = ["play", "da-vinci-code", "-v", "advanced", "-p", "human,deducer", "--seed", "3", "--no-clear"]
    whole, part, rest = tmp_path / "whole.json", tmp_path / "part.json", tmp_path / "rest.json"
    assert cli(*args, "--log", str(whole), stdin="list\n#1\n" * 80)[0] == 0
    assert cli(*args, "--save", str(part), stdin="list\n#1\n" * 7)[0] == 0
    assert cli("play", "--resume", str(part), "--no-clear", "--log", str(rest), stdin="list\n#1\n" * 73)[0] == 0
    unbroken = json.loads(whole.read_text())["actions"]
    resumed = json.loads(rest.read_text())["actions"]
    assert len(unbroken) > 16 and resumed == unbroken


def test_a_save_given_to_replay_says_which_command_reads_it(tmp_path: Path) -> None:
    log, save = tmp_path / "log.json", tmp_path / "save.json"
    args = ["play", "da-vinci-code", "-p", "random,random", "--seed", "3", "--no-clear"]
    assert cli(*args, "--log", str(log), "--save", str(save))[0] == 0
    code, out = cli("replay", str(save))
    assert code == 1 and "it is a save: `davinci play --resume` reads it" in " ".join(out.split())


def test_a_game_resumes_from_its_log_and_goes_on_logging_to_it(tmp_path: Path) -> None:
    # A lost or never-written save: the log holds the seats, seed, settings and every move, which
    # is all a resume needs. The resumed game plays on as the unbroken one did (the deducer
    # remembers what it saw), and its log grows in place; nothing is saved over it.
    args = ["play", "da-vinci-code", "-v", "advanced", "-p", "human,deducer", "--seed", "3", "--no-clear"]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert cli(*args, "--log", str(whole), stdin="list\n#1\n" * 80)[0] == 0
    code, out = cli(*args, "--log", str(part), stdin="list\n#1\n" * 7)
    assert code == 0 and f"Not saved; its log goes on with it: davinci play da-vinci-code --resume {part}" \
        in " ".join(out.split())
    before = json.loads(part.read_text())["actions"]
    code, out = cli("play", "--resume", str(part), "--no-clear", stdin="list\n#1\n" * 73)
    assert code == 0 and "No --log" not in out
    doc = json.loads(part.read_text())
    unbroken = json.loads(whole.read_text())
    assert "davinci_log" in doc and len(before) < len(doc["actions"]) == len(unbroken["actions"])
    assert doc["actions"] == unbroken["actions"] and doc["result"] == unbroken["result"] is not None
    assert cli("replay", str(part), "--verify")[0] == 0


def test_a_log_resumed_with_a_save_writes_the_save_beside_it(tmp_path: Path) -> None:
    log, save = tmp_path / "g.log", tmp_path / "g.json"
    args = ["play", GAME, "-p", "human,random", "--seed", "5", "--no-clear"]
    assert cli(*args, "--log", str(log), stdin="list\n#1\n" * 3)[0] == 0
    code, out = cli("play", "--resume", str(log), "--save", str(save), "--no-clear", stdin="list\n#1\n" * 2)
    assert code == 0 and f"resume with: davinci play {GAME} --resume {save} --log {log}" in " ".join(out.split())
    assert json.loads(save.read_text())["saved"]["state"]["history"] == json.loads(log.read_text())["actions"]


@pytest.mark.parametrize("damage, said", [
    (lambda d: d["actions"][1].__setitem__(1, "guess row.9.9 12"),
     "move 2 of the log ('guess row.9.9 12') cannot be replayed: 'guess row.9.9 12' is not legal now"),
    (lambda d: d["actions"].__setitem__(0, [5, "guess row.2.1 1"]),
     "action 1 ('guess row.2.1 1') is by seat index 5, but the log has 2 seats"),
    (lambda d: d.__setitem__("content_hash", "0" * 16), "the log was made with other game content or settings"),
    (lambda d: d.__setitem__("actions", "none"), "the log is damaged (its actions must be [seat number, text] pairs)"),
])
def test_a_damaged_log_is_refused_as_a_resume_naming_the_move(tmp_path: Path, damage: Callable[[Any], Any],
                                                                said: str) -> None:
    log = tmp_path / "g.log"
    assert cli("play", GAME, "-p", "human,random", "--seed", "5", "--no-clear", "--log", str(log),
               stdin="list\n#1\n" * 4)[0] == 0
    doc = json.loads(log.read_text())
    assert len(doc["actions"]) >= 2
    damage(doc)
    log.write_text(json.dumps(doc))
    kept = log.read_text()
    code, out = cli("play", "--resume", str(log), "--no-clear")
    assert code == 1 and said in " ".join(out.split()), out
    assert log.read_text() == kept


def test_a_new_game_never_replaces_another_unfinished_games_save_or_log(tmp_path: Path) -> None:
    # A forgotten --resume: the new game saved over the unfinished one, which was gone.
    save, log = tmp_path / "g.json", tmp_path / "g.log.json"
    play(tmp_path, 3, save_path=str(save), log_path=str(log))  # stopped by end of input: unfinished
    kept = save.read_text()
    for option, path in (("--save", save), ("--log", log)):
        code, out = cli("play", GAME, "--players", "random,random", "--seed", "7", option, str(path), "--no-clear")
        assert code == 1 and f"{path} holds another unfinished game (da-vinci-code), so it is not overwritten" in out
    assert save.read_text() == kept
    # Not even the same seed and seats (the same command again, or another variant): a new game.
    seed = json.loads(kept)["seed"]
    code, out = cli("play", GAME, "--players", "human,random", "--seed", str(seed), "--save", str(save), "--no-clear")
    assert code == 1 and "holds another unfinished game" in out and save.read_text() == kept
    # Its own resume saves and logs over them; a finished game's files may be replaced.
    code, _ = cli("play", "--resume", str(save), "--save", str(save), "--log", str(log), "--no-clear")
    assert code == 0
    # ... but an older save of the game, resumed, does not replace a newer one.
    older = tmp_path / "older.json"
    older.write_text(kept)
    play(tmp_path, 3, resume=str(save))  # three more moves in the save
    assert len(json.loads(save.read_text())["saved"]["state"]["history"]) > len(json.loads(kept)["saved"]["state"]["history"])
    code, out = cli("play", "--resume", str(older), "--save", str(save), "--no-clear")
    assert code == 1 and "holds this game further on" in out
    done = tmp_path / "done.json"
    assert cli("play", GAME, "--players", "random,random", "--seed", "1", "--save", str(done), "--no-clear")[0] == 0
    assert cli("play", GAME, "--players", "random,random", "--seed", "2", "--save", str(done), "--no-clear")[0] == 0


def test_a_line_feed_in_a_logs_field_cannot_print_a_line_of_its_own(tmp_path: Path) -> None:
    # A result reason "end)\nverified: 29 actions replay FAKE" printed a fake verdict line.
    log = tmp_path / "g.log.json"
    assert cli("play", GAME, "--players", "random,random", "--seed", "1", "--log", str(log), "--no-clear")[0] == 0
    doc = json.loads(log.read_text())
    doc["result"]["reason"] = "end)\nverified: 29 actions replay FAKE"
    log.write_text(json.dumps(doc))
    code, out = cli("replay", str(log), "--verify")
    assert code == 1 and not any(line.startswith("verified") for line in out.splitlines()), out
    assert "\\nverified: 29 actions replay FAKE" in out


def test_a_closed_terminal_saves_the_game_even_without_save(tmp_path: Path) -> None:
    # Closing the window (SIGHUP) without --save lost the game: nobody was left to name a file.
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "play", GAME, "--players", "human,random",
         "--seed", "42", "--no-clear"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )
    time.sleep(3)  # waiting at the human's first move
    proc.send_signal(signal.SIGHUP)
    proc.communicate(timeout=60)
    saved = tmp_path / "davinci-da-vinci-code-42.json"
    assert proc.returncode == 129 and saved.is_file()
    assert cli("play", "--resume", str(saved), "--no-clear")[0] == 0


def _close_the_window(folder: Path, args: list[str], shown: bytes, second_hangup: bool = False) -> int:
    """Run `davinci ARGS` in a terminal of its own (a pseudo-terminal) in `folder`, close the
    terminal once `shown` is on it (and send a SIGHUP after, as the shell does, with
    `second_hangup`); the exit status."""
    import os
    import pty
    import select
    import signal
    import sys
    import time

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(folder)
        os.execv(sys.executable, [sys.executable, "-c", "from davinci.cli import main; main()", *args])
    seen, deadline = b"", time.time() + 90
    while shown not in seen and time.time() < deadline:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    assert shown in seen, seen[-500:]
    time.sleep(0.3)
    os.close(fd)  # the window closes
    if second_hangup:
        os.kill(pid, signal.SIGHUP)
    deadline = time.time() + 60
    while (waited := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.time() < deadline:
        time.sleep(0.05)
    status = waited[1]
    assert os.WIFEXITED(status), status
    return os.WEXITSTATUS(status)


@pytest.mark.parametrize("second_hangup", [False, True])
def test_a_terminal_window_closing_saves_the_game(tmp_path: Path, second_hangup: bool) -> None:
    # Closing the window itself lost the game: reading the terminal failed (EIO) or ended before the
    # SIGHUP came ("cannot write the output"), and the shell's own SIGHUP, a second one, cut the save.
    args = ["play", GAME, "--players", "human,random", "--seed", "42", "--no-clear"]
    assert _close_the_window(tmp_path, args, b"> ", second_hangup) == 129
    saved = tmp_path / "davinci-da-vinci-code-42.json"
    assert saved.is_file(), list(tmp_path.iterdir())
    assert cli("play", "--resume", str(saved), "--no-clear")[0] == 0


def test_a_terminal_window_closing_during_a_timed_race_saves_the_game(tmp_path: Path) -> None:
    # Restoring the closed terminal's settings raised termios.error (not an OSError) over the
    # hangup: "internal error: (5, 'Input/output error')", exit 3, and the game was lost.
    args = ["play", "da-vinci-game", "-p", "scholar,scholar,human:Ana", "--setting", "first_team=1", "--seed", "7",
            "--no-clear"]
    assert _close_the_window(tmp_path, args, b"s left") == 129  # (the clock was running)
    assert (tmp_path / "davinci-da-vinci-game-7.json").is_file()


def test_replay_without_verify_says_the_result_in_words(tmp_path: Path) -> None:
    # It printed a Python list: "result: winners ['Random 1']".
    log = tmp_path / "g.log.json"
    assert cli("play", GAME, "--players", "random,random", "--seed", "1", "--log", str(log), "--no-clear")[0] == 0
    code, out = cli("replay", str(log))
    assert code == 0 and out.rstrip().splitlines()[-1].startswith("result: won by Random ")


def test_resuming_a_file_that_holds_no_json_says_which_file_is_wanted() -> None:
    # A game's YAML given to --resume read "not valid JSON (Expecting value); truncated?".
    code, out = cli("play", "--resume", str(Path(__file__).parent / "packs" / "tutorial" / "pig.yaml"))
    assert code == 1 and "is not a davinci save file (no JSON in it): give the file --save or Ctrl-C writes" in out


def test_a_save_or_log_an_editor_gave_a_byte_order_mark_still_reads(tmp_path: Path) -> None:
    # Saved again by Notepad, the file was "not a davinci save file (no JSON in it)".
    save, log = tmp_path / "s.json", tmp_path / "l.json"
    assert cli("play", GAME, "--players", "random,random", "--seed", "3", "--log", str(log), "--no-clear")[0] == 0
    log.write_text("\ufeff" + log.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli("replay", str(log), "--verify")[0] == 0
    cli("play", GAME, "--players", "human,random", "--seed", "3", "--save", str(save), "--no-clear", stdin="quit\n")
    save.write_text("\ufeff" + save.read_text(encoding="utf-8"), encoding="utf-8")
    code, out = cli("play", "--resume", str(save), "--no-clear", stdin="quit\n")
    assert code == 0 and "Game stopped" in out, out
    assert "is not a davinci save" not in out  # and it goes on saving there (it was "not overwritten")
    assert not save.read_text(encoding="utf-8").startswith("\ufeff")


def test_a_file_from_a_newer_davinci_is_said_to_be_one(tmp_path: Path) -> None:
    # A save of format 2 was "not a davinci save file", a log "not a davinci log".
    for name, doc, command in (("s.json", {"davinci_save": 2}, ("play", "--resume")),
                               ("l.json", {"davinci_log": 2}, ("replay",))):
        path = tmp_path / name
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, out = cli(*command, str(path))
        what = "save" if name == "s.json" else "log"
        assert code == 1 and f"this {what} was written by a newer davinci (format 2); this version reads format 1" in out


def test_a_number_of_thousands_of_digits_in_a_save_is_located(tmp_path: Path) -> None:
    # Python's own advice was printed ("use sys.set_int_max_str_digits() to increase the limit").
    path = tmp_path / "s.json"
    path.write_text('{"davinci_save": 1,\n "seed": ' + "7" * 5000 + "}", encoding="utf-8")
    code, out = cli("play", "--resume", str(path))
    assert code == 1 and f"{path}:2:10: the save file holds a number of 5,000 digits" in out
    assert "set_int_max_str_digits" not in out


def test_a_pack_the_game_did_not_need_does_not_strand_its_save(tmp_path: Path) -> None:
    # `--pack other` given once, then the folder removed: "the save was made with the content pack
    # .../other, which no longer exists", though the game never read it.
    import shutil

    tutorial = Path(__file__).parent / "packs" / "tutorial"
    game_pack, other = tmp_path / "tut", tmp_path / "other"
    shutil.copytree(tutorial, game_pack)
    shutil.copytree(Path(__file__).parent / "packs" / "from-docs", other)
    save = tmp_path / "s.json"
    cli("play", "pig", "--pack", str(game_pack), "--pack", str(other), "--players", "human,random", "--seed", "2",
        "--save", str(save), "--no-clear", stdin="quit\n")
    shutil.rmtree(other)
    code, out = cli("play", "--resume", str(save), "--no-clear", stdin="quit\n")
    assert code == 0 and "Game stopped" in out, out
    shutil.rmtree(game_pack)  # the pack that holds the game is needed, and named
    code, out = cli("play", "--resume", str(save), "--no-clear", stdin="quit\n")
    assert code == 1 and f"was made with the content pack {game_pack}, which no longer exists" in out, out


@pytest.mark.parametrize("answer", ["n", "No"])
def test_no_at_the_save_question_is_no(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    # "Save the game?" answered `n` saved the game to a file named n.
    code, screen, asked = _interrupted_at_the_save_prompt(tmp_path, monkeypatch, [answer])
    assert code == 130 and "Not saved." in screen and "Saved to" not in screen
    assert list(tmp_path.iterdir()) == []



def test_a_missing_pack_that_held_a_deck_is_named(tmp_path: Path) -> None:
    # The game is built in, so the missing pack was skipped, and the message was a hash mismatch to
    # puzzle out; the pack held a deck overlay the game deals from.
    import shutil

    pack = tmp_path / "dp"
    pack.mkdir()
    (pack / "pack.yaml").write_text('kind: pack\nid: dp\nname: DP\nversion: "1.0"\ndecks: [more.yaml]\n',
                                    encoding="utf-8")
    (pack / "more.yaml").write_text("kind: deck-overlay\nid: rose-more\nextends: rose\ncards:\n  - {id: rose-more-001, "
                                    "difficulty: 1, clue: What burns down as it lights a room?, answer: candle}\n",
                                    encoding="utf-8")
    save, log = tmp_path / "d.json", tmp_path / "dl.json"
    cli("play", "da-vinci-game", "--pack", str(pack), "--players", "human,random,random", "--seed", "3", "--no-timer",
        "--save", str(save), "--log", str(log), "--no-clear", stdin="quit\n")
    shutil.rmtree(pack)
    for args in (("play", "--resume", str(save), "--no-clear"), ("replay", str(log), "--verify")):
        code, out = cli(*args, stdin="quit\n")
        assert code == 1 and f"was made with the content pack {pack}, which no longer exists" in out, out


@pytest.mark.parametrize(("signal_name", "code"), [("SIGTERM", 130), ("SIGQUIT", 130), ("SIGHUP", 129)])
def test_a_stop_signal_at_the_save_question_saves_to_a_file_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signal_name: str, code: int
) -> None:
    # Only a closed terminal exits 129: SIGTERM there exited 129 as well.
    got, screen, asked = _interrupted_at_the_save_prompt(tmp_path, monkeypatch, [f"<{signal_name}>"])
    assert got == code and len(asked) == 1
    assert "Saved to davinci-da-vinci-code-7.json" in screen



def test_input_ending_mid_challenge_settles_it_before_the_save(tmp_path: Path) -> None:
    # Ctrl-D (or the end of a pipe) at the answer> prompt saved the challenge unsettled: every
    # resume dealt the same card again with a fresh clock, as much thinking time as wanted.
    save = tmp_path / "x.json"
    code, out = cli("play", "da-vinci-game", "--players", "human,scholar,scholar", "--seed", "3", "--no-clear",
                    "--save", str(save), stdin="1\n")
    assert code == 0 and "Team 1 passes" in out and "Input closed" in out
    history = json.loads(save.read_text(encoding="utf-8"))["saved"]["state"]["history"]
    assert [0, "pass"] in history
    assert "Savage Mountain" in out  # the card Team 1 saw
    code, out = cli("play", "--resume", str(save), "--no-clear")
    # The bots still to answer do; Team 1 is not asked again, with a fresh clock, before it is settled.
    assert code == 0 and "The answer: K2" in out
    assert "answer>" not in out[: out.index("The answer: K2")]


def test_a_pack_the_game_does_not_use_is_not_written_into_its_save(tmp_path: Path) -> None:
    # `--pack mypack` given once on a built-in game stuck in the save, and every resume after the
    # folder moved printed a resume command that failed.
    from click.testing import CliRunner

    from davinci.cli import main

    pack = str(Path(__file__).parent / "packs" / "from-docs")
    save = tmp_path / "g.json"
    result = CliRunner().invoke(main, ["play", "da-vinci-code", "--players", "human,random", "--seed", "5",
                                       "--pack", pack, "--save", str(save), "--no-clear"], input="")
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text(encoding="utf-8"))["packs"] == []
    assert "--pack" not in result.output.split("resume with:")[-1]
    save.unlink()
    result = CliRunner().invoke(main, ["play", "nim", "--players", "human,random", "--seed", "5",
                                       "--pack", pack, "--save", str(save), "--no-clear"], input="")
    assert [p["path"] for p in json.loads(save.read_text(encoding="utf-8"))["packs"]] == [pack]


def test_the_resume_hint_names_a_pack_that_works_from_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Played with `--pack .` in the pack's folder and resumed from elsewhere, the hint said
    # `--pack .`, which failed when copied.
    from davinci.engine.play import resume_command

    pack = tmp_path / "pk"
    pack.mkdir()
    record = [{"path": ".", "resolved": str(pack)}]
    monkeypatch.chdir(pack)
    assert resume_command("g", "s.json", record) == "davinci play g --pack . --resume s.json"
    monkeypatch.chdir(tmp_path)
    assert resume_command("g", "s.json", record) == f"davinci play g --pack {pack} --resume s.json"


def test_declining_to_save_at_a_terminal_names_the_log_that_resumes_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # At a terminal, a logged game stopped without a save said only "Not saved."
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    console = Console(file=io.StringIO(), width=200)
    assert play_module._ask_and_save(console, "{}", None, "davinci play g --resume g.log") is None
    assert "Not saved; its log goes on with it: davinci play g --resume g.log" in console.file.getvalue()
    console = Console(file=io.StringIO(), width=200)
    assert play_module._ask_and_save(console, "{}") is None
    assert console.file.getvalue().strip() == "Not saved."


def test_a_log_resume_refuses_a_result_its_moves_do_not_reach_and_a_newer_format(tmp_path: Path) -> None:
    log = tmp_path / "g.log"
    assert cli("play", GAME, "-p", "human,random", "--seed", "5", "--no-clear", "--log", str(log),
               stdin="list\n#1\n" * 3)[0] == 0
    doc = json.loads(log.read_text())
    (tmp_path / "r.log").write_text(json.dumps({**doc, "result": {"winners": [0]}}))
    code, out = cli("play", "--resume", str(tmp_path / "r.log"), "--no-clear")
    assert code == 1 and "the log records a result its moves do not reach" in " ".join(out.split())
    failed = {**doc, "failure": {"where": "result", "action": len(doc["actions"]), "code": "DV042"}}
    (tmp_path / "f.log").write_text(json.dumps(failed))
    code, out = cli("play", "--resume", str(tmp_path / "f.log"), "--no-clear")
    assert code == 1 and "the game's rules failed working out its result when it was played" in " ".join(out.split())
    (tmp_path / "v.log").write_text(json.dumps({**doc, "davinci_log": 2}))
    code, out = cli("play", "--resume", str(tmp_path / "v.log"), "--no-clear")
    assert code == 1 and "this log was written by a newer davinci (format 2)" in " ".join(out.split())


def test_a_game_whose_setup_fails_writes_a_log_that_replays_to_the_failure(tmp_path: Path) -> None:
    # The setup failing wrote no log: an author's bug report had nothing to replay.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = ("kind: game\nid: broken\nname: Broken\nplayers: {min: 2, max: 2}\nvars: {x: 0}\nflow:\n  setup:\n"
            "    - set: {x: \"1 // (x - x)\"}\n" + STOP_AT_ONCE)
    pack = write_game_pack(tmp_path / "pack", "broken", game)
    log = tmp_path / "b.log"
    code, out = cli("play", "broken", "--pack", pack, "-p", "random,random", "--seed", "1", "--no-clear",
                    "--log", str(log))
    assert code == 1 and "division by zero" in out and f"the log {log} records the failure at the setup" in out
    doc = json.loads(log.read_text())
    assert doc["actions"] == [] and doc["failure"] == {"where": "setup", "action": 0, "code": "DV042"}
    code, out = cli("replay", str(log), "--verify")
    assert code == 0 and "verified: 0 actions replay to the failure the log recorded (the setup fails)" in out
    code, out = cli("replay", str(log))
    assert code == 1 and "the game's rules fail in its setup, as the log records" in out
    code, out = cli("play", "--resume", str(log), "--no-clear")  # (it blamed the log's seats)
    assert code == 1 and "the game's rules fail in its setup, as the log records, so it cannot go on" in out
    assert "broken.yaml:8:19: DV042 division by zero" in out
