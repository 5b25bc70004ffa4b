"""The long fuzzing campaign (run by hand, outside CI).

    python benchmarks/fuzz_campaign.py --minutes 30 [--seed 1] [--out fuzz-report.json]

Four targets share the time, round robin:

- `yaml`: a shipped game, variant or deck with random structural mutations, linted in a fresh
  pack (tests/test_fuzz_yaml.py); clean results are played with invariants checked;
- `bytes`: the same files with random byte damage (cut, replaced, duplicated bytes);
- `actions`: random and near-miss action texts through `Game.parse_action` and `State.apply`
  on positions reached by random play (only IllegalAction is allowed);
- `prompts`: `run_play` with a scripted input function feeding random lines, then EOF.

Cases and inputs are counted per target (a `yaml` or `bytes` case is one file; an `actions`
case is 200 action texts; a `prompts` case is every line typed). Every failure (an exception
that is not a located DavinciError, an internal DV999 problem, a traceback in the terminal
output) is recorded with a reproducer (target, seed) and printed at the end. The exit code is
1 when anything was found.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import string
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

import test_fuzz_yaml as fz  # noqa: E402

from davinci.engine.bots import RandomBot  # noqa: E402
from davinci.engine.errors import DavinciError, IllegalAction  # noqa: E402
from davinci.engine.game import game_variants, load_game  # noqa: E402

NOISE = string.printable + "éßø\u2028\u0085\u00a0🙂\x00\x1b"
PROMPT_WORDS = ["?", "help", "list", "save", "1", "2", "40", "0", "-1", "", "quit", "stop", "guess", "place",
                "cover", "swap", "go", "answer", "pass", "bid", "return", "position", "h", "l"]


def _noise(rnd: random.Random, n: int) -> str:
    return "".join(rnd.choice(NOISE) for _ in range(rnd.randint(0, n)))


def target_yaml(rnd: random.Random, tmp: Path) -> tuple[str, int]:
    """One structurally mutated shipped file through lint (and play when clean)."""
    seed = rnd.choice(fz.seeds())
    return fz.run_example(seed, rnd, rnd.randint(1, 4), tmp), 1


def target_bytes(rnd: random.Random, tmp: Path) -> tuple[str, int]:
    """One byte-damaged shipped file through lint."""
    seed = rnd.choice(fz.seeds())
    raw = bytearray(fz._dump(fz._renamed(fz.yaml.safe_load(seed.path.read_text(encoding="utf-8")), seed)).encode())
    for _ in range(rnd.randint(1, 6)):
        if not raw:  # cut down to nothing: an empty file is a case too
            break
        pos = rnd.randrange(len(raw))
        op = rnd.randrange(3)
        if op == 0:
            del raw[pos : pos + rnd.randint(1, 60)]
        elif op == 1:
            raw[pos] = rnd.randrange(256)
        else:
            raw[pos:pos] = raw[pos : pos + rnd.randint(1, 60)]
    folder, problems = fz.lint_mutated(seed, bytes(raw), tmp)
    bad = fz.internal_errors(problems)
    assert not bad, "\n".join(str(p) for p in bad)
    fz.shutil.rmtree(folder, ignore_errors=True)
    return ("problems" if problems else "clean"), 1


def target_actions(rnd: random.Random, tmp: Path) -> tuple[str, int]:
    """A random position of a random game, then 200 hostile action texts against it."""
    gid, variant = rnd.choice(game_variants())
    game = load_game(gid, variant)
    d = game.definition
    st = game.new_state(rnd.randint(d.min_players, d.max_players), seed=rnd.randrange(2**31))
    bot = RandomBot(rnd.randrange(2**31))
    for _ in range(rnd.randint(0, 60)):
        if st.is_terminal():
            break
        seat = st.current_seats[0]
        st.apply(seat, bot.choose({}, st.legal_actions(seat)))
    seats = st.current_seats or [0]
    legal = [str(a) for a in st.legal_actions(seats[0])] if not st.is_terminal() else ["pass"]
    swaps = ["-1", "0", "99999999999999999999", "1e9", "row.0.0", "row.-1.1", "row.1.999", "-1,-1", "99,99",
             "", " ", "hand.1.0", "pile.-3", "board.?", "1.5", "nan", "none", "true", "\x00", "é"]
    accepted = 0
    for _ in range(200):
        if rnd.random() < 0.3:
            text = _noise(rnd, 40)
        else:
            words = rnd.choice(legal).split() or ["x"]
            for _ in range(rnd.randint(1, 3)):
                words[rnd.randrange(len(words))] = rnd.choice(swaps + words)
            text = " ".join(words)
        seat = rnd.choice([*seats, 0, 1, -1, len(st.seat_names), 10**9])
        try:
            action = game.parse_action(text)
            st.clone().apply(seat, action)
            accepted += 1
        except IllegalAction:
            pass
    return ("some-accepted" if accepted else "all-refused"), 200


def target_prompts(rnd: random.Random, tmp: Path) -> tuple[str, int]:
    """A terminal game fed random lines by a scripted input function, then end of input."""
    from rich.console import Console

    from davinci.engine.play import parse_seats, run_play

    gid, variant = rnd.choice(game_variants())
    game = load_game(gid, variant)
    d = game.definition
    n = rnd.randint(d.min_players, min(d.max_players, 3))
    kinds = ["human"] + [rnd.choice(["human", "random"]) for _ in range(n - 1)]
    budget = rnd.randint(0, 400)
    count = [0]

    def feed(prompt: str) -> str:
        count[0] += 1
        if count[0] > budget:
            raise EOFError
        r = rnd.random()
        if r < 0.4:
            return " ".join(rnd.choice(PROMPT_WORDS) for _ in range(rnd.randint(1, 3)))
        if r < 0.7:
            return _noise(rnd, 30)
        return rnd.choice(PROMPT_WORDS) + " " + str(rnd.randint(-5, 30))

    console = Console(file=io.StringIO(), width=rnd.choice([40, 100, 200]))
    save = tmp / f"save-{rnd.randrange(10**9)}.json"
    code = run_play(game, parse_seats(",".join(kinds), game), rnd.randrange(2**31), {}, console, feed,
                    save_path=str(save), clear=False, timer=False)
    out = console.file.getvalue()
    assert code in (0, 130), code
    assert "Traceback" not in out and "screen failed" not in out, out[-2000:]
    if save.exists():
        doc = json.loads(save.read_text(encoding="utf-8"))
        game.state_from_json(doc["saved"])
        save.unlink()
    return ("exit-" + str(code)), count[0]


TARGETS: dict[str, Callable[[random.Random, Path], tuple[str, int]]] = {
    "yaml": target_yaml,
    "bytes": target_bytes,
    "actions": target_actions,
    "prompts": target_prompts,
}


def main(argv: list[str] | None = None) -> int:
    """Run the campaign for a while; print and optionally save the counts and findings."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated subset of " + ",".join(TARGETS))
    ap.add_argument("--out", type=Path, help="write a JSON report here")
    args = ap.parse_args(argv)
    names = [t for t in args.targets.split(",") if t]
    master = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="davinci-campaign-"))
    deadline = time.monotonic() + args.minutes * 60
    tried: Counter[str] = Counter()
    inputs: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    findings: list[dict[str, Any]] = []
    seen: set[str] = set()
    start = time.monotonic()
    i = 0
    while time.monotonic() < deadline:
        name = names[i % len(names)]
        i += 1
        case_seed = master.randrange(2**32)
        tried[name] += 1
        try:
            outcome, n = TARGETS[name](random.Random(case_seed), tmp)
            outcomes[f"{name}:{outcome}"] += 1
            inputs[name] += n
        except Exception as e:  # noqa: BLE001 - every escape is a finding
            if isinstance(e, DavinciError) and e.location is not None and name == "yaml":
                outcomes[f"{name}:located-error"] += 1
                continue
            first = str(e).splitlines()[0] if str(e) else ""
            # One signature per bug, not per temporary folder it showed up in.
            sig = f"{name}: {type(e).__name__}: " + re.sub(r"(/tmp|/var)/\S*?(?=[,:)'\" ]|$)", "<tmp>", first)[:200]
            tb = traceback.format_exc(limit=8)
            if sig not in seen:
                seen.add(sig)
                findings.append({"target": name, "seed": case_seed, "error": sig, "traceback": tb})
                print(f"FOUND {sig}\n  reproduce: target {name}, case seed {case_seed}", flush=True)
        if i % 50 == 0:
            print(f"{time.monotonic() - start:7.0f}s cases {dict(tried)} inputs {dict(inputs)} findings {len(findings)}",
                  flush=True)
    report = {
        "seed": args.seed,
        "minutes": args.minutes,
        "cases": dict(tried),
        "inputs": dict(inputs),
        "total_inputs": sum(inputs.values()),
        "outcomes": dict(sorted(outcomes.items())),
        "findings": findings,
    }
    print(json.dumps({k: v for k, v in report.items() if k != "findings"}, indent=1))
    for f in findings:
        print(f"\n--- {f['error']} (target {f['target']}, case seed {f['seed']})\n{f['traceback']}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    fz.shutil.rmtree(tmp, ignore_errors=True)
    return 1 if findings else 0


def reproduce(target: str, case_seed: int) -> tuple[str, int]:
    """Run one recorded case again (for debugging a finding)."""
    tmp = Path(tempfile.mkdtemp(prefix="davinci-repro-"))
    return TARGETS[target](random.Random(case_seed), tmp)


if __name__ == "__main__":
    sys.exit(main())
