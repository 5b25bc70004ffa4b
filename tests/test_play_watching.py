"""What a player at the terminal sees of what follows their move: the result of a move before
the keyboard passes on (hot-seat), and a challenge that only bots answer (they read it out)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from davinci.engine.game import load_game
from davinci.engine.play import parse_seats, run_play


def _play(game_id: str, players: str, seed: int, answer: Callable[[str], str], prompts: int = 40) -> tuple[str, list[str]]:
    """Play in the terminal, typing answer(prompt) at each prompt; the screen and the prompts."""
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > prompts:
            raise EOFError
        return answer(prompt)

    game = load_game(game_id)
    console = Console(file=io.StringIO(), width=100)
    assert run_play(game, parse_seats(players, game), seed, {}, console, ask, clear=False, timer=False) == 0
    return console.file.getvalue(), asked


def test_a_hot_seat_player_sees_a_wrong_guess_before_passing_the_keyboard() -> None:
    # A wrong guess ends the turn: the screen went straight to "Pass the keyboard to Ben", and
    # Ann learnt how her guess went only at her next turn.
    moves = iter(["", "guess row.2.1 11", "", ""])
    out, asked = _play("da-vinci-code", "human:Ann,human:Ben", 3, lambda p: next(moves), prompts=4)
    result = out.index("Ann guessed row.2.1 = 11: wrong")
    assert result < out.index("Pass the keyboard to Ben")
    assert asked[2] == "Ann: press Enter when you have read this "


def test_a_challenge_only_bots_answer_is_shown_to_the_player_watching() -> None:
    # Team 1 lands on a Rose clue; the two scholars answer. The card and the answer were never
    # on the screen: the next thing shown was a bot's move.
    out, _ = _play("da-vinci-game", "human,scholar,scholar", 2, lambda p: "1", prompts=1)
    card = out.index("Challenge for Scholar 2, Scholar 3")
    assert out.index("A bell tower that's tipsy") > card
    assert card < out.index("The answer: Leaning Tower of Pisa") < out.index("Scholar 2: go ", card)  # before the next move


def test_an_answer_typed_while_an_anagram_waits_is_the_answer() -> None:
    # Untimed: the anagram waited for Enter "to start the clock", and an answer typed there was
    # echoed and lost (the following Enter passed).
    def answer(prompt: str) -> str:
        return "verdi" if prompt.startswith("Write it down") else "" if prompt == "answer> " else "1"

    out, asked = _play("da-vinci-game", "human,scholar,scholar", 14, answer)
    wait = next(i for i, p in enumerate(asked) if p.startswith("Write it down"))
    assert asked[wait] == "Write it down, then press Enter when you are ready "
    assert asked[wait + 1] != "answer> "  # the typed line was the answer: nothing more was asked
    assert "Anagram: DRIVE" in out and "Team 1: correct bid 1, 3 tokens" in out


def test_at_a_shared_screen_a_races_outcome_waits_for_enter_before_the_next_player_clears_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hot-seat: after a timed race the next turn went straight to "Pass the keyboard", clearing
    # the result nobody had read.
    import davinci.engine.race as race

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", lambda humans, *a, **k: {s: (12.0, "bolt") for s in humans})
    game = load_game("da-vinci-game", settings={"first_team": 1})
    console = Console(file=io.StringIO(), width=120)
    prompts: list[tuple[str, str]] = []

    def ask(prompt: str = "") -> str:
        prompts.append((prompt, console.file.getvalue()))  # type: ignore[attr-defined]
        if len(prompts) > 4:
            raise EOFError
        return "2" if prompt == "> " else ""

    run_play(game, parse_seats("human:Ana,human:Ben,scholar", game), 11, {}, console, ask, clear=False, timer=True)
    said = [p for p, _ in prompts]
    assert said[:4] == ["", "> ", "Press Enter when everyone has read this ", ""]  # Ana moves to a clue space
    screen_at_pause = prompts[2][1]
    assert screen_at_pause.rstrip().endswith("Ben rolls 4") and "The answer: bolt" in screen_at_pause
    assert "Pass the keyboard to Ben" in prompts[3][1] and "Pass the keyboard to Ben" not in screen_at_pause


def test_a_pass_in_a_race_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The race said "Ana passes (an empty answer)" and the outcome then said "Ana passes" again.
    import davinci.engine.race as race

    def passing(humans: list[int], names: list[str], bots: dict[int, float], limit: int, write: Any,
                **kw: Any) -> dict[int, None]:
        for s in humans:
            write(f"{names[s]} passes\n")  # what run_race writes when Enter ends an empty answer
        return {s: None for s in humans}

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", passing)
    game = load_game("da-vinci-game", settings={"first_team": 1})
    console = Console(file=io.StringIO(), width=120)
    written: list[str] = []
    monkeypatch.setattr("sys.stdout.write", lambda text: written.append(text) or len(text))
    answers = iter(["", "2", "", ""])

    def ask(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    run_play(game, parse_seats("human:Ana,human:Ben,scholar", game), 11, {}, console, ask, clear=False, timer=True)
    shown = "".join(written) + console.file.getvalue()  # type: ignore[attr-defined]
    said = [line for line in shown.splitlines() if line.strip() == "Ben passes"]  # (the screen's recent list: "· ")
    assert len(said) == 1


def test_a_race_answer_just_past_the_limit_is_judged_late_as_shown(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Any) -> None:
    # 60.04 s showed "locks in at 60.1s - too late", but the answer sent was "answer 60.0 ...": in time.
    import json

    import davinci.engine.race as race

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", lambda humans, *a, **k: {s: (60.04, "bolt") for s in humans})
    game = load_game("da-vinci-game", settings={"first_team": 1})
    console = Console(file=io.StringIO(), width=120)
    answers = iter(["2", "", ""])
    save = tmp_path / "s.json"

    def ask(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    run_play(game, parse_seats("scholar,human:Ben,scholar", game), 11, {}, console, ask, clear=False, timer=True,
             save_path=str(save))
    moves = [a for _, a in json.loads(save.read_text())["saved"]["state"]["history"]]
    assert "answer 60.1 bolt" in moves and not any(m.startswith("answer 60.0") for m in moves)


class _Clock:
    """A terminal clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_an_anagram_answered_while_it_waits_to_start_the_clock_is_timed_from_the_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Teams answering one after another (no race at this terminal): an answer typed at "press
    # Enter to start the clock" counted as 0.1 s however long the team had been solving it.
    import davinci.engine.play as play_mod
    import davinci.engine.race as race

    clock = _Clock()
    monkeypatch.setattr(race, "race_available", lambda: False)
    monkeypatch.setattr(play_mod.time, "monotonic", clock.monotonic)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 40:
            raise EOFError
        if prompt.startswith("Write it down"):
            clock.now += 8  # 8 seconds against a 5-second limit
            return "verdi"
        return "" if prompt == "answer> " else "1"

    game = load_game("da-vinci-game", settings={"timer_seconds": 5})
    console = Console(file=io.StringIO(), width=100)
    run_play(game, parse_seats("human,scholar,scholar", game), 14, {}, console, ask, clear=False, timer=True)
    out = console.file.getvalue()
    assert "Anagram: DRIVE" in out
    assert "8.0 s: too late" in out and "Team 1 answered 'verdi' too late" in out
    assert "Team 1: correct bid" not in out


