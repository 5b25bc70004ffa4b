"""The one-keyboard race: lock-in order by key presses, masked answers, bots announced, time limit."""

from __future__ import annotations

import pytest

from davinci.engine.race import run_race


class FakeTerminal:
    """Replays (time, key) events against a fake clock."""

    def __init__(self, clock: list[float], events: list[tuple[float, str]]) -> None:
        self.clock = clock
        self.events = events

    def __enter__(self) -> FakeTerminal:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def key(self, timeout: float) -> str | None:
        if self.events and self.events[0][0] <= self.clock[0] + timeout:
            t, k = self.events.pop(0)
            self.clock[0] = max(self.clock[0], t)
            return k
        self.clock[0] += timeout
        return None


def test_humans_lock_in_with_their_key_and_bots_are_announced() -> None:
    clock = [0.0]
    events = [(3.0, "2"), (3.1, "r"), (3.2, "o"), (3.3, "m"), (3.4, "e"), (3.5, "\n"), (7.0, "1"), (7.1, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben", "Bot"], {2: 5.0}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    # Ben took the keyboard at 3.0 s and ended his answer at 3.5 s: the bid's time is 3.5 s.
    assert res[1] is not None and res[1][1] == "rome" and abs(res[1][0] - 3.5) < 0.01
    assert res[0] is None  # locked in, but gave an empty answer: counts as a pass
    text = "".join(out)
    assert "Bot locks in at 5.0s" in text
    assert "rome" not in text  # the answer was masked
    assert "Ana passes\n" in text and "an empty answer passes" in text  # said at once, and before


def test_the_bots_shown_during_the_race_are_reported() -> None:
    # After the race, lock-ins shown live are not repeated; a bot the race ended before was never
    # shown, and its lock-in must stay in the summary.
    clock = [0.0]
    shown: set[int] = set()
    events = [(1.0, "1"), (1.2, "x"), (1.5, "\n")]
    run_race([0], ["Ana", "Early", "Late"], {1: 0.5, 2: 30.0}, 60, [].append, FakeTerminal(clock, events),
             lambda: clock[0], shown=shown)
    assert shown == {1}


def test_nobody_answers_before_the_limit() -> None:
    clock = [0.0]
    out: list[str] = []
    res = run_race([0], ["Ana"], {}, 2, out.append, FakeTerminal(clock, []), lambda: clock[0])
    assert res == {0: None}
    assert "Time is up" in "".join(out)


def test_thinking_after_taking_the_keyboard_costs_time() -> None:
    # Ben presses his key at 1 s and is still typing when the 5 seconds run out: the clock goes
    # on on his line, and the time is up (it vanished while he typed, and nothing said so).
    clock = [0.0]
    events = [(1.0, "2"), (1.5, "g"), (15.9, "o"), (16.0, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben"], {}, 5, out.append, FakeTerminal(clock, events), lambda: clock[0])
    assert res == {0: None, 1: None}
    text = "".join(out)
    assert "  3.0 s left - Ben: | " in text and "\x1b[KTime is up.\n" in text and "locks in" not in text


def test_typing_the_answer_before_taking_the_keyboard_says_to_press_the_number_first() -> None:
    clock = [0.0]
    events = [(1.0, "p"), (1.1, "i"), (2.0, "1"), (2.5, "p"), (2.6, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    text = "".join(out)
    assert text.count("First press your team's number ([1], [2]), then type the answer") == 1  # once, not per key
    assert res[0] is not None and res[0][1] == "p"


def test_a_limit_of_zero_is_an_untimed_race() -> None:
    # The game's timer setting 0 plays untimed: no countdown, nobody is late, the race waits for
    # every team (it had become a 60-second race).
    clock = [0.0]
    events = [(200.0, "2"), (200.5, "\n"), (400.0, "1"), (401.0, "x"), (402.0, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben", "Bot"], {2: 300.0}, 0, out.append, FakeTerminal(clock, events),
                   lambda: clock[0])
    text = "".join(out)
    assert "Clock started (untimed" in text and "Time is up" not in text and "too late" not in text
    assert "To stop the game, type quit as the answer" in " ".join(text.split())  # (wrapped at the width)
    assert "Bot locks in at 300.0s" in text
    assert res == {1: None, 0: (402.0, "x")}


def test_a_key_is_read_whole_accents_and_arrows_included() -> None:
    # An accented letter is two bytes: read one at a time, 'Zürich' was typed as 'Z\ufffd\ufffdrich'
    # and never matched the answer. An arrow key's escape sequence adds nothing to the answer.
    from davinci.engine.race import decode_key

    def keys(data: bytes) -> list[str]:
        stream = list(data)
        out = []
        while stream:
            first = bytes([stream.pop(0)])

            def more() -> bytes:
                return bytes([stream.pop(0)]) if stream else b""

            out.append(decode_key(first, more))
        return out

    assert "".join(keys("Zürich".encode())) == "Zürich"
    assert "".join(keys("Nîmes 日本 🎲".encode())) == "Nîmes 日本 🎲"
    assert keys(b"a\x1b[Db\x1bOAc") == ["a", "", "b", "", "c"]
    assert keys(b"\x1b") == [""]  # a lone Escape


def test_an_answer_is_typed_in_the_race_with_backspace_and_the_keys_ctrl_c_and_ctrl_d() -> None:
    clock = [0.0]
    events = [(1.0, "1"), (1.1, "r"), (1.2, "o"), (1.3, "\x7f"), (1.4, "a"), (1.5, ""), (1.6, "m"), (1.7, "e"),
              (1.8, "\n")]
    res = run_race([0, 1], ["Ana", "Ben"], {}, 0, [].append, FakeTerminal(clock, events + [(2.0, "2"), (2.1, "\n")]),
                   lambda: clock[0])
    assert res[0] == (1.8, "rame")  # an arrow or a lone Escape ("") adds nothing
    for key, stop in (("\x03", KeyboardInterrupt), ("\x04", EOFError)):
        with pytest.raises(stop):
            run_race([0, 1], ["Ana", "Ben"], {}, 0, [].append, FakeTerminal([0.0], [(1.0, "1"), (1.1, "a"), (1.2, key)]),
                     lambda: 0.0)


def test_a_lock_in_time_is_rounded_up_so_it_never_reads_within_a_limit_it_missed() -> None:
    from davinci.engine.values import lock_in_text

    # 60.04 s is too late for a 60-second race: it read "locks in at 60.0s", then "too late".
    assert [lock_in_text("Ana", t) for t in (60.04, 60.0, 59.96, 5.6)] == [
        "Ana locks in at 60.1s", "Ana locks in at 60.0s", "Ana locks in at 60.0s", "Ana locks in at 5.6s"]


def test_quit_typed_as_a_race_answer_stops_the_game() -> None:
    # It was taken as the team's answer ("Team 1 answered 'quit': wrong"), tokens paid and all.
    from davinci.engine.race import QuitGame

    clock = [0.0]
    events = [(1.5, "Q"), (1.6, "u"), (1.7, "i"), (1.8, "t"), (2.0, "\n")]  # alone: no key to press first
    with pytest.raises(QuitGame):
        run_race([0], ["Ana", "Bot"], {1: 5.0}, 60, [].append, FakeTerminal(clock, events), lambda: clock[0])


def test_keys_arriving_as_the_race_starts_were_typed_before_it_and_are_thrown_away() -> None:
    # A team a moment too slow for one race typed "1", "late" and Enter after its clock ran out;
    # the next challenge was already on the screen, and the keys locked in 'late' there at 0.1 s.
    clock = [0.0]
    events = [(0.05, "1"), (0.1, "l"), (0.12, "a"), (0.14, "t"), (0.16, "e"), (0.2, "\n"),
              (2.5, "x"), (3.0, "\n")]  # alone in the race: the team has the keyboard once the race is on
    res = run_race([0], ["Ana"], {}, 60, [].append, FakeTerminal(clock, events), lambda: clock[0])
    assert res[0] is not None and res[0][1] == "x" and res[0][0] == 3.0


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
def test_keys_typed_before_a_race_or_its_pause_are_thrown_away_at_a_terminal() -> None:
    import os
    import subprocess
    import sys

    main, child = os.openpty()
    code = ("import select, sys, time; from davinci.engine.race import RawTerminal, settle_typeahead\n"
            "print('start', flush=True); time.sleep(0.5)\n"  # the keys typed now wait for the race
            "with RawTerminal() as t: print(repr(t.key(0.3)), flush=True)\n"
            "settle_typeahead()\n"  # the pause after the race: an Enter on its way must not pass it
            "print(select.select([sys.stdin], [], [], 0.2)[0] == [], flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=child, stdout=subprocess.PIPE, text=True)
    os.close(child)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "start"
    os.write(main, b"1late\n")
    assert proc.stdout.readline().strip() == "None"  # no key reached the race
    os.write(main, b"\n")  # a late Enter, as the outcome is shown
    assert proc.stdout.readline().strip() == "True"  # nothing left for the pause to read
    proc.wait(timeout=20)
    os.close(main)


def test_a_team_alone_in_its_challenge_types_at_once_and_sees_its_answer() -> None:
    # Its own Treasure or final challenge: pressing its number first was asked for, and the typed
    # letters were dropped; then only a turning mark showed, so a typo could not be caught.
    clock = [0.0]
    events = [(1.0, "l"), (1.1, "a"), (1.2, "s"), (1.3, "h"), (1.4, "\n")]
    out: list[str] = []
    res = run_race([0], ["Ana"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    assert res == {0: (1.4, "lash")}
    text = "".join(out)
    assert "Ana, type your answer; Enter locks it in" in " ".join(text.split())
    assert "First press" not in text and "*" not in text and "hidden" not in text
    assert "- Ana: las" in text and "- Ana: lash" in text


def test_teams_racing_at_one_keyboard_type_hidden_and_are_told_so() -> None:
    # Several teams at one keyboard: one turning mark per key, not the letters nor their number.
    clock = [0.0]
    events = [(1.0, "1"), (1.1, "l"), (1.2, "a"), (1.3, "s"), (1.4, "h"), (1.5, "\n"), (1.6, "1"), (1.7, "2"),
              (1.8, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    text = "".join(out)
    assert res[0] == (1.5, "lash") and "lash" not in text.split("locks in")[0].split("keyboard")[-1]
    assert "the letters stay hidden: a turning mark shows each key" in " ".join(text.split())
    assert "- Ana: / " in text and "- Ana: \\ " in text  # one mark, turned at each key
    assert "Ana has locked in already" in text  # her number pressed again


def test_the_race_instructions_break_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((40, 24)))
    clock = [0.0]
    out: list[str] = []
    run_race([0, 1], ["Ana", "Ben"], {}, 1, out.append, FakeTerminal(clock, []), lambda: clock[0])
    intro = "".join(out).split("\r")[0]
    words = "Clock started (1 s; an empty answer passes). Teams, press your number".split()
    assert all(len(line) <= 39 for line in intro.splitlines())
    assert " ".join(intro.split()).startswith(" ".join(words))


def test_quit_at_a_teams_own_challenge_warns_first_in_the_race_too() -> None:
    # The warning existed for untimed answers only; in a terminal's race `quit` forfeited at once.
    from davinci.engine.race import QuitGame

    clock = [0.0]
    keys = "quit\n"
    events = [(1.0 + i / 10, k) for i, k in enumerate(keys)] + [(2.0 + i / 10, k) for i, k in enumerate("lash\n")]
    out: list[str] = []
    res = run_race([0], ["Ana"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    assert res == {0: (2.4, "lash")} and "Stopping now passes this challenge" in "".join(out)
    twice = [(1.0 + i / 10, k) for i, k in enumerate(keys + keys)]
    clock2 = [0.0]
    with pytest.raises(QuitGame):
        run_race([0], ["Ana"], {}, 60, [].append, FakeTerminal(clock2, twice), lambda: clock2[0])


def test_a_question_mark_typed_as_a_race_answer_is_help_not_a_bid() -> None:
    # `?` and `help` were locked in as wrong answers ("Ana answered 'help': wrong").
    clock = [0.0]
    events = [(1.0, "?"), (1.1, "\n"), (2.0, "l"), (2.1, "a"), (2.2, "s"), (2.3, "h"), (2.4, "\n")]
    out: list[str] = []
    res = run_race([0], ["Ana"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    assert res == {0: (2.4, "lash")}
    assert "Type your answer and press Enter; an empty answer (or 'pass') passes" in "".join(out)


def test_pass_typed_in_the_race_is_a_pass() -> None:
    # "pass" locked in as an answer (a wrong bid) where an empty answer passes.
    clock = [0.0]
    events = [(3.0, "1"), (3.1, "p"), (3.2, "a"), (3.3, "s"), (3.4, "s"), (3.5, "\n"), (4.0, "2"), (4.1, "\n")]
    out: list[str] = []
    res = run_race([0, 1], ["Ana", "Ben", "Bot"], {2: 5.0}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    assert res[0] is None and res[1] is None
    assert "Ana passes\n" in "".join(out)


def test_a_move_prompt_command_typed_in_the_race_is_asked_about_once() -> None:
    # `history 12` at an answer prompt was locked in as the team's (wrong) bid.
    clock = [0.0]
    typed = "history 12\n"
    events = [(1.0 + i / 10, k) for i, k in enumerate(typed)] + [(3.0 + i / 10, k) for i, k in enumerate(typed)]
    out: list[str] = []
    res = run_race([0], ["Ana"], {}, 60, out.append, FakeTerminal(clock, events), lambda: clock[0])
    said = " ".join("".join(out).split())  # (wrapped to the terminal's width)
    assert "'history 12' is a command at the move prompt, not here: type it again to answer it" in said
    assert res == {0: (4.0, "history 12")}  # typed again: the answer
