"""A timed race at one keyboard: every responding seat locks in by pressing its key.

Used by `davinci play` when a `respond` step (a challenge for several seats at once) includes
humans and a terminal is attached. The clock starts when the card is shown (after the first
reveal of a two-step card); a countdown runs; each human seat presses its number to take the
keyboard and types its answer masked, so neighbours cannot read it: the answer locks in, and its
time is taken, when Enter ends it. Bots lock in at their simulated times. Without a terminal (or
with --no-timer) the humans answer one after another, each with their own clock.
"""

from __future__ import annotations

import errno
import os
import select
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import Any

from davinci.engine.values import lock_in_text


class QuitGame(Exception):
    """The player typed `quit`: stop the game normally (offering to save, as Ctrl-C does)."""


# The words that stop the game at `davinci play`'s prompts, a race's answer included.
STOP_WORDS = ("quit", "exit")
# Typed as an answer, a request for help (no answer is a question mark), and what it says.
HELP_WORDS = ("?", "help")
# Typed as an answer, a pass, as an empty line is: a newcomer types the word the prompt uses (no
# clue's answer is the word itself).
PASS_WORDS = ("pass",)
ANSWER_HELP = ("Type your answer and press Enter; an empty answer (or 'pass') passes; 'quit' stops the game (in a "
               "challenge of your own, stopping loses it). The clock runs on.")


def race_available() -> bool:
    """True when stdin is an interactive POSIX terminal (raw key reads are possible)."""
    if sys.stdin is None or not sys.stdin.isatty() or os.name != "posix":  # None: stdin closed
        return False
    try:
        import termios  # noqa: F401
        import tty  # noqa: F401
    except ImportError:  # pragma: no cover - non-POSIX
        return False
    return True


def decode_key(first: bytes, more: Callable[[], bytes]) -> str:
    """The character that starts with the byte `first`, reading the rest of it with `more` (one
    byte, b"" when nothing follows): a UTF-8 character whole, an escape sequence (ESC [ D, an
    arrow key) swallowed as ""."""
    lead = first[0]
    if lead == 0x1B:  # ESC: a lone Escape, or the start of a key's sequence
        nxt = more()
        if nxt in (b"[", b"O"):
            while True:  # parameters, then a final byte from @ to ~
                b = more()
                if not b or 0x40 <= b[0] <= 0x7E:
                    break
        return ""
    need = 1 if 0xC0 <= lead < 0xE0 else 2 if 0xE0 <= lead < 0xF0 else 3 if 0xF0 <= lead < 0xF8 else 0
    data = first
    for _ in range(need):
        b = more()
        if not b:
            break
        data += b
    return data.decode("utf-8", "replace")


class RawTerminal:
    """Context manager: cbreak mode with no echo; restores the terminal on exit, always. Keys
    typed before it starts or left unread when it ends are thrown away: a key pressed a moment
    after the clock ran out must not lock in an answer to the next challenge, nor pass the pause
    where the other players read the outcome."""

    def __enter__(self) -> RawTerminal:
        import termios
        import tty

        self.fd = sys.stdin.fileno()
        try:
            self.old = termios.tcgetattr(self.fd)
            termios.tcflush(self.fd, termios.TCIFLUSH)
            tty.setcbreak(self.fd)
        except termios.error as e:  # (not an OSError) the terminal is gone: its window closed
            raise OSError(e.args[0] if e.args else errno.EIO, "the terminal cannot be set up") from None
        return self

    def __exit__(self, *exc: Any) -> None:
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSAFLUSH, self.old)
        except (termios.error, OSError):
            # The terminal's window closed during the race: nothing to restore, and the hangup
            # under way (the game is saved) must not give way to this error.
            pass

    def key(self, timeout: float) -> str | None:
        """One character, or None after `timeout` seconds; EOFError when input is closed.

        A character is read whole (an accented letter is two or more bytes: `Zürich` must not
        come out as `Z??rich`), and a key that sends an escape sequence (an arrow) is read whole
        and given as "" (no character)."""
        ready, _, _ = select.select([sys.stdin], [], [], max(0.0, timeout))
        if not ready:
            return None
        data = os.read(self.fd, 1)
        if not data:
            raise EOFError
        return decode_key(data, self._more)

    def _more(self) -> bytes:
        """One more byte that is already waiting, or b"" when none comes at once."""
        ready, _, _ = select.select([sys.stdin], [], [], 0.05)
        return os.read(self.fd, 1) if ready else b""


def stop_warning(word: str, card: bool = True) -> str:
    """What a team alone in its challenge is told when it types `quit` (or `exit`) the first time
    (`card`: the challenge shows a card, which it has then seen)."""
    seen = " (the card has been seen)" if card else ""
    return (f"Stopping now passes this challenge: it counts as not solved{seen}. Type '{word}' again to stop, or "
            "your answer.")


# The move prompt's commands: typed as an answer they are asked about once (`save` was locked in
# as a wrong answer by a player meaning to save).
COMMAND_WORDS = ("save", "history", "list")


