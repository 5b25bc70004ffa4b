"""The compiler's fast paths give exactly what the general closures give: values, errors, columns.

Each pair below is one condition written twice: first in a shape the compiler fuses into a single
closure (a literal compared with `name.field` or with a counted `where`, `any` of a `where`,
arithmetic with a literal), then rewritten so that the general closures run (`3 + 0` is not a
literal). Both forms are evaluated in good and in broken environments.
"""

from __future__ import annotations

from typing import Any

import pytest

from davinci.engine.errors import DavinciError, EvalError
from davinci.engine.expr import INT, STR, ListType, RecordType, compile_expr

CARD = RecordType("card", {"symbol": STR, "symbols": ListType(STR), "number": INT})
SEAT = RecordType("seat", {"score": INT, "tokens": INT})
SCOPE = {"hand": ListType(CARD), "seat": SEAT, "seats": ListType(SEAT)}


class Rec:
    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def field(self, name: str) -> Any:
        return self._fields[name]


class Refusing:
    """A record whose every field read fails the way the engine's records report a failure."""

    def field(self, name: str) -> Any:
        raise EvalError(f"no field {name} here")


def _card(symbol: Any, number: Any) -> Rec:
    return Rec(symbol=symbol, symbols=[symbol, "eye"], number=number)


GOOD_HAND = [_card("skull", 3), _card("eye", 5), _card("skull", 1)]
ENVS: list[dict[str, Any]] = [
    {
        "hand": GOOD_HAND,
        "seat": Rec(score=2, tokens=4),
        "seats": [Rec(score=2, tokens=4), Rec(score=5, tokens=1)],
    },
    {"hand": [], "seat": Rec(score=9, tokens=0), "seats": []},
    {"hand": None, "seat": None, "seats": None},
    {"hand": [3], "seat": Rec(score=None, tokens=None), "seats": [None]},
    {"hand": [_card(None, None)], "seat": Refusing(), "seats": [Refusing()]},
    {"hand": (_card("skull", 2),), "seat": Rec(score="2", tokens="x"), "seats": (Rec(score=3, tokens=0),)},
    {"hand": GOOD_HAND, "seat": None, "seats": [Rec(score=2, tokens=4)]},
    {"hand": GOOD_HAND, "seat": Rec(score=3, tokens=5), "seats": [Rec(score=3, tokens=1), Rec(score="3", tokens=1)]},
    {},
]

PAIRS = [
    ("seat.score < 3", "seat.score < 3 + 0"),
    ("seat.score == 9", "seat.score == 9 + 0"),
    ("seat.tokens != 0", "seat.tokens != 0 + 0"),
    ("seat.score >= -1", "seat.score >= -1 + 0"),
    ('count(hand where symbol == "skull") >= 2', 'count(hand where symbol == "skull") + 0 >= 2'),
    ("count(hand where number > 2) < 2", "count(hand where number > 2) + 0 < 2"),
    ('len(hand where "skull" in symbols) == 2', 'len(hand where "skull" in symbols) + 0 == 2'),
    ("any(seats where score >= 3)", "count(seats where score >= 3) + 0 >= 1"),
    ('any(hand where symbol != "eye")', 'count(hand where symbol != "eye") + 0 >= 1'),
    ("seat.tokens + 1 <= 7", "seat.tokens + (1 + 0) <= 7"),
    ("seat.tokens - 2", "seat.tokens - (2 + 0)"),
    ("seat.tokens * 3", "seat.tokens * (3 + 0)"),
    # A `where` over field tests joined by `and`, some against an expression that does not read
    # the element (computed once per query, when first needed); `(...) == true` defeats the fusion.
    (
        'count(hand where number > seat.score and symbol == "skull")',
        'count(hand where (number > seat.score) == true and (symbol == "skull") == true)',
    ),
    (
        'hand where symbol == "eye" and seat.tokens <= number',
        'hand where (symbol == "eye") == true and (seat.tokens <= number) == true',
    ),
    ('seats where score != seat.score', 'seats where (score != seat.score) == true'),
    (
        'count(hand where symbol == "none-such" and number > seat.score)',
        'count(hand where (symbol == "none-such") == true and (number > seat.score) == true)',
    ),
    (
        'count(hand where symbol == "skull") >= 2 and seat.score < 3',
        'count(hand where symbol == "skull") + 0 >= 2 and seat.score < 3 + 0',
    ),
]


def _outcome(source: str, env: dict[str, Any]) -> tuple[str, Any]:
    try:
        return ("value", compile_expr(source, SCOPE)(env))
    except DavinciError as exc:
        # The message ends with the expression and a caret; keep the reason and the column.
        location = exc.location
        return ("error", (exc.message.splitlines()[0], location.col if location else None))


@pytest.mark.parametrize(("fast", "general"), PAIRS)
def test_fast_path_gives_what_the_general_closures_give(fast: str, general: str) -> None:
    for env in ENVS:
        got, want = _outcome(fast, env), _outcome(general, env)
        if got[0] == "error" and want[0] == "error":
            # The general form is longer, so its columns may lie further right; the reason is the same.
            assert got[1][0] == want[1][0], (fast, env)
        else:
            assert got == want, (fast, env)


def test_fast_paths_fail_at_the_columns_of_the_general_closures() -> None:
    broken = {"hand": None, "seat": None, "seats": None}
    assert _outcome("seat.score < 3", broken) == ("error", ("cannot read field 'score' of none", 6))
    assert _outcome('count(hand where symbol == "x") >= 2', broken) == (
        "error",
        ("'where' needs a list, got none", 12),
    )
    assert _outcome("any(seats where score >= 3)", broken) == (
        "error",
        ("'where' needs a list, got none", 11),
    )


def _closure_names(fn: Any) -> set[str]:
    names = {fn.__name__}
    for cell in fn.__closure__ or ():
        inner = cell.cell_contents
        if callable(inner) and getattr(inner, "__closure__", None) is not None:
            names |= _closure_names(inner)
    return names


def test_field_tests_joined_by_and_are_one_loop_and_the_rewritten_forms_are_not() -> None:
    pairs = [p for p in PAIRS if "== true" in p[1]]
    assert len(pairs) == 4
    for fast, general in pairs:
        assert "where_terms" in _closure_names(compile_expr(fast, SCOPE)._fn), fast
        assert "where_terms" not in _closure_names(compile_expr(general, SCOPE)._fn), general
