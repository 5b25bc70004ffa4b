"""Many seeded games between bots, in one or several processes, with identical results.

Game i uses seed `derive_seed(master, i)` for the game and for each bot, so the outcome of
every game is independent of how games are split between processes.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from davinci.engine.errors import DavinciError, UsageError
from davinci.engine.rng import derive_seed


@dataclass(frozen=True)
class SimConfig:
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
    names = tuple(p.strip() for p in spec.split(",") if p.strip())
    if not names:
        raise UsageError("--players needs at least one bot name, e.g. --players random,random")
    return names


def play_one(cfg: SimConfig, index: int, game: Any = None) -> dict[str, Any]:
    """Play game number `index` of a simulation; returns a small summary."""
    from davinci.engine.bots import make_bot
    from davinci.engine.game import load_game

    if game is None:
        game = load_game(cfg.game, cfg.variant, cfg.settings, cfg.packs)
    n = len(cfg.players)
    shift = index % n if cfg.rotate else 0
    seat_bots = [cfg.players[(i + shift) % n] for i in range(n)]
    seed = derive_seed(cfg.seed, index)
    st = game.new_state(n, seed=seed)
    bots = [
        make_bot(name, derive_seed(seed, 1000 + i), game.id, dict(game.settings)) for i, name in enumerate(seat_bots)
    ]
    actions = 0
    think: list[float] = []
    while not st.is_terminal():
        for s in st.current_seats:
            legal = st.legal_actions(s)
            t0 = time.perf_counter()
            bot = bots[s]
            action = bot.choose(st.view(s) if getattr(bot, "wants_view", True) else {}, legal)
            think.append(time.perf_counter() - t0)
            st.apply(s, action)
            actions += 1
            if st.is_terminal():
                break
    r = st.result()
    return {
        "index": index,
        "seat_bots": seat_bots,
        "winners": r["winners"],
        "actions": actions,
        "turns": r["turns"],
        "reason": r["reason"],
    }


def _chunk(args: tuple[SimConfig, int, int]) -> list[dict[str, Any]]:
    cfg, lo, hi = args
    from davinci.engine.game import load_game

    game = load_game(cfg.game, cfg.variant, cfg.settings, cfg.packs)
    return [play_one(cfg, i, game) for i in range(lo, hi)]


def run(cfg: SimConfig, jobs: int = 1, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run the simulation; returns the report as JSON-able data."""
    if cfg.games < 1:
        raise UsageError("--games must be at least 1")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    from davinci.engine.bots import make_bot
    from davinci.engine.game import load_game

    game = load_game(cfg.game, cfg.variant, cfg.settings, cfg.packs)
    d = game.definition
    if not d.min_players <= len(cfg.players) <= d.max_players:
        raise UsageError(f"{d.name} takes {d.min_players}-{d.max_players} players, got {len(cfg.players)}")
    for name in set(cfg.players):
        make_bot(name, 0, game.id, dict(game.settings))  # fail fast on unknown bots
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    for part in _iter_results(cfg, jobs):
        results.extend(part)
        if progress:
            progress(len(part))
    elapsed = time.perf_counter() - t0
    results.sort(key=lambda r: r["index"])
    return summarise(cfg, results, elapsed, jobs)


def _iter_results(cfg: SimConfig, jobs: int) -> Iterator[list[dict[str, Any]]]:
    size = max(1, min(50, math.ceil(cfg.games / (jobs * 4))))
    chunks = [(cfg, lo, min(cfg.games, lo + size)) for lo in range(0, cfg.games, size)]
    if jobs == 1:
        for c in chunks:
            yield _chunk(c)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if hasattr(__import__("os"), "fork") else mp.get_context()
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_chunk, chunks)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(cfg: SimConfig, results: Sequence[dict[str, Any]], elapsed: float, jobs: int) -> dict[str, Any]:
    n = len(cfg.players)
    g = len(results)
    wins = [0] * n
    bot_wins: dict[str, float] = {}
    bot_games: dict[str, int] = {}
    draws = 0
    for r in results:
        if not r["winners"]:
            draws += 1
        for w in r["winners"]:
            wins[w] += 1
            name = r["seat_bots"][w]
            bot_wins[name] = bot_wins.get(name, 0) + 1 / len(r["winners"])
        for name in set(r["seat_bots"]):
            bot_games[name] = bot_games.get(name, 0) + r["seat_bots"].count(name)
    lengths = sorted(r["actions"] for r in results)
    turns = sorted(r["turns"] for r in results)
    total_actions = sum(lengths)

    def pct(xs: list[int], q: float) -> int:
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0

    return {
        "game": cfg.game,
        "variant": cfg.variant,
        "games": g,
        "seed": cfg.seed,
        "players": list(cfg.players),
        "rotate": cfg.rotate,
        "settings": dict(cfg.settings),
        "wins": wins,
        "win_rate": [w / g for w in wins],
        "win_ci95": [list(wilson(w, g)) for w in wins],
        "bot_wins": {k: round(v, 3) for k, v in sorted(bot_wins.items())},
        "bot_win_rate": {k: round(bot_wins.get(k, 0) / max(1, bot_games[k]), 4) for k in sorted(bot_games)},
        "draws": draws,
        "turn_limit_games": sum(1 for r in results if r["reason"] == "turn-limit"),
        "mean_actions": total_actions / g if g else 0,
        "actions_p50": pct(lengths, 0.5),
        "actions_p95": pct(lengths, 0.95),
        "mean_turns": statistics.fmean(turns) if turns else 0,
        "turns_p50": pct(turns, 0.5),
        "turns_p95": pct(turns, 0.95),
        "elapsed_s": round(elapsed, 3),
        "playouts_per_s": round(g / elapsed, 2) if elapsed > 0 else 0.0,
        "actions_per_s": round(total_actions / elapsed, 1) if elapsed > 0 else 0.0,
        "jobs": jobs,
    }


_unused = (DavinciError,)
