"""The generic terminal front end: render views, ask humans, let bots move, save and log.

A game may ship a `screen` module beside its YAML (`davinci.games.<id>.screen`) with
`render(view, seat)` and `HELP`; otherwise a generic rendering of the view is used.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape as markup_escape

from davinci.engine.bots import apply_bot, bot_choice, bot_refused, reseed_for_decision, warm_bots
from davinci.engine.definition import seat_range
from davinci.engine.errors import (
    BIDI_CONTROLS,
    CONTROL_CHARS,
    STOP_SIGNALS,
    BotError,
    DavinciError,
    IllegalAction,
    InputCut,
    SaveError,
    ShortFormError,
    StopSignal,
    UsageError,
    debug_trace,
    did_you_mean,
    message_text,
    no_ci_command,
    printable,
    quoted,
    seat_name_problem,
    seat_names_problem,
)
from davinci.engine.files import (
    DuplicateKey,
    FileProblem,
    check_replaceable,
    read_regular_text,
    unique_members,
)
from davinci.engine.game import screen_module
from davinci.engine.race import (
    ANSWER_HELP,
    HELP_WORDS,
    PASS_WORDS,
    STOP_WORDS,
    QuitGame,
    command_question,
    command_typed,
    stop_warning,
)
from davinci.engine.rng import MAX_SEED, derive_seed
from davinci.engine.serial import newer_format
from davinci.engine.state import MAX_EVENTS
from davinci.engine.values import (
    LIST_ALWAYS,
    LIST_AT_MOST,
    action_line,
    display,
    events_since_own_move,
    lines_on_screen,
    lock_in_text,
    sees,
    tenths_up,
    turn_text,
    winners_text,
)

InputFn = Callable[[str], str]


def esc(text: str) -> str:
    """Text from a pack, a save or the keyboard, ready for the console: its control characters
    written as escapes (`\\x1b`: a typed escape sequence echoed in a message stays text) and its
    terminal markup escaped."""
    return markup_escape(printable(text))


@dataclass
class SeatSpec:
    kind: str  # "human" or a bot name
    name: str


def parse_seats(spec: str | None, game: Any) -> list[SeatSpec]:
    """`human:Ana,deducer` → seat specs; default: one human and bots for the minimum player count."""
    d = game.definition
    if not spec:
        strong = [b for b in d.bots if not b.startswith("random")]
        bot = strong[-1] if strong else "random"  # bots are listed weakest first
        parts = ["human"] + [bot] * (min(max(d.min_players, 2), d.max_players) - 1)  # a solitaire: the human alone
    else:
        parts = [p.strip() for p in spec.split(",")]
        if "" in parts:  # `random,,random`: dropping the gap would silently seat fewer players
            raise UsageError(f"--players '{spec}': seat {parts.index('') + 1} is empty; "
                             "name a player or bot for every seat, separated by single commas")
    from davinci.engine.bots import bot_names

    known = bot_names()
    kinds = [p.partition(":")[0].strip().lower() for p in parts]
    for p, kind in zip(parts, kinds):
        if kind != "human" and kind not in known:
            hint = did_you_mean(kind, ["human", *known])
            raise UsageError(f"unknown player '{quoted(p)}'{hint}: use human[:Name] or a bot ({', '.join(known)})")
    if not d.min_players <= len(parts) <= d.max_players:  # before the names: each is checked against those before it
        raise UsageError(f"{d.name} takes {seat_range(d.min_players, d.max_players, 'player')}, got {len(parts)}")
    seats: list[SeatSpec] = []
    for i, (p, kind) in enumerate(zip(parts, kinds)):
        name = p.partition(":")[2]
        label = name.strip() or (f"{d.seat_label} {i + 1}" if kind == "human" else f"{kind.capitalize()} {i + 1}")
        problem = seat_names_problem([*(s.name for s in seats), label])
        if problem is not None:
            raise UsageError(f"--players: {problem}")
        seats.append(SeatSpec(kind, label))
    from davinci.engine.bots import make_bot

    for kind in {s.kind for s in seats} - {"human"}:  # a bot that plays other games only: refused here
        make_bot(kind, 0, d.id, dict(game.settings))
    return seats


def names_an_arg(args: Sequence[Any], texts: Sequence[str], seat_names: Sequence[str]) -> bool:
    """Whether the lines a move logged name one of its arguments as a word of its own, outside
    the seats' names, so that they say what was chosen ("Ann places ... at 1,1" for `place
    hand.1.1 1,1`). (Any argument found anywhere hid a bot's `ask 1 3` behind "Random 3 says:
    go fish!": the 3 of a seat's name passed for the rank.)"""
    joined = "\n".join(texts)
    for name in sorted(seat_names, key=len, reverse=True):
        joined = joined.replace(name, "\n")
    return any(re.search(rf"(?<![\w.]){re.escape(str(arg))}(?![\w.]|\.\w)", joined) for arg in args)


def draws_itself(mod: Any) -> bool:
    """Whether a game's screen module draws the game (and its result) itself; otherwise the
    generic screen does."""
    return mod is not None and hasattr(mod, "render")


def _transient(e: SaveError) -> SaveError:
    """Mark a write that the system refused (a full disk, a quota, a read-only folder): the same
    file may be written later, unlike one another program changed."""
    e.transient = True  # type: ignore[attr-defined]
    return e


def transient(e: BaseException) -> bool:
    """Whether a SaveError came from the system refusing a write (see `_transient`)."""
    return bool(getattr(e, "transient", False))


def atomic_write(path: str, data: str) -> None:
    """Write a file so that a crash leaves either the old or the new content, never half.

    Only a regular file (or nothing) is replaced: SaveError for a device, a pipe or a link loop.
    A symbolic link is followed: the file it names is written, the link stays a link.
    """
    try:
        check_replaceable(path)
    except FileProblem as e:
        raise SaveError(f"cannot write {path}: {e.reason}; give the name of a new or regular file") from None
    try:
        path = os.path.realpath(path)  # replacing the link itself would cut it from its file
    except OSError as e:  # a relative name in a working folder that is gone (deleted)
        raise _transient(SaveError(f"cannot write {path}: the working folder is gone ({e.strerror or e})")) from None
    folder = os.path.dirname(path) or "."
    # Ctrl-C waits for the write to finish: stopped between making the temporary file and
    # replacing the target, it would leave the temporary file behind.
    with deferred_interrupts():
        try:
            fd, tmp = tempfile.mkstemp(prefix=".davinci-", dir=folder)
        except OSError as e:
            import errno

            why = (f": the folder {folder} cannot be written ({e.strerror}; the file is written anew beside the old "
                   "one, then put in its place)" if e.errno in (errno.EACCES, errno.EROFS, errno.EPERM)
                   else f": {e.strerror or e}")
            raise _transient(SaveError(f"cannot write {path}{why}")) from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise _transient(SaveError(f"cannot write {path}: {e.strerror or e}")) from None
            raise


_MARKER = {"save": "davinci_save", "log": "davinci_log"}


# Which game a save or log holds (game id, variant, seed, seat names, settings), and its moves.
GameId = tuple[tuple[Any, ...], list[tuple[Any, Any]]]


def game_identity(doc: Any, what: str) -> GameId | None:
    """The game a save or log document holds and the moves it has, or None when it does not say."""
    if not isinstance(doc, dict):
        return None
    inner = doc if what == "log" else (doc.get("saved") or {})
    if not isinstance(inner, dict):
        return None
    seats = doc.get("seats")
    names = tuple(s.get("name") for s in seats if isinstance(s, dict)) if isinstance(seats, list) else None
    settings = json.dumps(doc.get("settings_override"), sort_keys=True, default=str)
    moves = doc.get("actions") if what == "log" else (inner.get("state") or {}).get("history")
    history = [(m[0], m[1]) for m in moves if isinstance(m, list) and len(m) == 2] if isinstance(moves, list) else []
    return (inner.get("game"), inner.get("variant"), doc.get("seed"), names, settings), history


def _unfinished(doc: dict[str, Any], what: str) -> bool:
    if what == "log":
        return not doc.get("result")
    state = (doc.get("saved") or {}).get("state")
    return not (isinstance(state, dict) and state.get("terminal"))


def check_write_target(path: str, what: str, mine: GameId | None = None) -> None:
    """SaveError unless the `what` ("save" or "log") may be written at `path`.

    Allowed: nothing there yet, an empty file, a davinci file of that kind (by its format marker)
    holding a finished game, or holding `mine`, the game being played, at an earlier move (its
    game, variant, seed, seats and settings, and moves that begin ours: a resumed game saves over
    its own save). Another unfinished game is never replaced (a forgotten --resume lost it), nor
    is anything else at the path: someone's data, or a device or pipe. A name holding a control
    or direction character is refused: the resume command printed for it would name another file.
    """
    bad = CONTROL_CHARS.search(path) or BIDI_CONTROLS.search(path)
    if bad is not None:
        raise SaveError(f"cannot write the {what} to {printable(path)}: the name holds the character "
                        f"{printable(bad.group())}; give a plain file name")
    try:
        exists = check_replaceable(path)
    except FileProblem as e:
        raise SaveError(
            f"cannot write the {what} to {path}: {e.reason}; give the name of a new file or of an earlier davinci {what}"
        ) from None
    if not exists:
        return
    try:
        text: str | None = read_regular_text(path, MAX_JSON_CHARS)
    except FileProblem:
        text = None
    if text is not None and not text.strip():
        return  # an empty file holds nothing to lose
    doc: Any = None
    if text is not None:
        try:  # (a byte-order mark, as an editor may write one, is no reason to refuse the file: see read_json_file)
            doc = json.loads(text.removeprefix("\ufeff"), parse_constant=_no_constant, parse_float=_finite_float)
        except (ValueError, RecursionError):
            doc = None
    if not (isinstance(doc, dict) and doc.get(_MARKER[what]) == 1):
        other = next((f" (it is a davinci {k})" for k, m in _MARKER.items() if isinstance(doc, dict) and doc.get(m) == 1), "")
        raise SaveError(
            f"{path} already exists and is not a davinci {what}{other}, so it is not overwritten; "
            "choose another file name, or move or delete that file first"
        )
    held = game_identity(doc, what)
    # Only the same game, whose moves so far begin with the file's, may replace an unfinished one
    # (a resumed game over its own save); a new game never does, even with the same seed and seats.
    same = mine is not None and held is not None and held[0] == mine[0]
    theirs, ours_so_far = (held[1] if held else []), (mine[1] if mine else [])
    ours = same and ours_so_far[:len(theirs)] == theirs
    if same and len(theirs) > len(ours_so_far) and theirs[:len(ours_so_far)] == ours_so_far:
        # The same game, further on (finished or not): an older save resumed would cut it back.
        again = f"resume it with: davinci play --resume {path}" if what == "save" else f"replay it with: davinci replay {path}"
        raise SaveError(f"{path} holds this game further on ({len(theirs)} moves, this one {len(ours_so_far)}), so "
                        f"it is not overwritten ({again}); choose another file name, or move or delete that file first")
    if _unfinished(doc, what) and not ours:
        game = held[0][0] if held and isinstance(held[0][0], str) else "a game"
        again = f"resume it with: davinci play --resume {path}" if what == "save" else "it logs that game"
        raise SaveError(f"{path} holds another unfinished game ({printable(game)}), so it is not overwritten "
                        f"({again}); choose another file name, or move or delete that file first")


HANGUP = getattr(signal, "SIGHUP", None)


class HangUp(StopSignal):
    """The terminal closed (SIGHUP): nobody is left to name a file, so the game is saved anyway."""


class NobodyToAsk(Exception):
    """Input ended while the player was asked for a file name: the game is saved to a file of its own."""


def _stop(signum: int, frame: Any) -> None:
    _note_stops().append(signum)  # a second signal (a closing terminal sends two) is only noted
    raise HangUp if signum == HANGUP else StopSignal


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP until the block ends, then raise KeyboardInterrupt.

    An action changes the state in place; stopping half way would leave (and save) a position
    no sequence of moves leads to. Applying one action takes milliseconds, so nobody notices.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)

    old = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, *STOP_SIGNALS)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    if caught:
        stops = [sig for sig in caught if sig in STOP_SIGNALS]
        if stops and len(stops) == len(caught) and all(old[sig] is _noted for sig in stops):
            _CAUGHT.extend(stops)  # the game is stopping already (saving, say): noted, as they would have been
            return
        _note_stops().extend(caught)
        raise HangUp if HANGUP in caught else StopSignal if stops else KeyboardInterrupt


PackRecord = list[dict[str, str]]


def pack_record(packs: Sequence[str]) -> PackRecord:
    """The `--pack` folders of a game as saves and logs record them: as typed, and absolute."""
    # realpath, unlike Path.resolve, does not raise on a loop of links: loading the pack says what is wrong.
    return [{"path": str(p), "resolved": os.path.realpath(p)} for p in packs]


AUTOSAVE_TURNS = 25  # bots-only stretches are saved this often (see Session.save_due)
MAX_PACKS = 64  # content packs a save or log may name (a game is played with a few)


def read_pack_record(doc: dict[str, Any], path: str, what: str) -> PackRecord:
    """The `packs` a save or log recorded; none for a file written before packs were recorded."""
    record = doc.get("packs")
    if record is None:
        return []
    if not isinstance(record, list) or len(record) > MAX_PACKS or not all(
        isinstance(x, dict) and isinstance(x.get("path"), str) and isinstance(x.get("resolved"), str) for x in record
    ):
        raise SaveError(f"{path}: the {what}'s pack list is damaged")
    if any(len(x["path"]) > 4096 or len(x["resolved"]) > 4096 for x in record):  # no folder's path is longer
        raise SaveError(f"{path}: the {what}'s pack list is damaged (a path over 4,096 characters)")
    return [{"path": x["path"], "resolved": x["resolved"]} for x in record]


def recorded_pack_paths(record: PackRecord, path: str, what: str, game_id: str | None = None,
                        variant: str | None = None, skipped: list[str] | None = None) -> tuple[str, ...]:
    """Folders to load for a recorded pack list: the absolute path, else the path as typed.

    A pack found at neither place is skipped when the game (`game_id`, and its `variant`) is
    there without it: a game played with a pack it did not need (`--pack` given once, the folder
    since removed) must not be stranded. Otherwise SaveError names it. Either way the content
    hash, checked later, catches content that differs (a deck the pack held, another folder):
    the message for a pack skipped here is then put in `skipped` (see `missing_pack_blamed`).
    """
    from davinci.engine.game import game_sources

    out: list[str] = []
    missing: list[dict[str, str]] = []
    for entry in record:
        for candidate in (entry["resolved"], entry["path"]):
            if os.path.isfile(os.path.join(candidate, "pack.yaml")):
                out.append(candidate)
                break
        else:
            missing.append(entry)
    if missing and game_id is not None:
        try:
            source = game_sources(out).get(game_id)
        except DavinciError:
            source = None
        if source is not None and (variant is None or variant in source.variants):
            if skipped is not None:
                skipped.append(_pack_gone(missing[0], path, what))
            return tuple(out)
    if missing:
        raise SaveError(_pack_gone(missing[0], path, what))
    return tuple(out)


def _pack_gone(entry: dict[str, str], path: str, what: str) -> str:
    typed = f" (given as {quoted(entry['path'], 200)})" if entry["path"] != entry["resolved"] else ""
    gone = "is no pack folder (it has no pack.yaml)" if os.path.exists(entry["resolved"]) else "no longer exists"
    return (f"{path}: the {what} was made with the content pack {quoted(entry['resolved'], 200)}{typed}, which "
            f"{gone}; give its folder with --pack DIR")


def missing_pack_blamed(error: SaveError, skipped: Sequence[str]) -> SaveError:
    """`error`, or, when it says the content differs and a recorded pack was skipped as missing
    (it held a deck the game deals from, say), the message naming that pack: the likelier cause."""
    from davinci.engine.serial import CHANGED_SINCE

    return SaveError(skipped[0]) if skipped and CHANGED_SINCE in error.message else error


def load_recorded_game(
    game_id: str, variant: str | None, settings: dict[str, Any], packs: Sequence[str], path: str, what: str
) -> Any:
    """Load the game a save or log names; SaveError (suggesting --pack for an unknown game) otherwise."""
    from davinci.engine.game import game_sources, load_game

    try:
        return load_game(game_id, variant, settings, packs)
    except UsageError as e:
        hint = ""
        if game_id not in game_sources(packs):
            hint = "; if the game comes from a content pack, add --pack DIR"
        raise SaveError(f"{path}: the {what} cannot be loaded: {e.message}{hint}") from None
    except DavinciError as e:
        if e.code != "DV081":  # a problem in the game's content: reported where it is
            raise
        raise SaveError(f"{path}: the {what}'s settings cannot be used: {e.message}") from None


def _leads_to(path: str, resolved: str) -> bool:
    """Whether `path`, read from the working folder, is the folder `resolved`."""
    try:
        return os.path.realpath(path) == resolved
    except OSError:  # (the working folder gone)
        return False


def resume_command(game_id: str, save: str, record: Sequence[dict[str, str]], log: str | None = None) -> str:
    """The command that resumes a save, with the `--pack` options the game was played with, and
    its `--log` when it was logged (a resumed game is logged only when asked again)."""
    from shlex import quote

    # As typed where it still leads to the pack from here, else the pack's absolute path (a
    # game played with `--pack .` and resumed from another folder printed a `--pack .` that failed).
    packs = "".join(f" --pack {quote(p['path'] if _leads_to(p['path'], p['resolved']) else p['resolved'])}"
                    for p in record)
    logged = f" --log {quote(log)}" if log else ""
    return f"davinci play {quote(game_id)}{packs} --resume {quote(save)}{logged}"


def save_document(
    state: Any, seats: Sequence[SeatSpec], seed: int, settings: dict[str, Any], packs: Sequence[dict[str, str]] = (),
    timer: bool = True,
) -> dict[str, Any]:
    return {
        "davinci_save": 1,
        "seed": seed,
        "settings_override": settings,
        "packs": list(packs),
        "timer": timer,  # an untimed game resumes untimed
        "seats": [{"kind": s.kind, "name": s.name} for s in seats],
        "saved": state.to_json(),
    }


def log_document(
    game: Any, seats: Sequence[SeatSpec], seed: int, settings: dict[str, Any], state: Any,
    packs: Sequence[dict[str, str]] = (), with_result: bool = True,
) -> dict[str, Any]:
    """The log of a game so far: enough to replay it. `with_result=False` leaves the result out
    (a game whose rules failed, even in working out its winners); `state` None: no move yet (the
    setup failed)."""
    return {
        "davinci_log": 1,
        "game": game.id,
        "variant": game.variant,
        "settings_override": settings,
        "packs": list(packs),
        "content_hash": game.content_hash,
        "seed": seed,
        "seats": [{"kind": s.kind, "name": s.name} for s in seats],
        "actions": [[s, a] for s, a in state.history] if state is not None else [],
        "result": state.result() if state is not None and with_result and state.is_terminal() else None,
    }


def read_json_file(path: str, what: str) -> dict[str, Any]:
    """Read a JSON object (a save or a log) of at most 8 MiB; SaveError naming any problem."""
    try:
        text = read_regular_text(path, MAX_JSON_CHARS)
    except FileProblem as e:
        if e.content:
            raise SaveError(f"{path}: the {what} is {e.reason}") from None
        raise SaveError(f"cannot read {what} {path}: {e.reason}") from None
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write one (Notepad): not JSON, no harm
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int,
                          object_pairs_hook=unique_members)
    except _LongNumber as e:
        line, col = _json_position(text, text.find(e.digits))
        raise SaveError(f"{path}:{line}:{col}: the {what} holds a number of {len(e.digits):,} digits, longer than "
                        "any davinci writes (the file was damaged or edited)") from None
    except DuplicateKey as e:
        raise SaveError(f"{path}: the {what} gives the key {printable(str(e.args[0]))!r} twice") from None
    except json.JSONDecodeError as e:
        if not text.strip():
            raise SaveError(f"{path}: the {what} is empty") from None
        if e.pos == 0 and text.lstrip()[:1] not in ("{", "[", '"'):  # no JSON at all: a game's YAML, a note
            made = "--save or Ctrl-C writes" if "save" in what else "--log writes"
            raise SaveError(f"{path} is not a davinci {what} (no JSON in it): give the file {made}") from None
        raise SaveError(f"{path}:{e.lineno}:{e.colno}: the {what} is not valid JSON ({e.msg}); truncated?") from None
    except ValueError as e:  # NaN/Infinity, or an integer of thousands of digits
        raise SaveError(f"{path}: the {what} is not valid JSON ({e})") from None
    except RecursionError:
        raise SaveError(f"{path}: the {what} is nested too deeply") from None
    if not isinstance(data, dict):
        raise SaveError(f"{path}: the {what} is not a JSON object")
    return data


# A save or log of a long game is under 1 MiB; JSON of tiny items takes about 22 times its size in
# memory, so 8 MiB keeps reading one under 200 MB (50 MiB of `[0, "r"]` took 1 GB and 15 s).
MAX_JSON_CHARS = 8 * 2**20


class _LongNumber(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _short_int(text: str) -> int:
    """A JSON integer; one of thousands of digits (which Python refuses with advice about its own
    settings) is no number davinci writes."""
    if len(text) > 40:
        raise _LongNumber(text)
    return int(text)


def _json_position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of `index` in `text`."""
    index = max(index, 0)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number davinci writes")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent; `1e999` (infinity to Python) is refused."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is not a number davinci writes")
    return value


def check_recorded_fields(doc: dict[str, Any], path: str, what: str) -> None:
    """SaveError unless the settings, seats and seed a save or log records have their types.

    Saves and logs are held to the same rules: `settings_override` maps names to plain values,
    `seats` is a list of {kind, name} texts, `seed` a whole number (not "5", 5.5 or true).
    """
    settings = doc.get("settings_override", {})  # 0, "" or [] is damage, not "no settings"
    if not isinstance(settings, dict) or not all(
        isinstance(v, (str, int, float, bool)) or v is None for v in settings.values()
    ):
        raise SaveError(f"{path}: the {what}'s settings are damaged")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not all(
        isinstance(x, dict) and isinstance(x.get("kind"), str) and isinstance(x.get("name"), str) for x in seats
    ):
        raise SaveError(f"{path}: the {what}'s seat list is damaged")
    for seat in seats:  # printed on every screen of the game: never an escape sequence
        for part in ("name", "kind"):
            problem = seat_name_problem(seat[part])
            if problem is not None:
                raise SaveError(f"{path}: the {what}'s seat {part} {problem}")
    seed = doc.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise SaveError(f"{path}: the {what}'s seed is damaged (it must be a whole number from 0 to 2**64 - 1)")


def read_save(path: str, packs: Sequence[str] = ()) -> dict[str, Any]:
    """Read a save file and check its outer shape; SaveError naming the problem otherwise.

    Returns the document with `game` (str), `variant` (str or None), `settings_override`
    (a dict of plain values), `seats` (a list of {kind, name}), `seed` (int) and `packs` (a list
    of {path, resolved}; empty for saves written before packs were recorded) checked.

    A game log is read as the save of the position its moves reach (`save_from_log`), so that a
    game whose save was lost goes on from its log; `packs` are the ones to load its game with.
    """
    doc = read_json_file(path, "save file")
    if "davinci_log" in doc and "davinci_save" not in doc:  # (a log of a newer davinci is said to be one)
        return save_from_log(path, packs)
    newer_format(doc, "davinci_save", 1, "save", path)
    if doc.get("davinci_save") != 1 or type(doc.get("davinci_save")) is not int or not isinstance(doc.get("saved"), dict):
        raise SaveError(f"{path}: not a davinci save file")
    saved = doc["saved"]
    if not isinstance(saved.get("game"), str) or "variant" not in saved \
            or not isinstance(saved["variant"], (str, type(None))):
        raise SaveError(f"{path}: the save does not name its game and variant")
    check_recorded_fields(doc, path, "save")
    if not isinstance(doc.setdefault("timer", True), bool):
        raise SaveError(f"{path}: the save's timer flag is damaged")
    doc["packs"] = read_pack_record(doc, path, "save")
    return doc


def save_from_log(path: str, packs: Sequence[str] = ()) -> dict[str, Any]:
    """The save document of the position the game log at `path` reaches: its game, seats, seed,
    settings and packs, and the state its moves lead to (marked `from_log`). SaveError when the
    log is damaged, made with other content, or records a failure of the rules at a move."""
    from davinci.engine.replay import read_log, result_as_logged

    doc, game, names, seed, actions = read_log(path, packs)
    failure: dict[str, Any] = doc["failure"] if isinstance(doc.get("failure"), dict) else {}
    if failure.get("where") == "result":
        raise SaveError(f"{path}: the game's rules failed working out its result when it was played (the log "
                        "records it): it cannot go on; `davinci replay` shows the failure")
    try:
        state = game.new_state(names, seed=seed)
    except UsageError as e:
        raise SaveError(f"{path}: the log's seats cannot start this game: {e.message}") from None
    except DavinciError as e:  # the game's own setup fails (the log may record it, as it failed when played)
        said = ", as the log records" if failure.get("where") == "setup" else ""
        raise SaveError(f"{path}: the game's rules fail in its setup{said}, so it cannot go on: "
                        f"{message_text(str(e))}") from None
    for i, (seat, text) in enumerate(actions, 1):
        if not 0 <= seat < len(names):
            raise SaveError(f"{path}: action {i} ('{quoted(text)}') is by seat index {seat}, but the log has "
                            f"{len(names)} seats: it is damaged")
        try:
            state.apply(seat, text)
        except DavinciError as e:
            failed = failure.get("action") == i
            why = ("the game's rules failed there when it was played (the log records it), so it cannot go on"
                   if failed else e.message)
            raise SaveError(f"{path}: move {i} of the log ('{quoted(text)}') cannot be replayed: {why}") from None
    logged = doc.get("result")
    try:
        result = state.result() if state.is_terminal() else None
    except DavinciError as e:
        raise SaveError(f"{path}: working out the result after the log's last move fails: {e.message}") from None
    if logged is not None and not result_as_logged(logged, json.loads(json.dumps(result))):
        raise SaveError(f"{path}: the log records a result its moves do not reach (the file was edited or damaged; "
                        "`davinci replay --verify` says how they differ)")
    return {
        "davinci_save": 1,
        "seed": seed,
        "settings_override": dict(doc.get("settings_override", {})),
        "packs": read_pack_record(doc, path, "log"),
        "timer": True,  # an untimed game's log records its time limits as 0
        "seats": [{"kind": s["kind"], "name": s["name"]} for s in doc["seats"]],
        "saved": json.loads(json.dumps(state.to_json())),
        "from_log": True,
    }


def replay_saved(game: Any, saved: Any, raw: Any, seed: int, path: str) -> Any:
    """The saved position rebuilt from its moves; SaveError unless it equals the saved one.

    `saved` is the state read from the file and `raw` the JSON it came from. A checksum only
    shows that a file was not damaged by accident: anyone can recompute it. Replaying the
    recorded moves from the seed yields a position the rules reached, so an edited save can
    neither cheat nor smuggle in a state the engine would never make.
    """
    try:
        fresh = game.new_state(list(saved.seat_names), seed=seed)
    except DavinciError as e:
        raise SaveError(f"{path}: the save's seats cannot start this game: {e.message}") from None
    for i, (seat, text) in enumerate(saved.history, 1):
        try:
            fresh.apply(seat, text)
        except DavinciError as e:
            shown = quoted(text)
            raise SaveError(f"{path}: move {i} of the save ('{shown}') cannot be replayed: {e.message}") from None
    made = json.loads(json.dumps(fresh.to_json()))
    raw_state = raw.get("state") if isinstance(raw, dict) else None
    raw_state = raw_state if isinstance(raw_state, dict) else {}
    older = False
    if "turn_start" not in raw_state:
        made["state"].pop("turn_start", None)  # saves from before the turn's start was recorded
        older = True
    if "turn_trails" not in raw_state and "turn_trail" in raw_state:
        # A save from before trails were per piece: its one trail followed from the moves, which
        # were just replayed under today's rules (and the replayed game is the one resumed).
        made["state"].pop("turn_trails", None)
        made["state"]["turn_trail"] = raw_state["turn_trail"]
        older = True
    if older:
        made["checksum"] = raw.get("checksum")
    if made != raw:
        raise SaveError(f"{path}: the saved position does not follow from its moves (the file was edited)")
    return fresh


@dataclass
class Session:
    game: Any
    state: Any
    seats: list[SeatSpec]
    seed: int
    settings: dict[str, Any]
    console: Any
    input_fn: InputFn
    save_path: str | None = None
    log_path: str | None = None
    timer: bool = True
    hints: bool = False
    clear: bool = True
    bots: list[Any] = field(default_factory=list)
    last_human: int | None = None
    packs: Sequence[dict[str, str]] = ()
    transcript: list[tuple[int | None, str]] = field(default_factory=list)  # every event of this session
    moved_at: int = 0  # the transcript's length when a human last acted
    told: int = 0  # the transcript's length when the last human's outcome was printed
    unread: bool = False  # an outcome was printed that the player leaving the keyboard has not confirmed
    hung_up: bool = False  # the terminal closed while the player was asked where to save
    interactive: bool = False  # input came from a terminal when the game began
    live: set[str] = field(default_factory=set)  # bots' moves printed as they were made, since a human's move
    narrow: bool = False  # told that the terminal is narrower than the game's screen
    _last_event: Any = None
    cut_before: bool = False  # resumed from a save that kept only the latest events
    too_big: set[str] = field(default_factory=set)  # "save" / "log": grown past what davinci reads back
    last_fit: dict[str, int] = field(default_factory=dict)  # the turn each was last written at
    saved_turn: int = 0  # the turn of the last autosave
    saved_moves: int = -1  # how many moves the last autosave held
    screen_lines: int = 0  # the lines of the screen printed last
    stamps: dict[str, tuple[str, int, int, str]] = field(default_factory=dict)  # each file as this session last wrote it
    given_up: set[str] = field(default_factory=set)  # "save" / "log": a write failed mid-game; no longer autosaved
    failing: set[str] = field(default_factory=set)  # "save" / "log": the last write failed (a full disk): tried again

    def collect(self) -> None:
        """Add the events since the last call to the transcript (the state keeps only the latest)."""
        events = self.state.events
        start = 0
        for i in range(len(events) - 1, -1, -1):
            if events[i] is self._last_event:
                start = i + 1
                break
        self.transcript.extend(events[start:])
        if events:
            self._last_event = events[-1]

    def show_history(self, seat: int, text: str) -> None:
        """`history` (the last 30 events this seat may see) or `history N` / `history all`."""
        arg = text.split(maxsplit=1)[1].strip() if " " in text.strip() else "30"
        if arg != "all" and not (arg.isdigit() and arg.isascii() and len(arg) < 7 and int(arg) > 0):
            self.console.print(f"[red]'history' takes a number of lines or 'all' (history 10, history all), not "
                               f"'{esc(arg)}'[/red]")
            return
        mine = [t for to, t in self.transcript if sees(to, seat)]
        count = len(mine) if arg == "all" else int(arg)
        shown = mine[-count:]
        if not mine:
            self.console.print("[bold]Nothing has happened yet.[/bold]")
            return
        said = "The only event:" if len(mine) == 1 else (f"All {len(mine)} events:" if len(shown) == len(mine)
                                                          else f"The last {len(shown)} of {len(mine)} events:")
        if self.cut_before and len(shown) == len(mine):  # (the save held only the latest lines)
            said = (f"The last {len(shown)} events (the save this game was resumed from kept only its latest "
                    f"{MAX_EVENTS}; a --log file keeps them all: davinci replay --events LOG):")
        # A screenful at a time, as help and list (`history all` of a long game scrolled away).
        self.paged("\n".join([f"[bold]{said}[/bold]", *(f"  {esc(no_ci_command(line))}" for line in shown)]))

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    @property
    def viewer(self) -> int | None:
        """Whose view the shared screen shows: the one human's, or the public view (None) when
        several humans share the screen, or none plays."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def save_json(self) -> str:
        """The save file's text for the game as it stands."""
        return json.dumps(save_document(self.state, self.seats, self.seed, self.settings, self.packs, self.timer))

    @property
    def identity(self) -> GameId:
        """This game and its moves so far, as `game_identity` reads them from its save or log."""
        key = (self.game.id, self.game.variant, self.seed, tuple(s.name for s in self.seats),
               json.dumps(self.settings, sort_keys=True, default=str))
        return key, [(s, a) for s, a in self.state.history]

    def log_resume(self) -> str | None:
        """The command that resumes this game from its log (escaped for the console), when the log
        is kept up; None otherwise (no --log, or a log given up or failing)."""
        if not self.log_path or "log" in self.failing or "log" in self.given_up:
            return None
        return esc(resume_command(self.game.id, self.log_path, self.packs))

    def resume_hint(self, path: str) -> str:
        """The command that resumes this game from the save at `path` (escaped for the console)."""
        return esc(resume_command(self.game.id, path, self.packs, self.log_path))

    def save_due(self) -> bool:
        """Whether a turn that just ended is saved: when a human is to act next (so the save
        holds every move a person made), else every AUTOSAVE_TURNS turns. Bots' turns in
        between follow from the seed and are replayed the same on resume; saving each of
        them rewrote the whole file every turn, which a long game of bots paid quadratically."""
        st = self.state
        if any(self.seats[s].kind == "human" for s in st.current_seats):
            return True
        return bool(st.turn - self.saved_turn >= AUTOSAVE_TURNS)

    def autosave(self, strict: bool = False) -> None:
        """Write the --save file and the log. A write that fails mid-game (a full disk, another
        session resuming the same save) is said once, the game goes on, and the other file is
        still written; `strict` (before the first move) lets the error stop the game instead."""
        self.saved_turn = self.state.turn
        self.saved_moves = self.state.action_count
        if self.save_path and "save" not in self.given_up:
            data = self.save_json()
            if self.fits(data, "save", self.save_path):
                path = self.save_path
                self.kept("save", lambda: self.write_own(path, data), strict,
                          f"davinci tries {esc(path)} again at each save (or type 'save FILE' for another file)",
                          f"no longer saved to {esc(path)}: type 'save FILE' to keep it in another file")
        self.kept("log", self.write_log, strict, "davinci tries the log again at each save", "no longer logged")

    def kept(self, what: str, write: Callable[[], None], strict: bool = False, retried: str = "",
             dropped: str = "", say: Callable[[str], None] | None = None) -> None:
        """Write the save or log (`what`) with `write`, and keep count of how that went: a write the
        system refuses (a full disk) is said once and tried again at every save ("again" said when it
        works); one another program made impossible (its change never overwritten) is given up for
        good (the --save file's name is dropped). `strict` lets the error stop the game instead; with
        `retried` and `dropped` empty nothing more than the error is said (the game is stopping)."""
        say = say or self.console.print
        try:
            write()
        except SaveError as e:
            if strict:
                raise
            if transient(e):
                if what not in self.failing:
                    say(f"[red]{esc(e.message)}[/red]" + (f"\n[yellow]The game goes on; {retried}.[/yellow]" if retried
                                                          else ""))
                self.failing.add(what)
            else:
                say(f"[red]{esc(e.message)}[/red]" + (f"\n[yellow]The game goes on, {dropped}.[/yellow]" if dropped
                                                      else ""))
                self.given_up.add(what)
                if what == "save":
                    self.save_path = None
            return
        if what in self.failing:  # (the disk has room again)
            self.failing.discard(what)
            path = self.save_path if what == "save" else self.log_path
            say(f"[green]{'Saved' if what == 'save' else 'Logged'} to {esc(path or '')} again.[/green]")

    def files_incomplete(self) -> list[str]:
        """The files asked for (--save, --log) that do not hold the game as it stands."""
        return sorted(self.given_up | self.failing)

    def write_own(self, path: str, data: str) -> None:
        """Write this session's save or log. SaveError, and nothing written, when another program
        replaced the file since this session last wrote it (another davinci resuming the same
        save): the moves it holds are not overwritten."""
        try:
            key = os.path.abspath(path)
            real = os.path.realpath(path)
        except OSError as e:  # a relative name in a working folder that is gone (deleted)
            raise _transient(SaveError(f"cannot write {path}: the working folder is gone ({e.strerror or e})")) from None
        mine = self.stamps.get(key)
        if mine is not None:
            if real != mine[0] and os.path.lexists(real):  # the name now leads to another file (a link moved)
                raise SaveError(f"{path} now leads to {real}, not to the file this game wrote ({mine[0]}): it is "
                                "not overwritten")
            try:
                st = os.stat(real)
            except OSError:  # deleted: nothing in it to lose
                st = None
            if st is not None and (st.st_ino, st.st_mtime_ns) != mine[1:3] and _digest_of(real) != mine[3]:
                what = "log" if path == self.log_path else "save"
                raise SaveError(f"{path} was changed by another program since this game last wrote it (another "
                                f"davinci playing the same {what}?): it is not overwritten")
        atomic_write(path, data)
        st = os.stat(real)
        self.stamps[key] = (real, st.st_ino, st.st_mtime_ns, hashlib.sha256(data.encode("utf-8")).hexdigest())

    def fits(self, data: str, what: str, path: str) -> bool:
        """Whether a save's or log's text is small enough to be read back (MAX_JSON_CHARS). A
        longer one is not written, so the file keeps the last version davinci can read; the
        player is told once."""
        if len(data) <= MAX_JSON_CHARS:
            self.last_fit[what] = self.state.turn
            return True
        if what not in self.too_big:
            self.too_big.add(what)
            self.console.print(
                f"[yellow]The {what} has grown past the {MAX_JSON_CHARS // 2**20} MiB davinci reads back: {esc(path)} "
                f"keeps the last {what} that fits (turn {self.last_fit.get(what, 0)}), and is no longer updated.[/yellow]")
        return False

    def bot(self, seat: int) -> Any:
        """The bot of `seat`, reseeded for this decision from the game's seed, the seat and the
        moves so far: a resumed game's bots choose as in the game played without a break."""
        return reseed_for_decision(self.bots[seat], self.seed, seat, self.state.action_count)

    def save_command(self, name: str) -> None:
        """`save` (to the --save file, or a file name asked for) or `save FILE`: write the game now,
        and to that file from then on (as --save does). A name that cannot be used is
        explained; the game goes on either way."""
        if not name and not self.save_path:
            name = self.input_fn("Save to which file? (empty: don't save) ").strip()
            if name.lower().startswith("save "):  # the command typed again, with the name this time
                name = name[5:].strip()
            if not name or name.lower() in STOP_WORDS:  # a command typed where a name was asked
                self.console.print("not saved")
                return
        path = typed_file_name(name) or self.save_path  # `save ~/game.json`, `save "my game.json"`
        if not path or not path.strip(" '\""):  # `save ""`, `save ' '`: no file named
            self.console.print("not saved: name a file (save FILE)")
            return
        try:
            if self.log_path and os.path.realpath(path) == os.path.realpath(self.log_path):
                raise SaveError(f"{path} is this game's log (--log); give the save its own file")
            if path != self.save_path:
                check_write_target(path, "save", self.identity)
            self.write_own(path, self.save_json())
        except SaveError as e:
            self.console.print(f"[red]{esc(e.message)}[/red]")
            return
        again = "" if path == self.save_path else " (and autosaved there from now on)"
        self.failing.discard("save")  # (just written: the file saved to from now on holds the game)
        self.save_path = path
        self.console.print(f"saved to {esc(path)}{again}; resume with: {self.resume_hint(path)}",
                           soft_wrap=True)

    def write_log(self) -> None:
        if not self.log_path or "log" in self.given_up:
            return
        try:
            doc = log_document(self.game, self.seats, self.seed, self.settings, self.state, self.packs)
        except DavinciError as e:  # the game's end (winners, score...) fails: keep every action
            self.write_failure_log(None, e, "result")
            raise
        text = json.dumps(doc, indent=1)
        if self.fits(text, "log", self.log_path):
            self.write_own(self.log_path, text)

    def write_failure_log(self, failed: tuple[int, str] | None, e: DavinciError, where: str = "action") -> None:
        """The game's rules failed: write the log with every action up to the failure (`failed`,
        the action being applied, is added if the engine refused it before recording it), so
        that `davinci replay` shows the failure; say so in the error's message. `where` is "action"
        (applying the last action failed) or "result" (working out the result after it)."""
        if not self.log_path:
            return
        doc = log_document(self.game, self.seats, self.seed, self.settings, self.state, self.packs, with_result=False)
        if failed is not None:
            doc["actions"].append(list(failed))
        # Where the rules failed and with which code, so that `replay --verify` can confirm a
        # replay fails the same way (the last action, or the result after it).
        doc["failure"] = {"where": where, "action": len(doc["actions"]), "code": e.code}
        self.write_own(self.log_path, json.dumps(doc, indent=1))
        if where == "result":
            e.add_note(f"(the log {self.log_path} holds every action; working out the result failed after the last: "
                       "`davinci replay` shows it)")
        else:
            e.add_note(f"(the log {self.log_path} ends with the action that failed; `davinci replay` shows it)")

    def render(self, seat: int | None) -> None:
        view = self.state.view(seat)
        if not self.timer and isinstance(view.get("pending"), dict) and "time_limit" in view["pending"]:
            view["pending"]["time_limit"] = 0  # --no-timer: screens show the challenge as untimed
        mod = screen_module(self.game.id)
        if draws_itself(mod):
            try:
                kwargs: dict[str, Any] = {}
                code = getattr(mod.render, "__code__", None)
                if self.hints and code is not None and "hints" in code.co_varnames:
                    kwargs["hints"] = True
                if self.console.is_terminal and code is not None and "height" in code.co_varnames:
                    kwargs["height"], kwargs["width"] = self.console.height, self.console.width  # fit the window
                self.check_width(mod, view)
                screen = mod.render(view, seat, **kwargs)
                self.console.print(screen)
                self.screen_lines = lines_on_screen(screen, self.console.width) if self.console.is_terminal else 0
                return
            except DavinciError:
                raise
            except Exception as e:  # a broken screen must not lose the game
                self.console.print(f"[dim](screen failed: {type(e).__name__}: {esc(str(e))}; showing the plain view)[/dim]")
        hide = (self.game.definition.display or {}).get("hide") or ()
        d = self.game.definition
        title = d.name + (f" ({d.variant})" if d.variant else "")  # its name, not its id; the variant as the game screens show it
        plain = "\n".join(map(no_ci_command, printable(generic_render(view, frozenset(hide), title)).split("\n")))
        self.console.print(plain, markup=False)
        self.screen_lines = plain.count("\n") + 1

    def check_width(self, mod: Any, view: dict[str, Any]) -> None:
        """Say once when the terminal is narrower than the game's board (its screen module's
        `min_width(view)`): a board that wraps is unreadable, and nothing else would tell why."""
        if self.narrow or not self.console.is_terminal or not callable(getattr(mod, "min_width", None)):
            return
        needed = int(mod.min_width(view))
        if needed > self.console.width:
            self.narrow = True
            self.console.print(f"[yellow]The board needs {needed} columns and the terminal has {self.console.width}: "
                               "widen the window (a board that does not fit wraps).[/yellow]")

    def privacy(self, seat: int) -> None:
        """Between different humans at one screen: clear and wait, so no private view leaks. The
        player leaving the keyboard first sees what came of their move (a wrong guess, say)."""
        if len(self.humans) < 2 or self.last_human == seat:
            return
        leaving = self.last_human
        if leaving is not None and (self.show_events(max(self.moved_at, self.told), leaving, frozenset(self.live))
                                    or self.unread):
            self.pause(f"{self.seats[leaving].name}: press Enter when you have read this ")
        self.unread = False
        self.wipe()
        self.console.print(f"\n[bold]Pass the keyboard to {esc(self.seats[seat].name)}[/bold] and press Enter.")
        self.pause("")
        self.wipe()
        self.last_human = seat

    def pause(self, prompt: str) -> None:
        """Wait for Enter; `quit` (or `exit`) typed there stops the game, as at any prompt. Anything
        else typed there is said to be ignored (a move typed early was dropped without a word)."""
        typed = self.input_fn(prompt).strip()
        if typed.lower() in STOP_WORDS:
            raise QuitGame
        if typed:
            self.console.print(f"[dim](not a move: '{esc(quoted(typed))}' was typed at a pause and is ignored)[/dim]")

    def show_events(self, since: int, seat: int | None, skip: frozenset[str] = frozenset()) -> bool:
        """Print the events of this session from index `since` that `seat` may see (public ones
        for None), but those in `skip` (shown already); True when there were any."""
        lines = [text for to, text in self.transcript[since:] if sees(to, seat) and text not in skip]
        if lines:  # (pack text: no line a CI runner would obey)
            self.console.print("\n".join(esc(no_ci_command(line)) for line in lines), style="dim")
        return bool(lines)

    def wipe(self) -> None:
        """Clear the screen and, on a terminal, its scrollback (the last player's private view)."""
        if not self.clear:
            return
        if self.console.is_dumb_terminal:
            # A terminal that cannot clear (TERM=dumb): the last view is pushed off the screen
            # (its scrollback keeps it, which the game warned about at its start).
            self.console.file.write("\n" * max(60, self.console.height + 10))
            self.console.file.flush()
            return
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def private_line(self, prompt: str) -> str:
        """A line typed without echo when players share the screen (an answer in hot-seat play)."""
        if len(self.humans) >= 2 and _at_terminal():
            import getpass

            return getpass.getpass(prompt)
        return self.input_fn(prompt)

    def ask_human(self, seat: int) -> Any:
        st = self.state
        self.privacy(seat)
        self.render(seat)
        pending = st.pending or {}
        if pending.get("type") == "respond":
            try:
                return self.ask_answer(seat)
            except (KeyboardInterrupt, QuitGame, EOFError, OSError):
                # Stopped while answering (Ctrl-C, quit, end of input, a closed terminal): a pass,
                # for every person still to answer, so that a resumed game does not show the card
                # again with a fresh clock to the teams that have seen it; what came of it is shown.
                since = len(self.transcript)
                self.apply_move(seat, st.parse_action("pass"))
                turn = st.turn
                while not st.is_terminal() and st.turn == turn and (st.pending or {}).get("type") == "respond":
                    people = [s for s in st.current_seats if self.seats[s].kind == "human"]
                    if not people:
                        break
                    self.apply_move(people[0], st.parse_action("pass"))
                try:
                    self.show_events(since, seat)
                except OSError:  # (the terminal may be gone: what cannot be said is skipped)
                    pass
                raise
        legal = st.legal_actions(seat)
        # The view's prompt: the step's own, or a default for engine decisions (overflow, position).
        view = st.view(seat)
        prompt = (view.get("pending") or {}).get("prompt") or "Your move"
        # A bare number always picks from the whole ordered list, printed here or by 'list'.
        numbered = list(legal)
        verbs = legal.verbs() if hasattr(legal, "verbs") else sorted({a.verb for a in numbered})
        mod = screen_module(self.game.id)
        # The generic screen names the pieces an action moves (a game's own screen shows its own way).
        notes = {} if draws_itself(mod) else piece_notes(view)

        # Whether the numbered list is before the player: printed under the prompt, asked for with
        # `list`, or drawn by the game's own screen. A bare number picks from it only then.
        screen_numbers = bool(getattr(mod, "numbers_actions", lambda v: False)(view)) if mod is not None else False
        numbers_shown = screen_numbers
        pushed_by: str | None = None  # what printed below a numbered list last ('history', the help)
        had_numbers = False  # whether a numbered list was on the screen then

        def ask() -> None:
            nonlocal numbers_shown
            self.console.print(f"\n[bold]{esc(self.seats[seat].name)}[/bold]: {esc(str(prompt))}")
            # Listed when few, or when they fit under the screen (a list pushed the board off the top).
            fits = not self.console.is_terminal or self.screen_lines + 3 + len(numbered) <= self.console.height
            if len(numbered) <= LIST_ALWAYS or (len(numbered) <= LIST_AT_MOST and fits):
                numbers_shown = True
                for i, a in enumerate(numbered, 1):
                    self.console.print(f"  {i:>2}. {esc(noted_action(str(a), notes))}")
            else:
                numbers = ("the screen above numbers them (a number picks one)" if screen_numbers
                           else "'list' shows them all, numbered (then a number picks one)")
                self.console.print(
                    f"  {len(numbered)} possible actions ({esc(', '.join(verbs))}); {numbers}, '?' explains; an empty "
                    "line shows the board again."
                )

        ask()
        expand = getattr(mod, "expand", None) if mod is not None else None
        while True:
            text = self.input_fn("> ").strip()
            if not text:  # the board again (after '?' or 'list' pushed it off the screen)
                numbers_shown = screen_numbers  # (a list asked for earlier is gone with it)
                pushed_by = None
                self.render(seat)
                ask()
                continue
            word = text.lower()  # commands in any case: QUIT, Save, LIST
            if word in ("?", "help"):
                had_numbers, pushed_by = numbers_shown or (had_numbers and pushed_by is not None), "the help"
                numbers_shown = False  # the help pushes the list (or the screen's numbered board) away
                self.show_help(legal, seat)
                continue
            first, *rest = word.split()
            if rest and first in ("?", "help", "list", "quit", "exit"):
                self.console.print(f"[red]'{esc(first)}' takes nothing after it[/red] - type ? for help")
                continue
            if word == "history" or word.startswith("history "):
                had_numbers, pushed_by = numbers_shown or (had_numbers and pushed_by is not None), "'history'"
                numbers_shown = False
                self.show_history(seat, word)
                continue
            if word == "list":  # a screenful at a time, as help
                numbers_shown, pushed_by = True, None
                self.paged("\n".join(f"  {i:>3}. {esc(noted_action(str(a), notes))}" for i, a in enumerate(numbered, 1)))
                continue
            if word in STOP_WORDS:
                raise QuitGame
            if word == "save" or word.startswith("save "):
                self.save_command(text[4:].strip())
                continue
            # `#N`: the entry N of the list on the screen, whatever the values (a number that is also a
            # value is refused).
            if text.startswith("#") and text[1:].isascii() and text[1:].isdigit() and len(text) <= 10:
                if not numbers_shown:  # an entry of a list the player has not seen (a blind guess)
                    self.console.print(no_list(pushed_by, had_numbers))
                    continue
                if 1 <= int(text[1:]) <= len(numbered):
                    return numbered[int(text[1:]) - 1]
                self.console.print(f"[red]there is no action {esc(text)}: the list runs from #1 to #{len(numbered)}[/red]")
                continue
            # Only a single whole number in ASCII digits ('²'.isdigit() holds but int('²') fails;
            # `3 7` is a screen's shorthand); more digits than any list has actions are no action.
            if text.isascii() and text.isdigit():
                # A number that is also the value of one offered action (`bid 3`, `attempt 1`) is
                # not taken for the list's entry: a sealed bid of 2 was played for a typed 3.
                if len(text) > 1 and text.startswith("0"):  # `03`: neither list entry 3 nor the value 3, surely
                    self.console.print(f"[red]'{esc(quoted(text, 20))}': type a number without a leading zero[/red]")
                    continue
                valued = [f"{v} {text}" for v in verbs if _is_legal_text(f"{v} {text}", legal)]
                if len(valued) > 1:  # the value of two offered actions (`take 10`, `give 10`)
                    self.console.print(f"[red]'{text}' could be {esc(' or '.join(valued))}: type the action "
                                       "itself[/red]")
                    continue
                # An offered action that takes a number (`bid 0` to `bid 5`), outside a numbered list
                # of the game's own screen: a number that is none of its values is no list entry
                # either (`6` played `bid 5`, the sixth entry).
                words = [str(a).split() for a in numbered[:LIST_AT_MOST * 100]]  # (the first actions suffice)
                numeric = not screen_numbers and any(len(w) == 2 and w[1].isdigit() for w in words)
                if len(text) <= 9 and 1 <= int(text) <= len(numbered):
                    picked = numbered[int(text) - 1]
                    # The one action whose last value is the number (`guess row.2.3 2`, one tile
                    # left to guess): entry 2, `guess row.2.3 1`, is not what a player typing the
                    # tile's value meant. (Several such actions: the number names none of them.)
                    if numbers_shown and not valued and str(picked).split()[-1] != text:
                        ending = [" ".join(w) for w in words if w[-1] == text]
                        valued = ending if len(ending) == 1 else []
                    if valued and str(picked) not in valued:
                        self.console.print(f"[red]'{text}' could be action {text} of the list ({esc(str(picked))}) or "
                                           f"'{esc(valued[0])}': type the action itself, or #{text} for the list's "
                                           "entry[/red]")
                        continue
                    if not valued and numeric:
                        self.console.print(f"[red]'{text}' is the value of no action offered now, and a number here "
                                           f"could be mistaken for one: type the action itself, or #{text} for the "
                                           "list's entry[/red]")
                        continue
                    if not numbers_shown and not valued and len(numbered) > 1:
                        # (`1` when one action is offered names it, list or no list)
                        self.console.print(no_list(pushed_by, had_numbers))
                        continue
                    return picked
                if not valued:
                    self.console.print(no_list(pushed_by, had_numbers) if not numbers_shown else f"[red]there is no action "
                                       f"{esc(quoted(text, 20))}: type a number from 1 to {len(numbered)}[/red]")
                    continue
                text = valued[0]  # (out of the list's range: the value of one offered action)
            if text.endswith(")") and " (" in text and not _is_legal_text(text, legal):
                bare_line = text[: text.rindex(" (")].strip()  # a list line pasted back, its piece note and all
                if _is_legal_text(bare_line, legal) and noted_action(bare_line, notes) == text:
                    text = bare_line
            whole = _whole_verb(text, verbs)
            if expand is not None and not _is_legal_text(text, legal):  # (an action as the list writes it needs no expanding)
                try:
                    full = expand(text, st.view(seat))
                    if not full and whole != text:  # `r 3`: the short form `return 3`
                        full = expand(whole, st.view(seat))
                except ShortFormError as e:  # a short form the screen knows, written wrong: its own words
                    self.console.print(f"[red]could not read '{esc(text)}': {esc(str(e))}[/red] - type ? for help")
                    continue
                except Exception:  # a screen's shorthand must never crash the game
                    full = None
                if full:
                    text = full
                else:
                    # A screen's short form that did not read (`p 1 1.0`): say how it goes. (An action
                    # written in full, `return tokens.1.1`, is refused for its own reason below.)
                    form = (getattr(mod, "SHORT_FORMS", {}) or {}).get(text.split()[0].lower())
                    if form and _is_action_text(st, text):
                        form = None
                    if form:
                        self.console.print(f"[red]could not read '{esc(text)}': the short form is "
                                           f"{esc(form)}[/red] - type ? for help")
                        continue
            text = _whole_verb(text, verbs)
            if text.partition(" ")[0].lower() not in verbs and not _verbs_begun(text, verbs):
                # The values of exactly one offered action without its verb (`x1` for `go x1`)
                # are that action; the start of an action of the game that is not offered now
                # (`lia` for `liar`) is written out, so that the refusal says why it is not possible now.
                bare = [v for v in verbs if _is_legal_text(f"{v} {text}", legal)]
                if not bare and text != text.lower():  # `O10` for the space `o10`
                    bare = [v for v in verbs if _is_legal_text(f"{v} {text.lower()}", legal)]
                    text = text.lower() if bare else text
                if len(bare) > 1:
                    self.console.print(f"[red]'{esc(quoted(text, 40))}' could be {esc(' or '.join(bare))}: type the "
                                       "action's word too[/red]")
                    continue
                if not bare:  # the first values of exactly one offered action (`hand.1.2` for `play hand.1.2 left`)
                    typed_values = text.split()
                    starts = [a for a in numbered if len(a.args) > len(typed_values)
                              and list(a.args[:len(typed_values)]) == typed_values]
                    if len(starts) == 1:
                        return starts[0]
                spaces = self.game.definition.board.spaces
                if not bare and (any(ch.isdigit() for ch in text) or all(w in spaces for w in text.split())):
                    # Values (`0,0`) of the one offered action whose form they fit, not possible now:
                    # its refusal says why ("'0,0' is no action of this game" said nothing).
                    arity = len(text.split())
                    fits = [v for v in verbs if len(self.game.definition.verb_args.get(v, ())) == arity]
                    if len(fits) == 1 and text.partition(" ")[0].lower() not in self.game.definition.verb_args:
                        bare = fits
                text = f"{bare[0]} {text}" if len(bare) == 1 else _whole_verb(text, sorted(self.game.definition.verb_args))
            begun = _verbs_begun(text, verbs)
            if len(text.partition(" ")[0]) == 1 and begun and len(verbs) > 1:
                self.console.print(f"[red]'{esc(text.split()[0])}' is too short to name an action: type more of "
                                   f"{esc(' or '.join(begun))}[/red]")
                continue
            several = _several_verbs(text, verbs)
            if several:
                self.console.print(f"[red]'{esc(quoted(text.split()[0], 20))}' could be {esc(', '.join(several))}: type "
                                   "more of it[/red]")
                continue
            typed_words = text.split()
            named = self.game.definition.verb_args.get(typed_words[0]) if typed_words else None
            if named is not None and 1 < len(typed_words) <= len(named):
                # The start of exactly one offered action (`move 4` where only `move 4 s5` begins
                # so) is that action, as a verb alone is when one action has it.
                begun = [a for a in numbered if a.verb == typed_words[0]
                         and str(a).split()[:len(typed_words)] == typed_words]
                if len(begun) == 1:
                    return begun[0]
            try:
                action = st.parse_action(text)
            except DavinciError as e:
                self.console.print(f"[red]{esc(e.message)}[/red]")
                continue
            if st.is_legal(seat, action):
                return action
            if not action.args:
                # Just the verb of an action that has values: fine when only one action has it.
                same = [a for a in numbered if a.verb == action.verb]
                if len(same) == 1:
                    return same[0]
            try:
                st._check(seat, action)
            except DavinciError as e:
                self.console.print(f"[red]{esc(e.message)}[/red] - type ? for help")

    def ask_answer(self, seat: int) -> Any:
        st = self.state
        p = st.view(seat).get("pending", {})
        limit = p.get("time_limit", 0) if self.timer else 0
        shown_at = time.monotonic()
        early = self.show_card(p.get("card") or {}, timed=bool(limit))
        lim = f"{limit} seconds" if limit else "no time limit"
        if p.get("prompt"):
            self.console.print(f"\n{esc(str(p['prompt']))}")
        if not early:
            self.console.print(f"[bold]{esc(self.seats[seat].name)}[/bold]: type your answer and press Enter ({lim}); "
                               "an empty line (or 'pass') passes, 'quit' stops the game.")
        # An answer typed where a two-step card waited for Enter (to write the anagram down)
        # is timed from when the card was shown: the wait was spent solving it.
        t0 = shown_at if early else time.monotonic()
        warned = False
        asked_about = ""  # a command word typed as the answer, asked about once
        while True:
            text, early = (early, "") if early else (self.private_line("answer> ").strip(), "")
            secs = time.monotonic() - t0
            full_limit = int(p.get("time_limit") or 0)
            if not self.timer and full_limit:
                # Untimed play: keep the order in which answers came, but never count one as late.
                secs = min(secs, full_limit)
            if not text or text.lower() in PASS_WORDS:
                return st.parse_action("pass")
            if text in HELP_WORDS:  # the move prompt's help key, here too
                self.console.print(esc(ANSWER_HELP))
                continue
            if text.lower() in STOP_WORDS:  # as at the move prompt (other commands could be answers)
                solo = [int(x) - 1 for x in p.get("seats") or ()] == [seat]
                if solo and not warned:  # a seat's own challenge (no other seat answers): stopping loses it
                    warned = True
                    self.console.print(f"[yellow]{esc(stop_warning(text, bool(p.get('card'))))}[/yellow]")
                    continue
                raise QuitGame
            if command_typed(text) and text.lower() != asked_about:
                asked_about = text.lower()  # (typed again, it is the answer)
                self.console.print(f"[yellow]{esc(command_question(text))}[/yellow]")
                continue
            if limit and secs > limit:
                self.console.print(f"[yellow]{tenths_up(secs)} s: too late[/yellow]")
            try:
                action = st.parse_action(f"answer {tenths_up(secs)} {text}")
                st._check(seat, action)
            except DavinciError as e:  # a NUL byte, a 10,000-character answer...: ask again
                self.console.print(f"[red]{esc(e.message)}[/red] - type your answer again (empty line to pass)")
                continue
            return action

    def verb_form(self, verb: str) -> str:
        """A verb with what its values are: `keep TRIPLE ONES FIVES` (the option's argument names)."""
        names = self.game.definition.verb_args.get(verb, ())
        return " ".join((verb, *(n.upper() for n in names)))

    def show_help(self, legal: Sequence[Any], seat: int) -> None:
        mod = screen_module(self.game.id)
        parts: list[str] = []
        d = self.game.definition
        about = " ".join(d.description.split())
        if about:
            parts.append(f"[bold]{esc(self.game.name)}[/bold]: {esc(about)}")
        if d.variant:  # what the variant changes, after the game it changes
            changes = " ".join(d.variant_description.split())
            parts.append(f"[bold]Variant: {esc(d.variant_name)}[/bold] ({esc(d.variant)})" + (f": {esc(changes)}" if changes else ""))
        if mod is not None and callable(getattr(mod, "help_text", None)):  # help that follows the settings
            # Examples in the reader's own numbers (`hand.2.3` for the second seat).
            parts.append(mod.help_text(self.state.view(None)["settings"], seat=seat + 1))
        elif mod is not None and getattr(mod, "HELP", None):
            parts.append(mod.HELP)
        else:
            parts.append("Pieces show their name or their fields (red/5); ? marks fields hidden from you, "
                         "and * a piece turned face up, which every player sees.")
            layout = board_layout(d.board)
            if layout:
                parts.append(esc(layout))
        parts.append(
            "Type the number of an action on the list, the action itself, or its values alone when they fit one "
            "offered action (#N is the list's entry N when the number is also a value). 'list' shows every action, "
            "'history' the "
            "latest events ('history all': all of them), 'save' saves (to --save's file, or 'save FILE'), 'quit' stops. "
            f"Actions now: {esc(', '.join(self.verb_form(v) for v in sorted({a.verb for a in legal})))}"
        )
        self.paged("\n".join(parts))

    def paged(self, markup: str) -> None:
        """Print `markup`; on a terminal too short for it, a screenful at a time (Enter for more,
        q to stop): the help of a long game scrolled its first lines away before anyone read them."""
        if not self.console.is_terminal:
            self.console.print(markup)
            return
        with self.console.capture() as captured:
            self.console.print(markup)
        lines = captured.get().splitlines()
        room = max(5, self.console.height - 2)
        if len(lines) == room + 1:  # one line over: no pause for it alone (it scrolls the top by one)
            room = len(lines)
        for start in range(0, len(lines), room):
            self.console.file.write("\n".join(lines[start:start + room]) + "\n")
            self.console.file.flush()
            if start + room < len(lines):
                try:
                    more = self.input_fn(f"-- more ({start + room} of {len(lines)} lines): Enter, or q and Enter "
                                         "to stop -- ")
                except EOFError:  # Ctrl-D stops the game here as at any prompt (it took a second one)
                    self.console.file.write("\n")  # (what follows on a line of its own)
                    raise
                if not self.console.is_dumb_terminal:  # (a dumb terminal shows the escape as garbage)
                    self.console.file.write("\x1b[1A\r\x1b[2K")  # the pager's line goes: the text reads on
                if more.strip().lower() in ("q", *STOP_WORDS):
                    return

    def show_card(self, card: dict[str, Any], wait: bool = True, timed: bool = True) -> str:
        """Show a challenge card; a two-step card (anagram) waits for Enter before the rest, unless
        `wait` is false (a player watching bots answer). Returns what was typed at that wait (an
        answer typed early), read without echo when players share the screen."""
        typed = ""
        if card.get("anagram"):
            self.console.print(f"\n[bold]Anagram:[/bold] {esc(str(card['anagram']))}")
            if wait:
                start = "to start the clock" if timed else "when you are ready"
                typed = self.private_line(f"Write it down, then press Enter {start} ").strip()
            extra = [f"{k.capitalize()}: {card[k]}" for k in ("hint", "lengths") if card.get(k)]
            self.console.print("\n".join(extra), markup=False)
        elif card.get("clue"):
            self.console.print(f"\n[bold]Clue:[/bold]\n{esc(str(card['clue']))}")
            if card.get("letters"):
                self.console.print(f"({esc(str(card['letters']))} letters)")
        return typed

    def race(self, seats: list[int]) -> None:
        """All responding seats at once: humans press their key to lock in, bots at their times."""
        from davinci.engine.race import run_race, settle_typeahead

        st = self.state
        humans = [s for s in seats if self.seats[s].kind == "human"]
        pend = st.view(humans[0]).get("pending", {})
        limit = int(pend.get("time_limit") or 0)  # 0: untimed, as the step's time_limit says
        bot_actions: dict[int, Any] = {}
        bot_times: dict[int, float] = {}
        for s in seats:
            if self.seats[s].kind != "human":
                a = self.bot_action(s)
                bot_actions[s] = a
                if a.verb in ("answer", "claim") and a.args and not (a.verb == "claim" and a.args[-1] == "failed"):
                    try:  # a simulated failure places no bid: nothing to show during the race
                        bot_times[s] = float(a.args[0])
                    except ValueError:
                        pass
        if len(self.humans) >= 2:
            # Players share the screen for the race: the last player's private view goes first.
            self.wipe()
            self.last_human = None
        since = len(self.transcript)

        def write(text: str) -> None:
            sys.stdout.write(text)
            sys.stdout.flush()

        announced: set[int] = set()
        results: dict[int, tuple[float, str] | None] = {}
        started = math.inf
        try:
            self.announce_challenge(seats, pend)
            started = time.monotonic()
            results = run_race(humans, [s.name for s in self.seats], bot_times, limit, write, shown=announced,
                               results=results)
        except (KeyboardInterrupt, QuitGame, EOFError, OSError):
            # (Ctrl-C, quit, Ctrl-D or end of input, a closed terminal.)
            # A bot whose claimed time the clock had not reached had not locked in: it passes too.
            stopped = time.monotonic() - started
            for b, t in list(bot_times.items()):
                if t > stopped:
                    bot_actions[b], _ = self.state.parse_action("pass"), bot_times.pop(b)
            # Stopped in the middle: the race is settled as it stood (the teams that had not
            # locked in pass), so that a resumed game does not deal the same card again with a
            # fresh clock to teams that have seen it.
            settled = len(self.transcript)
            self.settle_race(humans, bot_actions, bot_times, results)  # (first: the terminal may be gone)
            shown_live = frozenset(lock_in_text(self.seats[s].name, t) for s, t in
                                   [*((b, t) for b, t in bot_times.items() if b in announced),
                                    *((h, r[0]) for h, r in results.items() if r is not None)])
            try:
                if sys.stdout.isatty():
                    write("\r\x1b[K")  # the countdown's line, left half-drawn
                # Who was right and what they won, before the game stops (the lock-ins were shown live).
                self.show_events(settled, None, shown_live)
            except OSError:
                pass
            raise
        self.settle_race(humans, bot_actions, bot_times, results)
        # The answers and who won; the lock-in times were shown live as they happened.
        times = {**{b: t for b, t in bot_times.items() if b in announced},
                 **{h: r[0] for h, r in results.items() if r is not None}}
        live = frozenset([*(lock_in_text(self.seats[s].name, t) for s, t in times.items()),
                          *(f"{self.seats[h].name} passes" for h in humans if results.get(h) is None)])
        shown = self.show_events(since, self.viewer, live)
        if shown and len(self.humans) >= 2 and not self.state.is_terminal():
            # At a shared screen the next player's turn starts by clearing it: everyone reads the
            # outcome first (the players' own "press Enter" comes only after their own move).
            settle_typeahead()
            self.pause("Press Enter when everyone has read this ")
        else:
            self.outcome_read(shown)

    def outcome_read(self, shown: bool) -> None:
        """A challenge's outcome just shown (`shown`) stays before one player at a terminal until
        they press Enter: the bots' moves and the next screen (a board taller than the window)
        followed at once and pushed the answer and the verdict out of sight."""
        if shown and len(self.humans) == 1 and self.interactive and not self.state.is_terminal():
            from davinci.engine.race import settle_typeahead

            settle_typeahead()
            self.pause("Press Enter to go on ")

    def settle_race(self, humans: list[int], bot_actions: dict[int, Any], bot_times: dict[int, float],
                    results: dict[int, tuple[float, str] | None]) -> None:
        """Apply a race's answers: the humans' as locked in (a pass for the others) and the bots'."""
        st = self.state
        # Applied in the order the seats locked in (equal times rank in that order), passes last.
        entries: list[tuple[float, int, Any]] = [(bot_times.get(s, math.inf), s, a) for s, a in bot_actions.items()]
        for s in humans:
            r = results.get(s)
            action = st.parse_action("pass")
            if r is not None:
                try:
                    action = st.parse_action(f"answer {tenths_up(r[0])} {r[1]}")  # as the race showed it
                    st._check(s, action)
                except DavinciError:  # typed text no action can carry (a NUL byte...): a pass
                    action = st.parse_action("pass")
            entries.append((r[0] if r is not None and action.verb != "pass" else math.inf, s, action))
        for _t, s, action in sorted(entries, key=lambda e: (e[0], e[1])):
            self.apply_move(s, action)
        self.settle_bots()

    def settle_bots(self) -> None:
        """Let the bots make the decisions a step asks before it ends (tokens over a cap given
        back), so that a challenge's outcome is shown whole: its later lines (the next bids)
        follow those decisions. Their lines come with the outcome's events."""
        st = self.state
        while st.pending and st.pending.get("type") in ("overflow", "position") and not st.is_terminal() \
                and self.seats[st.current_seats[0]].kind != "human":
            self.bot_move(st.current_seats[0], show=False)

    def bot_move(self, seat: int, show: bool = True) -> Any:
        """The bot at `seat` chooses and makes its move, shown to the humans watching (unless
        `show` is false: its log line comes with the events shown next); the action."""
        st = self.state
        action = self.bot_action(seat)
        # Not shown: answers in a race (their own screen), and where a bot puts a free piece
        # (when only some pieces are placed freely, the line would tell that one was drawn). Nor
        # a sealed choice (a `private` option): the log tells the others it was made. And only a
        # legal action: a bot's mistake is reported, not shown as a move.
        if show and self.humans and (st.pending or {}).get("type") not in ("respond", "position") \
                and not st.is_private(action) and st.is_legal(seat, action):
            # Said in the game's own words when its log says what the bot did ("Ann places ...",
            # "Ann guessed ...: wrong"), else as the action ("Ann: place hand.2.6 0,-1").
            name, before = self.seats[seat].name, len(self.transcript)
            self.apply_move(seat, action)
            # Every line the move logged that the watcher may read ("Ann reads a card to Bo alone",
            # "The round's theme is blue"): a challenge that follows does not show them.
            said = [text for to, text in self.transcript[before:] if sees(to, self.viewer)
                    and text != action_line(name, action)]
            if not said or (action.args and not names_an_arg(action.args, said, st.seat_names)):
                said.insert(0, f"{name}: {action}")  # the game's words do not say what was chosen (`go o8`)
            for text in said:
                self.console.print(f"[dim]{esc(text)}[/dim]")
            self.live.update([action_line(name, action), *said])
            return action
        self.apply_move(seat, action)
        return action

    def apply_move(self, seat: int, action: Any) -> None:
        """Apply a seat's move (a bot's through `apply_bot`) and collect what it logged."""
        st = self.state
        recorded = st.action_count
        with deferred_interrupts():
            try:
                if self.seats[seat].kind == "human":
                    st.apply(seat, action)
                else:
                    apply_bot(st, seat, self.seats[seat].kind, action)
            except DavinciError as e:
                if isinstance(e, (IllegalAction, BotError)):
                    raise
                # The game's rules failed on this action: the log keeps every action up to it
                # (the save keeps the last good turn), so `replay` shows the failure.
                self.write_failure_log((seat, str(action)) if st.action_count == recorded else None, e)
                raise
        self.collect()

    def bot_action(self, seat: int) -> Any:
        """The action the bot at `seat` chooses now; BotError naming it when it fails."""
        kind = self.seats[seat].kind
        action = bot_choice(self.bot(seat), kind, self.state, seat)
        if isinstance(action, str):
            try:
                return self.state.parse_action(action)
            except DavinciError as e:
                raise bot_refused(kind, seat, action, e) from None
        return action

    def announce_challenge(self, seats: list[int], pend: dict[str, Any], wait: bool = True) -> None:
        """Who answers the challenge `pend` (a view's pending response), its prompt and its card;
        `wait=False` when bots alone answer while a human watches (the card read out to them)."""
        self.console.print(f"\n[bold]Challenge[/bold] for {esc(', '.join(self.seats[s].name for s in seats))}")
        if pend.get("prompt"):
            self.console.print(esc(str(pend["prompt"])))
        self.show_card(pend.get("card") or {}, wait=wait)

    def loop(self) -> int:
        st = self.state
        self.collect()
        while not st.is_terminal():
            pending = st.pending or {}
            if pending.get("type") == "respond" and self.timer:
                from davinci.engine.race import race_available

                waiting = list(st.current_seats)
                if any(self.seats[s].kind == "human" for s in waiting) and race_available():
                    if len(self.humans) == 1:
                        # The board and the events that led to the challenge (a bot's move, or a
                        # resumed game), before its clock starts: a player's own screen (at a
                        # shared one the race shows no one's private view).
                        self.render(self.humans[0])
                    self.race(waiting)
                    self.autosave()
                    continue
            waiting = list(st.current_seats)
            watched = None
            # Humans answering one after another (untimed, or no terminal for a race): the bots
            # answering after them settle the challenge, and its outcome is shown at the end.
            answered = pending.get("type") == "respond" and any(self.seats[s].kind == "human" for s in waiting)
            if pending.get("type") == "respond" and self.humans and all(self.seats[s].kind != "human" for s in waiting):
                self.announce_challenge(waiting, st.view(waiting[0]).get("pending", {}), wait=False)
                watched = len(self.transcript)
            for seat in waiting:
                if st.is_terminal():
                    break
                turn = st.turn
                if self.seats[seat].kind == "human":
                    if st.action_count != self.saved_moves:
                        self.autosave()  # every move before a person's decision is kept (a second guess, a stop...)
                    action = self.ask_human(seat)
                    self.unread = False  # (what was shown before stood above the prompt this player answered)
                    self.moved_at = len(self.transcript)
                    self.live.clear()
                    self.apply_move(seat, action)
                else:
                    action = self.bot_move(seat)
                if self.seats[seat].kind == "human" and not st.is_terminal():
                    # What the player's move led to, at once: before the bots' moves follow it, and
                    # before a challenge or the next screen, whose recent events may not reach back
                    # that far. At a shared screen the player confirms it before the keyboard passes.
                    if self.show_events(self.moved_at, seat, frozenset({action_line(self.seats[seat].name, action)})):
                        self.unread = len(self.humans) > 1
                    self.told = len(self.transcript)
                if st.is_terminal() or (st.turn != turn and self.save_due()):
                    self.autosave()
            if watched is not None or answered:
                self.settle_bots()
            if watched is not None:
                self.outcome_read(self.show_events(watched, self.viewer))
            elif answered and self.told < len(self.transcript):
                outcome = self.show_events(self.told, self.viewer)
                if outcome and len(self.humans) > 1:
                    self.unread = True
                self.outcome_read(outcome)
                self.told = len(self.transcript)
        self.autosave()
        self.render(None)  # the game is over: every tile and card shows, as at a table
        r = st.result()
        own_screen = draws_itself(screen_module(self.game.id))
        if not own_screen:  # a game's own screen shows who won itself
            names = [self.seats[w].name for w in r["winners"]]
            limit = " - the turn limit was reached" if r["reason"] == "turn-limit" else ""
            shown = winners_text(names)
            self.console.print(f"\n[bold green]Game over.[/bold green] {esc(shown[0].upper() + shown[1:])}{limit}")
        # The ranking, with the scores the game defines (every game's screen: a game's own screen
        # said only who won). A game without `end.score` scores every seat 0: no number is shown then.
        # (A game's own screen shows what counts: its `end.score` may be an internal ranking key.)
        scores = (r.get("scores") or []) if self.game.definition.end.score is not None and not own_screen else []
        if len(self.seats) > 1 and r.get("ranking"):
            place = st.places()  # seats the rules do not tell apart share a place
            places = [f"{place[s]}. {self.seats[s].name}" + (f" ({scores[s]})" if s < len(scores) and scores[s]
                                                              is not None else "") for s in r["ranking"]]
            self.console.print(esc("Ranking: " + ", ".join(places)))
        elif len(self.seats) == 1 and scores and scores[0] is not None:  # a solo game: its score is the point
            lower = " (lower is better)" if self.game.definition.end.lower_is_better else ""
            self.console.print(esc(f"Score: {scores[0]}{lower}"))
        return 0


