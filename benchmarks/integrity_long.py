"""The long integrity run (by hand, outside CI): 10,000 checked playouts per game and variant.

    python benchmarks/integrity_long.py [--games 10000] [--jobs 2] [--only da-vinci-code]
                                        [--bot random] [--minutes M] [--log runs.jsonl]
                                        [--out integrity.json]

Each playout is `playout()` of tests/test_integrity.py: seeded random bots, the engine's
invariants after every action, legal actions parse back, views are JSON, the game ends within
its turn limit, the result is well formed and the history replays to the same final state.
Game k of a game/variant uses seed k and the player counts in turn (min, min+1, ..., max, min...),
so any failure is reproduced by `playout(load_game(id, variant), seats, seed, bot=...)`.

`--bot NAME` seats that registered bot everywhere (default: the uniform `random` bot) and runs
only the games it plays: `--bot scholar` plays The Da Vinci Game to its end, through treasures
and final challenges, which random teams never reach.

`--minutes` stops early (per game/variant share of the time) and reports how many ran.

`--log FILE` appends one JSON line per finished playout (game, variant, bot, seed, seats,
actions, ending or failure, commit) as it finishes, and skips the playouts the file already holds: a run
that is stopped or cut off loses at most the playouts in progress, and the same command carries
on where it stopped. The summary then counts every playout in the file.

The exit code is 1 when any playout failed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_integrity import playout, seat_counts  # noqa: E402

from davinci.engine.bots import make_bot  # noqa: E402
from davinci.engine.errors import UsageError  # noqa: E402
from davinci.engine.game import game_variants, load_game  # noqa: E402

CHUNK = 4  # playouts per work unit: small, so progress is logged often


def _targets(only: str | None, bot: str) -> list[tuple[str, str | None]]:
    plays = getattr(make_bot(bot, 0), "games", None)  # None: any game
    return [(gid, variant) for gid, variant in game_variants()
            if (not only or gid == only) and (plays is None or gid in plays)]


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10)
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def _batch(game_id: str, variant: str | None, bot: str, seeds: list[int], deadline: float) -> list[dict[str, Any]]:
    """Play the seeds (until the deadline); one record per finished playout."""
    game = load_game(game_id, variant)
    counts = seat_counts(game)
    records: list[dict[str, Any]] = []
    for seed in seeds:
        if time.time() > deadline:
            break
        seats = counts[seed % len(counts)]
        rec: dict[str, Any] = {"game": game_id, "variant": variant, "bot": bot, "seed": seed, "seats": seats}
        try:
            report = playout(game, seats, seed, bot=bot)
            rec.update(actions=report.actions, ending=report.reason)
        except Exception as e:  # noqa: BLE001 - every failure is recorded with its seed
            rec.update(actions=0, error=f"{type(e).__name__}: {e}"[:500],
                       traceback=traceback.format_exc(limit=6))
        records.append(rec)
    return records


def _read_log(path: Path | None) -> list[dict[str, Any]]:
    if path is None or not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a hard stop: that playout is simply played again
    return records


def _summarise(name: str, records: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    failures = [r for r in records if "error" in r]
    endings = Counter(r["ending"] for r in records if "ending" in r)
    return {
        "playouts": len(records),
        "actions": sum(r["actions"] for r in records),
        "endings": dict(endings),
        "failures": failures,
        "commits": sorted({r.get("commit", "unknown") for r in records}),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the long integrity campaign and print a summary per game and variant."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--bot", default="random", help="the bot at every seat (default: random)")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    ap.add_argument("--log", type=Path, help="append each playout here; skip those already there")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    try:
        targets = _targets(args.only, args.bot)
    except UsageError as e:
        ap.error(str(e))
    start = time.time()
    budget = args.minutes * 60 / max(len(targets), 1) if args.minutes else float("inf")
    commit = _commit()
    earlier = _read_log(args.log)
    log = args.log.open("a", encoding="utf-8") if args.log else None
    summary: dict[str, Any] = {}
    failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game_id, variant in targets:
            name = (f"{game_id}/{variant}" if variant else game_id) + ("" if args.bot == "random" else f" ({args.bot})")
            t0 = time.time()
            deadline = t0 + budget
            mine = [r for r in earlier if r["game"] == game_id and r["variant"] == variant
                    and r.get("bot", "random") == args.bot and r["seed"] < args.games]
            done = {r["seed"] for r in mine}
            todo = [s for s in range(args.games) if s not in done]
            chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
            futures = [pool.submit(_batch, game_id, variant, args.bot, c, deadline) for c in chunks]
            records = list(mine)
            for fut in futures:
                for rec in fut.result():
                    rec["commit"] = commit
                    records.append(rec)
                    if log:
                        log.write(json.dumps(rec) + "\n")
                if log:
                    log.flush()
            summary[name] = s = _summarise(name, records, time.time() - t0)
            failed += len(s["failures"])
            print(f"{name:32} {s['playouts']:>6} playouts ({len(mine)} from the log), {s['actions']:>9} "
                  f"actions checked, endings {s['endings']}, {len(s['failures'])} failures, "
                  f"commits {','.join(s['commits'])}, {s['seconds']} s", flush=True)
            for f in s["failures"][:5]:
                print(f"   seats {f['seats']} seed {f['seed']}: {f['error']}")
    if log:
        log.close()
    print(f"total {sum(s['playouts'] for s in summary.values())} playouts in {time.time() - start:.0f} s, "
          f"{failed} failures")
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
