"""The davinci benchmark suite: every figure beside its reference, in one run.

    python benchmarks/run.py            # full run (a few minutes on 2 cores)
    python benchmarks/run.py --quick    # fewer games and repeats (about a minute)
    python benchmarks/run.py --json     # one JSON document instead of the table
    python benchmarks/run.py --markdown # the table in Markdown (docs/performance.md)
    python benchmarks/run.py --load run.json [--markdown]   # print a saved --json run again
    python benchmarks/run.py --only playouts,bots   # some sections only

Sections: random playouts of every game, variant and seat count; the engine against the
hand-written Da Vinci Code (benchmarks/ref_dvc.py); `simulate --jobs 2` against `--jobs 1`;
`davinci lint` on a generated 10,000-card deck and on the built-in content; `davinci --help`
start-up against `python -c pass`; rule-expression costs (benchmarks/bench_expr.py); bot
decision times; the serialised size of a 4-seat state in mid-game.

Each figure is the median of several repeats, and each repeat measures the figure and its
reference back to back, so a change in the machine's load touches both sides alike. In-process
figures use the CPU time of this process by default (steadier than wall time on a shared
machine); `--wall` switches to wall time. Subprocess figures give both the wall time and the
children's CPU time. `simulate --jobs` is always wall time: that is what parallelism buys.

To measure exactly one commit while others edit the checkout, export it and put it first on
the path (the editable install then steps aside, for the `davinci` subprocesses too):

    mkdir -p /tmp/snap/davinci && git archive HEAD | tar -x -C /tmp/snap/davinci
    PYTHONPATH=/tmp/snap python /tmp/snap/davinci/benchmarks/run.py --label "commit $(git rev-parse --short HEAD)"

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # the sibling benchmark modules (ref_dvc, bench_lint, bench_expr)

from davinci.engine.bots import RandomBot, bot_names, make_bot  # noqa: E402
from davinci.engine.game import Game, catalogue, load_game  # noqa: E402
from davinci.engine.rng import derive_seed  # noqa: E402

SECTIONS = ("playouts", "reference", "simulate", "lint", "startup", "expressions", "bots", "memory")

# Bot cases beyond "every bot of a game at its smallest table": the heaviest position the
# brief names (the deducer's 4-player advanced game, where jokers widen the search).
EXTRA_BOT_CASES = [("da-vinci-code", "advanced", 4)]


@dataclass
class Row:
    """One figure, its reference, and how they compare."""

    section: str
    name: str
    value: float
    unit: str
    ref_name: str = ""
    ref_value: float | None = None
    comparison: str = ""  # the ratio in words: "3.1x slower than hand-written"
    ratio: float | None = None  # engine cost / reference cost (> 1: the engine costs more)
    target: str = ""
    met: bool | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Options:
    """How much work each section does."""

    quick: bool
    wall: bool
    repeat: int
    budget_s: float  # aim for one measured batch to take about this long

    def clock(self) -> float:
        """The in-process clock: CPU time of this process unless --wall."""
        return time.perf_counter() if self.wall else time.process_time()

    @property
    def clock_name(self) -> str:
        """What the in-process clock measures, for the report."""
        return "wall time" if self.wall else "CPU time of the benchmark process"


# ---------------------------------------------------------------------------------------------
# helpers


def median(xs: Sequence[float]) -> float:
    """Median of a non-empty sequence."""
    return float(statistics.median(xs))


def p95(xs: Sequence[float]) -> float:
    """The 95th percentile (nearest rank) of a non-empty sequence."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, math.ceil(0.95 * len(ys)) - 1))]


def slower(cost: float, ref_cost: float, ref_label: str) -> tuple[float, str]:
    """The ratio cost/ref_cost and its reading in words."""
    if ref_cost <= 0 or cost <= 0:
        return (math.nan, "n/a")
    r = cost / ref_cost
    if r >= 1:
        return (r, f"{r:.2f}x the cost of {ref_label}")
    return (r, f"{1 / r:.2f}x cheaper than {ref_label}")


