"""Many seeded games between bots, in one or several processes, with identical results.

Game i uses seed `derive_seed(master, i)` for the game, and its bots are reseeded before each
decision from it as `davinci play --seed` reseeds them, so the outcome of every game is
independent of how games are split between processes, and `davinci play` with the seed a
failure names replays that game.

Results are aggregated as they arrive into a `Tally` of integer counters and histograms, never
kept as a list of games: memory stays constant however many games run, and because integer
sums do not depend on the order of addition, the report is identical for any number of jobs.
"""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from davinci.engine.bots import apply_bot, bot_choice, reseed_for_decision
from davinci.engine.definition import seat_range
from davinci.engine.errors import STOP_SIGNALS, DavinciError, StopSignal, UsageError, debug_trace
from davinci.engine.rng import derive_seed


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: game, variant, one bot name per seat, number of games and master seed."""

    game: str
    variant: str | None
    players: tuple[str, ...]
    games: int
    seed: int
    settings: Mapping[str, Any]
    packs: tuple[str, ...] = ()
    rotate: bool = False


def parse_players(spec: str) -> tuple[str, ...]:
    """`random,deducer` → ('random', 'deducer'); `3xrandom` style is not supported, be explicit."""
    names = tuple(p.strip() for p in spec.split(","))
    if not any(names):
        raise UsageError("--players needs at least one bot name, e.g. --players random,random")
    if "" in names:  # `random,,random`: dropping the gap would silently seat fewer players
        raise UsageError(f"--players '{spec}': seat {names.index('') + 1} is empty; "
                         "name a bot for every seat, separated by single commas")
    return names


# Bot classes resolved once per process: looking a bot up through the entry-point registry
# costs milliseconds, as much as playing a short game.
_FACTORIES: dict[tuple[str, str], Callable[..., Any]] = {}


def _bot_factory(name: str, game: Any) -> Callable[..., Any]:
    from davinci.engine.bots import make_bot

    key = (name, game.id)
    factory = _FACTORIES.get(key)
    if factory is None:
        # make_bot validates the name and the bot's games once; its class then builds every seat.
        factory = type(make_bot(name, 0, game.id, dict(game.settings)))
        _FACTORIES[key] = factory
    return factory


def _load(cfg: SimConfig) -> Any:
    from davinci.engine.game import load_game

    return load_game(cfg.game, cfg.variant, cfg.settings, cfg.packs)


def play_one(cfg: SimConfig, index: int, game: Any = None) -> dict[str, Any]:
    """Play game number `index` of a simulation; returns a small summary."""
    if game is None:
        game = _load(cfg)
    n = len(cfg.players)
    shift = index % n if cfg.rotate else 0
    seat_bots = [cfg.players[(i + shift) % n] for i in range(n)]
    seed = derive_seed(cfg.seed, index)
    bots = [
        _bot_factory(name, game)(seed=derive_seed(seed, 1000 + i), settings=dict(game.settings))
        for i, name in enumerate(seat_bots)
    ]
    actions = 0
    try:
        st = game.new_state(n, seed=seed)
        while not st.is_terminal():
            for s in st.current_seats:
                bot = reseed_for_decision(bots[s], seed, s, st.action_count)  # as `davinci play --seed` does
                apply_bot(st, s, seat_bots[s], bot_choice(bot, seat_bots[s], st, s))
                actions += 1
                if st.is_terminal():
                    break
        r = st.result()
    except DavinciError as e:
        if e.code == "DV081":  # the game's `requires`: the settings and the number of seats, not this game
            raise
        # Name the game, so it can be replayed: its seed and seats, and the action it had reached.
        e.message = (f"in simulated game {index} (seed {seed}, seats {','.join(seat_bots)}, after {actions} "
                     f"action{'' if actions == 1 else 's'}): {e.message}")
        raise
    return {
        "index": index,
        "seat_bots": seat_bots,
        "winners": r["winners"],
        "actions": actions,
        "turns": r["turns"],
        "reason": r["reason"],
        # The seat that took the first turn (drawn, or set by the settings), even one that ended with
        # no decision (a 1 rolled at once); None when no turn began.
        "first": st.first_seat,
        # Each seat's score when the game defines one (end.score), for the score statistics.
        "scores": list(r["scores"]) if game.definition.end.score is not None else None,
    }


@dataclass
class Tally:
    """Streaming statistics of finished games, in integers only so that merging is exact.

    Lengths are kept as histograms (length → number of games): their size is bounded by the
    longest game, not by the number of games, and percentiles read from them are the same as
    from the sorted list of every length.
    """

    seats: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    # (bot, number of winners) → wins: a shared win counts 1/k, summed exactly at the end.
    shared_wins: Counter[tuple[str, int]] = field(default_factory=Counter)
    bot_seats: Counter[str] = field(default_factory=Counter)
    draws: int = 0  # games nobody won
    shared_games: int = 0  # games won by more than one seat
    turn_limit_games: int = 0
    actions: Counter[int] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    # Wins by place in the turn order (0: the seat that took the first turn), and how often each
    # seat took it, over the games that reached a first turn.
    order_wins: list[int] = field(default_factory=list)
    firsts: Counter[int] = field(default_factory=Counter)
    # Scores (for games with end.score): a histogram per seat (score → games) and per bot.
    seat_scores: list[Counter[int]] = field(default_factory=list)
    bot_scores: dict[str, Counter[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
        if not self.order_wins:
            self.order_wins = [0] * self.seats
        if not self.seat_scores:
            self.seat_scores = [Counter() for _ in range(self.seats)]

    def add(self, r: Mapping[str, Any]) -> None:
        """Count one game summary as returned by `play_one`."""
        self.games += 1
        winners = r["winners"]
        if not winners:
            self.draws += 1
        elif len(winners) > 1:
            self.shared_games += 1
        for w in winners:
            self.wins[w] += 1
            self.shared_wins[(r["seat_bots"][w], len(winners))] += 1
        self.bot_seats.update(r["seat_bots"])
        if r["reason"] == "turn-limit":
            self.turn_limit_games += 1
        self.actions[r["actions"]] += 1
        self.turns[r["turns"]] += 1
        first = r.get("first")
        if first is not None:
            self.firsts[first] += 1
            for w in winners:
                self.order_wins[(w - first) % self.seats] += 1
        scores = r.get("scores")
        if scores is not None:
            for seat, (bot, score) in enumerate(zip(r["seat_bots"], scores)):
                self.seat_scores[seat][score] += 1
                self.bot_scores.setdefault(bot, Counter())[score] += 1

    def merge(self, other: Tally) -> None:
        """Add another tally's games to this one (order does not matter)."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.shared_wins.update(other.shared_wins)
        self.bot_seats.update(other.bot_seats)
        self.draws += other.draws
        self.shared_games += other.shared_games
        self.turn_limit_games += other.turn_limit_games
        self.actions.update(other.actions)
        self.turns.update(other.turns)
        self.order_wins = [a + b for a, b in zip(self.order_wins, other.order_wins)]
        self.firsts.update(other.firsts)
        for mine, theirs in zip(self.seat_scores, other.seat_scores):
            mine.update(theirs)
        for bot, hist in other.bot_scores.items():
            self.bot_scores.setdefault(bot, Counter()).update(hist)

    def bot_wins(self) -> dict[str, Fraction]:
        """Wins per bot name, a win shared by k winners counting 1/k."""
        out: dict[str, Fraction] = {}
        for (name, k), count in self.shared_wins.items():
            out[name] = out.get(name, Fraction(0)) + Fraction(count, k)
        return out


