"""A hand-written, engine-free Da Vinci Code (basic rules) for speed comparisons.

Same rules and same uniform-random policy as the engine's `random` bot playing
`da-vinci-code`: each decision picks uniformly among the same legal actions the engine
lists (every opponent's hidden tile x every number 0-11, plus `stop` after a correct guess;
with an empty pile, a wrong guess reveals a uniformly chosen own hidden tile). Written
plainly, as a competent programmer would without an engine; used only by benchmarks.

    python benchmarks/ref_dvc.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import time


def play(seed: int, players: int = 2) -> tuple[int, int]:
    """One game; returns (winner seat, number of decisions)."""
    rng = random.Random(seed)
    pile = [(n, c) for n in range(12) for c in (0, 1)]  # colour 0 = black, 1 = white
    rng.shuffle(pile)
    hand = 4 if players <= 3 else 3
    rows: list[list[tuple[int, int]]] = []
    revealed: list[list[bool]] = []
    for _ in range(players):
        row = sorted(pile.pop() for _ in range(hand))
        rows.append(row)
        revealed.append([False] * len(row))
    active = [True] * players
    current = rng.randrange(players)
    decisions = 0

    def insert(seat: int, tile: tuple[int, int], face_up: bool) -> None:
        row = rows[seat]
        i = 0
        while i < len(row) and row[i] < tile:
            i += 1
        row.insert(i, tile)
        revealed[seat].insert(i, face_up)

    while sum(active) > 1:
        drawn = pile.pop(rng.randrange(len(pile))) if pile else None
        correct = 0
        while True:
            targets = [
                (s, i)
                for s in range(players)
                if s != current and active[s]
                for i in range(len(rows[s]))
                if not revealed[s][i]
            ]
            n_actions = len(targets) * 12 + (1 if correct else 0)
            k = rng.randrange(n_actions)
            decisions += 1
            if k == len(targets) * 12:  # stop
                if drawn is not None:
                    insert(current, drawn, False)
                break
            s, i = targets[k // 12]
            value = k % 12
            if rows[s][i][0] == value:
                revealed[s][i] = True
                correct += 1
                if all(revealed[s]):
                    active[s] = False
                if sum(active) <= 1:
                    break
                continue
            if drawn is not None:
                insert(current, drawn, True)
            else:
                own = [j for j in range(len(rows[current])) if not revealed[current][j]]
                j = own[rng.randrange(len(own))]
                decisions += 1
                revealed[current][j] = True
                if all(revealed[current]):
                    active[current] = False
            break
        if sum(active) <= 1:
            break
        nxt = current
        for _ in range(players):
            nxt = (nxt + 1) % players
            if active[nxt]:
                break
        current = nxt
    return active.index(True), decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    t0 = time.perf_counter()
    total = 0
    for seed in range(args.games):
        total += play(seed, args.players)[1]
    dt = time.perf_counter() - t0
    print(f"hand-written: {args.games / dt:.0f} playouts/s, {total / dt:.0f} actions/s")


if __name__ == "__main__":
    main()
