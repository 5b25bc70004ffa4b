"""The function library: the `Function` description, the immutable registry and the built-ins.

Functions are pure: an implementation receives the evaluated arguments and nothing else. A type
rule (`returns` as a callable) computes the result type from the argument types at check time and
may raise `ExprTypeError` (without a location; the checker adds it). An implementation reports a
runtime failure by raising `EvalError` (also without a location).
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from davinci.engine.errors import EvalError, ExprTypeError
from davinci.engine.expr.budget import charge
from davinci.engine.expr.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    STR,
    ListType,
    Type,
    Value,
    describe,
    is_orderable,
    join,
)

MAX_INT = 2**63
MAX_RANGE = 10_000

TypeRule = Callable[[list[Type]], Type]
_T = TypeVar("_T")


@dataclass(frozen=True)
class Function:
    """A library function an expression may call by name.

    `params` are the positional parameter types (ANY accepts anything). Without `min_args` /
    `max_args` the function takes exactly `len(params)` arguments; with `variadic` it takes any
    number from `min_args` on, extra arguments having the last parameter's type.
    """

    name: str
    doc: str
    examples: tuple[str, ...]
    params: tuple[Type, ...]
    returns: Type | TypeRule
    impl: Callable[..., Value]
    min_args: int | None = None
    max_args: int | None = None
    variadic: bool = False
    with_env: bool = False  # `impl(env, *args)`: a game's own function (`define`), evaluated in the state
    # (record type, its fields allowed, i, j): argument i, written as a text, names one of those
    # fields, and argument j, a text, must be a value the field can hold (`lines(grid, 5,
    # "colour", "blak")` never counts).
    field_args: tuple[Any, frozenset[str], int, int] | None = None

    @property
    def arity_min(self) -> int:
        """The least number of arguments accepted."""
        return len(self.params) if self.min_args is None else self.min_args

    @property
    def arity_max(self) -> int | None:
        """The most arguments accepted, or None when there is no limit."""
        if self.variadic:
            return None
        return len(self.params) if self.max_args is None else self.max_args

    def param_type(self, index: int) -> Type:
        """The declared type of the argument at `index`."""
        if not self.params:
            return ANY
        return self.params[min(index, len(self.params) - 1)]

    def result_type(self, arg_types: list[Type]) -> Type:
        """The result type for these argument types (may raise ExprTypeError)."""
        if isinstance(self.returns, Type):
            return self.returns
        return self.returns(arg_types)

    def signature(self) -> str:
        """A human-readable signature such as `max(list[any], ...)`."""
        parts = [p.name for p in self.params]
        if self.min_args is not None and self.min_args < len(parts):
            parts = parts[: self.min_args] + [f"[{p}]" for p in parts[self.min_args :]]
        if self.variadic:
            parts.append("...")
        ret = self.returns.name if isinstance(self.returns, Type) else "depends on arguments"
        return f"{self.name}({', '.join(parts)}) -> {ret}"


class FunctionLibrary(Mapping[str, Function]):
    """An immutable name → Function table; `extend` returns a new library."""

    def __init__(self, functions: Iterable[Function] = ()) -> None:
        table: dict[str, Function] = {}
        for fn in functions:
            table[fn.name] = fn
        self._table = table

    def __getitem__(self, name: str) -> Function:
        return self._table[name]

    @overload
    def get(self, name: str, /) -> Function | None: ...

    @overload
    def get(self, name: str, /, default: Function | _T) -> Function | _T: ...

    def get(self, name: str, /, default: Any = None) -> Any:
        """The function called `name`, or `default` (one dictionary lookup: checking calls it often)."""
        return self._table.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def extend(self, functions: Iterable[Function]) -> FunctionLibrary:
        """A new library with these functions added (a function of the same name is replaced)."""
        return FunctionLibrary([*self._table.values(), *functions])

    def suggest(self, name: str) -> str | None:
        """The closest known function name, for did-you-mean messages."""
        close = difflib.get_close_matches(name, list(self._table), n=1, cutoff=0.6)
        return close[0] if close else None


# --------------------------------------------------------------------------- type rules


def _list_elem(t: Type, fname: str) -> Type:
    if t is ANY:
        return ANY
    if isinstance(t, ListType):
        return t.elem
    raise ExprTypeError(f"{fname}() expects a list, got {describe(t)}")


def _same_list(fname: str) -> TypeRule:
    def rule(args: list[Type]) -> Type:
        elem = _list_elem(args[0], fname)
        return ListType(elem)

    return rule


def _orderable_list(fname: str) -> TypeRule:
    def rule(args: list[Type]) -> Type:
        elem = _list_elem(args[0], fname)
        if not is_orderable(elem):
            raise ExprTypeError(f"{fname}() needs a list of int or str, got {describe(args[0])}")
        return ListType(elem)

    return rule


def _extreme_rule(fname: str) -> TypeRule:
    def rule(args: list[Type]) -> Type:
        if len(args) == 1:
            elem = _list_elem(args[0], fname)
            if not is_orderable(elem):
                raise ExprTypeError(
                    f"{fname}() needs a list of int or str, got {describe(args[0])} "
                    f"(use 'select' to pick a field, e.g. {fname}(row select number))"
                )
            return elem
        common: Type | None = args[0]
        for t in args[1:]:
            common = join(common, t) if common is not None else None
        if common is None or not is_orderable(common):
            names = ", ".join(t.name for t in args)
            raise ExprTypeError(f"{fname}() needs int or str arguments of one type, got {names}")
        return common

    return rule


def _elem_rule(fname: str) -> TypeRule:
    def rule(args: list[Type]) -> Type:
        return _list_elem(args[0], fname)

    return rule


def _len_rule(args: list[Type]) -> Type:
    t = args[0]
    if t is ANY or t is STR or isinstance(t, ListType):
        return INT
    raise ExprTypeError(f"len() expects a list or a str, got {describe(t)}")


def _contains_rule(args: list[Type]) -> Type:
    container, item = args
    if container is STR:
        if item not in (STR, ANY):
            raise ExprTypeError(f"contains() on a str looks for a str, got {describe(item)}")
        return BOOL
    elem = _list_elem(container, "contains")
    if item is not NONE and join(elem, item) is None:
        raise ExprTypeError(
            f"contains() looks for {describe(elem)} in {describe(container)}, got {describe(item)}"
        )
    return BOOL


def _count_rule(args: list[Type], fname: str = "count") -> Type:
    elem = _list_elem(args[0], fname)
    if len(args) == 2 and args[1] is not NONE and join(elem, args[1]) is None:
        raise ExprTypeError(
            f"{fname}() looks for {describe(elem)} in {describe(args[0])}, got {describe(args[1])}"
        )
    return INT


def _index_of_rule(args: list[Type]) -> Type:
    return _count_rule(args, "index_of")


def _truth_rule(fname: str) -> TypeRule:
    def rule(args: list[Type]) -> Type:
        _list_elem(args[0], fname)
        return BOOL

    return rule


def _flatten_rule(args: list[Type]) -> Type:
    elem = _list_elem(args[0], "flatten")
    if elem is ANY:
        return ListType(ANY)
    if isinstance(elem, ListType):
        return elem
    raise ExprTypeError(f"flatten() expects a list of lists, got {describe(args[0])}")


def _coalesce_rule(args: list[Type]) -> Type:
    common: Type | None = args[0]
    for t in args[1:]:
        common = join(common, t) if common is not None else None
    if common is None:
        raise ExprTypeError("coalesce() needs arguments of one type, got " + ", ".join(t.name for t in args))
    return common


# --------------------------------------------------------------------------- implementations


def _checked(n: int) -> int:
    if -MAX_INT <= n <= MAX_INT:
        return n
    raise EvalError(f"integer result is out of range (the rules count from -{MAX_INT} to {MAX_INT})")


def _need_items(xs: Sequence[Value], fname: str) -> None:
    if len(xs) == 0:
        raise EvalError(f"{fname}() of an empty list")


_MISSING: Any = object()


def _count(xs: Sequence[Value], value: Value = _MISSING) -> int:
    if value is _MISSING:
        return len(xs)
    return sum(1 for x in xs if same_value(x, value))


def same_value(a: Value, b: Value) -> bool:
    """Equality that treats engine lists and expression tuples with the same items as equal."""
    # Engine lists may be Python lists while expression lists are tuples; compare them as sequences.
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return False
        charge(len(a))  # comparing two long lists walks them
        return all(same_value(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _sum(xs: Sequence[int]) -> int:
    return _checked(sum(xs))


def _min(*args: Value) -> Value:
    xs = args[0] if len(args) == 1 else args
    _need_items(xs, "min")
    try:
        return min(xs)
    except TypeError:
        raise EvalError("min() of values that cannot be ordered together") from None


def _max(*args: Value) -> Value:
    xs = args[0] if len(args) == 1 else args
    _need_items(xs, "max")
    try:
        return max(xs)
    except TypeError:
        raise EvalError("max() of values that cannot be ordered together") from None


# Plain loops: on a game's short lists a generator expression costs more than the work it does.
def _any(xs: Sequence[Value]) -> bool:
    for x in xs:
        if x is not False and x is not None:
            return True
    return False


def _all(xs: Sequence[Value]) -> bool:
    for x in xs:
        if x is False or x is None:
            return False
    return True


def _freeze(x: Value) -> Value:
    if isinstance(x, list | tuple):
        return tuple(_freeze(v) for v in x)
    return x


def _distinct(xs: Sequence[Value]) -> tuple[Value, ...]:
    try:
        return tuple(dict.fromkeys(_freeze(x) for x in xs))
    except TypeError:
        # Unhashable engine values: fall back to pairwise comparison, still keeping first-seen order.
        # Each comparison is work: a long list of records costs its square, and is charged so.
        out: list[Value] = []
        for x in xs:
            charge(len(out))
            if not any(same_value(x, y) for y in out):
                out.append(x)
        return tuple(out)


def _sorted(xs: Sequence[Value]) -> tuple[Value, ...]:
    try:
        return tuple(sorted(xs))
    except TypeError:
        raise EvalError("sorted() of values that cannot be ordered together") from None


def _is_sorted(xs: Sequence[Value]) -> bool:
    try:
        for i in range(1, len(xs)):
            if not xs[i - 1] <= xs[i]:
                return False
        return True
    except TypeError:
        raise EvalError("is_sorted() of values that cannot be ordered together") from None


def _first(xs: Sequence[Value]) -> Value:
    _need_items(xs, "first")
    return xs[0]


def _last(xs: Sequence[Value]) -> Value:
    _need_items(xs, "last")
    return xs[-1]


def _len(x: Sequence[Value] | str) -> int:
    return len(x)


def _contains(container: Sequence[Value] | str, item: Value) -> bool:
    if isinstance(container, str):
        return item in container
    return any(same_value(x, item) for x in container)


def _index_of(xs: Sequence[Value], item: Value) -> int:
    for i, x in enumerate(xs):
        if same_value(x, item):
            return i
    return -1


def _range(a: int, *b: int) -> tuple[int, ...]:
    lo, hi = (0, a) if not b else (a, b[0])
    if hi - lo > MAX_RANGE:
        raise EvalError(f"range() of more than {MAX_RANGE} numbers")
    return tuple(range(lo, hi))


def _flatten(xs: Sequence[Sequence[Value]]) -> tuple[Value, ...]:
    return tuple(itertools.chain.from_iterable(xs))


def _clamp(x: int, lo: int, hi: int) -> int:
    if lo > hi:
        raise EvalError(f"clamp() with lower bound {lo} above upper bound {hi}")
    return max(lo, min(x, hi))


def _coalesce(*args: Value) -> Value:
    for a in args:
        if a is not None:
            return a
    return None


LIST = ListType(ANY)

BUILTINS = FunctionLibrary(
    [
        Function(
            "count",
            "Number of elements of a list; with a second argument, how many elements equal it.",
            ('count(hand where symbol == "star")', 'count(row select colour, "black")'),
            (LIST, ANY),
            _count_rule,
            _count,
            min_args=1,
        ),
        Function(
            "len",
            "Length of a list or of a str.",
            ("len(row)", 'len("quill")'),
            (ANY,),
            _len_rule,
            _len,
        ),
        Function(
            "sum",
            "Sum of a list of int (0 for an empty list).",
            ("sum(seats select tokens)",),
            (ListType(INT),),
            INT,
            _sum,
        ),
        Function(
            "min",
            "Smallest element of a list of int or str, or smallest of several arguments; "
            "an empty list is an error.",
            ("min(row select number)", "min(seat.tokens, 3)"),
            (ANY,),
            _extreme_rule("min"),
            _min,
            min_args=1,
            variadic=True,
        ),
        Function(
            "max",
            "Largest element of a list of int or str, or largest of several arguments; "
            "an empty list is an error.",
            ("max(row select number)", "max(0, seat.score - 2)"),
            (ANY,),
            _extreme_rule("max"),
            _max,
            min_args=1,
            variadic=True,
        ),
        Function(
            "any",
            "True when some element is true; elements other than booleans count as true unless "
            "they are none, so any(list) also means 'the list is not empty'.",
            ("any(seats where score >= 3)", "any(row select revealed)"),
            (LIST,),
            _truth_rule("any"),
            _any,
        ),
        Function(
            "all",
            "True when no element is false or none (true for an empty list).",
            ("all(row select revealed)",),
            (LIST,),
            _truth_rule("all"),
            _all,
        ),
        Function(
            "distinct",
            "The list without repeated elements, keeping the first of each in order.",
            ("distinct(hand select colour)",),
            (LIST,),
            _same_list("distinct"),
            _distinct,
        ),
        Function(
            "abs",
            "Absolute value of an int.",
            ("abs(seat.position - 5)",),
            (INT,),
            INT,
            abs,
        ),
        Function(
            "sorted",
            "The list of int or str in ascending order.",
            ("sorted(row select number)",),
            (LIST,),
            _orderable_list("sorted"),
            _sorted,
        ),
        Function(
            "is_sorted",
            "True when each element of a list of int or str is no greater than the next.",
            ("is_sorted(row select number)",),
            (LIST,),
            lambda args: (_orderable_list("is_sorted")(args), BOOL)[1],
            _is_sorted,
        ),
        Function(
            "reversed",
            "The list in reverse order.",
            ("first(reversed(row))",),
            (LIST,),
            _same_list("reversed"),
            lambda xs: tuple(reversed(xs)),
        ),
        Function(
            "first",
            "First element of a list; an empty list is an error.",
            ("first(row).number",),
            (LIST,),
            _elem_rule("first"),
            _first,
        ),
        Function(
            "last",
            "Last element of a list; an empty list is an error.",
            ("last(row).number",),
            (LIST,),
            _elem_rule("last"),
            _last,
        ),
        Function(
            "contains",
            "True when the list has an element equal to the value (or the str contains the str); "
            "the same as `value in container`.",
            ('contains(card.symbols, "star")',),
            (ANY, ANY),
            _contains_rule,
            _contains,
        ),
        Function(
            "index_of",
            "Position (from 0) of the first element equal to the value, or -1.",
            ("index_of(row select number, 7)",),
            (LIST, ANY),
            _index_of_rule,
            _index_of,
        ),
        Function(
            "range",
            f"range(n) is [0, 1, ..., n-1]; range(a, b) is [a, ..., b-1]; at most {MAX_RANGE} numbers.",
            ("range(5)", "range(1, 7)"),
            (INT, INT),
            ListType(INT),
            _range,
            min_args=1,
        ),
        Function(
            "flatten",
            "Joins a list of lists into one list.",
            ("flatten(seats select hand)",),
            (ListType(LIST),),
            _flatten_rule,
            _flatten,
        ),
        Function(
            "clamp",
            "The int limited to the range lo..hi.",
            ("clamp(seat.tokens + 2, 0, 7)",),
            (INT, INT, INT),
            INT,
            _clamp,
        ),
        Function(
            "coalesce",
            "The first argument that is not none (none if all are).",
            ("coalesce(seat.bid, 0)",),
            (ANY,),
            _coalesce_rule,
            _coalesce,
            min_args=1,
            variadic=True,
        ),
    ]
)