def percentile(histogram: Mapping[int, int], q: float) -> int:
    """The q-th percentile by nearest rank of the values a histogram counts (0 if empty): the
    smallest value with at least q*n values at or below it (the median of 1..20 is 10, its p95 19)."""
    n = sum(histogram.values())
    if n == 0:
        return 0
    rank = min(n - 1, max(0, math.ceil(round(q * n, 9)) - 1))  # round: 0.95 * 20 is not quite 19 in floats
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen > rank:
            return value
    raise AssertionError("unreachable: rank < n")


def score_stats(histogram: Mapping[int, int]) -> dict[str, Any]:
    """Mean, median, p5/p95, min and max of the scores a histogram counts."""
    n = sum(histogram.values())
    return {
        "mean": round(sum(v * c for v, c in histogram.items()) / n, 2),
        "p5": percentile(histogram, 0.05),
        "p50": percentile(histogram, 0.5),
        "p95": percentile(histogram, 0.95),
        "min": min(histogram),
        "max": max(histogram),
    }


def _chunk(args: tuple[SimConfig, int, int]) -> Tally:
    cfg, lo, hi = args
    # load_game caches by (game, variant, settings, packs): a forked worker inherits the
    # parent's loaded game and a spawned one loads it once, not once per chunk.
    game = _load(cfg)
    tally = Tally(len(cfg.players))
    for i in range(lo, hi):
        tally.add(play_one(cfg, i, game))
    return tally


