"""A bot is outside code: when it raises, returns something that is not an action or chooses an
action the rules refuse, `play` and `simulate` say which bot at which seat (DV061, exit 1), never
an internal error of davinci."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from davinci.cli import main
from davinci.engine import bots
from davinci.engine.actions import Action


class Exploding(bots.SeededBot):
    name = "exploding"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise KeyError("exploded on purpose")


class Flying(bots.SeededBot):
    name = "flying"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        return "fly"


class Silent(bots.SeededBot):
    name = "silent"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        return None


class Picky(Exception):
    """An exception that cannot be rebuilt from its message (unpicklable across processes)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


class Awkward(bots.SeededBot):
    name = "awkward"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise Picky("no", "reason")


class Quitter(bots.SeededBot):
    name = "quitter"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise SystemExit(5)


class Panicky(bots.SeededBot):
    name = "panicky"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise KeyboardInterrupt


class Moody(bots.SeededBot):
    """Fails in some games only (decided by its seeded source, so the same games every run)."""

    name = "moody"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if self.rng.below(40) == 0:
            raise ValueError("not today")
        return legal[self.rng.below(len(legal))]


class Typist(bots.SeededBot):
    """Returns the text of a legal action: accepted, as a typed action is."""

    name = "typist"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        return str(legal[self.rng.below(len(legal))])


class Numeric(bots.SeededBot):
    """Returns a legal action rebuilt with a number where the text has one (an int, not '7')."""

    name = "numeric"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        a = legal[0]
        return Action(a.verb, tuple(int(x) if x.isdigit() else x for x in a.args))


class Fancy(str):
    """A str subclass whose str() says something else."""

    def __str__(self) -> str:
        return "fly"


class Subtyper(bots.SeededBot):
    """Returns a legal action's text as a subclass of str (accepted as its plain text)."""

    name = "subtyper"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        return Fancy(str(legal[self.rng.below(len(legal))]))


class Unspeakable(Exception):
    def __str__(self) -> str:
        raise ValueError("no words")


class Mute(bots.SeededBot):
    """Raises an exception that cannot say what it is."""

    name = "mute"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Any:
        raise Unspeakable()


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    for bot in (Exploding, Flying, Silent, Typist, Awkward, Quitter, Panicky, Moody, Numeric, Subtyper, Mute):
        monkeypatch.setitem(bots.BUILTIN, bot.name, bot)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


@pytest.mark.parametrize(("bot", "words"), [
    ("exploding", "bot 'exploding' (seat 1) raised KeyError: 'exploded on purpose'"),
    ("flying", "bot 'flying' (seat 1) chose 'fly', which the rules refuse:"),
    ("silent", "bot 'silent' (seat 1) returned NoneType, not one of the legal actions"),
    ("numeric", "bot 'numeric' (seat 1) chose 'guess row.2.1 0', which the rules refuse: an action's verb and "
                "arguments are text"),
])
def test_simulate_names_the_failing_bot_and_the_game(bot: str, words: str) -> None:
    code, out = _run("simulate", "da-vinci-code", "-n", "2", "-p", f"{bot},random", "--seed", "1",
                     "--setting", "first_player=1")
    assert code == 1, out
    assert "DV061" in out and words in out and "in simulated game 0 (seed" in out
    assert "internal error" not in out


@pytest.mark.parametrize(("bot", "words"), [
    ("awkward", "bot 'awkward' (seat 1) raised Picky: no: reason"),
    ("quitter", "bot 'quitter' (seat 1) raised SystemExit: 5"),
])
def test_a_failing_bot_in_a_worker_process_is_reported_not_waited_for(bot: str, words: str) -> None:
    # With --jobs 2 the pool waited forever for a result whose exception could not be unpickled:
    # a worker's chunk now comes back as plain fields the parent raises as the error.
    import pickle

    from davinci.engine.simulate import SimConfig, _Failed, _worker_chunk

    cfg = SimConfig("da-vinci-code", None, (bot, "random"), 4, 1, {"first_player": 1})
    failed = pickle.loads(pickle.dumps(_worker_chunk((cfg, 0, 4))))
    assert isinstance(failed, _Failed)
    error = failed.error()
    assert getattr(error, "code", None) == "DV061" and words in str(error)


def test_a_bot_raising_keyboard_interrupt_in_a_worker_is_the_bots_failure() -> None:
    # With --jobs 2 it was "internal error: ... please report it", exit 3 (a worker ignores
    # Ctrl-C, so a KeyboardInterrupt there can only come from the code it runs).
    import signal

    from davinci.engine.simulate import SimConfig, _Failed, _worker_chunk

    cfg = SimConfig("da-vinci-code", None, ("panicky", "random"), 2, 1, {"first_player": 1})
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        failed = _worker_chunk((cfg, 0, 2))
    finally:
        signal.signal(signal.SIGINT, old)
    assert isinstance(failed, _Failed)
    error = failed.error()
    assert getattr(error, "code", None) == "DV061" and "bot 'panicky' (seat 1) raised KeyboardInterrupt" in str(error)


def test_a_kill_during_a_bots_move_stops_the_run_even_with_ctrl_c_ignored() -> None:
    # A run started in the background (`cmd &`) ignores Ctrl-C; a `kill` during a bot's move was
    # then reported as the bot's failure (DV061, exit 1) and the games played were lost.
    import signal

    from davinci.engine.errors import StopSignal
    from davinci.engine.game import load_game

    class Killed:
        wants_view = False

        def choose(self, view: Any, legal: Any) -> Any:
            signal.raise_signal(signal.SIGTERM)  # arrives while the bot thinks
            return legal[0]

    def stop(signum: int, frame: Any) -> None:
        raise StopSignal

    st = load_game("da-vinci-code").new_state(2, seed=1)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN), signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(StopSignal):
            bots.bot_choice(Killed(), "killed", st, st.current_seats[0])
    finally:
        signal.signal(signal.SIGINT, old[0])
        signal.signal(signal.SIGTERM, old[1])


