"""Bots: a bot sees a view and the legal actions, and returns one of them.

Built-in bots live here; game-specific bots register through the `davinci.bots` entry-point
group (`name = "package.module:Class"`), so a YAML file never names Python code.
"""

from __future__ import annotations

import hashlib
import signal
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from importlib import metadata
from typing import Any, Protocol

from davinci.engine.actions import Action
from davinci.engine.errors import BotError, DavinciError, IllegalAction, StopSignal, UsageError, quoted
from davinci.engine.legal import Choices
from davinci.engine.rng import Rng


class Bot(Protocol):
    """What every bot provides."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Pick one of `legal` given the seat's view."""
        ...


def reseed_for_decision(bot: Any, game_seed: int, seat: int, moves: int) -> Any:
    """`bot`, reseeded (when it can be) from the game's seed, its 0-based seat and the number of
    moves made so far. `davinci play` and `davinci simulate` both call it before each decision,
    so a resumed game's bots choose as they would have without a break, and the seed simulate
    names replays the same game in `davinci play`."""
    reseed = getattr(bot, "reseed", None)
    if reseed is not None:
        reseed(bot_seed(game_seed, seat, moves))
    return bot


def bot_seed(game_seed: int, seat: int, moves: int) -> int:
    """The seed of a bot's decision: a one-way hash of the game's seed, the seat and the moves so
    far. (A mix that can be run backwards would hand the bot the game's seed, and with it every
    hidden piece and every draw to come.)"""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{moves}".encode(), digest_size=8, person=b"davinci-bot").digest()
    return int.from_bytes(digest, "big")


class SeededBot:
    """A base for bots: the game's settings, and a seeded random source `rng` for every random
    choice. `davinci play` and `davinci simulate` call `reseed` before each of the bot's decisions
    with a seed made from the game's seed, the seat and the number of moves so far (see
    `reseed_for_decision`), so a resumed game's bots
    choose as they would have in the game played without a break (a bot that remembers earlier
    views, rather than reading what it needs from the view, sets `remembers = True`: see
    `warm_bots`)."""

    name = "seeded"

    def __init__(self, seed: int = 0, settings: dict[str, Any] | None = None) -> None:
        self.rng = Rng(seed)
        self.settings = dict(settings or {})

    def reseed(self, seed: int) -> None:
        self.rng = Rng(seed)


class RandomBot(SeededBot):
    """Uniform over the legal actions, from its own seeded source."""

    name = "random"
    wants_view = False  # uniform choice needs no view; front ends may skip building one

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


def bot_choice(bot: Any, kind: str, state: Any, seat: int) -> Action | str:
    """What the bot `kind` playing `seat` chooses now (its view built only when it wants one).

    A bot is outside code: an exception inside it, or a value that is not an action, is a
    BotError naming the bot and the seat rather than an internal error of davinci. Whether the
    action is legal is for `apply` to say (see `bot_refused`)."""
    try:
        view = state.view(seat) if getattr(bot, "wants_view", True) else {}
        action = bot.choose(view, Choices(state.legal_actions(seat)))
    except DavinciError:
        raise
    except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001 - any failure of outside code is the bot's
        if isinstance(e, StopSignal) or (
                isinstance(e, KeyboardInterrupt) and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):
            raise  # a stop signal, or a Ctrl-C as far as anyone can tell (a simulate worker ignores Ctrl-C)
        try:
            said = quoted(str(e), 200)
        except Exception:  # noqa: BLE001 - an exception that cannot even say what it is
            said = "(its message cannot be shown)"
        raise BotError(f"bot '{kind}' (seat {seat + 1}) raised {type(e).__name__}: {said}") from e
    if isinstance(action, str) and action.__class__ is not str:
        action = str.__str__(action)  # a subclass of str: its plain text
    if action.__class__ not in (Action, str):
        raise BotError(f"bot '{kind}' (seat {seat + 1}) returned {type(action).__name__}, not one of the legal actions")
    return action