@dataclass(frozen=True)
class _Failed:
    """A worker's error, sent to the parent as plain fields: an exception object may not survive
    pickling (a bot's exception class whose __init__ wants other arguments), and the pool then
    waits forever for a result that never arrives."""

    davinci: bool
    code: str
    message: str
    location: Any
    trace: str = ""  # the cause's traceback, with DAVINCI_DEBUG set (a bot author's file and line)

    def error(self) -> Exception:
        if self.davinci:
            e = DavinciError(self.message, self.location, self.code)
            e.debug_trace = self.trace  # type: ignore[attr-defined]
            return e
        return RuntimeError(self.message)


def _worker_chunk(args: tuple[SimConfig, int, int]) -> Tally | _Failed:
    """`_chunk` in a worker process: any failure comes back as a `_Failed`. A worker ignores
    Ctrl-C, so even a KeyboardInterrupt or SystemExit here was raised by code (a bot's)."""
    try:
        return _chunk(args)
    except DavinciError as e:
        return _Failed(True, e.code, e.message, e.location, debug_trace(e))
    except BaseException as e:  # noqa: BLE001 - reported by the parent, never lost in the pool
        return _Failed(False, "", f"a simulation worker stopped on {type(e).__name__}: {e} (raised inside the game "
                                  "or a bot; workers ignore Ctrl-C)", None)


