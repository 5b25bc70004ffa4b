"""Timings of the rule expression language: parse, check, compile, evaluate.

Run: python benchmarks/bench_expr.py [--wall]

Each figure is the median over 7 batches. By default the clock is the process's CPU time, which
other programs on a shared machine disturb much less than wall time; `--wall` uses wall time.
The summary of the typical condition alternates its batches with the hand-written version's,
and shows the best batch beside each median.
Parsing is measured without the parse cache. The design's targets: a typical compiled condition
evaluates in under 2 µs; parse + check take under 200 µs. The hand-written Python version of the
typical condition and the cost of one list-comprehension step put the figures in proportion to the
machine they ran on.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from davinci.engine.expr import BOOL, INT, STR, ListType, RecordType, compile_expr, parse
from davinci.engine.expr.checker import Checked, check
from davinci.engine.expr.compiler import compile_checked
from davinci.engine.expr.parser import parse_uncached

CARD = RecordType("card", {"symbol": STR, "symbols": ListType(STR), "number": INT, "colour": STR})
SEAT = RecordType("seat", {"score": INT, "tokens": INT, "name": STR, "hand": ListType(CARD)})
SCOPE = {"hand": ListType(CARD), "seat": SEAT, "seats": ListType(SEAT), "row": ListType(CARD)}


class Rec:
    """A record like the engine's: fields read through one method call and a dict lookup."""

    __slots__ = ("_fields",)

    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def field(self, name: str) -> Any:
        return self._fields[name]


def _env() -> dict[str, Any]:
    hand = [
        Rec(symbol=s, symbols=[s, "eye"], number=n, colour=c)
        for s, n, c in [
            ("skull", 3, "black"),
            ("eye", 5, "white"),
            ("skull", 1, "black"),
            ("quill", 9, "white"),
            ("sun", 4, "black"),
        ]
    ]
    seat = Rec(score=2, tokens=4, name="red", hand=hand)
    other = Rec(score=5, tokens=1, name="blue", hand=hand[:2])
    return {"hand": hand, "seat": seat, "seats": [seat, other], "row": hand}


def _reference(env: dict[str, Any]) -> bool:
    """The typical condition hand-written in Python: the floor any compiled form can approach."""
    skulls = len([c for c in env["hand"] if c.field("symbol") == "skull"])
    return skulls >= 2 and env["seat"].field("score") < 3


EXPRESSIONS = [
    ('count(hand where symbol == "skull") >= 2 and seat.score < 3', "typical condition (brief)"),
    ("seat.score < 3", "one field comparison"),
    ('count(hand where "skull" in symbols)', "membership filter"),
    ("max(row select number)", "projection + max"),
    ("any(seats where score >= 3)", "any over filtered seats"),
    ("is_sorted(row select number) and seat.tokens + 1 <= 7", "sorted check + arithmetic"),
]


CLOCK: Callable[[], float] = time.perf_counter if "--wall" in sys.argv else time.process_time


def batch_seconds(fn: Callable[[], object], number: int) -> float:
    """Time of one call of fn, from one batch of `number` calls."""
    t0 = CLOCK()
    for _ in range(number):
        fn()
    return (CLOCK() - t0) / number


def median_seconds(fn: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Median time of one call of fn, over `repeat` batches of `number` calls."""
    return statistics.median([batch_seconds(fn, number) for _ in range(repeat)])


def interleaved(fns: list[Callable[[], object]], number: int, repeat: int) -> list[tuple[float, float]]:
    """(median, best) time of one call of each fn, over `repeat` rounds of one batch of each.

    Alternating the batches exposes every function to the same load, so their ratio holds on a
    busy machine even when the absolute figures drift; the best batch is the one least disturbed.
    """
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times):
            out.append(batch_seconds(fn, number))
    return [(statistics.median(t), min(t)) for t in times]


def _compile_uncached(source: str) -> object:
    return compile_checked(_parse_and_check(source), source)


def _parse_and_check(source: str) -> Checked:
    return check(parse_uncached(source), SCOPE, source=source)


def main() -> None:
    """Print parse / check / compile / evaluate timings for each sample expression."""
    if "-h" in sys.argv or "--help" in sys.argv:
        print(__doc__)
        return
    unknown = [a for a in sys.argv[1:] if a != "--wall"]
    if unknown:
        sys.exit(f"bench_expr.py: unknown option {unknown[0]} (the only option is --wall)")
    env = _env()
    parse("1")  # build the Lark tables once, outside the timings
    t0 = time.perf_counter()
    print(f"clock: {'wall time' if CLOCK is time.perf_counter else 'CPU time of this process'}")
    print(f"{'expression':42} {'parse':>9} {'check':>9} {'p+check':>9} {'p+c+comp':>9} {'eval':>9}")
    for source, label in EXPRESSIONS:
        node = parse(source)
        compiled = compile_expr(source, SCOPE)
        t_parse = median_seconds(partial(parse_uncached, source), 300)
        t_check = median_seconds(partial(check, node, SCOPE, source=source), 1000)
        t_pc = median_seconds(partial(_parse_and_check, source), 300)
        t_all = median_seconds(partial(_compile_uncached, source), 300)
        t_eval = median_seconds(partial(compiled, env), 20000)
        print(
            f"{label:42} {t_parse * 1e6:7.1f}µs {t_check * 1e6:7.1f}µs {t_pc * 1e6:7.1f}µs"
            f" {t_all * 1e6:7.1f}µs {t_eval * 1e6:7.2f}µs"
        )
    source = EXPRESSIONS[0][0]
    typical = compile_expr(source, SCOPE, expect=BOOL)
    assert typical(env) is _reference(env)
    (t_typ, b_typ), (t_ref, b_ref) = interleaved([partial(typical, env), partial(_reference, env)], 5000, 21)
    ((t_pc, b_pc),) = interleaved([partial(_parse_and_check, source)], 50, 21)
    loop = median_seconds(partial(_steps, 1000), 200) / 1000
    print(f"\ntypical condition: {source}")
    print("  (median of 21 batches; in brackets the best batch, the least disturbed by other programs)")
    print(f"  evaluate: {t_typ * 1e6:.2f} µs [{b_typ * 1e6:.2f}] (target < 2 µs)")
    print(
        f"  the same test hand-written in Python: {t_ref * 1e6:.2f} µs [{b_ref * 1e6:.2f}]"
        f" (compiled / hand = {t_typ / t_ref:.2f} [{b_typ / b_ref:.2f}])"
    )
    print(f"  parse + check: {t_pc * 1e6:.1f} µs [{b_pc * 1e6:.1f}] (target < 200 µs)")
    print(f"  machine: one list-comprehension step takes {loop * 1e9:.0f} ns")
    print(f"(total benchmark time {time.perf_counter() - t0:.1f} s)")


def _steps(n: int) -> list[None]:
    return [None for _ in range(n)]


if __name__ == "__main__":
    main()