def fmt_value(v: float | None, unit: str) -> str:
    """A value with its unit, at a sensible precision."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit == "s" and v < 1:
        return f"{v * 1000:.1f} ms" if v >= 0.001 else f"{v * 1e6:.1f} µs"
    if unit == "s":
        return f"{v:.2f} s"
    if unit == "B":
        return f"{v / 1024:.1f} KB"
    if abs(v) >= 100:
        return f"{v:,.0f} {unit}"
    return f"{v:.2f} {unit}"


def random_playouts(game: Game, seats: int, seeds: Iterable[int]) -> int:
    """Play one uniform-random game per seed through the public engine API; returns the number of actions."""
    actions = 0
    for seed in seeds:
        st = game.new_state(seats, seed=seed)
        bots = [RandomBot(derive_seed(seed, 1000 + i)) for i in range(seats)]
        while not st.is_terminal():
            for s in st.current_seats:
                st.apply(s, bots[s].choose({}, st.legal_actions(s)))
                actions += 1
                if st.is_terminal():
                    break
    return actions


def _one_playout(game: Game, seats: int, seed: int) -> int:
    return random_playouts(game, seats, [seed])


def calibrate(opts: Options, one: Callable[[int], object], lo: int = 2, hi: int = 2000) -> int:
    """How many items (games) make one batch last about the budget, from a short trial."""
    t0 = opts.clock()
    n = 0
    while n < lo or (opts.clock() - t0 < opts.budget_s / 4 and n < hi):
        one(n)
        n += 1
    per_item = (opts.clock() - t0) / n
    return max(lo, min(hi, round(opts.budget_s / max(per_item, 1e-9))))


def seat_counts(min_players: int, max_players: int) -> list[int]:
    """2 and 4 seats where the game allows them, else its smallest table and 4 (or its largest)."""
    small = max(2, min_players)
    large = min(4, max_players)
    return sorted({small, large})


def run_child(cmd: Sequence[str], stdin: str | None = None) -> tuple[float, float, int]:
    """Wall time, the child's CPU time (user + system), and the exit code of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def davinci_command() -> list[str]:
    """The installed `davinci` script beside this Python, or the module as a fallback."""
    script = Path(sys.executable).with_name("davinci")
    if script.exists():
        return [str(script)]
    found = shutil.which("davinci")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from davinci.launch import main; sys.exit(main())"]


def bot_factory(name: str, game_id: str) -> tuple[Callable[..., Any], str]:
    """The class of a bot by registry name; falls back to the game's bots module when not registered."""
    try:
        return type(make_bot(name, 0, game_id)), ""
    except Exception:
        pass
    # A bot a game's YAML lists but no entry point registers: find it by its `name` in the
    # bots module of the games package, so the benchmark still times it (and says so).
    games_pkg = importlib.import_module("davinci.games")
    for sub in sorted(p.name for p in Path(games_pkg.__path__[0]).iterdir() if (p / "bots.py").exists()):
        module = importlib.import_module(f"davinci.games.{sub}.bots")
        for obj in vars(module).values():
            if isinstance(obj, type) and getattr(obj, "name", None) == name and hasattr(obj, "choose"):
                if game_id in (getattr(obj, "games", None) or (game_id,)):
                    return obj, "not registered as a davinci.bots entry point; found in its game's bots module"
    raise LookupError(f"bot {name!r} for {game_id} not found")


# ---------------------------------------------------------------------------------------------
# sections