def run(cfg: SimConfig, jobs: int = 1, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run the simulation; returns the report as JSON-able data."""
    if cfg.games < 1:
        raise UsageError("--games must be at least 1")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    game = _load(cfg)
    d = game.definition
    for name in dict.fromkeys(cfg.players):
        _bot_factory(name, game)  # fail fast on unknown bots, before any process starts (and before the count)
    if not d.min_players <= len(cfg.players) <= d.max_players:
        raise UsageError(f"{d.name} takes {seat_range(d.min_players, d.max_players, 'player')}, got {len(cfg.players)}")
    t0 = time.perf_counter()
    tally = Tally(len(cfg.players))
    used = [0]  # worker processes started: none when the games are too few to share, at most the CPUs
    # SIGTERM (a `kill`, a CI timeout) and SIGHUP (the terminal closed) stop a run as Ctrl-C does:
    # the games played so far are reported.
    old = {sig: signal.signal(sig, _interrupt) for sig in (STOP_SIGNALS if _main_thread() else ())}
    try:
        for part in _iter_tallies(cfg, jobs, used):
            tally.merge(part)
            if progress:
                progress(part.games)
    except KeyboardInterrupt:
        if not tally.games:
            raise
        # Stopped (Ctrl-C, SIGTERM, SIGHUP): the games played so far are the first of the seeded run, so
        # their report stands for them; the caller says it was cut short.
        report = summarise(cfg, tally, time.perf_counter() - t0, jobs, used[0])
        report["interrupted"] = True
        return report
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    elapsed = time.perf_counter() - t0
    return summarise(cfg, tally, elapsed, jobs, used[0])


def _start_pool(ctx: Any, processes: int) -> Any:
    """A pool of `processes` workers, or None when the system cannot start it (a thread or
    process limit, too little memory): the workers it had started are killed (they were left
    waiting forever), and the caller plays the games itself, with the same results."""
    import multiprocessing as mp

    try:
        return ctx.Pool(processes, initializer=_worker_signals)
    except (OSError, RuntimeError, MemoryError) as e:
        import threading
        from multiprocessing import pool as mp_pool

        # The pool's worker handler may have started: it would start new workers in place of those
        # killed here. It is told to stop first (the pool object itself never reached us).
        handlers = [t for t in threading.enumerate() if getattr(getattr(t, "_target", None), "__name__", "")
                    == "_handle_workers"]
        for t in handlers:
            t._state = mp_pool.TERMINATE  # type: ignore[attr-defined]
        for t in handlers:
            t.join(2)
        for child in mp.active_children():
            child.kill()
            child.join(5)
        sys.stderr.write(f"davinci: could not start {processes} worker processes ({type(e).__name__}: {e}); the games "
                         "are played in this process instead (the results are the same)\n")
        return None


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on every system)
        return max(1, os.cpu_count() or 1)


def chunk_size(games: int, jobs: int) -> int:
    """Games per work unit: many small units per job, so no job idles long at the end."""
    return max(1, min(50, math.ceil(games / (jobs * 16))))


def _chunks(cfg: SimConfig, size: int, start: int = 0) -> Iterator[tuple[SimConfig, int, int]]:
    for lo in range(start, cfg.games, size):
        yield (cfg, lo, min(cfg.games, lo + size))


# About how long one work unit of `--jobs` should take: the progress bar moves, and a stopped run
# reports its games, at least this often (units of 50 slow games took half a minute each).
UNIT_SECONDS = 0.5


def _iter_tallies(cfg: SimConfig, jobs: int, used: list[int] | None = None) -> Iterator[Tally]:
    """The tallies of the run's games in order; `used[0]` is set to the number of worker processes started."""
    if jobs == 1:
        # Game by game: a run stopped during a chunk of slow games still reports those it finished.
        for i in range(cfg.games):
            yield _chunk((cfg, i, i + 1))
        return
    # The first two games are played here, and the second timed (the first also loads and warms
    # up): a unit holds as many games as take about UNIT_SECONDS (at most chunk_size's). Which
    # process plays a game changes no result.
    one = 0.0
    for i in range(min(2, cfg.games)):
        t0 = time.perf_counter()
        played = _chunk((cfg, i, i + 1))
        one = time.perf_counter() - t0
        yield played
    if cfg.games <= 2:
        return
    size = max(1, min(chunk_size(cfg.games - 2, jobs), round(UNIT_SECONDS / max(one, 1e-6))))
    import gc
    import multiprocessing as mp

    # fork shares the loaded game and the imported modules with the workers at no cost;
    # freezing the heap first keeps the collector from touching (and so copying) those pages.
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    # More processes than CPUs only wait for each other (the results would be the same).
    processes = min(jobs, cpu_count(), math.ceil((cfg.games - 2) / size))
    if used is not None:
        used[0] = processes
    gc.freeze()
    # SIGTERM and SIGHUP stop the parent as Ctrl-C does (see `run`), so that leaving the pool ends the
    # workers too; the workers leave both signals to the parent.
    # While the pool runs, a stop signal only raises a flag: a KeyboardInterrupt raised inside the
    # pool's own code (holding one of its locks) could leave the parent waiting forever on its
    # dead workers. The wait for each result wakes every quarter second to look at the flag.
    stopped: list[int] = []
    # (Ctrl-C is left alone where it is ignored, as by `cmd &` in a script: it stops no `--jobs 1` run either.)
    ctrl_c = (signal.SIGINT,) if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN else ()
    held = (*ctrl_c, *STOP_SIGNALS) if _main_thread() else ()
    old = {sig: signal.signal(sig, lambda signum, frame: stopped.append(signum)) for sig in held}
    try:
        pool = _start_pool(ctx, processes)
        if pool is None:  # the system refused (too few threads, processes or memory): one process plays
            if used is not None:
                used[0] = 0
            for i in range(2, cfg.games):
                if stopped:
                    raise KeyboardInterrupt
                yield _chunk((cfg, i, i + 1))
            return
        with pool:
            # In order: a failure is reported for the same (first failing) game as with one job.
            results = pool.imap(_worker_chunk, _chunks(cfg, size, start=2))
            # The workers as started: the pool replaces one that dies (killed, out of memory), but
            # the games it was playing are lost and their result never comes (the run waited forever).
            workers = list(getattr(pool, "_pool", ()))
            while True:
                if stopped:
                    raise KeyboardInterrupt
                try:
                    part = results.next(timeout=0.25)
                except mp.TimeoutError:
                    dead = next((w for w in workers if w.exitcode is not None), None)
                    if dead is not None:
                        how = (f"killed by signal {-dead.exitcode}" if dead.exitcode < 0
                               else f"exit code {dead.exitcode}")
                        raise DavinciError(f"a simulation worker process stopped ({how}: the system's out-of-memory "
                                           "killer, or a kill?) and the games it was playing are lost; run again, "
                                           "or with --jobs 1", code="DV072") from None
                    continue
                except StopIteration:
                    break
                if isinstance(part, _Failed):
                    raise part.error()
                yield part
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        gc.unfreeze()


def _interrupt(signum: int, frame: Any) -> None:
    raise StopSignal


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _worker_signals() -> None:
    """A worker ignores Ctrl-C (sent to the whole process group) and dies at once on SIGTERM,
    which the parent's pool sends when it stops: no half-finished work, no traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(
    cfg: SimConfig, results: Tally | Iterable[Mapping[str, Any]], elapsed: float, jobs: int, processes: int = 1
) -> dict[str, Any]:
    """The report for a tally (or for game summaries from `play_one`), as JSON-able data."""
    if isinstance(results, Tally):
        t = results
    else:
        t = Tally(len(cfg.players))
        for r in results:
            t.add(r)
    g = t.games
    bot_wins = t.bot_wins()
    total_actions = sum(length * count for length, count in t.actions.items())
    total_turns = sum(turns * count for turns, count in t.turns.items())
    return {
        "game": cfg.game,
        "variant": cfg.variant,
        "games": g,
        "seed": cfg.seed,
        "players": list(cfg.players),
        "rotate": cfg.rotate,
        "settings": _typed_settings(cfg),
        "settings_in_effect": _all_settings(cfg),  # the game's and variant's defaults too: the run can be repeated
        "packs": list(cfg.packs),
        "wins": list(t.wins),
        "win_rate": [round(w / g, 4) for w in t.wins] if g else [0.0] * t.seats,  # 4 places, as bot_win_rate
        "win_ci95": [[round(x, 4) for x in wilson(w, g)] for w in t.wins],
        "bot_wins": {k: round(float(bot_wins.get(k, 0)), 3) for k in sorted({*bot_wins, *t.bot_seats})},
        "bot_win_rate": {
            k: round(float(bot_wins.get(k, Fraction(0)) / max(1, t.bot_seats[k])), 4) for k in sorted(t.bot_seats)
        },
        "seat_advantage": seat_advantage(cfg, t),
        "turn_order": turn_order(cfg, t),
        # None when the game defines no score (end.score) or no game finished.
        "scores": [score_stats(h) for h in t.seat_scores] if any(t.seat_scores) else None,
        "bot_scores": {k: score_stats(h) for k, h in sorted(t.bot_scores.items())} if t.bot_scores else None,
        "lower_is_better": _lower_is_better(cfg),
        "draws": t.draws,
        "shared_wins": t.shared_games,
        "turn_limit_games": t.turn_limit_games,
        "mean_actions": round(total_actions / g, 2) if g else 0,
        "actions_p50": percentile(t.actions, 0.5),
        "actions_p95": percentile(t.actions, 0.95),
        "actions_min": min(t.actions, default=0),
        "actions_max": max(t.actions, default=0),
        "mean_turns": round(total_turns / g, 2) if g else 0,
        "turns_p50": percentile(t.turns, 0.5),
        "turns_p95": percentile(t.turns, 0.95),
        "elapsed_s": round(elapsed, 3),
        "playouts_per_s": round(g / elapsed, 2) if elapsed > 0 else 0.0,
        "actions_per_s": round(total_actions / elapsed, 1) if elapsed > 0 else 0.0,
        "jobs": jobs,
        "processes": processes,  # worker processes started (0: every game played in this process)
    }


def _all_settings(cfg: SimConfig) -> dict[str, Any]:
    """Every setting of the game as the run played it (defaults, the variant's, the overrides)."""
    try:
        return dict(_load(cfg).settings)
    except DavinciError:  # (the run would not have started)
        return dict(cfg.settings)


def _lower_is_better(cfg: SimConfig) -> bool:
    """Whether the game ranks the lowest score first (end.lower_is_better)."""
    try:
        return bool(_load(cfg).definition.end.lower_is_better)
    except DavinciError:
        return False


def _typed_settings(cfg: SimConfig) -> dict[str, Any]:
    """The `--setting` overrides as the game took them (`fast=yes` is true, `size=3` is 3)."""
    values = _all_settings(cfg)
    return {k: values.get(k, v) for k, v in cfg.settings.items()}


def seat_advantage(cfg: SimConfig, t: Tally) -> dict[str, Any] | None:
    """The seat farthest from the seats' average win rate (ahead or behind), and whether its
    interval (95% for the whole table: 1 - 5%/n for each of n seats) leaves that average out (a
    clear difference). None when the seats hold different bots and do not rotate: a seat's rate
    then measures its bot as much as its place at the table."""
    if not _seats_alike(cfg) or t.seats < 2:  # (one seat: nothing to compare it with)
        return None
    found = _farthest(t.wins, t.games)
    return None if found is None else {"seat": found.pop("place"), **found}


def turn_order(cfg: SimConfig, t: Tally) -> dict[str, Any] | None:
    """Wins by place in the turn order (the first to play, the second...), whichever seat took
    the first turn, with the place farthest from the average tested as seats are. A drawn first
    player spreads the turn order's effect over every seat, where the seats' own figures cannot
    show it. None when no game reached a first turn, for one seat, or when the same seat always
    began and the seats hold different bots (place and bot cannot then be told apart)."""
    games = sum(t.firsts.values())
    if games == 0 or t.seats == 1 or (len(t.firsts) == 1 and not _seats_alike(cfg)):
        return None
    return {"wins": list(t.order_wins), "games": games,
            "win_rate": [round(w / games, 4) for w in t.order_wins],
            "first_seats": {str(seat + 1): count for seat, count in sorted(t.firsts.items())},
            "farthest": _farthest(t.order_wins, games)}


def _seats_alike(cfg: SimConfig) -> bool:
    """Whether the seats differ by their place alone: one bot in every seat, or bots rotated."""
    return cfg.rotate or len(set(cfg.players)) == 1


def _farthest(wins: Sequence[int], games: int) -> dict[str, Any] | None:
    """Of places with these `wins` in `games`, the one farthest from their average win rate (the
    first of equals): its 1-based `place`, rate, the average, the difference in points, and
    whether its interval, widened for the places compared, leaves the average out (`clear`).
    None when there is nothing to compare (no winner, or every place won every game)."""
    if games == 0 or not any(wins) or all(w == games for w in wins):
        return None
    rates = [w / games for w in wins]
    average = sum(rates) / len(rates)
    # (rounded: 0.7 - 0.5 is a hair under 0.5 - 0.3 in floating point; on a tie the one ahead)
    far = max(range(len(rates)), key=lambda i: (round(abs(rates[i] - average), 9), rates[i] > average, -i))
    # The farthest of n places is tested, so each gets 5% / n of the chance of a false alarm
    # (Bonferroni): with a plain 95% interval, six equal seats showed "an advantage" in 14% of runs.
    z = statistics.NormalDist().inv_cdf(1 - 0.025 / len(rates))
    lo, hi = wilson(wins[far], games, z)
    return {"place": far + 1, "win_rate": round(rates[far], 4), "average": round(average, 4),
            "points": round(100 * (rates[far] - average), 1), "clear": not lo <= average <= hi,
            "interval": [round(lo, 4), round(hi, 4)], "confidence": round(1 - 0.05 / len(rates), 4)}


def _jobs_text(report: Mapping[str, Any]) -> str:
    """`2 jobs`, or what ran when fewer processes than --jobs asked for could help."""
    jobs, processes = report["jobs"], report.get("processes", report["jobs"])
    text = f"{jobs} job{'s' if jobs != 1 else ''}"
    if jobs > 1 and processes == 0:
        text += " asked: too few games to share, all played in this process"
    elif jobs > 1 and processes < jobs:
        text += f" asked: {processes} worker process{'es' if processes != 1 else ''}, "
        text += "one per CPU" if processes == cpu_count() else "too few games for more"
    return text


def _score_lines(report: Mapping[str, Any], width: int) -> list[str]:
    """Score statistics per seat (and per bot when the seats rotate), for a game with a score."""
    scores = report.get("scores")
    if not scores:
        return []
    label_width = width + 16
    lower = ", lower is better" if report.get("lower_is_better") else ""
    lines = [f"  {'scores' + lower:<{label_width + 2}} {'mean':>8}  {'p50':>6}  {'p5 to p95':>14}  {'min to max':>14}"]

    def line(label: str, s: Mapping[str, Any]) -> str:
        spread, extent = f"{s['p5']} to {s['p95']}", f"{s['min']} to {s['max']}"
        return f"    {label:<{label_width}} {s['mean']:>8.2f}  {s['p50']:>6}  {spread:>14}  {extent:>14}"

    rotated = report["rotate"] and len(set(report["players"])) > 1
    for i, s in enumerate(scores):
        lines.append(line(f"seat {i + 1} " + ("(any bot)" if rotated else report["players"][i]), s))
    if rotated:
        for name, s in (report.get("bot_scores") or {}).items():
            lines.append(line(f"bot {name}", s))
    return lines


def _verdict(found: Mapping[str, Any], places: int, what: str) -> str:
    """`seat 2 wins 51.3%, +26.3 points over the seat average of 25.0% (outside ...: an advantage)`."""
    lo, hi = found["interval"]
    used = f"its {found['confidence']:.1%} interval {lo:.1%}-{hi:.1%}, widened for {places} {what}s"
    ahead = found["points"] > 0
    verdict = (f"outside {used}: {'an advantage' if ahead else 'a disadvantage'}" if found["clear"]
               else f"within {used}: none clear")
    return (f"{found['win_rate']:.1%}, {found['points']:+.1f} points {'over' if ahead else 'under'} the {what} "
            f"average of {found['average']:.1%} ({verdict})")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def report_text(report: Mapping[str, Any]) -> list[str]:
    """The lines `davinci simulate` prints for a report from `run` (an interrupted run's first)."""
    if report.get("interrupted"):
        return [f"interrupted after {report['games']:,} game{'' if report['games'] == 1 else 's'}: the figures are "
                f"for {'that game' if report['games'] == 1 else 'those games'}",
                *report_text({**report, "interrupted": False})]
    variant = " / " + report["variant"] if report["variant"] else ""
    settings = report.get("settings") or {}
    # The --setting overrides, as YAML and the command line write them (true, not True).
    changed = "".join(f", {k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in sorted(settings.items()))
    games = report["games"]
    lines = [f"{report['game']}{variant}: {games} game{'' if games == 1 else 's'}, seed {report['seed']}{changed}"]
    # Columns as wide as the longest bot name (at least 12), so that long names stay aligned.
    width = max([12, *(len(name) for name in report["players"])])
    for i, name in enumerate(report["players"]):
        if report["rotate"] and len(set(report["players"])) > 1:
            name = "(any bot)"  # the bots take turns in every seat: a seat's line is the seat's
        # From the counts, not from the JSON's 4-place values (9.453% read 9.4%, rounded twice).
        lo, hi = wilson(report["wins"][i], games) if games else report["win_ci95"][i]
        lines.append(
            f"  seat {i + 1:<{len(str(len(report['players'])))}} {name:<{width}} wins {report['wins'][i]:>6}  "
            f"{report['win_rate'][i]:6.1%}  (95% CI {lo:.1%}-{hi:.1%})"
        )
    adv = report.get("seat_advantage")
    games, wins = report["games"], report["wins"]
    if len(wins) == 1:
        lines.append("  seat advantage: not measured (one seat)")
    elif adv is None and games and not any(wins):
        lines.append("  seat advantage: not measured (no game had a winner)")
    elif adv is None and games and all(w == games for w in wins):
        lines.append("  seat advantage: not measured (every game was a win shared by every seat: nobody scored "
                     "more than another)")
    elif adv is None:
        lines.append("  seat advantage: not measured (the seats hold different bots: use --rotate, or one bot in every "
                     "seat)")
    elif adv["points"] == 0:
        lines.append(f"  seat advantage: none, every seat wins {adv['average']:.1%}")
    else:
        # The interval the test used, not the 95% one above: it is widened for the seats compared.
        lines.append(f"  seat advantage: seat {adv['seat']} wins {_verdict(adv, len(report['players']), 'seat')}")
    order = report.get("turn_order")
    if order is not None and any(wins):  # (no game had a winner: nothing to compare, as said above)
        rates = ", ".join(f"{_ordinal(i + 1)} {rate:.1%}" for i, rate in enumerate(order["win_rate"]))
        drawn = " (the first player varied)" if len(order["first_seats"]) > 1 else ""
        lines.append(f"  turn order: wins by place, the 1st to play first: {rates}{drawn}")
        far = order["farthest"]
        if far is not None and far["points"] != 0:
            lines.append(f"    the {_ordinal(far['place'])} to play wins {_verdict(far, len(order['win_rate']), 'place')}")
    if report["rotate"] and len(report["players"]) > 1 and len(set(report["players"])) == 1:
        lines.append(f"  (--rotate changes nothing here: every seat holds {report['players'][0]})")
    elif report["rotate"] and len(report["players"]) > 1:
        n = len(report["players"])
        if report["games"] % n:
            extra = report["games"] % n
            orders = "seat order was" if extra == 1 else f"{extra} seat orders were"
            lines.append(f"  (rotation: {report['games']} games is not a multiple of {n} seats: the first {orders} "
                         "played once more)")
        for name, rate in report["bot_win_rate"].items():
            held = report["players"].count(name)
            won = report["bot_wins"].get(name, 0) / report["games"] if report["games"] else 0.0
            per = f", {rate:.1%} per seat it held ({held} of {n} seats)" if held > 1 else ""
            lines.append(f"  bot {name:<{width + 2}} won {won:.1%} of the games (seats rotated){per}")
    if len(report["players"]) == 1:
        lines.append(f"  games not won / turn-limit games: {report['draws']} / {report['turn_limit_games']}")
    else:
        lines.append(
            f"  draws (no winner) / shared wins (several winners) / turn-limit games: "
            f"{report['draws']} / {report['shared_wins']} / {report['turn_limit_games']}"
        )
    limited = report["turn_limit_games"]
    if limited and limited * 2 >= report["games"]:
        every = "every game" if limited == report["games"] else f"{limited} of {report['games']} games"
        lines.append(f"  warning: {every} stopped at the turn limit (end.max_turns), not by end.when: "
                     "these bots may not be able to win it, or the game may never end as written (a variable "
                     "never set? davinci lint may say)")
    if report["shared_wins"]:
        note = "  a shared win counts as a win for each seat sharing it: seat win rates can add up to more than 100%"
        lines.append(note + ("; bot win rates count 1/k of a win shared by k seats" if report["rotate"] else ""))
    lines.extend(_score_lines(report, width))
    lines.append(
        f"  length: {report['mean_actions']:.1f} actions mean, p50 {report['actions_p50']}, "
        f"p95 {report['actions_p95']} (min {report['actions_min']}, max {report['actions_max']}); "
        f"turns {report['mean_turns']:.1f} mean, p50 {report['turns_p50']}, p95 {report['turns_p95']}"
    )
    lines.append(
        f"  speed: {report['playouts_per_s']} games/s, {report['actions_per_s']} actions/s "
        f"({report['elapsed_s']} s, {_jobs_text(report)})"
    )
    return lines