def test_play_names_the_failing_bot_and_keeps_the_save(tmp_path: Path) -> None:
    save, log = tmp_path / "game.json", tmp_path / "game.log.json"
    code, out = _run("play", "da-vinci-code", "--players", "random,exploding", "--seed", "1", "--no-clear",
                     "--setting", "first_player=1", "--save", str(save), "--log", str(log))
    assert code == 1, out
    assert "bot 'exploding' (seat 2) raised KeyError" in out and "internal error" not in out
    assert save.is_file() and f"The game is saved in {save}" in out and "resume with: davinci play da-vinci-code --resume" in out
    # The log keeps up with the save (it was left with no actions at all).
    moves = json.loads(save.read_text())["saved"]["state"]["history"]
    assert len(moves) >= 1 and len(json.loads(log.read_text())["actions"]) == len(moves)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_davinci_debug_shows_a_failing_bots_own_traceback(monkeypatch: pytest.MonkeyPatch, jobs: str) -> None:
    # The bot's author got the DV061 line only, with no file and line of their code to look at.
    monkeypatch.setenv("DAVINCI_DEBUG", "1")
    code, out = _run("simulate", "da-vinci-code", "-n", "2", "-p", "exploding,random", "--seed", "1",
                     "--setting", "first_player=1", "--jobs", jobs)
    assert code == 1 and "DV061" in out
    assert "Traceback (most recent call last)" in out and "test_bot_failures.py" in out
    monkeypatch.delenv("DAVINCI_DEBUG")
    assert "Traceback" not in _run("simulate", "da-vinci-code", "-n", "2", "-p", "exploding,random", "--seed", "1",
                                   "--setting", "first_player=1")[1]


def test_play_says_why_it_stopped_and_that_nothing_was_saved_without_a_terminal() -> None:
    # Input from a pipe: no file name can be asked, and the game ended with only the DV061 line.
    code, out = _run("play", "da-vinci-code", "--players", "random,exploding", "--seed", "1", "--no-clear",
                     "--setting", "first_player=1")
    assert code == 1
    assert out.index("bot 'exploding' (seat 2) raised KeyError") < out.index("The game was not saved")
    assert "give --save FILE to keep it" in " ".join(out.split())


@pytest.mark.parametrize("bot", ["typist", "subtyper"])
def test_a_bot_may_return_an_actions_text(bot: str) -> None:
    code, out = _run("simulate", "da-vinci-code", "-n", "3", "-p", f"{bot},random", "--seed", "1", "--json")
    assert code == 0, out  # a subclass of str was an internal error


def test_a_bot_whose_exception_cannot_say_what_it_is_is_still_named() -> None:
    code, out = _run("simulate", "da-vinci-code", "-n", "1", "-p", "mute,random", "--seed", "1",
                     "--setting", "first_player=1")
    assert code == 1 and "bot 'mute' (seat 1) raised Unspeakable: (its message cannot be shown)" in out


def test_list_names_every_installed_bot() -> None:
    code, out = _run("list", "--json")
    assert code == 0
    listed = json.loads(out)["bots"]
    assert {"random", "deducer", "greedy", "scholar", "exploding", "typist"} <= set(listed)
    code, text = _run("list")
    assert "Bots installed:" in text and "typist" in text


def test_a_refused_bot_action_is_not_shown_as_a_move() -> None:
    code, out = _run("play", "da-vinci-code", "--players", "human,flying", "--seed", "1", "--no-clear",
                     "--setting", "first_player=2")
    assert code == 1 and "bot 'flying' (seat 2) chose 'fly'" in out
    assert "Flying 2: fly" not in out


def test_the_failing_game_named_is_the_same_for_any_number_of_jobs() -> None:
    # With --jobs 2 the first failure to arrive was reported, another game than with one job.
    runs = [_run("simulate", "da-vinci-code", "-n", "60", "-p", "moody,random", "--seed", "4", "--jobs", jobs)
            for jobs in ("1", "2")]
    assert runs[0][0] == runs[1][0] == 1 and "in simulated game" in runs[0][1]
    assert runs[0][1] == runs[1][1]


def test_a_bot_whose_package_fails_to_load_is_its_failure_not_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # It exited 2 ("usage error") although the command line was right, and DAVINCI_DEBUG showed nothing.
    class Broken:
        name = "brokenmod"

        def load(self) -> Any:
            import mybots_nosuchmodule  # type: ignore[import-not-found]  # noqa: F401

    monkeypatch.setattr(bots, "_EPS", {"brokenmod": Broken()})
    code, out = _run("simulate", "da-vinci-code", "-n", "2", "-p", "brokenmod,random")
    assert code == 1 and out.startswith("davinci: DV061 bot 'brokenmod' failed to load: ModuleNotFoundError: No module "
                                        "named 'mybots_nosuchmodule' (its package's `davinci.bots` entry point")
    monkeypatch.setenv("DAVINCI_DEBUG", "1")
    assert "Traceback (most recent call last)" in _run("simulate", "da-vinci-code", "-n", "2", "-p", "brokenmod,random")[1]