def bench_playouts(opts: Options) -> list[Row]:
    """Random playouts/s and actions/s for every game, variant and seat count."""
    rows: list[Row] = []
    for entry in catalogue():
        for variant in [None, *entry["variants"]]:
            game = load_game(entry["id"], variant)
            d = game.definition
            for seats in seat_counts(d.min_players, d.max_players):
                n = calibrate(opts, partial(_one_playout, game, seats), lo=2)
                times, actions = [], 0
                for _ in range(opts.repeat):
                    t0 = opts.clock()
                    actions = random_playouts(game, seats, range(n))
                    times.append(opts.clock() - t0)
                t = median(times)
                label = f"{entry['id']}{'/' + variant if variant else ''} {seats}p"
                rows.append(
                    Row(
                        "playouts",
                        f"{label}: random playouts/s",
                        n / t,
                        "games/s",
                        detail={
                            "games": n,
                            "actions_per_game": actions / n,
                            "actions_per_s": actions / t,
                            "batch_s": t,
                            "runs_s": times,
                        },
                    )
                )
                rows.append(Row("playouts", f"{label}: actions/s", actions / t, "actions/s"))
    return rows


def bench_reference(opts: Options) -> list[Row]:
    """The engine against the hand-written Da Vinci Code, same number of games, same policy."""
    import ref_dvc

    game = load_game("da-vinci-code")
    rows: list[Row] = []
    for seats in (2, 4):
        n = calibrate(opts, partial(_one_playout, game, seats), lo=20)
        eng_t, ref_t = [], []
        eng_actions = ref_actions = 0
        # The same n seeds, played `passes` times over so the hand-written batch is long enough to time.
        t0 = time.perf_counter()
        sum(ref_dvc.play(seed, seats)[1] for seed in range(n))
        passes = max(1, math.ceil(opts.budget_s / 4 / max(time.perf_counter() - t0, 1e-6)))
        for _ in range(opts.repeat):
            t0 = opts.clock()
            eng_actions = random_playouts(game, seats, range(n))
            eng_t.append(opts.clock() - t0)
            t0 = opts.clock()
            for _ in range(passes):
                ref_actions = sum(ref_dvc.play(seed, seats)[1] for seed in range(n))
            ref_t.append((opts.clock() - t0) / passes)
        e, r = n / median(eng_t), n / median(ref_t)
        ratio = r / e
        target = "within 3x (2x: hand-written league)" if seats == 2 else ""
        rows.append(
            Row(
                "reference",
                f"da-vinci-code {seats}p: engine playouts/s",
                e,
                "games/s",
                "hand-written (ref_dvc.py)",
                r,
                f"hand-written is {ratio:.2f}x faster",
                ratio,
                target,
                (ratio <= 3) if seats == 2 else None,
                {
                    "games": n,
                    "engine_actions_per_game": eng_actions / n,
                    "reference_actions_per_game": ref_actions / n,
                    "engine_actions_per_s": eng_actions / median(eng_t),
                    "reference_actions_per_s": ref_actions / median(ref_t),
                    "engine_runs_s": eng_t,
                    "reference_runs_s": ref_t,
                },
            )
        )
    return rows


def _spin(n: int) -> int:
    """Busy integer work, the same in every process: the probe of how parallel this machine is now."""
    x = 0
    for i in range(n):
        x = (x * 31 + i) & 0xFFFF
    return x


def parallel_probe(seconds: float) -> tuple[float, float, float]:
    """Wall time of two equal busy loops run one after the other and side by side; returns (t1, t2, speed-up)."""
    import multiprocessing as mp

    t0 = time.process_time()
    _spin(200_000)
    n = max(200_000, round(200_000 * seconds / 2 / max(time.process_time() - t0, 1e-6)))
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(2) as pool:
        pool.map(_spin, [1, 1])  # start both workers before timing
        t0 = time.perf_counter()
        pool.apply(_spin, (n,))
        pool.apply(_spin, (n,))
        t1 = time.perf_counter() - t0
        t0 = time.perf_counter()
        pool.map(_spin, [n, n], chunksize=1)
        t2 = time.perf_counter() - t0
    return t1, t2, t1 / t2