def test_race_answers_in_one_tenth_rank_in_the_order_they_were_locked_in(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ben locked in at 12.04 s and Cy at 12.01 s: both bids read 12.1 s and Ben, applied first
    # as the lower seat, took the first bid.
    import davinci.engine.race as race

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", lambda humans, *a, **k: {1: (12.04, "bolt"), 2: (12.01, "bolt")})
    game = load_game("da-vinci-game", settings={"first_team": 1})
    console = Console(file=io.StringIO(), width=120)
    asked: list[str] = []

    def ask(prompt: str = "") -> str:
        asked.append(prompt)
        if len(asked) > 3:
            raise EOFError
        return "2" if prompt == "> " else ""

    run_play(game, parse_seats("human:Ana,human:Ben,human:Cy", game), 11, {}, console, ask, clear=False, timer=True)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "The answer: bolt" in out
    assert out.index("Cy: correct bid 1") < out.index("Ben: correct bid 2")


def test_a_challenges_whole_outcome_is_shown_when_a_bot_gives_tokens_back_over_its_cap() -> None:
    # The first bid's winner went over the token cap and gave one back: the outcome stopped
    # there, and the second bid and its tokens were never on the screen.
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 12:
            raise EOFError
        return "1" if prompt == "> " else ""

    game = load_game("da-vinci-game", settings={"first_team": 1, "token_cap": 4, "awards": [5, 5, 5]})
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,scholar,scholar,scholar", game), 2, {}, console, ask, clear=False, timer=False)
    out = console.file.getvalue()
    lines = [line.strip() for line in out[out.index("The answer: padlock"):].splitlines()[:5]]
    # (Which token went back stays the returning team's to know; "tokens.3.1" named a place.)
    assert lines == ["The answer: padlock", "Scholar 3: correct bid 1, 5 tokens", "Scholar 3 returns a token to the bag",
                     "Scholar 4: correct bid 2, 5 tokens", "Scholar 4 returns a token to the bag"]


def test_a_race_stopped_in_the_middle_is_settled_as_it_stood_before_the_game_is_saved(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
) -> None:
    # Ctrl-C during a race saved the game from before it: resumed, the same card came back with a
    # fresh clock for teams that had seen it (stop, think, resume).
    import json

    import davinci.engine.race as race

    def stopped(humans: list[int], *a: Any, results: dict[int, Any], **k: Any) -> None:
        results[1] = (5.0, "bolt")  # Ben had locked in; Cy had not
        raise KeyboardInterrupt

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", stopped)
    game = load_game("da-vinci-game", settings={"first_team": 1})
    console = Console(file=io.StringIO(), width=120)
    asked: list[str] = []

    def ask(prompt: str = "") -> str:
        asked.append(prompt)
        return "2" if prompt == "> " else ""

    save = tmp_path / "game.json"
    code = run_play(game, parse_seats("human:Ana,human:Ben,human:Cy", game), 11, {}, console, ask, clear=False,
                    timer=True, save_path=str(save))
    assert code == 130
    moves = json.loads(save.read_text())["saved"]["state"]["history"]
    assert [1, "answer 5.0 bolt"] in moves and [2, "pass"] in moves  # the race is over in the save


def test_an_answer_prompt_stopped_is_a_pass_before_the_game_is_saved(tmp_path: Any) -> None:
    import json

    def ask(prompt: str) -> str:
        if prompt == "answer> ":
            raise KeyboardInterrupt
        return "1"

    game = load_game("da-vinci-game")
    console = Console(file=io.StringIO(), width=100)
    save = tmp_path / "game.json"
    code = run_play(game, parse_seats("human,scholar,scholar", game), 1, {}, console, ask, clear=False, timer=False,
                    save_path=str(save))
    assert code == 130
    assert [0, "pass"] in json.loads(save.read_text())["saved"]["state"]["history"]


def test_a_bot_whose_claimed_time_was_not_reached_passes_when_the_race_is_stopped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
) -> None:
    # Stopped 3 s in, a bot that would lock in at 29.5 s was credited with a correct first bid.
    import json

    import davinci.engine.race as race

    def stopped(humans: list[int], names: Any, bot_times: dict[int, float], *a: Any, **k: Any) -> None:
        assert bot_times  # the bot meant to lock in later
        raise KeyboardInterrupt  # stopped at once: its time was not reached

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", stopped)
    game = load_game("da-vinci-game", settings={"first_team": 1, "skill": {
        c: {"chance": 100, "seconds": 30} for c in ("codex", "logic-key", "rose", "vitruvian-man")}})
    console = Console(file=io.StringIO(), width=120)
    save = tmp_path / "game.json"
    code = run_play(game, parse_seats("human:Ana,human:Ben,scholar", game), 11, {}, console,
                    lambda prompt="": "2" if prompt == "> " else "", clear=False, timer=True, save_path=str(save))
    assert code == 130
    moves = json.loads(save.read_text())["saved"]["state"]["history"]
    assert [2, "pass"] in moves and not any(s == 2 and a.startswith("claim") for s, a in moves)