def command_question(text: str) -> str:
    """What a player who typed a move prompt command as an answer is told (once)."""
    return f"'{text}' is a command at the move prompt, not here: type it again to answer it, or type your answer"


def command_typed(text: str) -> bool:
    """Whether an answer reads as one of the move prompt's commands: `save`, `save FILE`, `list`,
    `history`, `history 12`, `history all` (`history 12` was locked in as a wrong answer)."""
    words = text.lower().split()
    if not words or words[0] not in COMMAND_WORDS:
        return False
    if len(words) == 1:
        return True
    if words[0] == "history":
        return len(words) == 2 and (words[1] == "all" or words[1].isdigit())
    return words[0] == "save" and len(words) == 2 and "." in words[1]  # `save game.json`, not `save the queen`


TYPING_MARKS = "|/-\\"  # one character, turned at each key: an answer's length shows nowhere
CLEAR_LINE = "\x1b[K"  # the rest of the line erased (the clock's line is written over)


def line_key(buf: list[str], ch: str) -> str:
    """Apply one key to the line `buf` being typed: "end" for Enter, "erased" when Backspace took a
    character off, "added" when one was typed, "" when nothing changed; Ctrl-C raises
    KeyboardInterrupt and Ctrl-D EOFError."""
    if ch in ("\r", "\n"):
        return "end"
    if ch == "\x03":
        raise KeyboardInterrupt
    if ch == "\x04":
        raise EOFError
    if ch in ("\x7f", "\b"):
        if buf:
            buf.pop()
            return "erased"
    elif ch and ch.isprintable():
        buf.append(ch)
        return "added"
    return ""


def countdown_line(
    term: Any,
    limit: float,
    write: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
    width: int = 80,
) -> tuple[str, float, bool]:
    """Read one visible line while a countdown of `limit` seconds runs in front of it, redrawn
    as it ticks: (the text, the seconds it took, whether the time ran out first). The clock
    starts at the call; when it runs out, what was typed so far is returned and the line ends.
    Only the end of a long answer is shown, so that the redrawn line never wraps."""
    from rich.cells import cell_len

    buf: list[str] = []
    start = clock()
    shown = ""
    room = max(10, width - 20)  # columns for the answer after "  59.9 s left > "
    with term:
        while True:
            elapsed = clock() - start
            left = limit - elapsed
            text = "".join(buf)
            tail = text[-room:]
            while cell_len(tail) > room:  # wide letters (CJK) take two columns each
                tail = tail[1:]
            line = f"\r{max(left, 0.0):5.1f} s left > {tail}"
            if line != shown:
                write(line + "\x1b[K")  # erase what a longer line left behind
                shown = line
            if left <= 0:
                write("\n")
                return text, elapsed, True
            ch = term.key(min(0.1, left))
            if ch is not None and line_key(buf, ch) == "end":
                write("\n")
                return "".join(buf), clock() - start, False


# Keys that arrive this soon after a race starts were typed before it: nobody reads a new
# challenge and presses a key that fast (a team a moment late for the previous race, typing on).
TYPEAHEAD_S = 0.3


def settle_typeahead() -> None:
    """At a terminal, wait out keys still on their way from a race that just ended and throw
    away what was typed: the pause after a race is for reading its outcome, and a late team's
    Enter must not pass it for everyone."""
    if not sys.stdin.isatty():
        return
    try:
        import termios

        time.sleep(TYPEAHEAD_S)
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError):  # no terminal control here (the pause reads as it is)
        pass