def bench_simulate(opts: Options) -> list[Row]:
    """`simulate --jobs 2` against `--jobs 1` on the same games: wall-time speed-up and identical results.

    The machine's own speed-up for two independent busy loops, measured in the same repeats,
    is the ceiling: on a shared machine (and with the kernel's per-session autogroup
    scheduling, which makes all processes of one session share one fair slice) it can be far
    below 2.
    """
    from davinci.engine.simulate import SimConfig, run

    timing = {"elapsed_s", "playouts_per_s", "actions_per_s", "jobs"}
    probe = SimConfig("da-vinci-code", None, ("random", "random"), 40, 0, {})
    run(probe, 1)  # load the game and the bots before any timing
    per_game = run(probe, 1)["elapsed_s"] / 40
    # Long enough that pool start-up is a small share, as in a real simulation.
    games = max(200, min(20_000, round(opts.budget_s * 6 / max(per_game, 1e-6))))
    cfg = SimConfig("da-vinci-code", None, ("random", "random"), games, 1, {})
    one_t: list[float] = []
    two_t: list[float] = []
    cpu1: list[float] = []
    cpu2: list[float] = []
    machine_speedups: list[float] = []
    identical = True
    base: dict[str, Any] = {}
    for _ in range(max(2, opts.repeat - 2)):
        for jobs, walls, cpus in ((1, one_t, cpu1), (2, two_t, cpu2)):
            c0 = time.process_time()
            k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            report = run(cfg, jobs)
            walls.append(time.perf_counter() - t0)
            k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(time.process_time() - c0 + (k1.ru_utime - k0.ru_utime) + (k1.ru_stime - k0.ru_stime))
            if jobs == 1:
                base = {k: v for k, v in report.items() if k not in timing}
            elif {k: v for k, v in report.items() if k not in timing} != base:
                identical = False
        machine_speedups.append(parallel_probe(min(one_t[-1], 4.0))[2])
    w1, w2 = median(one_t), median(two_t)
    speedup = w1 / w2
    ceiling = median(machine_speedups)
    overhead = median(cpu2) / median(cpu1)
    return [
        Row(
            "simulate",
            f"simulate --jobs 2, {games} da-vinci-code games: throughput (wall)",
            games / w2,
            "games/s",
            "--jobs 1",
            games / w1,
            f"{speedup:.2f}x the throughput of --jobs 1; results identical: {'yes' if identical else 'NO'}",
            1 / speedup,
            ">= 1.8x, identical results",
            speedup >= 1.8 and identical,
            {"games": games, "jobs1_wall_s": one_t, "jobs2_wall_s": two_t, "identical_results": identical},
        ),
        Row(
            "simulate",
            "two independent busy loops in 2 processes: speed-up (wall)",
            ceiling,
            "x",
            "",
            None,
            f"what this machine gives two processes right now; simulate reached {speedup / ceiling:.0%} of it",
            None,
            "",
            None,
            {"speedups": machine_speedups},
        ),
        Row(
            "simulate",
            "simulate --jobs 2: CPU time of all processes",
            median(cpu2),
            "s",
            "--jobs 1",
            median(cpu1),
            f"{overhead:.2f}x the CPU of --jobs 1: expected speed-up on two idle cores about {2 / overhead:.2f}x",
            overhead,
            "",
            None,
            {"jobs1_cpu_s": cpu1, "jobs2_cpu_s": cpu2},
        ),
    ]