def test_a_game_resumed_on_a_challenge_shows_the_board_before_the_clock(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
) -> None:
    # The resumed game opened with the challenge's card and its clock running, no board above it.
    import json

    import davinci.engine.race as race
    from davinci.engine.play import save_document

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", lambda humans, *a, **k: {s: (12.0, "bolt") for s in humans})
    game = load_game("da-vinci-game", settings={"first_team": 2})
    seats = parse_seats("human:Ana,scholar,scholar", game)
    st = game.new_state([s.name for s in seats], seed=1)
    st.apply(1, "go k21")  # the second team's move lands on a clue space: Ana answers its challenge
    assert st.pending["type"] == "respond" and 0 in st.current_seats
    save = tmp_path / "g.json"
    save.write_text(json.dumps(save_document(st, seats, 1, {"first_team": 2})))
    console = Console(file=io.StringIO(), width=120)

    def ask(prompt: str = "") -> str:
        raise EOFError

    run_play(game, [], 0, {}, console, ask, resume=str(save), clear=False, timer=True)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "The Da Vinci Game - turn" in out and out.index("The Da Vinci Game - turn") < out.index("Challenge for")


def test_a_challenge_after_a_bots_move_shows_the_board_before_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh game whose first move is a bot's onto a clue space opened on the card, no board.
    import davinci.engine.race as race

    monkeypatch.setattr(race, "race_available", lambda: True)
    monkeypatch.setattr(race, "run_race", lambda humans, *a, **k: {s: (12.0, "bolt") for s in humans})
    game = load_game("da-vinci-game", settings={"first_team": 2})
    console = Console(file=io.StringIO(), width=120)

    def ask(prompt: str = "") -> str:
        raise EOFError

    run_play(game, parse_seats("human:Ana,scholar,scholar", game), 5, {}, console, ask, clear=False, timer=True)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Challenge for Ana" in out and out.index("The Da Vinci Game - turn") < out.index("Challenge for Ana")


