"""Hostile input gets a clean DavinciError quickly: no hang, no RecursionError, no huge integers."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from davinci.engine.errors import EvalError, ExprSyntaxError, ExprTypeError
from davinci.engine.expr import INT, MAX_SOURCE_CHARS, ListType, budget, compile_expr

SCOPE = {"x": INT, "xs": ListType(INT)}


def _quick(fn: Callable[[], object], seconds: float = 1.0) -> None:
    start = time.perf_counter()
    fn()
    assert time.perf_counter() - start < seconds


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        # The brief's sizes: rejected by the length cap before anything else looks at them.
        ("(" * 5000 + "1" + ")" * 5000, "too long"),
        ("not " * 5000 + "true", "too long"),
        # Under the length cap, the depth scans catch them.
        ("(" * 1900 + "1" + ")" * 1900, "brackets are nested too deeply"),
        ("[" * 1900 + "]" * 1900, "brackets are nested too deeply"),
        ("f(" * 1000 + ")" * 1000, "brackets are nested too deeply"),
        ("not " * 900 + "true", "too many operators in a row"),
        ("-" * 3000 + "1", "too many operators in a row"),
        ("- " * 1500 + "1", "too many operators in a row"),
        ("not -" * 500 + "x", "too many operators in a row"),
        ("1" + "+1" * 1999, "each operator of a chain such as 1 + 2 + 3 is one level"),  # (no brackets: say why)
        ("x " + "if true else x " * 200, "nested too deeply"),
        ("2" + " ** 2" * 700, "nested too deeply"),
        ("xs" + " where true" * 300, "nested too deeply"),
        ("-(" * 60 + "x" + ")" * 60 + " + 1" * 60, "nested too deeply"),
        ("1" * 5000, "too long"),
        ("x + " * 1100 + "x", "too long"),
        ("9" * 30, "integer literal is too large"),
    ],
)
def test_hostile_source_fails_cleanly_and_fast(source: str, fragment: str) -> None:
    def attempt() -> None:
        with pytest.raises(ExprSyntaxError) as info:
            compile_expr(source, SCOPE)
        assert fragment in info.value.message

    _quick(attempt)


def test_source_at_the_length_cap_is_accepted() -> None:
    source = "x" + " " * (MAX_SOURCE_CHARS - 1)
    assert compile_expr(source, SCOPE)({"x": 1}) == 1


@pytest.mark.parametrize(
    "source",
    [
        "x" + " " * (MAX_SOURCE_CHARS - 1),
        " " * (MAX_SOURCE_CHARS - 1) + "x",
        "x" + " " * 1998 + "+" + " " * 1999 + "x",
        "x" + "\n\t " * 1300,
    ],
)
def test_long_runs_of_white_space_are_scanned_quickly(source: str) -> None:
    compile_expr("x", SCOPE)  # the parser tables are built on first use, outside the timing
    _quick(lambda: compile_expr(source, SCOPE), seconds=0.2)


def test_white_space_alone_is_an_empty_expression() -> None:
    with pytest.raises(ExprSyntaxError, match="empty expression"):
        compile_expr(" " * (MAX_SOURCE_CHARS - 1), SCOPE)


def test_sixty_four_nested_parentheses_are_accepted() -> None:
    assert compile_expr("(" * 64 + "x" + ")" * 64, SCOPE)({"x": 3}) == 3


def test_long_flat_chain_within_limits_evaluates() -> None:
    source = "x" + " + x" * 90
    assert compile_expr(source, SCOPE)({"x": 1}) == 91


def test_long_comparison_chain_within_limits_evaluates() -> None:
    # A comparison chain is one node, however long.
    source = "x" + " <= x" * 90
    assert compile_expr(source, SCOPE)({"x": 1}) is True


def test_deep_expression_evaluates_with_little_stack_to_spare() -> None:
    compiled = compile_expr("(" * 30 + "x" + " + 1)" * 30, SCOPE)

    def nest(depth: int) -> object:
        return compiled({"x": 0}) if depth == 0 else nest(depth - 1)

    assert nest(600) == 30


@pytest.mark.parametrize(
    "source",
    ["9 ** 9 ** 9 ** 9", "2 ** 64", "x ** 1000000000", "(2 ** 62) * 4", "-(2 ** 63) - 2 ** 63"],
)
def test_integer_growth_is_capped_instantly(source: str) -> None:
    compiled = compile_expr(source, SCOPE)

    def attempt() -> None:
        with pytest.raises(EvalError, match="out of range"):
            compiled({"x": 7})

    _quick(attempt, 0.2)


def test_powers_within_the_cap_are_exact() -> None:
    assert compile_expr("(-2) ** 63", SCOPE)({}) == -(2**63)
    assert compile_expr("x ** 0", SCOPE)({"x": 0}) == 1
    assert compile_expr("1 ** 1000000", SCOPE)({}) == 1
    assert compile_expr("(-1) ** 1000001", SCOPE)({}) == -1


@pytest.mark.parametrize(
    "source",
    ['__import__("os").system("x")', "open('f')", "eval('1')", "exec('1')", "getattr(x, 'y')", "x.__class__"],
)
def test_python_names_and_attributes_are_clean_errors(source: str) -> None:
    with pytest.raises((ExprSyntaxError, ExprTypeError)):
        compile_expr(source, SCOPE)


@pytest.mark.parametrize(
    ("source", "units"),
    [
        ("sorted(xs)", 5 + 5),  # the list it receives and the list it returns
        ("max(xs)", 5),
        ("count(xs, 3)", 5),
        ("max(xs select it + 1)", 5 + 5),  # the select walks xs; max receives its result
    ],
)
def test_calls_count_their_lists_against_the_work_budget(source: str, units: int) -> None:
    compiled = compile_expr(source, SCOPE)
    before = budget.METER[0]
    compiled({"xs": [4, 1, 3, 5, 2]})
    assert budget.METER[0] - before == units


def test_a_call_over_the_work_budget_is_an_eval_error_at_the_call() -> None:
    compiled = compile_expr("sum(range(10000) select sum(range(10000)))", SCOPE)

    def attempt() -> None:
        with pytest.raises(EvalError, match="too much work") as info:
            compiled({})
        assert info.value.location is not None and info.value.location.col == 29

    _quick(attempt)


def test_comparing_long_texts_counts_their_length_as_work() -> None:
    # 168,000 comparisons of two 500,000-character texts in one expression took minutes, each
    # comparison free of charge.
    from davinci.engine.expr import STR

    env = {"s": "x" * 500_000, "t": "x" * 500_000 + "y"}
    assert compile_expr("s < t", {"s": STR, "t": STR})(env) is True  # one is within the allowance
    with pytest.raises(EvalError, match="does too much work"):
        compile_expr("[s < t, s < t, s == t]", {"s": STR, "t": STR})(env)
    assert compile_expr("[s < 'y', s == 'x']", {"s": STR})(env) == (True, False)  # against a short text: free


def test_text_of_a_huge_list_stops_at_the_work_budget(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # text() of ten thousand copies of a 500,000-character text built 5 GB.
    from davinci.engine.functions import _text

    budget.start()
    with pytest.raises(EvalError, match="does too much work"):
        _text(("y" * 500_000,) * 10_000)


def test_distinct_of_values_that_cannot_be_hashed_pays_for_each_comparison() -> None:
    # Records compare pairwise: 1,500 of them are about a million comparisons, charged as work.
    from davinci.engine.expr.functions import _distinct

    budget.start()
    with pytest.raises(EvalError, match="work"):
        _distinct([{"a": i} for i in range(1500)])  # (dicts stand for records: unhashable)
    budget.start()
    assert _distinct([{"a": 1}, {"a": 1}, {"a": 2}]) == ({"a": 1}, {"a": 2})
