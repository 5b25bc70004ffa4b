"""The one error family of davinci.

Every mistake a user can cause (bad YAML, bad schema, bad expression, illegal action,
corrupt save) is raised as a `DavinciError` subclass carrying a stable code and, where
one exists, a source location. The CLI prints `path:line:col: CODE message` and exits
non-zero; it never shows a Python traceback for these.
"""

from __future__ import annotations

import difflib
import re
import signal
import unicodedata
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class SourceLocation:
    """A position in a source file; line and col are 1-based."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        return f"{self.path}:{self.line}:{self.col}"


class DavinciError(Exception):
    """Root of every error a user can cause."""

    code: str = "DV000"
    # Lines davinci writes under the message (what else to know, where the log went): each shown
    # on a line of its own, unlike a line feed inside the message, which may come from a file.
    notes: tuple[str, ...] = ()

    def __init__(
        self,
        message: str,
        location: SourceLocation | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return "\n".join((self.headline(), *self.notes))

    def headline(self) -> str:
        """The error without its notes: `path:line:col: CODE message`."""
        if self.location is not None:
            return f"{self.location}: {self.code} {self.message}"
        return f"{self.code} {self.message}"

    def add_note(self, text: str) -> None:
        """Add a line under the message."""
        self.notes = (*self.notes, text)


class BuildErrors(DavinciError):
    """Several problems found while building one game (every wrong expression, not only the first).

    Reads as the first problem, saying how many more there are; `problems` holds them all in the
    order they were found.
    """

    def __init__(self, problems: list[DavinciError]) -> None:
        first = problems[0]
        more = len(problems) - 1
        super().__init__(first.message, first.location, first.code)
        self.notes = first.notes
        if more:
            self.add_note(f"(and {more} more problem{'s' if more > 1 else ''}: `davinci lint` lists them all)")
        self.problems = problems


class YamlError(DavinciError):
    """The file is not acceptable YAML (syntax, duplicate keys, aliases, size, depth, encoding)."""

    code = "DV001"


class SchemaError(DavinciError):
    """The YAML does not match its JSON Schema."""

    code = "DV010"


class RefError(DavinciError):
    """An id does not resolve, or is defined twice."""

    code = "DV020"


class PackError(DavinciError):
    """A content pack is malformed or points outside its folder."""

    code = "DV030"


class ExprSyntaxError(DavinciError):
    """A rule expression does not parse."""

    code = "DV040"


class ExprTypeError(DavinciError):
    """A rule expression is well-formed but wrong: unknown name, bad types, bad arity."""

    code = "DV041"


class EvalError(DavinciError):
    """A rule expression failed while being evaluated (division by zero, empty max...)."""

    code = "DV042"


class DefinitionError(DavinciError):
    """A game definition is inconsistent in a way the schema cannot see."""

    code = "DV050"


class IllegalAction(DavinciError):
    """An action was not legal in the current state; the message says why."""

    code = "DV060"


class NoSuchSeat(IllegalAction, ValueError):
    """A seat number that is not one of the table's (0-based) seats; also a ValueError, as
    `State.view` raised before it was a DavinciError."""


class BotError(DavinciError):
    """A bot failed: it raised an exception, returned something that is not an action, or chose
    an action the rules refuse. The message names the bot and its seat."""

    code = "DV061"


# Signals that stop a game or a simulation as Ctrl-C does (a game is saved, a simulation reports
# the games it played): a kill, a terminal window closed, and Ctrl-\ (SIGQUIT: it left a challenge
# unsettled, and the resumed game dealt the same card again).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))


class InputCut(EOFError):
    """The input ended at a line too long to be a move or an answer: an end of input, but an
    error (the game's exit code says so)."""


class StopSignal(KeyboardInterrupt):
    """One of STOP_SIGNALS, raised where it arrived as Ctrl-C is: never mistaken for a bot's own
    KeyboardInterrupt (a run started in the background ignores Ctrl-C, and a `kill` during a bot's
    move was reported as the bot's failure, its games lost)."""


def debug_trace(error: BaseException) -> str:
    """With DAVINCI_DEBUG set, the traceback of what caused `error` (a bot's own exception: its
    author's file and line), else "". Kept as text, so that it crosses from a worker process."""
    import os

    if not os.environ.get("DAVINCI_DEBUG"):
        return ""
    cause = error.__cause__
    if cause is None:
        return str(getattr(error, "debug_trace", ""))
    import traceback

    return "".join(traceback.format_exception(cause))


class SaveError(DavinciError):
    """A save file or log is corrupt, truncated, edited or for other content."""

    code = "DV070"


class ReplayMismatch(SaveError):
    """Replaying a log diverged from what the log recorded."""

    code = "DV071"


class UsageError(DavinciError):
    """A command-line value is invalid (unknown game, bad setting value...)."""

    code = "DV080"


def did_you_mean(name: object, options: Iterable[str], cutoff: float = 0.6, aside: bool = True) -> str:
    """The hint after a name nobody knows: " (did you mean 'x'?)", or with `aside=False`
    "; did you mean 'x'?"; empty when no option is close enough."""
    near = difflib.get_close_matches(str(name), list(options), 1, cutoff)
    if not near:
        return ""
    return f" (did you mean '{near[0]}'?)" if aside else f"; did you mean '{near[0]}'?"


# ---------------------------------------------------------------------- text on a terminal

CONTROL_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters that no text bound for a terminal may hold: every C0 control but tab and
line feed, DEL and every C1 control (ESC and CSI start the sequences that clear the screen,
retitle the window or recolour everything after them), and lone surrogates (a JSON `\\ud800`,
or bytes that are not UTF-8 in a command line), which no terminal encoding can write."""

BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The Unicode direction embeddings, overrides and isolates: one of them in a game's name or a
card's text turns around or reorders everything after it on the line (the marks U+200E, U+200F
and U+061C, which only set the direction of neutral characters nearby, may be used)."""

LINE_CONTROL_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""The same, tab and line feed included: what one line of text may not hold."""

MAX_SEAT_NAME = 40
"""The longest seat (player) name, in characters: a name is one line of a screen."""


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with its control characters written as escapes (`\\x1b`, `\\r`), safe to echo on a
    terminal; tab and line feed stay as they are, unless `one_line`."""
    pattern = _ECHO_LINE if one_line else _ECHO
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escaped, text)