TWO_STEPS = """\
kind: game
id: twostep
name: Two steps
players: {min: 2, max: 2}
turn_order: {first: "1"}
flow:
  turn:
    - choose:
        options:
          - action: mark
            do: [{log: "{current.name} marks"}]
    - choose:
        options:
          - action: done
            do: [{end_turn: true}]
end:
  max_turns: 3
  when: "false"
  winners: "seats"
"""


def test_a_player_who_moved_again_since_an_outcome_is_not_asked_to_read_it_again(tmp_path: Any) -> None:
    # The outcome of Ann's `mark` was shown; she then typed `done` (which shows nothing new) under
    # it, yet the keyboard waited for "Ann: press Enter when you have read this" with nothing to read.
    from helpers import write_game_pack

    game = load_game("twostep", packs=[write_game_pack(tmp_path, "twostep", TWO_STEPS)])
    moves = iter(["", "mark", "done", "", "mark", "done"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 6:
            raise EOFError
        return next(moves)

    console = Console(file=io.StringIO(), width=100)
    run_play(game, parse_seats("human:Ann,human:Ben", game), 1, {}, console, ask, clear=False, timer=False)
    assert "Ann marks" in console.file.getvalue()
    assert [p for p in asked if "read this" in p] == []
    assert asked[:4] == ["", "> ", "> ", ""]  # Ann's two moves, then straight to passing the keyboard
