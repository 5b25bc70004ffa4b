"""Random-playout speed at earlier commits: the before / after figures of the optimisation work.

    python benchmarks/history.py [--games 60] [--repeat 3] [COMMIT ...]
    python benchmarks/history.py --lint [--cards 10000] [COMMIT ...]

Each commit is exported with `git archive` into a temporary folder (the checkout is not
touched) and measured in a fresh interpreter that imports `davinci` from there, with the
same loop as benchmarks/run.py: uniform-random seats through the public engine API
(load_game, new_state, legal_actions, apply), seeds 0..games-1, CPU time, median of the
repeats. With --lint it times `lint_paths` on the generated deck of benchmarks/bench_lint.py
instead. Without commits it measures the default list below. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIMEOUT_S = 900

# The engine's first playable Da Vinci Code, then the commits whose messages claim speed.
DEFAULT = ["3727c62", "e53953e~1", "e53953e", "935ddc9~1", "935ddc9", "HEAD"]
# The lint framework, then the commits that made the deck rules and the loader cheaper.
DEFAULT_LINT = ["25be06f", "fd67fe2~1", "fd67fe2", "f3eb203~1", "f3eb203", "ea250fd~1", "ea250fd", "b4d197d~1", "b4d197d", "HEAD"]

LINT_CHILD = r"""
import json, statistics, sys, time
from davinci.engine.lint.runner import lint_paths
try:
    from davinci.engine.packs import clear_cache
except ImportError:
    def clear_cache():
        pass
path, repeat = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(repeat):
    clear_cache()
    t0 = time.process_time()
    problems = lint_paths([path])
    times.append(time.process_time() - t0)
print(json.dumps({"lint_s": statistics.median(times), "problems": len(problems)}))
"""

CHILD = r"""
import json, statistics, sys, time
from davinci.engine.game import load_game
from davinci.engine.rng import Rng, derive_seed
game_id, seats, games, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = load_game(game_id)

def playouts():
    actions = 0
    for seed in range(games):
        st = game.new_state(seats, seed=seed)
        rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(seats)]
        while not st.is_terminal():
            for s in st.current_seats:
                legal = st.legal_actions(s)
                st.apply(s, legal[rngs[s].below(len(legal))])
                actions += 1
                if st.is_terminal():
                    break
    return actions

playouts()
times = []
for _ in range(repeat):
    t0 = time.process_time()
    actions = playouts()
    times.append(time.process_time() - t0)
t = statistics.median(times)
print(json.dumps({"playouts_per_s": games / t, "actions_per_s": actions / t, "actions_per_game": actions / games}))
"""


def measure(commit: str, code: str, args: list[str]) -> dict[str, float] | str:
    """Run `code` with `args` against the tree of one commit; its JSON line, or why it failed."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "davinci"
        root.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=False)
        if archive.returncode:
            return archive.stderr.decode().strip()
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
        # -I keeps the installed editable package and user site out: only the exported tree is imported.
        # Bots' entry points are not needed: the loop picks moves itself.
        try:
            proc = subprocess.run(
                [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {tmp!r}); exec({code!r})", *args],
                capture_output=True,
                text=True,
                check=False,
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return f"still running after {TIMEOUT_S} s (wall)"
        if proc.returncode:
            return (proc.stderr.strip().splitlines() or ["failed"])[-1]
        result: dict[str, float] = json.loads(proc.stdout)
        return result


def _label(commit: str) -> str:
    out = subprocess.run(
        ["git", "-C", str(REPO), "log", "-1", "--format=%h %s", commit], capture_output=True, text=True, check=False
    )
    return out.stdout.strip()[:90]


def lint_history(commits: list[str], cards: int, repeat: int) -> None:
    """Lint time of the generated deck at each commit."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_lint import deck_text

    print(f"lint_paths on a generated {cards:,}-card deck, CPU time, median of {repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "bench.yaml"
        deck.write_text(deck_text(cards), encoding="utf-8")
        for commit in commits:
            r = measure(commit, LINT_CHILD, [str(deck), str(repeat)])
            if isinstance(r, str):
                print(f"  {commit:<10} not measurable: {r[:100]}   [{_label(commit)}]")
            else:
                print(f"  {commit:<10} {r['lint_s']:7.2f} s ({r['problems']:.0f} problems)   [{_label(commit)}]")


def main() -> None:
    """Measure each commit and print one line per commit."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("commits", nargs="*")
    ap.add_argument("--lint", action="store_true", help="time lint of a generated deck instead of playouts")
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--game", default="da-vinci-code")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.lint:
        lint_history(args.commits or DEFAULT_LINT, args.cards, args.repeat)
        return
    print(f"{args.game}, {args.seats} seats, {args.games} random playouts, CPU time, median of {args.repeat}")
    for commit in args.commits or DEFAULT:
        label = _label(commit)
        r = measure(commit, CHILD, [args.game, str(args.seats), str(args.games), str(args.repeat)])
        if isinstance(r, str):
            print(f"  {commit:<10} not measurable: {r[:100]}   [{label}]")
        else:
            print(
                f"  {commit:<10} {r['playouts_per_s']:8.1f} playouts/s {r['actions_per_s']:9.0f} actions/s"
                f" ({r['actions_per_game']:.1f} actions/game)   [{label}]"
            )


if __name__ == "__main__":
    main()