def run_race(
    humans: Sequence[int],
    names: Sequence[str],
    bot_times: dict[int, float],
    limit: int,
    write: Callable[[str], None],
    terminal: Any = None,
    clock: Callable[[], float] = time.monotonic,
    shown: set[int] | None = None,
    results: dict[int, tuple[float, str] | None] | None = None,
    masked: bool | None = None,
) -> dict[int, tuple[float, str] | None]:
    """Run the lock-in race; returns, per human seat, (seconds, answer) or None (no answer).

    An answer is typed `masked` (one turning mark, not its letters) when several humans race
    at the keyboard (the default); a human racing alone, against bots or in its own challenge,
    sees what it types.

    `bot_times` maps bot seats to the second at which they lock in (shown as they happen; the
    bots shown are added to `shown` when it is given). A `limit` of 0 is an untimed race: it ends
    when every human has locked in, and the clock counts up only to order the bids. An empty
    answer passes, and says so. `results`, when given, is filled as seats lock in (the caller
    keeps what was locked in when the race is stopped).
    """
    term = terminal if terminal is not None else RawTerminal()
    keys = {str(s + 1): s for s in humans}
    results = {} if results is None else results
    announced: set[int] = set()
    hinted = False
    start = clock()
    length = (f"{limit} s; an empty answer passes" if limit
              else "untimed: the race ends when every team has locked in; an empty answer passes")
    # One team answering (its own challenge) has the keyboard at once; several press their number.
    solo = humans[0] if len(humans) == 1 else None
    masked = len(humans) > 1 if masked is None else masked
    how = (f"{names[solo]}, type your answer; Enter locks it in" if solo is not None else
           "Teams, press your number to lock in: " + ", ".join(f"[{s + 1}] {names[s]}" for s in humans))
    hidden = " (the letters stay hidden: a turning mark shows each key)" if masked else ""
    intro = (f"Clock started ({length}). {how}{hidden}. To stop the game, type quit as the answer (or press "
             "Ctrl-C).")
    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    write(textwrap.fill(intro, width) + "\n")  # broken between words, not wherever the edge falls
    warned = False  # a team alone in its challenge was told what stopping costs
    asked: dict[int, str] = {}  # a command word each seat typed as its answer, asked about once
    typing: int | None = None  # the team typing its answer now (the clock goes on on its line)
    buf: list[str] = []
    turns = 0
    with term:
        while len(results) < len(humans):
            elapsed = clock() - start
            for s, t in sorted(bot_times.items(), key=lambda kv: kv[1]):
                if s not in announced and t <= elapsed and (t <= limit or not limit):
                    announced.add(s)
                    write(f"\r{CLEAR_LINE}{lock_in_text(names[s], t)}\n")
            if limit and limit - elapsed <= 0:
                write(f"\r{CLEAR_LINE}Time is up.\n")  # a team still typing had not locked in: a pass
                break
            left = f"{elapsed:5.1f} s" if not limit else f"{limit - elapsed:5.1f} s left"
            if typing is None:
                write(f"\r{left} ")
            elif masked:  # one turning mark: the others see that the team types, not how long its answer is
                write(f"\r{left} - {names[typing]}: {TYPING_MARKS[(turns - 1) % len(TYPING_MARKS)] if turns else ''} ")
            else:  # the answer as typed, its end when it is longer than the line
                head = f"{left} - {names[typing]}: "
                room = max(1, width - len(head) - 1)
                typed = "".join(buf)[-room:]
                write(f"\r{CLEAR_LINE}{head}{typed}")
            if typing is None and solo is not None and elapsed >= TYPEAHEAD_S:
                typing, buf, turns = solo, [], 0  # (keys typed before the race was on the screen are dropped)
                continue
            ch = term.key(0.1)
            if ch is None:
                continue
            if typing is not None:
                done = line_key(buf, ch)  # Ctrl-C and Ctrl-D raise here too
                if done == "added" or done == "erased":
                    turns += 1
                if done != "end":
                    continue
                # The bid is placed once the answer is written (the rule's order): the time that
                # counts is when Enter ends the answer, not when the key was pressed.
                seat, answer, typing = typing, "".join(buf).strip(), None
                if answer.lower() in PASS_WORDS:
                    answer = ""
                t = clock() - start
                if answer.lower() in STOP_WORDS:
                    if seat == solo and not bot_times and not warned:  # its own challenge: stopping loses it
                        warned = True
                        write(f"\r{CLEAR_LINE}{textwrap.fill(stop_warning(answer), width)}\n")
                        typing, buf, turns = seat, [], 0
                        continue
                    raise QuitGame
                if answer in HELP_WORDS:
                    write(f"\r{CLEAR_LINE}{ANSWER_HELP}\n")
                    typing, buf, turns = seat, [], 0
                    continue
                if command_typed(answer) and asked.get(seat) != answer.lower():
                    asked[seat] = answer.lower()  # (typed again, it is the answer)
                    write(f"\r{CLEAR_LINE}{textwrap.fill(command_question(answer), width)}\n")
                    typing, buf, turns = seat, [], 0
                    continue
                write(f"\r{CLEAR_LINE}" + (lock_in_text(names[seat], t) + (" - too late" if limit and t > limit else "")
                                           if answer else f"{names[seat]} passes") + "\n")
                results[seat] = (t, answer) if answer else None
                continue
            if ch == "\x03":
                raise KeyboardInterrupt
            if ch == "\x04":
                raise EOFError
            if elapsed < TYPEAHEAD_S or solo is not None:
                continue  # typed before this race was on the screen (too late for the last one)
            pressed = keys.get(ch)
            if pressed is not None and pressed in results:
                write(f"\r{CLEAR_LINE}{names[pressed]} has locked in already\n")
                continue
            if pressed is None:
                if ch and ch.isprintable() and not hinted:
                    # Typing the answer at once is the natural mistake: the keys go nowhere.
                    hinted = True
                    write(f"\r{CLEAR_LINE}First press your team's number (" + ", ".join(
                        f"[{k}]" for k, v in keys.items() if v not in results) + "), then type the answer\n")
                continue
            write(f"\r{CLEAR_LINE}{names[pressed]} has the keyboard - type the answer; Enter locks it in\n")
            typing, buf, turns = pressed, [], 0
    for s in humans:
        if s not in results:  # never locked in: a pass, said as for an empty answer
            write(f"{names[s]} passes\n")
            results[s] = None
    if shown is not None:
        shown.update(announced)
    return results
