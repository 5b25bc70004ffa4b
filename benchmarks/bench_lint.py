"""Benchmark: `lint_paths` on a generated 10,000-card deck (target: under 2 s).

Run from anywhere with the package installed:

    python benchmarks/bench_lint.py [--cards 10000] [--repeat 5]

It writes a couplet deck (the category with the most expensive rules: rhymes, line lengths,
answers hidden in clues) into a temporary folder, lints it `--repeat` times in this process
and prints the median. Each run starts with an empty document cache, so every run parses the
file again. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from davinci.engine.lint.runner import lint_paths
from davinci.engine.packs import clear_cache
from davinci.engine.schema import validate
from davinci.engine.yamlload import load_yaml_file

RHYMES = [
    ("light", "night"), ("stone", "alone"), ("sea", "free"), ("fire", "higher"),
    ("day", "away"), ("hand", "sand"), ("gold", "old"), ("rain", "again"),
    ("song", "long"), ("sky", "high"), ("door", "floor"), ("deep", "keep"),
]
WORDS = ["quill", "lantern", "compass", "anvil", "easel", "mirror", "ladder", "kettle", "candle", "barrel"]


def _letters(i: int) -> str:
    # A distinct, pronounceable-enough single word per card: base word plus a letter suffix.
    suffix = ""
    n = i
    while True:
        suffix += "abcdefghijklmnopqrstuvwxyz"[n % 26]
        n //= 26
        if n == 0:
            break
    return WORDS[i % len(WORDS)] + suffix


def deck_text(cards: int) -> str:
    """A schema-valid codex-style deck with `cards` cards."""
    out = [
        "# yaml-language-server: $schema=../schemas/deck.schema.json",
        "kind: deck",
        "id: bench",
        "name: Bench",
        "category: codex",
        "description: Generated couplet cards for timing the linter.",
        "cards:",
    ]
    for i in range(cards):
        a, b = RHYMES[i % len(RHYMES)]
        answer = _letters(i)
        out += [
            f"  - id: bench-{i + 1:05d}",
            f"    difficulty: {i % 3 + 1}",
            "    clue: |",
            f"      I stand in the workshop, number {i}, in the {a}",
            f"      and wait for the painter to call me by {b}",
            f"    answer: {answer}",
            f"    letters: {len(answer)}",
        ]
    return "\n".join(out) + "\n"


def main() -> None:
    """Generate the deck, time the lint runs and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(deck_text(args.cards), encoding="utf-8")
        size = path.stat().st_size
        times = []
        loads = []
        schemas = []
        problems = []
        for _ in range(args.repeat):
            clear_cache()
            start = time.perf_counter()
            problems = lint_paths([str(path)])
            times.append(time.perf_counter() - start)
            # The same layers on their own, to show where the time goes.
            start = time.perf_counter()
            doc = load_yaml_file(path)
            loads.append(time.perf_counter() - start)
            start = time.perf_counter()
            validate(doc, "deck")
            schemas.append(time.perf_counter() - start)
    print(f"deck: {args.cards:,} cards, {size / 2**20:.2f} MiB; problems found: {len(problems)}")
    print("runs: " + ", ".join(f"{t:.3f}s" for t in times))
    load_s, schema_s, total = statistics.median(loads), statistics.median(schemas), statistics.median(times)
    print(f"median: YAML load {load_s:.3f}s, schema {schema_s:.3f}s, "
          f"rules and the rest {max(total - load_s - schema_s, 0):.3f}s")
    print(f"median lint time: {total:.3f}s (target < 2 s)")


if __name__ == "__main__":
    main()
