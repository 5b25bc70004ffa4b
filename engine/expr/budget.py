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

# [units done since the process started, the level at which the evaluation in progress stops]
METER = [0, MAX_WORK]


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