def _escaped(m: re.Match[str]) -> str:
    """One character `printable` escapes: a byte of a file name that is not UTF-8 (read as a lone
    surrogate, U+DC80-U+DCFF) as that byte, `\xe9`, the others as Python writes them."""
    c = m.group()
    return f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else repr(c)[1:-1]


# What `printable` escapes: control characters, and the direction controls and line separators
# that would turn around or break the rest of a message (a file name or a log's game id).
_ECHO = re.compile(f"{CONTROL_CHARS.pattern}|{BIDI_CONTROLS.pattern}|[\u2028\u2029]")
_ECHO_LINE = re.compile(f"{LINE_CONTROL_CHARS.pattern}|{BIDI_CONTROLS.pattern}|[\u2028\u2029]")


# Letters that show as nothing (the Hangul fillers, the blank Braille pattern): a name of them alone
# reads as "Pass the keyboard to " on the screen.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def shows_nothing(text: str) -> bool:
    """Whether `text` has no character that shows by itself: only spaces, accents (combining
    marks) and invisible characters (`hides_text`)."""
    return all(c.isspace() or unicodedata.category(c) in ("Mn", "Me") or hides_text(c) for c in text)


def hides_text(c: str) -> bool:
    """Whether the character `c` is invisible or changes the direction of what follows (Unicode
    format characters such as U+202E, line and paragraph separators, letters that show as nothing)."""
    return unicodedata.category(c) in ("Cf", "Zl", "Zp") or c in _BLANK_LETTERS


_UNKNOWN_NAME = re.compile(r"unknown name '([^']+)'")


def unknown_name(message: str) -> str | None:
    """The name an expression check's "unknown name 'X'..." message is about, else None."""
    m = _UNKNOWN_NAME.match(message)
    return m.group(1) if m else None


def retell(error: DavinciError, first_line: str) -> None:
    """Say an error's first line better, keeping the lines under it (the expression and its caret)."""
    _first, nl, rest = error.message.partition("\n")
    error.message = f"{first_line}{nl}{rest}"


