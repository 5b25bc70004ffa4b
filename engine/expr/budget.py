"""The work budget of rule expressions: a hostile or careless rule cannot run for hours.

Length, depth and integer size are capped when an expression is parsed, and `range()` makes at
most 10,000 numbers, but queries nest: three nested `where`s over `range(10000)` would visit
10**12 elements, and a text doubled in a loop reaches 2**60 characters in sixty steps.
Evaluation therefore counts its work: every list a query walks, a function receives or makes,
`in` searches, and every text or list `+` joins, adds its length to one meter. One evaluation may
do at most `MAX_WORK` units (an EvalError beyond that); the flow interpreter reads the same meter
to cap the work between two decisions.

The meter is a module-level list rather than state passed around: the compiled closures are the
hot path of every game, and one shared counter costs an addition per list, nothing per element.
"""

from __future__ import annotations

from davinci.engine.errors import EvalError

# Elements one evaluation may visit. The shipped games need a few hundred per evaluation; a
# million is a fraction of a second.
MAX_WORK = 1_000_000

# Units of work between two decisions of a game (the flow interpreter sets the ceiling).
DECISION_WORK = 5_000_000
_NO_CEILING = 1 << 62

# [units done since the process started, the level at which the evaluation in progress stops,
#  the level at which the flow's run to its next decision stops]
METER = [0, MAX_WORK, _NO_CEILING]


def start() -> None:
    """Give the evaluation that is starting a fresh allowance of MAX_WORK units."""
    METER[1] = METER[0] + MAX_WORK


def charge(units: int) -> None:
    """Count `units` of work; EvalError when the evaluation in progress goes over its allowance."""
    m = METER
    m[0] += units
    if m[0] > m[1]:
        raise EvalError(
            f"the expression does too much work (over {MAX_WORK:,} list elements or characters): "
            "nested queries over long lists, or text and lists that keep growing"
        )


def done() -> int:
    """Units of work done so far (callers compare two readings)."""
    return METER[0]


def decision_start() -> int:
    """Open the ceiling for one run of the flow to its next decision; returns the previous one,
    for `decision_end`."""
    previous = METER[2]
    METER[2] = METER[0] + DECISION_WORK
    return previous


def decision_end(previous: int) -> None:
    METER[2] = previous


def step_charge(units: int) -> None:
    """Count `units` of work done by a step itself (each combination a decision filters, each
    piece a `draw` tests), and stop a step that has gone past the ceiling of this run of the
    flow: one step may evaluate many expressions, each within its own allowance."""
    m = METER
    m[0] += units
    if m[0] > m[2]:
        raise ceiling_error()


def ceiling_error(loop_line: int | None = None) -> EvalError:
    """The error for a run of the flow past DECISION_WORK; `loop_line`: the `while` loop it was in."""
    why = (f": the 'while' loop at line {loop_line} kept going (its condition never turned false, or each pass "
           "costs too much)" if loop_line is not None else
           " (a loop in the game's YAML that never ends, or one over a costly query?)")
    return EvalError(
        f"the flow did over {DECISION_WORK:,} units of work (list elements its expressions visited, pieces it "
        f"moved, shuffled or turned, board spaces it walked) without asking for a decision{why}",
        code="DV043",
    )