def warm_bots(game: Any, seat_names: Sequence[str], seed: int, history: Sequence[tuple[int, str]],
              bots: Sequence[Any], kinds: Sequence[str]) -> None:
    """Play the earlier decisions of a resumed game through the bots that remember what they saw
    (a `remembers` attribute that is true): each is shown the view and the legal actions it had
    then, reseeded as then, and its choice is dropped for the recorded move. Such a bot then goes
    on as it would have without the break."""
    if not any(getattr(b, "remembers", False) for b in bots if b is not None):
        return
    st = game.new_state(list(seat_names), seed=seed)
    for moves, (seat, text) in enumerate(history):
        bot = bots[seat]
        if bot is not None and getattr(bot, "remembers", False) and seat in st.current_seats:
            try:
                bot_choice(reseed_for_decision(bot, seed, seat, moves), kinds[seat], st, seat)
            except BotError:
                pass  # it failed then, or would now: its memory is what it could gather
        st.apply(seat, text)


def bot_refused(kind: str, seat: int, action: Any, error: DavinciError) -> BotError:
    """The BotError for an action of the bot `kind` (playing `seat`) that the rules refused."""
    return BotError(f"bot '{kind}' (seat {seat + 1}) chose '{quoted(str(action))}', which the rules refuse: "
                    f"{error.message}")


def apply_bot(state: Any, seat: int, kind: str, action: Action | str) -> None:
    """`state.apply` of the bot `kind`'s action: one the rules refuse is the bot's BotError."""
    try:
        state.apply(seat, action)
    except IllegalAction as e:
        raise bot_refused(kind, seat, action, e) from None


BotFactory = Callable[..., Any]

BUILTIN: dict[str, BotFactory] = {"random": RandomBot}


_EPS: dict[str, Any] | None = None
_LOADED: dict[str, Any] = {}


def _entry_points() -> dict[str, Any]:
    # Scanning installed metadata costs milliseconds; once per process is enough.
    global _EPS
    if _EPS is None:
        try:
            eps = metadata.entry_points(group="davinci.bots")
        except Exception:  # a broken installation must not break the CLI
            eps = ()  # type: ignore[assignment]
        _EPS = {ep.name: ep for ep in eps}
    return _EPS


def bot_names() -> list[str]:
    return sorted({*BUILTIN, *_entry_points()})


def make_bot(name: str, seed: int, game_id: str | None = None, settings: dict[str, Any] | None = None) -> Any:
    """Instantiate a bot by registry name, seeded."""
    if not isinstance(name, str):
        raise UsageError(f"a bot is named by text (one of {', '.join(bot_names())}), got {type(name).__name__}")
    if seed.__class__ is not int or not 0 <= seed < 2**64:  # (a text or -1 failed inside the bot, blamed on it)
        raise UsageError(f"a bot's seed is a whole number from 0 to 2**64 - 1, got {seed!r}"[:200])
    factory = BUILTIN.get(name)
    if factory is None:
        ep = _entry_points().get(name)
        if ep is None:
            near = get_close_matches(name, bot_names(), 1)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            raise UsageError(f"unknown bot '{name}'{hint}; bots: {', '.join(bot_names())}")
        try:
            factory = _LOADED[name] if name in _LOADED else ep.load()
            _LOADED[name] = factory
        except MemoryError:  # (the machine's limit: not the bot's fault)
            raise
        except Exception as e:  # the installed package's fault, not the command line's: exit 1, not 2
            raise BotError(f"bot '{name}' failed to load: {type(e).__name__}: {quoted(str(e), 200)} (its package's "
                           "`davinci.bots` entry point; DAVINCI_DEBUG=1 shows the traceback)") from e
    try:
        bot = factory(seed=seed, settings=settings or {})
    except DavinciError:
        raise
    except Exception as e:  # noqa: BLE001 - outside code: its failure is the bot's, named
        raise BotError(f"bot '{name}' cannot start: {type(e).__name__}: {quoted(str(e), 200)}") from e
    games = getattr(bot, "games", None)
    if games and game_id is not None and game_id not in games:
        raise UsageError(f"bot '{name}' plays {', '.join(games)}, not {game_id}")
    return bot
