"""Machine instructions per random playout, counted by valgrind: a speed figure without timing noise.

    python benchmarks/instructions.py [--game da-vinci-code] [--games 100] [COMMIT ...]

On a shared machine, playouts per second move by 30 % between runs of the same code, which hides
the few per cent a change makes. Counting the instructions the interpreter executes (valgrind's
callgrind tool) is repeatable to a fraction of a per cent. With --reference it also counts the
hand-written Da Vinci Code (benchmarks/ref_dvc.py, the same games' rules and policy), for the
interpretive-overhead ratio in instructions; instructions are not time, so this ratio is lower
than the playouts-per-second one (Python code that allocates and calls more also waits more). Each commit is exported with
`git archive` (the checkout is not touched) and run twice under callgrind: once loading the game
and playing `--games` uniform-random games (the loop of benchmarks/run.py, seeds 0..games-1), once
only loading it; the difference is the playouts' own cost. Needs valgrind (apt install valgrind);
runs about 50x slower than natively. Without commits it measures HEAD and the working tree.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
from davinci.engine.game import load_game
from davinci.engine.rng import Rng, derive_seed
game = load_game(sys.argv[2])
actions = 0
for seed in range(int(sys.argv[3])):
    st = game.new_state(2, seed=seed)
    rngs = [Rng(derive_seed(seed, 1000 + i)) for i in range(2)]
    while not st.is_terminal():
        s = st.current_seats[0]
        legal = st.legal_actions(s)
        st.apply(s, legal[rngs[s].below(len(legal))])
        actions += 1
print(actions)
"""

REF_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
import ref_dvc
print(sum(ref_dvc.play(seed)[1] for seed in range(int(sys.argv[3]))))
"""


def counted(tree: str, game: str, games: int, child: str = CHILD) -> tuple[int, int]:
    """(instructions, actions) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", child, tree, game, str(games)],
            capture_output=True, text=True, check=True,
        )
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(m.group(1)), int(out.stdout.strip().splitlines()[-1])


def tree_of(commit: str, tmp: Path) -> str:
    root = tmp / commit.replace("/", "_").replace("~", "_")
    (root / "davinci").mkdir(parents=True)
    if commit == "WORKTREE":
        (root / "davinci").rmdir()
        (root / "davinci").symlink_to(REPO)
        return str(root)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(root / "davinci")], input=archive.stdout, check=True)
    return str(root)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("commits", nargs="*", default=["HEAD", "WORKTREE"])
    ap.add_argument("--game", default="da-vinci-code")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--reference", action="store_true",
                    help="also count benchmarks/ref_dvc.py, the hand-written Da Vinci Code, and print the ratio")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    print(f"{args.game}, 2 seats, {args.games} random playouts, instructions counted by callgrind")
    first = None
    last = 0
    with tempfile.TemporaryDirectory() as tmp:
        for commit in args.commits:
            tree = tree_of(commit, Path(tmp))
            total, actions = counted(tree, args.game, args.games)
            base, _ = counted(tree, args.game, 0)
            per_action = (total - base) / max(actions, 1)
            first = first or per_action
            print(f"  {commit:<12} {(total - base) / 1e6:9.1f} M instructions, {actions} actions, "
                  f"{per_action / 1e3:7.1f} k per action ({per_action / first:.3f} of the first)")
            last = total - base
    if args.reference:
        here = str(Path(__file__).resolve().parent)
        total, actions = counted(here, args.game, args.games, REF_CHILD)
        base, _ = counted(here, args.game, 0, REF_CHILD)
        print(f"  {'ref_dvc.py':<12} {(total - base) / 1e6:9.1f} M instructions, {actions} actions, "
              f"{(total - base) / max(actions, 1) / 1e3:7.1f} k per action; "
              f"the last engine row runs {last / (total - base):.1f}x its instructions for as many games")


if __name__ == "__main__":
    main()