def bench_lint(opts: Options) -> list[Row]:
    """`davinci lint` on a generated 10,000-card deck (in process and as a command) and on the built-in content."""
    import yaml
    from bench_lint import deck_text

    from davinci.engine.lint.runner import lint_paths
    from davinci.engine.packs import clear_cache

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows: list[Row] = []
    cards = 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        text = deck_text(cards)
        path.write_text(text, encoding="utf-8")
        lint_t, yaml_t, cli_wall, cli_cpu = [], [], [], []
        problems: list[Any] = []
        cmd = [*davinci_command(), "lint", str(path)]
        for _ in range(opts.repeat):
            clear_cache()
            t0 = opts.clock()
            problems = lint_paths([str(path)])
            lint_t.append(opts.clock() - t0)
            t0 = opts.clock()
            yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader, chosen above
            yaml_t.append(opts.clock() - t0)
        for _ in range(max(2, opts.repeat - 2)):
            w, c, _code = run_child(cmd)
            cli_wall.append(w)
            cli_cpu.append(c)
        t, y = median(lint_t), median(yaml_t)
        ratio, words = slower(t, y, "a bare PyYAML load")
        rows.append(
            Row(
                "lint",
                f"lint_paths on a {cards:,}-card deck (in process)",
                t,
                "s",
                f"PyYAML {loader.__name__} load of the same file",
                y,
                words,
                ratio,
                "< 2 s",
                t < 2,
                {"problems": len(problems), "mib": len(text.encode()) / 2**20, "runs_s": lint_t},
            )
        )
        rows.append(
            Row(
                "lint",
                f"`davinci lint` on the {cards:,}-card deck (command, wall)",
                median(cli_wall),
                "s",
                "its CPU time",
                median(cli_cpu),
                "",
                None,
                "< 2 s",
                median(cli_wall) < 2,
                {"wall_s": cli_wall, "cpu_s": cli_cpu},
            )
        )
    builtin_t = []
    builtin: list[Any] = []
    for _ in range(opts.repeat):
        clear_cache()
        t0 = opts.clock()
        builtin = lint_paths([])
        builtin_t.append(opts.clock() - t0)
    rows.append(
        Row(
            "lint",
            "lint_paths on the built-in content (every installed pack)",
            median(builtin_t),
            "s",
            detail={"problems": len(builtin), "runs_s": builtin_t},
        )
    )
    return rows


def bench_startup(opts: Options) -> list[Row]:
    """`davinci --help` against `python -c pass`, as subprocesses, interleaved."""
    n = 7 if opts.quick else 15
    help_cmd = [*davinci_command(), "--help"]
    pass_cmd = [sys.executable, "-c", "pass"]
    hw, hc, pw, pc = [], [], [], []
    run_child(help_cmd)  # warm the file cache and the bytecode
    for _ in range(n):
        w, c, _ = run_child(help_cmd)
        hw.append(w)
        hc.append(c)
        w, c, _ = run_child(pass_cmd)
        pw.append(w)
        pc.append(c)
    rows = []
    for label, h, p in (("wall", hw, pw), ("CPU", hc, pc)):
        ratio, words = slower(median(h), median(p), "python -c pass")
        rows.append(
            Row(
                "startup",
                f"davinci --help ({label})",
                median(h),
                "s",
                f"python -c pass ({label})",
                median(p),
                words,
                ratio,
                "< 150 ms" if label == "wall" else "",
                (median(h) < 0.150) if label == "wall" else None,
                {"runs_s": h, "reference_runs_s": p},
            )
        )
    return rows