def _digest_of(path: str) -> str:
    """The SHA-256 of a file's bytes ("" when it cannot be read): a file touched, or rewritten with
    the same text, is still the one this session wrote."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 16), b""):
                h.update(chunk)
    except OSError:
        return ""
    return h.hexdigest()


def _is_action_text(st: Any, text: str) -> bool:
    """Whether `text` reads as an action of the game, legal now or not: one of its verbs, with as
    many values as the verb takes (`p 1 1.0` is not: `p` is a screen's short form)."""
    try:
        action = st.parse_action(text)
    except (DavinciError, ValueError, TypeError):
        return False
    names = st.game.verb_args.get(action.verb)
    return names is not None and len(names) == len(action.args)


def _is_legal_text(text: str, legal: Any) -> bool:
    """Whether `text` is the text of one of the `legal` actions (a text that is no action: False)."""
    try:
        return text in legal
    except (DavinciError, ValueError, TypeError):
        return False


def _verbs_begun(text: str, verbs: Sequence[str]) -> list[str]:
    """The offered `verbs` that `text`'s first word begins, when it is none of them."""
    low = text.partition(" ")[0].lower()
    return [v for v in verbs if v.startswith(low)] if low and low not in verbs else []


def _whole_verb(text: str, verbs: Sequence[str]) -> str:
    """`text` with its first word written out when it begins exactly one of the `verbs` offered
    now (`st` for `stop`, `tok 1` for `token 1`); as typed otherwise. One letter is too little
    (a `q` meant as quit played a verb starting with q), unless a single verb is offered."""
    first, _, rest = text.partition(" ")
    begun = _verbs_begun(text, verbs)
    if len(begun) != 1 or (len(first) < 2 and len(verbs) > 1):
        return text
    return f"{begun[0]} {rest}".rstrip()


def _several_verbs(text: str, verbs: Sequence[str]) -> list[str]:
    """The offered verbs `text`'s first word begins, when it begins more than one (and is none)."""
    begun = _verbs_begun(text, verbs)
    return begun if len(begun) > 1 else []


def _at_terminal() -> bool:
    """Whether standard input is a terminal (a player there can be asked, and reads privately)."""
    return sys.stdin is not None and sys.stdin.isatty()


# Said for a number typed where no numbered list is on the screen (nothing there for it to pick).
NO_LIST = ("[red]no numbered list is on the screen: type 'list' to see the actions numbered (an empty line shows "
           "the screen again), or the action itself[/red]")


def no_list(pushed_by: str | None, had_numbers: bool) -> str:
    """NO_LIST, or, when a numbered list was on the screen until `pushed_by` ('history', the help)
    printed below it, that the numbers wait for the list again (a number might pick an action
    scrolled out of sight)."""
    if pushed_by is None or not had_numbers:
        return NO_LIST
    return (f"[red]{pushed_by} came after the numbered list, so a number waits for the list again: type 'list' "
            "(or an empty line for the screen) and then the number, or type the action itself[/red]")


# Whether the player is being asked for a file to save in (a stop signal then ends the question).
_ASKING = [False]


# The stop signals that came since the game began to stop (see _note_stops).
_CAUGHT: list[int] = []


def _noted(signum: int, frame: Any) -> None:
    _CAUGHT.append(signum)
    if _ASKING[0]:
        raise HangUp if signum == HANGUP else StopSignal


def _note_stops() -> list[int]:
    """From now on stop signals (SIGTERM, SIGHUP, SIGQUIT) are only noted, in the list returned, so
    that the game being saved is not killed half way: a closing terminal sends SIGHUP twice (the
    shell passes its own on), and the second one ended the save. Only while the player is asked
    for a file name does one end the question (the game is then saved to a file of its own)."""
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            signal.signal(sig, _noted)
    return _CAUGHT


def _terminal_gone(e: OSError) -> bool:
    """Whether `e` is what reading or writing a terminal whose window closed fails with."""
    return e.errno in (errno.EIO, errno.ENXIO)


def _say(console: Any, text: str, **kwargs: Any) -> None:
    """Print while a game stops: a terminal whose window closed cannot be written (EIO), and the save
    must go on regardless."""
    try:
        console.print(text, **kwargs)
    except OSError:
        pass


def _save_now(session: Session, console: Any, hung_up: bool = False, quitting: bool = False,
              beside: bool = True) -> str | None:
    """Save the game as it stands when it stops (Ctrl-C, quit, a failing bot): to the --save
    file (a full disk there: on), or at a terminal to a file the player names; with nobody to ask
    (the terminal closed: `hung_up`; input from a pipe stopped by a signal, unless `quitting` or
    not `beside`), to a new file beside (`_save_beside`); a --save file that cannot be written
    (a full disk, another program's change) is said, and the game goes to another file as above.
    The file written, or None; SaveError when nothing could be written."""
    if session.save_path is not None:
        try:
            session.write_own(session.save_path, session.save_json())
            return session.save_path
        except SaveError as e:
            # The system refuses the --save file (a full disk), or another program changed it (it
            # is never overwritten): either way the game goes to another file, named or beside.
            _say(console, f"[red]{esc(e.message)}[/red]")
            if transient(e):
                session.failing.add("save")
            else:
                session.given_up.add("save")
                session.save_path = None
    if not hung_up and _at_terminal():
        try:
            return _ask_and_save(console, session.save_json(), session.identity, session.log_resume())
        except StopSignal as stop:  # the terminal closed (or a stop signal came) while a file name was asked
            session.hung_up = session.hung_up or isinstance(stop, HangUp)
            hung_up = True
        except NobodyToAsk:  # input ended at the question
            hung_up = True
    # Nobody to ask (a closed terminal, input from a pipe stopped by a signal), or the --save file
    # refused: a file of its own. (`quit` in a script's input is the script's choice: no file.)
    if hung_up or "save" in session.files_incomplete() or not (_at_terminal() or quitting or not beside):
        return _save_beside(session)
    return None


def _save_beside(session: Session) -> str | None:
    """Save to a new file `davinci-GAME-SEED.json` (numbered if taken) in the working folder, or,
    when that folder cannot be written, in the home folder, then the temporary folder: where a
    game stopped with nobody to name a file goes. SaveError when none can be written."""
    import tempfile

    failed: SaveError | None = None
    folders = dict.fromkeys(["", os.path.expanduser("~"), tempfile.gettempdir()])
    for folder in folders:
        for n in range(1, 100):
            path = os.path.join(folder, f"davinci-{session.game.id}-{session.seed}{'' if n == 1 else f'-{n}'}.json")
            if not os.path.exists(path):
                try:
                    atomic_write(path, session.save_json())
                    return path
                except SaveError as e:
                    if not transient(e):
                        raise
                    failed = failed or e
                break  # (this folder refuses: the next one)
    if failed is not None:
        raise failed
    return None


def typed_file_name(text: str) -> str:
    """A file name typed at a prompt, read as a shell would: `"my game.json"` without its quotes,
    `~/g.json` in the home folder."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return os.path.expanduser(text) if text else text


def _ask_and_save(console: Any, data: str, mine: GameId | None = None, logged: str | None = None) -> str | None:
    """Ask for a file name until the save is written there; None when the player gives none.

    A name that cannot be used (a missing folder, someone else's file) is explained and asked
    again: the game is only lost when the player chooses so (an empty answer, end of input).
    `logged`: the command that resumes the game from its log, said when nothing is saved.
    """
    unsaved = "[yellow]Not saved.[/yellow]" if not logged else f"[yellow]Not saved[/yellow]; its log goes on with it: {logged}"
    while True:
        _ASKING[0] = True
        try:
            answer = typed_file_name(input("Save the game? Enter a file name (empty or n: don't save; Ctrl-D: save to "
                                           "a new file here): "))
        except StopSignal:  # the terminal closed, or a stop signal came: nobody is left to answer
            raise
        except OSError as e:  # the terminal's window closed while it asked
            if _terminal_gone(e):
                raise HangUp from None
            raise
        except EOFError:  # input ended (a closed window reads as its end): nobody answers, nothing is lost
            raise NobodyToAsk from None
        except KeyboardInterrupt:
            console.print("\n" + unsaved, soft_wrap=True)  # (a second Ctrl-C at the question)
            return None
        finally:
            _ASKING[0] = False
        if not answer:
            console.print(unsaved, soft_wrap=True)  # (as `n` says)
            return None
        if answer.lower() in ("n", "no"):  # an answer to "Save the game?", not a file name (it saved to `n`)
            console.print(unsaved, soft_wrap=True)
            return None
        try:
            check_write_target(answer, "save", mine)
            atomic_write(answer, data)
        except SaveError as e:
            console.print(f"[red]{esc(e.message)}[/red] - enter another file name, or nothing to quit without saving")
            continue
        return answer


def generic_render(view: dict[str, Any], hide: frozenset[str] = frozenset(), title: str | None = None) -> str:
    """A plain text picture of any game's view: the game's variables, seats with their variables
    and zones, the shared zones (a grid drawn as rows and columns), the latest events. Pieces in a
    seat's zones carry their place (`3:20`), the number actions use (`play hand.1.3`). Zones and
    variables named in `hide` (the game's `display.hide`: a supply, a tray, bookkeeping) are left out."""
    lines = [f"{title or view['game']} - {turn_text(view, view['seats'][view['current'] - 1]['name'])}"]
    shown_vars = {k: v for k, v in (view.get("vars") or {}).items() if v is not None and k not in hide}
    if shown_vars:
        lines.append("table: " + _vars_text(shown_vars))
    for s in view["seats"]:
        status = "" if s["active"] else " (out)"
        seat_vars = {k: v for k, v in s["vars"].items() if k not in hide}
        lines.append(f"{s['name']}{status}" + (f": {_vars_text(seat_vars)}" if seat_vars else ""))
        for zname, z in s["zones"].items():
            if zname not in hide:
                lines.extend(_zone_lines(f"   {zname}", z, numbered=True))
    for zname, z in view["zones"].items():
        if zname not in hide:
            lines.extend(_zone_lines(zname, z, numbered=False))
    for e in events_since_own_move(view):  # what happened since the viewer's last move
        lines.append(f"  . {e}")
    return "\n".join(lines)


def board_layout(board: Any, most: int = 40) -> str:
    """The board's special spaces, for the generic screen's help: every space whose type is not
    the commonest one, with its attributes (`ladder: s4 (to=s14), s9 (to=s31)`). Players of a
    pack's board game learn where the snakes and ladders are; the screen shows only the pieces."""
    spaces = list(getattr(board, "spaces", {}).values())
    if not spaces:
        return ""
    counts: dict[str, int] = {}
    for sp in spaces:
        counts[sp.type] = counts.get(sp.type, 0) + 1
    common = max(counts, key=lambda t: counts[t])
    special = [sp for sp in spaces if sp.type != common][:most]
    if not special:
        return f"The board: {len(spaces)} {common} spaces."
    by_type: dict[str, list[str]] = {}
    for sp in special:
        attrs = ", ".join(f"{k}={display(v, 'yes', 'no')}" for k, v in sp.attrs.items())
        by_type.setdefault(sp.type, []).append(sp.id + (f" ({attrs})" if attrs else ""))
    more = sum(1 for sp in spaces if sp.type != common) - len(special)
    lines = [f"The board: {len(spaces)} spaces, {counts[common]} of them {common}; the others:"]
    lines.extend(f"  {t}: {', '.join(ids)}" for t, ids in by_type.items())
    if more > 0:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def _vars_text(values: dict[str, Any]) -> str:
    """`round=3, cup=[5, 5, 4], done=no`: a list in brackets, so its commas read as its own."""
    return ", ".join(f"{k}=[{display(v, 'yes', 'no')}]" if isinstance(v, list) else f'{k}=""' if v == ""
                     else f"{k}={display(v, 'yes', 'no')}" for k, v in values.items())


def _piece_text(p: dict[str, Any]) -> str:
    """A piece as the generic screen shows it: its name (the component's `label` field) when it
    has one, otherwise its visible fields joined by `/`."""
    if "name" in p:
        txt = str(p["name"])
    else:
        fields = {k: v for k, v in p.items() if k not in ("ref", "kind", "revealed", "hidden", "space")}
        # A list field in brackets: `white/2/[0,3,0,3,2]` (with spaces, `white/2/0 3 0 3 2` read as
        # several pieces).
        txt = "/".join("[" + ",".join(map(str, v)) + "]" if isinstance(v, list) else str(v) for v in fields.values())
    return ("?" if p.get("hidden") else "") + txt + ("*" if p.get("revealed") else "")


def piece_notes(view: dict[str, Any]) -> dict[str, str]:
    """Each piece ref of a view (`hand.1.4`) with how the generic screen shows that piece."""
    zones = [*(z for s in view["seats"] for z in s["zones"].values()), *view["zones"].values()]
    notes = {}
    for z in zones:
        for p in [*z.get("pieces", ()), *z.get("revealed", ())]:
            if "ref" in p:
                notes[p["ref"]] = _piece_text(p)
    return notes


def noted_action(text: str, notes: dict[str, str]) -> str:
    """An action's text with the pieces it names shown after it: `play hand.1.4 (red 6)`."""
    shown = [notes[w] for w in text.split()[1:] if w in notes]
    return f"{text} ({', '.join(shown)})" if shown else text


def _zone_lines(title: str, z: dict[str, Any], numbered: bool) -> list[str]:
    if "cells" in z:
        return [f"{title}:", *("   " + row for row in _grid_rows(z["cells"]))]
    return [f"{title}: " + _zone_text(z, numbered)]


def _zone_text(z: dict[str, Any], numbered: bool = False) -> str:
    if "pieces" not in z:
        return f"{z['count']} piece{'' if z['count'] == 1 else 's'}"
    texts = [_piece_text(p) for p in z["pieces"]]
    if len(texts) > 1 and set(texts) == {"?"} and not numbered:
        return f"{len(texts)} hidden pieces"  # not forty question marks
    out = []
    for i, (p, text) in enumerate(zip(z["pieces"], texts), 1):
        where = f"@{p['space']}" if p.get("space") is not None else ""
        out.append((f"{i}:" if numbered else "") + text + where)
    if not numbered:  # a run of like pieces once, with its count (Nim's box: 180 tokens filled five lines)
        runs: list[list[Any]] = []
        for text in out:
            if runs and runs[-1][0] == text:
                runs[-1][1] += 1
            else:
                runs.append([text, 1])
        out = [f"{text} x{n}" if n >= 4 else " ".join([text] * n) for text, n in runs]
    return " ".join(out) or "-"


def _grid_rows(cells: list[dict[str, Any]]) -> list[str]:
    """The occupied cells as a table: x across, y down (y = 0 at the top); a stack shows its top
    and `+N` for the N pieces under it (`xN` read as N pieces, as it does in a zone's list)."""
    if not cells:
        return ["(empty)"]
    shown = {(c["x"], c["y"]): _piece_text(c["top"]) + (f"+{c['height'] - 1}" if c["height"] > 1 else "") for c in cells}
    xs = range(min(x for x, _ in shown), max(x for x, _ in shown) + 1)
    ys = range(min(y for _, y in shown), max(y for _, y in shown) + 1)
    width = max(max(len(t) for t in shown.values()), *(len(str(x)) for x in xs), 1)
    label = max(len(str(y)) for y in ys)
    rows = [" " * label + " y\\x " + " ".join(f"{x:>{width}}" for x in xs)]
    for y in ys:
        rows.append(f"{y:>{label}}     " + " ".join(f"{shown.get((x, y), '.'):>{width}}" for x in xs))
    if any(c["height"] > 1 for c in cells):
        rows.append("(+N: the top piece of a stack, with N more under it)")
    return rows


def run_play(
    game: Any,
    seats: list[SeatSpec],
    seed: int,
    settings: dict[str, Any],
    console: Any,
    input_fn: InputFn,
    *,
    save_path: str | None = None,
    log_path: str | None = None,
    resume: str | None = None,
    save_doc: dict[str, Any] | None = None,
    timer: bool = True,
    hints: bool = False,
    clear: bool = True,
    packs: Sequence[dict[str, str]] = (),
    notes: Sequence[str] = (),
) -> int:
    """Play a game in the terminal; returns the exit code. `notes` (rich markup) are printed once
    the game stands ready (a save that cannot be resumed is refused before them).

    `packs` is the content packs the game was loaded with (see `pack_record`), written into
    saves and logs so that resuming and replaying find the game again. `save_doc` is the save
    at `resume` when the caller has read it already (`read_save`), so it is not read twice.
    """
    from davinci.engine.bots import make_bot

    resumed_note = ""
    if resume and save_doc is None:
        save_doc = read_save(resume)
    mine = game_identity(save_doc, "save") if resume else None  # (a new game replaces no unfinished one)
    from_log = bool(resume and save_doc and save_doc.get("from_log"))
    if from_log and resume:
        # A game resumed from its log goes on logging to it (the log holds the whole game); it is
        # saved only where --save says, never over the log.
        if not log_path:
            try:
                check_write_target(resume, "log", mine)
                if not os.access(resume, os.W_OK):
                    raise SaveError(f"{resume} cannot be written")
                log_path = resume
            except SaveError as e:
                resumed_note = f"{e.message}: this session is not logged (use --log FILE)"
    elif resume and not save_path:
        # A resumed game goes on saving to the file it came from (it stopped saving, silently).
        try:
            check_write_target(resume, "save", mine)
            if log_path and os.path.realpath(resume) == os.path.realpath(log_path):
                raise SaveError(f"{resume} is also this game's log (--log)")
            if not os.access(resume, os.W_OK):
                raise SaveError(f"{resume} cannot be written")
            save_path = resume
        except SaveError as e:
            resumed_note = f"{e.message}: this game is saved only if you type 'save FILE' (or use --save)"
    if save_path and log_path and os.path.realpath(save_path) == os.path.realpath(log_path):
        raise UsageError(f"--save and --log name the same file ({save_path}); give each its own file")
    # Refused before the game starts: a device, a pipe, or a file that is not ours.
    if save_path:
        check_write_target(save_path, "save", mine)
    if log_path:
        check_write_target(log_path, "log", mine)
    if resume:
        doc = save_doc if save_doc is not None else read_save(resume)
        seats = [SeatSpec(s["kind"], s["name"]) for s in doc["seats"]]
        seed = doc["seed"]
        timer = timer and doc["timer"]
        try:
            saved = game.state_from_json(doc["saved"])
            if [s.name for s in seats] != list(saved.seat_names):  # the names outside the checksum too
                raise SaveError("the save's seats do not match its state")
            state = replay_saved(game, saved, doc["saved"], seed, resume)
        except SaveError as e:
            message = e.message if e.message.startswith(f"{resume}: ") else f"{resume}: {e.message}"
            raise SaveError(message) from None
        except RecursionError:  # values nested hundreds deep, under the JSON reader's limit
            raise SaveError(f"{resume}: the save is nested too deeply") from None
    else:
        try:
            state = game.new_state([s.name for s in seats], seed=seed)
        except UsageError:
            raise
        except DavinciError as e:  # the game's setup fails: a log (asked for) shows it to `davinci replay`
            if log_path:
                doc = log_document(game, seats, seed, settings, None, packs)
                doc["failure"] = {"where": "setup", "action": 0, "code": e.code}
                try:
                    atomic_write(log_path, json.dumps(doc, indent=1))
                    e.add_note(f"(the log {log_path} records the failure at the setup; `davinci replay` shows it)")
                except SaveError:
                    pass
            raise
    try:
        bots = [
            None if s.kind == "human" else make_bot(s.kind, derive_seed(seed, 1000 + i), game.id, dict(game.settings))
            for i, s in enumerate(seats)
        ]
    except UsageError as e:
        if not resume:
            raise
        # The save names the bots, not the player: a bot that is gone is a problem of the file.
        raise SaveError(f"{resume}: the {'log' if from_log else 'save'}'s seats cannot be played here: "
                        f"{e.message}") from None
    if resume:  # bots that remember what they saw see the game so far again
        warm_bots(game, state.seat_names, seed, state.history, bots, [s.kind for s in seats])
    def reading(prompt: str) -> str:
        try:
            return input_fn(prompt)
        except (EOFError, OSError):  # input ended, or the terminal's window closed: the game stops here
            _note_stops()  # (and a SIGHUP coming with it must not cut the save short)
            raise

    session = Session(
        game, state, seats, seed, settings, console, reading, save_path, log_path, timer, hints, clear, bots,
        packs=packs,
    )
    session.interactive = _at_terminal()
    # A save keeps the latest MAX_EVENTS lines: a resumed game's earlier ones are not in it.
    session.cut_before = bool(resume) and len(state.events) >= MAX_EVENTS

    for note in notes:
        console.print(note)
    if resumed_note:
        console.print(f"[yellow]{esc(resumed_note)}[/yellow]")

    _CAUGHT.clear()
    old = {sig: signal.signal(sig, _stop) for sig in STOP_SIGNALS}
    try:
        # Saving before the first move finds an unwritable --save or --log path before anyone plays.
        session.autosave(strict=True)
        try:
            code = session.loop()
        except OSError as e:
            # The terminal's window closed: reading or writing it fails (EIO) before, or instead
            # of, the SIGHUP arriving. The game is saved as at a hangup, not lost as output trouble.
            if not _terminal_gone(e):
                raise
            raise HangUp from None
        if session.failing:
            session.autosave()  # a last try (the disk may have room again)
        missing = session.files_incomplete()
        for what in missing:  # said mid-game, long scrolled away by now
            console.print(f"[yellow]Note: this game's {what} file could not be kept up during the game (see above): "
                          f"the {what} does not hold its end.[/yellow]")
        return 1 if missing and code == 0 else code  # (a script must know its log or save is not whole)
    except EOFError as ended:
        caught = _note_stops()
        session.autosave()
        _say(console, "\n[yellow]Input closed: the game stops here.[/yellow]")
        path = session.save_path  # --save, or a file named by the in-game 'save FILE'
        # Input ends at a closed terminal too (its window closed), often before its SIGHUP comes.
        gone = HANGUP in caught or (session.interactive and not _at_terminal())
        if "save" in session.failing:  # the --save file could not be written (a full disk): one beside
            path = None
            try:
                path = _save_beside(session)
            except SaveError as e:
                _say(console, f"[red]{esc(e.message)}[/red]")
            if path is None:
                _say(console, "[red]Not saved[/red]: neither the --save file nor a file in this folder could be "
                              "written (see above)")
                return 1
        elif path is None and (session.interactive or gone):  # Ctrl-D at a terminal: asked as at Ctrl-C
            try:
                path = _save_now(session, console, hung_up=gone)
            except SaveError as e:
                _say(console, f"[red]{esc(e.message)}[/red]")
        if path:
            _say(console, f"Saved to {esc(path)}; resume with: {session.resume_hint(path)}", soft_wrap=True)
        elif "save" in session.given_up:
            _say(console, "[yellow]Not saved[/yellow]: the --save file was given up during the game (see above)")
        elif not session.interactive and (logged := session.log_resume()):
            _say(console, f"[yellow]Not saved[/yellow]; its log goes on with it: {logged}", soft_wrap=True)
        elif not session.interactive:
            _say(console, "[yellow]Not saved[/yellow] (give --save FILE to keep a game that input may end)")
        if gone or session.hung_up:
            return 129
        missing = [w for w in session.files_incomplete() if w == "log" or not path]
        for what in missing if "save" not in missing else [w for w in missing if w == "log"]:
            _say(console, f"[yellow]Note: this game's {what} file could not be kept up during the game (see above): "
                          f"the {what} does not hold its end.[/yellow]")
        return 1 if missing or isinstance(ended, InputCut) else 0  # (a script must know its files are not whole,
        # or that its input was cut short)
    except BotError as e:
        # A bot failed before its move changed anything: the position is whole. The reason first,
        # then the game is saved as at Ctrl-C (to the --save file, or to a file the player names).
        sys.stdout.flush()
        sys.stderr.write(f"davinci: {message_text(str(e))}\n")  # as the command line prints an error
        sys.stderr.write(debug_trace(e))  # with DAVINCI_DEBUG: the bot's own traceback
        sys.stderr.flush()
        try:
            session.write_log()  # the log keeps up with the save
        except DavinciError as log_err:
            console.print(f"[red]{esc(log_err.message)}[/red]")
        try:
            path = _save_now(session, console, beside=False)  # (a script's failing bot: its choice of files)
        except SaveError as s_err:
            console.print(f"[red]{esc(s_err.message)}[/red]")
            path = None
        if path:
            console.print(f"The game is saved in {esc(path)}; once the bot is mended, resume with: "
                          f"{session.resume_hint(path)}", soft_wrap=True)
        else:
            console.print("[yellow]The game was not saved[/yellow]" + ("" if _at_terminal() else
                          " (input is not a terminal, so no file name was asked: give --save FILE to keep it)"))
        return 1
    except (KeyboardInterrupt, QuitGame) as stop:
        quitting = isinstance(stop, QuitGame)
        caught = _note_stops()
        hung = isinstance(stop, HangUp)
        # (the terminal may be gone, its window closed: what cannot be said is skipped, the save is not)
        _say(console, "\n[yellow]" + ("Game stopped." if quitting else "Interrupted.") + "[/yellow]")
        try:
            session.kept("log", session.write_log, say=lambda text: _say(console, text))  # the log keeps up
        except DavinciError as e:  # (the game's end failing in the log: said, the save is not lost)
            _say(console, f"[red]{esc(e.message)}[/red]")
        try:
            path = _save_now(session, console, hung_up=hung, quitting=quitting)
        except SaveError as e:
            if not _at_terminal():
                raise
            _say(console, f"[red]{esc(e.message)}[/red]")  # a full disk
            path = None
        if path:  # soft_wrap: the command stays on one line, ready to copy
            _say(console, f"Saved to {esc(path)}; resume with: {session.resume_hint(path)}", soft_wrap=True)
        elif not _at_terminal() and (logged := session.log_resume()):  # (at a terminal, the save question said so)
            _say(console, f"[yellow]Not saved[/yellow]; its log goes on with it: {logged}", soft_wrap=True)
        hung = hung or HANGUP in caught or session.hung_up
        missing = session.files_incomplete()
        for what in missing:
            _say(console, f"[yellow]Note: this game's --{what} file could not be kept up (see above): it does not "
                          f"hold the game as it stopped.[/yellow]")
        if quitting and not hung:
            return 1 if missing else 0  # (a script must know its log or save is not whole)
        return 129 if hung else 130  # (as a shell reports SIGHUP)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
