"""The long integrity run (by hand, outside CI): 10,000 checked playouts per game and variant.

    python benchmarks/integrity_long.py [--games 10000] [--jobs 2] [--only da-vinci-code]
                                        [--minutes M] [--out integrity.json]

Each playout is `playout()` of tests/test_integrity.py: seeded random bots, the engine's
invariants after every action, legal actions parse back, views are JSON, the game ends within
its turn limit, the result is well formed and the history replays to the same final state.
Game k of a game/variant uses seed k and the player counts in turn (min, min+1, ..., max, min...),
so any failure is reproduced by `playout(load_game(id, variant), seats, seed)`.

`--minutes` stops early (per game/variant share of the time) and reports how many ran. The exit
code is 1 when any playout failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_integrity import playout, seat_counts  # noqa: E402

from davinci.engine.game import game_variants, load_game  # noqa: E402


def _targets(only: str | None) -> list[tuple[str, str | None]]:
    return [(gid, variant) for gid, variant in game_variants() if not only or gid == only]


def _batch(game_id: str, variant: str | None, seeds: list[int], deadline: float) -> dict[str, Any]:
    """Run playouts for `seeds` (until the deadline); counts, reasons and failures."""
    game = load_game(game_id, variant)
    counts = seat_counts(game)
    done = 0
    actions = 0
    reasons: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    for seed in seeds:
        if time.time() > deadline:
            break
        seats = counts[seed % len(counts)]
        try:
            report = playout(game, seats, seed)
            actions += report.actions
            reasons[report.reason] += 1
        except Exception as e:  # noqa: BLE001 - every failure is recorded with its seed
            failures.append({"seats": seats, "seed": seed, "error": f"{type(e).__name__}: {e}"[:500],
                             "traceback": traceback.format_exc(limit=6)})
        done += 1
    return {"done": done, "actions": actions, "reasons": dict(reasons), "failures": failures}


def main(argv: list[str] | None = None) -> int:
    """Run the long integrity campaign and print a summary per game and variant."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    targets = _targets(args.only)
    start = time.time()
    budget = args.minutes * 60 / max(len(targets), 1) if args.minutes else float("inf")
    summary: dict[str, Any] = {}
    failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game_id, variant in targets:
            name = f"{game_id}/{variant}" if variant else game_id
            t0 = time.time()
            deadline = t0 + budget
            chunks = [list(range(i, args.games, args.jobs * 4)) for i in range(args.jobs * 4)]
            results = list(pool.map(_batch, *zip(*[(game_id, variant, c, deadline) for c in chunks])))
            done = sum(r["done"] for r in results)
            reasons: Counter[str] = Counter()
            for r in results:
                reasons.update(r["reasons"])
            failures = [f for r in results for f in r["failures"]]
            failed += len(failures)
            summary[name] = {
                "playouts": done,
                "actions": sum(r["actions"] for r in results),
                "endings": dict(reasons),
                "failures": failures,
                "seconds": round(time.time() - t0, 1),
            }
            print(f"{name:32} {done:>6} playouts, {summary[name]['actions']:>9} actions checked, "
                  f"endings {dict(reasons)}, {len(failures)} failures, {summary[name]['seconds']} s", flush=True)
            for f in failures[:5]:
                print(f"   seats {f['seats']} seed {f['seed']}: {f['error']}")
    print(f"total {sum(s['playouts'] for s in summary.values())} playouts in {time.time() - start:.0f} s, "
          f"{failed} failures")
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