def bench_expressions(opts: Options) -> list[Row]:
    """Parse, check, compile and evaluate costs of the sample expressions of bench_expr.py."""
    try:
        bx = importlib.import_module("bench_expr")
        samples = bx.EXPRESSIONS
        scope, env = bx.SCOPE, bx._env()
        parse, parse_uncached = bx.parse, bx.parse_uncached
        check, compile_expr = bx.check, bx.compile_expr
        reference = bx._reference
    except (ImportError, AttributeError) as err:
        return [Row("expressions", f"skipped: bench_expr.py not importable ({err})", math.nan, "")]
    def per_call(fn: Callable[[], object], number: int) -> float:
        times = []
        for _ in range(opts.repeat):
            t0 = opts.clock()
            for _ in range(number):
                fn()
            times.append((opts.clock() - t0) / number)
        return median(times)

    scale = 1 if opts.quick else 3
    parse("1")  # build the parser tables outside the timings
    rows: list[Row] = []
    for source, label in samples:
        node = parse(source)
        compiled = compile_expr(source, scope)
        t_parse = per_call(partial(parse_uncached, source), 100 * scale)
        t_check = per_call(partial(check, node, scope, source=source), 300 * scale)
        t_eval = per_call(partial(compiled, env), 3000 * scale)
        rows.append(
            Row(
                "expressions",
                f"{label}: parse / check / eval",
                t_eval,
                "s",
                detail={"source": source, "parse_s": t_parse, "check_s": t_check, "eval_s": t_eval},
            )
        )
    source = samples[0][0]
    typical = compile_expr(source, scope)
    eval_t, ref_t = [], []
    number = 5000 * scale
    for _ in range(opts.repeat):
        t0 = opts.clock()
        for _ in range(number):
            typical(env)
        eval_t.append((opts.clock() - t0) / number)
        t0 = opts.clock()
        for _ in range(number):
            reference(env)
        ref_t.append((opts.clock() - t0) / number)
    e, r = median(eval_t), median(ref_t)
    ratio, words = slower(e, r, "hand-written Python")
    rows.append(
        Row(
            "expressions",
            "typical condition: evaluate",
            e,
            "s",
            "the same test hand-written in Python",
            r,
            words,
            ratio,
            "< 2 µs",
            e < 2e-6,
            {"source": source},
        )
    )
    t_pc = per_call(lambda: check(parse_uncached(source), scope, source=source), 100 * scale)
    rows.append(Row("expressions", "typical condition: parse + check", t_pc, "s", target="< 200 µs", met=t_pc < 200e-6))
    return rows


def bot_cases() -> list[tuple[str, str | None, int, str]]:
    """(game, variant, seats, bot) for every bot each game lists, plus the heavy extra cases."""
    known = set(bot_names())
    cases: list[tuple[str, str | None, int, str]] = []
    for entry in catalogue():
        listed = list(entry["bots"])
        # A registered bot that names this game but is missing from its YAML list is timed too.
        for name in sorted(known - set(listed)):
            try:
                cls = type(make_bot(name, 0))
            except Exception:
                continue
            if entry["id"] in (getattr(cls, "games", None) or ()):
                listed.append(name)
        seats = max(2, entry["players"]["min"])
        cases += [(entry["id"], None, seats, name) for name in listed]
        for gid, variant, n in EXTRA_BOT_CASES:
            if gid == entry["id"] and variant in entry["variants"]:
                cases += [(gid, variant, n, name) for name in listed]
    return cases


def bench_bots(opts: Options) -> list[Row]:
    """Decision time (view + choose) of every bot, every seat played by that bot, beside the engine's own step."""
    rows: list[Row] = []
    want = 300 if opts.quick else 1500
    max_games = 6 if opts.quick else 30
    time_cap = opts.budget_s * 4
    for gid, variant, seats, name in bot_cases():
        try:
            factory, note = bot_factory(name, gid)
        except LookupError as e:
            rows.append(Row("bots", f"{gid} {name}: skipped ({e})", math.nan, "s"))
            continue
        game = load_game(gid, variant)
        decide: list[float] = []
        step: list[float] = []
        games = 0
        started = time.perf_counter()
        while len(decide) < want and games < max_games and time.perf_counter() - started < time_cap:
            seed = derive_seed(7, games)
            games += 1
            st = game.new_state(seats, seed=seed)
            bots = [factory(seed=derive_seed(seed, 1000 + i), settings=dict(game.settings)) for i in range(seats)]
            wants = [getattr(b, "wants_view", True) for b in bots]
            while not st.is_terminal():
                for s in st.current_seats:
                    t0 = opts.clock()
                    legal = st.legal_actions(s)
                    t1 = opts.clock()
                    action = bots[s].choose(st.view(s) if wants[s] else {}, legal)
                    t2 = opts.clock()
                    st.apply(s, action)
                    t3 = opts.clock()
                    decide.append(t2 - t1)
                    step.append((t1 - t0) + (t3 - t2))
                    if st.is_terminal():
                        break
        m, ref = median(decide), median(step)
        ratio, words = slower(m, ref, "the engine's step")
        label = f"{gid}{'/' + variant if variant else ''} {seats}p {name}"
        rows.append(
            Row(
                "bots",
                f"{label}: decision median (p95 {fmt_value(p95(decide), 's')})",
                m,
                "s",
                "engine step (legal actions + apply), median",
                ref,
                words,
                ratio,
                detail={
                    "p95_s": p95(decide),
                    "max_s": max(decide),
                    "decisions": len(decide),
                    "games": games,
                    "step_p95_s": p95(step),
                    "note": note,
                },
            )
        )
    return rows