def retell_unknown_name(compiled: Any, names: Container[str], say: Callable[[str], str]) -> None:
    """When the compiled expression `compiled` failed its check on an unknown name among `names`,
    its message says `say(name)` instead (why that name is unknown there, and what to write)."""
    error = getattr(compiled, "error", None)
    name = unknown_name(error.message) if isinstance(error, DavinciError) else None
    if error is not None and name is not None and name in names:
        retell(error, say(name))


def message_text(message: str) -> str:
    """A message as a terminal or a CI log shows it: control characters escaped, a line feed kept
    only before a line indented by four spaces (the expression and its caret that davinci shows
    under a message) and written `\\n` elsewhere (one inside a key, a path or a save's field would
    print a line of someone else's choosing), and no line starting with `::` once its indentation
    is skipped (a workflow command a CI runner obeys: its first colon is written `\\x3a`)."""
    lines = printable(message).split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if line.startswith("    "):
            out.append(line)
        else:
            out[-1] += "\\n" + line
    return "\n".join(map(no_ci_command, out))


def no_ci_command(line: str) -> str:
    """`line` unless, its indentation skipped, it starts with `::` (a workflow command a CI runner
    obeys: `::error::`, `::add-mask::`): then its first colon is written `\\x3a`; and the older
    form `##[command]`, obeyed anywhere in a line, is written `#\\x23[`."""
    if "##[" in line:
        line = line.replace("##[", "#\\x23[")
    body = line.lstrip()
    if not body.startswith("::"):
        return line
    cut = len(line) - len(body)
    return line[:cut] + "\\x3a" + line[cut + 1:]


def json_shown(value: Any, limit: int = 80) -> str:
    """A YAML or JSON value as its author wrote it (`null`, `true`, `[1]`, `{"a": 1}`), for a
    message: control characters escaped, at most `limit` characters."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return quoted(text, limit)


def quoted(text: str, limit: int = 60) -> str:
    """`text` as a one-line message shows something a user wrote: control characters escaped,
    at most `limit` characters."""
    shown = printable(text[: limit + 1], one_line=True)
    # Invisible and direction-changing characters too: a right-to-left override would turn the
    # rest of the message around.
    shown = "".join((f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}") if hides_text(c) else c
                    for c in shown)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def seat_names_problem(names: Sequence[str]) -> str | None:
    """Why `names` cannot name a table's seats, or None: each a good `seat_name_problem` name,
    not blank, and no two alike ignoring case ("Pass the keyboard to Ana" names one person)."""
    seen: set[str] = set()
    for name in names:
        problem = seat_name_problem(name)
        if problem is not None:
            return f"the name {problem}"
        if not name.strip():
            return "a seat name is empty"
        if name.casefold() in seen:
            return (f"two seats are named '{quoted(name)}' (names are compared ignoring case): give each player a "
                    "different name")
        seen.add(name.casefold())
    return None


def seat_name_problem(name: str) -> str | None:
    """Why `name` cannot name a seat, or None: a name is one line of at most MAX_SEAT_NAME
    characters without control characters (it is printed on every player's screen)."""
    problem = line_text_problem(name)
    if problem is not None:
        return problem
    if len(name) > MAX_SEAT_NAME:
        return f"'{quoted(name)}' is {len(name):,} characters long (at most {MAX_SEAT_NAME})"
    if name.strip() and shows_nothing(name):
        return f"'{quoted(name)}' shows no letter (only accents or spaces)"
    return None


def line_text_problem(text: str) -> str | None:
    """Why `text` cannot be shown as one line of a screen, or None: it holds a control character,
    or an invisible or direction-changing one (a right-to-left override or a zero-width space
    makes a text read as another)."""
    if LINE_CONTROL_CHARS.search(text) is not None:
        return f"'{quoted(text)}' holds a control character (or bytes that are not UTF-8)"
    hidden = next((c for c in text if hides_text(c)), None)
    if hidden is not None:
        return f"'{quoted(text)}' holds an invisible or direction-changing character (U+{ord(hidden):04X})"
    return None


class ShortFormError(ValueError):
    """Raised by a game screen's `expand` for a short form it recognises but cannot read (the
    message says how to write it); `davinci play` shows it and asks again."""