def bench_memory(opts: Options) -> list[Row]:
    """Serialised (JSON) size of a 4-seat state half-way through a random game, per game."""
    rows: list[Row] = []
    for entry in catalogue():
        game = load_game(entry["id"])
        d = game.definition
        seats = min(4, d.max_players)
        sizes, starts, ends = [], [], []
        for seed in range(3):
            total = random_playouts(game, seats, [seed])
            st = game.new_state(seats, seed=seed)
            starts.append(len(json.dumps(st.to_json())))
            bots = [RandomBot(derive_seed(seed, 1000 + i)) for i in range(seats)]
            done = 0
            while done < total // 2:
                for s in st.current_seats:
                    st.apply(s, bots[s].choose({}, st.legal_actions(s)))
                    done += 1
                    if done >= total // 2:
                        break
            sizes.append(len(json.dumps(st.to_json())))
            while not st.is_terminal():
                for s in st.current_seats:
                    st.apply(s, bots[s].choose({}, st.legal_actions(s)))
                    if st.is_terminal():
                        break
            ends.append(len(json.dumps(st.to_json())))
        size = median(sizes)
        rows.append(
            Row(
                "memory",
                f"{entry['id']} {seats}p state in mid-game, as JSON",
                size,
                "B",
                "the same state at the start",
                median(starts),
                f"{size / median(starts):.1f}x its starting size; {fmt_value(median(ends), 'B')} at the end",
                size / 51_200,
                "< 50 KB",
                size < 51_200,
                {"sizes": sizes, "end_sizes": ends, "start_sizes": starts},
            )
        )
    return rows


BENCHES: dict[str, Callable[[Options], list[Row]]] = {
    "playouts": bench_playouts,
    "reference": bench_reference,
    "simulate": bench_simulate,
    "lint": bench_lint,
    "startup": bench_startup,
    "expressions": bench_expressions,
    "bots": bench_bots,
    "memory": bench_memory,
}


# ---------------------------------------------------------------------------------------------
# report


def source() -> dict[str, Any]:
    """Which davinci was measured: its folder, and its git commit (and whether tracked files differ)."""
    import davinci

    root = Path(davinci.__file__).resolve().parent
    out: dict[str, Any] = {"davinci_path": str(root), "commit": None, "modified": None}
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        if head.returncode == 0 and Path(root, ".git").exists():
            status = subprocess.run(
                ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
            )
            out["commit"] = head.stdout.strip()
            out["modified"] = bool(status.stdout.strip())
    except OSError:
        pass
    return out


def machine(opts: Options) -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        **source(),
        "cpu": model or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "clock": opts.clock_name,
        "repeats": opts.repeat,
        "quick": opts.quick,
    }


def row_value(row: Row) -> str:
    """The figure as text (the three costs for an expression row)."""
    if row.section == "expressions" and "parse_s" in row.detail:
        dt = row.detail
        return " / ".join(fmt_value(dt[k], "s") for k in ("parse_s", "check_s", "eval_s"))
    text = fmt_value(row.value, row.unit)
    if row.section == "playouts" and "actions_per_game" in row.detail:
        text += f" ({row.detail['games']} games x {row.detail['actions_per_game']:.0f} actions)"
    return text


def row_reference(row: Row) -> str:
    """The reference and the comparison, as text."""
    parts = []
    if row.ref_name:
        parts.append(f"{row.ref_name}: {fmt_value(row.ref_value, row.unit)}")
    if row.comparison:
        parts.append(row.comparison)
    return "; ".join(parts)


def row_target(row: Row) -> str:
    """The target and whether this run met it."""
    if not row.target:
        return ""
    return row.target + {True: " (met)", False: " (NOT met)", None: ""}[row.met]


def header(info: dict[str, Any], elapsed: float) -> list[str]:
    """Where and how the figures were measured."""
    load0 = " ".join(f"{x:.2f}" for x in info["load_average"] or [])
    load1 = " ".join(f"{x:.2f}" for x in info.get("load_average_end") or [])
    if info.get("commit"):
        what = f"commit {info['commit']}" + (" plus uncommitted changes" if info.get("modified") else "")
    else:
        what = "not a git checkout"
    label = f"; {info['label']}" if info.get("label") else ""
    return [
        f"measured: davinci from {info.get('davinci_path', '?')} ({what}){label}",
        f"machine: {info['cpu']}, {info['cores']} cores, {info['platform']}, Python {info['python']}",
        f"load average (1, 5, 15 min): {load0} at start, {load1} at end",
        f"in-process clock: {info['clock']}; median of {info['repeats']} repeats; total run {elapsed:.0f} s",
    ]


def print_table(rows: list[Row], info: dict[str, Any], elapsed: float) -> None:
    """The human-readable report: one line per figure, its reference and target beneath."""
    for line in header(info, elapsed):
        print(line)
    section = ""
    for row in rows:
        if row.section != section:
            section = row.section
            print(f"\n== {section}")
        print(f"  {row.name:<62} {row_value(row)}")
        extra = " | ".join(x for x in (row_reference(row), row_target(row)) if x)
        if extra:
            print(f"      {extra}")
        if row.detail.get("note"):
            print(f"      note: {row.detail['note']}")


def print_markdown(rows: list[Row], info: dict[str, Any], elapsed: float) -> None:
    """The report as a Markdown table (for docs/performance.md)."""
    for line in header(info, elapsed):
        print(f"- {line}")
    print()
    print("| section | figure | value | reference and ratio | target |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        cells = [row.section, row.name, row_value(row), row_reference(row), row_target(row)]
        print("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen sections and print the table (or JSON)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and repeats (about a minute)")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table (for docs/performance.md)")
    ap.add_argument("--wall", action="store_true", help="in-process figures in wall time instead of CPU time")
    ap.add_argument("--repeat", type=int, default=None, help="repeats per figure (default 5, quick 3)")
    ap.add_argument("--load", metavar="FILE", help="print a saved --json run as a table (or --markdown), measuring nothing")
    ap.add_argument("--label", default="", help="a note kept with the run (e.g. the commit of an exported tree)")
    ap.add_argument("--only", default="", help=f"comma-separated sections: {','.join(SECTIONS)}")
    args = ap.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()] or list(SECTIONS)
    unknown = [s for s in only if s not in BENCHES]
    if unknown:
        ap.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    if args.load:
        saved = json.loads(Path(args.load).read_text(encoding="utf-8"))
        saved_rows = [Row(**r) for r in saved["rows"]]
        (print_markdown if args.markdown else print_table)(saved_rows, saved["machine"], saved["elapsed_s"])
        return 0
    repeat = args.repeat or (3 if args.quick else 5)
    opts = Options(args.quick, args.wall, max(1, repeat), 0.25 if args.quick else 1.0)
    info = machine(opts)
    info["label"] = args.label
    started = time.perf_counter()
    rows: list[Row] = []
    for name in only:
        if not args.json:
            print(f"[{name}]", file=sys.stderr, flush=True)
        rows += BENCHES[name](opts)
    info["load_average_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({"machine": info, "elapsed_s": elapsed, "rows": [asdict(r) for r in rows]}, indent=1))
    elif args.markdown:
        print_markdown(rows, info, elapsed)
    else:
        print_table(rows, info, elapsed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
