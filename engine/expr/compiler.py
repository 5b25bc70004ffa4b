"""Compilation: a checked AST becomes nested Python closures, specialised on the static types.

Every closure has the signature `f(env, elems)`: `env` is the evaluation environment (a mapping of
names to values) and `elems` the elements bound by enclosing where/select, as a linked tuple
`(innermost, (outer, (...)))`, or `()` at top level. Types were proven by the checker, so the
closures do no type dispatch; the few checks left are the ones only values can answer (division by
zero, integer size, empty lists, values the engine left as none).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from davinci.engine.errors import EvalError
from davinci.engine.expr.budget import MAX_WORK, charge
from davinci.engine.expr.budget import METER as _METER
from davinci.engine.expr.checker import Checked, ElemRef, ScopeRef, check
from davinci.engine.expr.functions import BUILTINS, FunctionLibrary, same_value
from davinci.engine.expr.parser import (
    BinOp,
    BoolLit,
    BoolOp,
    Call,
    Compare,
    Field,
    IfElse,
    Index,
    IntLit,
    ListLit,
    Locator,
    Name,
    Node,
    NoneLit,
    Select,
    StrLit,
    Unary,
    Where,
    children,
    default_locator,
    located_message,
    parse,
)
from davinci.engine.expr.types import ANY, BOOL, INT, STR, ListType, Record, Scope, Type, Value

Env: TypeAlias = Mapping[str, Value]
Fn: TypeAlias = Callable[[Env, Any], Value]

MAX_INT = 2**63
_NO_CONST = object()

# A where-condition comparing one element field with a literal: the field, a two-argument test,
# the literal, whether the literal is the test's first argument, and whether to negate the test.
_ElemTest: TypeAlias = tuple[str, Callable[[Any, Any], Any], Any, bool, bool]
# One test of a `where` condition made of field tests: field, its column, operator, constant first, negated,
# then the loop-invariant expression compared with (None for a literal) and the literal.
_Term: TypeAlias = tuple[str, int, Callable[[Any, Any], Any], bool, bool, Any, Any]
_ORDERED_OR_EQUAL = ("==", "!=", "<", "<=", ">", ">=")
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _plain(t: Type) -> bool:
    """Types whose Python comparison is the language's (no lists to normalise, no `any`)."""
    if isinstance(t, ListType):
        return _plain(t.elem) and not isinstance(t.elem, ListType)
    return t is not ANY


class _Fail(Exception):
    """A runtime failure inside the closures; `Compiled.__call__` turns it into a located EvalError."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


# Work units one use of a game's definition costs (as many as a query over 20 elements).
DEFINITION_WORK = 20


class Compiled:
    """A checked, compiled expression. Call it with an environment to evaluate it."""

    __slots__ = ("source", "type", "node", "names", "_fn", "_locate")

    def __init__(self, source: str, type_: Type, node: Node, names: frozenset[str], fn: Fn, locate: Locator):
        self.source = source
        self.type = type_
        self.node = node
        self.names = names
        self._fn = fn
        self._locate = locate

    def __repr__(self) -> str:
        return f"Compiled({self.source!r}: {self.type})"

    def __call__(self, env: Env) -> Value:
        """Evaluate; failures raise EvalError showing the expression and pointing at the culprit."""
        _METER[1] = _METER[0] + MAX_WORK  # a fresh work allowance (budget.start, inlined)
        try:
            return self._fn(env, ())
        except (_Fail, EvalError, KeyError, TypeError, AttributeError, ValueError, IndexError, ZeroDivisionError,
                OverflowError) as exc:
            raise self._located(exc) from None

    def inner(self, env: Env) -> Value:
        """Evaluate inside another expression's evaluation (a name or function the game defines):
        each use counts DEFINITION_WORK units against the outer expression's allowance (a chain of
        definitions each using the next twice would otherwise take forever), and failures are
        located here, in the definition."""
        meter = _METER
        meter[0] += DEFINITION_WORK
        if meter[0] > meter[1]:
            charge(0)
        try:
            return self._fn(env, ())
        except (_Fail, EvalError, KeyError, TypeError, AttributeError, ValueError, IndexError, ZeroDivisionError,
                OverflowError) as exc:
            raise self._located(exc) from None

    def _located(self, exc: Exception) -> EvalError:
        """A failure during evaluation as an EvalError located in this expression (one located
        already, in a definition it used, is kept as it is)."""
        if isinstance(exc, _Fail):
            return self._error(exc.reason, exc.offset)
        if isinstance(exc, EvalError):
            return exc if exc.location is not None else self._error(exc.message, 0)
        if isinstance(exc, KeyError):
            return self._error(f"no value for {exc.args[0]!r} while evaluating", 0)
        # Only reachable when the environment breaks its declared types (a value the scope
        # called an int is a str, say); report it as an evaluation error all the same.
        return self._error(f"evaluation failed: {_in_words(exc)}", 0)

    def error(self, reason: str) -> EvalError:
        """An evaluation error about this expression's value, located at it and showing it."""
        return self._error(reason, 0)

    def _error(self, reason: str, offset: int) -> EvalError:
        return EvalError(located_message(reason, self.source, offset), self._locate(offset))


def _failed(name: str, exc: TypeError) -> str:
    """A function's TypeError in the rules' words: `none` met among numbers is said as such (a
    field some items lack), not as Python's "unsupported operand type(s) for +: 'int' and 'NoneType'"."""
    text = str(exc)
    if "NoneType" in text:
        return f"{name}() met none among its values (a field some items lack, or a variable not set?)"
    return f"{name}() failed: {text}"


_TYPE_WORDS = {"NoneType": "none", "tuple": "list", "PieceV": "piece", "SeatV": "seat", "CellV": "cell",
               "SpaceV": "space", "ZoneV": "zone", "StructV": "record"}
_OPERANDS = re.compile(r"unsupported operand type\(s\) for (.+?): '(\w+)' and '(\w+)'")
_COMPARE = re.compile(r"'(.+?)' not supported between instances of '(\w+)' and '(\w+)'")


def _in_words(exc: Exception) -> str:
    """Python's wording of a failed operation, in the expression language's words."""
    msg = str(exc)

    def word(t: str) -> str:
        return _TYPE_WORDS.get(t, t)

    m = _OPERANDS.fullmatch(msg)
    if m:
        return f"cannot apply {m[1]} to {word(m[2])} and {word(m[3])}"
    m = _COMPARE.fullmatch(msg)
    if m:
        return f"cannot compare {word(m[2])} with {word(m[3])} using {m[1]}"
    return re.sub(r"'(NoneType|tuple|PieceV|SeatV|CellV|SpaceV|ZoneV|StructV)'", lambda t: f"'{word(t[1])}'", msg)


def _constant(node: Node) -> Any:
    if isinstance(node, IntLit | StrLit | BoolLit):
        return node.value
    if isinstance(node, NoneLit):
        return None
    if isinstance(node, Unary) and node.op == "-" and isinstance(node.operand, IntLit):
        return -node.operand.value
    return _NO_CONST


def _overflow(pos: int) -> _Fail:
    return _Fail(f"integer result is out of range (the rules count from -{MAX_INT} to {MAX_INT})", pos)


def _as_list(v: Value, pos: int, what: str) -> Any:
    if isinstance(v, list | tuple):
        _METER[0] += len(v)
        if _METER[0] > _METER[1]:
            charge(0)  # raises the work-budget error
        return v
    if v is None:
        raise _Fail(f"{what} needs a list, got none", pos)
    raise _Fail(f"{what} needs a list, got {type(v).__name__}", pos)


def _query_source(env: Env, el: Any, key: str | None, source: Fn, pos: int) -> Any:
    """The list a `where` filters (a name read directly when `key` names it), charged as work."""
    xs = env[key] if key is not None else source(env, el)
    if xs.__class__ is not tuple and xs.__class__ is not list:
        return _as_list(xs, pos, "'where'")
    _METER[0] += len(xs)
    if _METER[0] > _METER[1]:
        raise _Fail(_budget_message(), pos)
    return xs


def _refail(exc: EvalError, pos: int) -> Exception:
    """A function's or field's failure as a failure at `pos` of this expression; one located
    already (in a definition the function used, at any depth) keeps its place: the chain
    `outer` -> `middle` -> `inner` was reported at outer's first line with inner's excerpt."""
    return exc if exc.location is not None else _Fail(exc.message, pos)


def _budget_message() -> str:
    try:
        charge(0)
    except EvalError as exc:
        message: str = exc.message
        return message
    return "the expression does too much work"  # pragma: no cover


def _charged(impl: Callable[..., Value]) -> Callable[..., Value]:
    """`impl` counting the lists it receives and returns against the work budget."""
    meter = _METER

    # `charge` inlined: the call is only made to raise the budget error.
    def run(*args: Value) -> Value:
        for a in args:
            if a.__class__ is tuple or a.__class__ is list:
                meter[0] += len(a)
                if meter[0] > meter[1]:
                    charge(0)
        out = impl(*args)
        if out.__class__ is tuple or out.__class__ is list:
            meter[0] += len(out)
            if meter[0] > meter[1]:
                charge(0)
        return out

    return run


class _Compiler:
    def __init__(self, checked: Checked) -> None:
        self.checked = checked

    def type_of(self, node: Node) -> Type:
        return self.checked.types[id(node)]

    def compile(self, node: Node) -> Fn:
        const = _constant(node)
        if const is not _NO_CONST:
            return lambda env, el: const
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, ListLit):
            return self.list_lit(node)
        if isinstance(node, Field):
            return self.field(node)
        if isinstance(node, Index):
            return self.index(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            return self.unary(node)
        if isinstance(node, BinOp):
            return self.binop(node)
        if isinstance(node, BoolOp):
            return self.boolop(node)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, IfElse):
            then, cond, orelse = self.compile(node.then), self.compile(node.cond), self.compile(node.orelse)
            return lambda env, el: then(env, el) if cond(env, el) else orelse(env, el)
        if isinstance(node, Where):
            return self.where(node)
        if isinstance(node, Select):
            return self.select(node)
        raise AssertionError(f"cannot compile {node!r}")  # pragma: no cover

    # ----------------------------------------------------------------- names and fields

    def name(self, node: Name) -> Fn:
        binding = self.checked.bindings[id(node)]
        if isinstance(binding, ScopeRef):
            key = binding.name
            return lambda env, el: env[key]
        assert isinstance(binding, ElemRef)
        depth, fname, pos = binding.depth, binding.field, node.pos
        if fname is None:
            if depth == 0:
                return lambda env, el: el[0]
            return lambda env, el: _outer(el, depth)
        if depth == 0:

            def elem_field(env: Env, el: Any) -> Value:
                try:
                    return el[0].field(fname)
                except AttributeError:
                    raise _no_field(el[0], fname, pos) from None
                except EvalError as exc:
                    raise _refail(exc, pos) from None

            return elem_field

        def outer_field(env: Env, el: Any) -> Value:
            elem = _outer(el, depth)
            try:
                return elem.field(fname)
            except AttributeError:
                raise _no_field(elem, fname, pos) from None
            except EvalError as exc:
                raise _refail(exc, pos) from None

        return outer_field

    def field(self, node: Field) -> Fn:
        obj = self.compile(node.obj)
        name, pos = node.name, node.pos
        if isinstance(self.type_of(node.obj), ListType):

            def mapped(env: Env, el: Any) -> Value:
                out = []
                try:
                    for x in _as_list(obj(env, el), pos, f"'.{name}'"):
                        out.append(x.field(name))
                except AttributeError:
                    raise _Fail(
                        f"cannot read field '{name}' of an element that is not a record", pos
                    ) from None
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                return tuple(out)

            return mapped

        binding = self.checked.bindings.get(id(node.obj)) if isinstance(node.obj, Name) else None
        if isinstance(binding, ScopeRef):
            # `seat.score`: read the name and the field in one step.
            key = binding.name

            def read_named(env: Env, el: Any) -> Value:
                value = env[key]
                try:
                    return value.field(name)
                except AttributeError:
                    raise _no_field(value, name, pos) from None
                except EvalError as exc:
                    raise _refail(exc, pos) from None

            return read_named

        def read(env: Env, el: Any) -> Value:
            value = obj(env, el)
            try:
                return value.field(name)
            except AttributeError:
                raise _no_field(value, name, pos) from None
            except EvalError as exc:
                raise _refail(exc, pos) from None

        return read

    def index(self, node: Index) -> Fn:
        obj, idx, pos = self.compile(node.obj), self.compile(node.index), node.pos

        def at(env: Env, el: Any) -> Value:
            seq = obj(env, el)
            i = idx(env, el)
            try:
                return seq[i]
            except IndexError:
                what = f"a text of {len(seq)} characters" if isinstance(seq, str) else f"a list of {len(seq)}"
                raise _Fail(f"index {i} is outside {what}", pos) from None
            except TypeError:
                raise _Fail(f"cannot index {type(seq).__name__} with {type(i).__name__}", pos) from None

        return at

    def list_lit(self, node: ListLit) -> Fn:
        consts = [_constant(item) for item in node.items]
        if all(c is not _NO_CONST for c in consts):
            value = tuple(consts)
            return lambda env, el: value
        items = [self.compile(item) for item in node.items]
        return lambda env, el: tuple([f(env, el) for f in items])

    # ----------------------------------------------------------------- calls

    def call(self, node: Call) -> Fn:
        fn = self.checked.calls[id(node)]
        impl, pos, name = fn.impl, node.pos, fn.name
        if fn.with_env:  # a function the game defines: evaluated with the state's names
            args = [self.compile(a) for a in node.args]

            def call_defined(env: Env, el: Any) -> Value:
                try:
                    return impl(env, *[a(env, el) for a in args])
                except EvalError as exc:
                    if exc.location is not None:  # located in the definition already
                        raise
                    raise _Fail(exc.message, pos) from None

            return call_defined
        if self._is_builtin_count(node):
            # The commonest call of all; its argument is known to be a list (or a str for len).
            if isinstance(node.args[0], Where):
                return self.where(node.args[0], counting=True)
            a0 = self.compile(node.args[0])
            return lambda env, el: len(a0(env, el))
        if name == "any" and fn is BUILTINS.get(name) and isinstance(node.args[0], Where):
            # Every element a where-test kept is a record (it had a field), so it is true:
            # `any(xs where test)` is whether the count is at least one.
            where = node.args[0]
            test = self._elem_test(where.cond)
            if test is not None:
                return self._where_fused(where, self.compile(where.source), test, True, (operator.ge, 1))
        args = [self.compile(a) for a in node.args]
        charged = any(isinstance(self.type_of(a), ListType) for a in node.args) or isinstance(
            self.type_of(node), ListType
        )
        if charged and len(args) == 1:
            # max(row select number) and the like: the work budget counted in this closure, as
            # `_charged` would count it, without a wrapper call around `impl`.
            (a0,) = args
            meter = _METER

            def call1_charged(env: Env, el: Any) -> Value:
                try:
                    a = a0(env, el)
                    if a.__class__ is tuple or a.__class__ is list:
                        meter[0] += len(a)
                        if meter[0] > meter[1]:
                            charge(0)
                    out = impl(a)
                    if out.__class__ is tuple or out.__class__ is list:
                        meter[0] += len(out)
                        if meter[0] > meter[1]:
                            charge(0)
                    return out
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                except TypeError as exc:
                    raise _Fail(_failed(name, exc), pos) from None

            return call1_charged
        if charged:
            impl = _charged(impl)
        if len(args) == 1:
            (a0,) = args

            def call1(env: Env, el: Any) -> Value:
                try:
                    return impl(a0(env, el))
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                except TypeError as exc:
                    raise _Fail(_failed(name, exc), pos) from None

            return call1
        if len(args) == 2:
            a0, a1 = args

            def call2(env: Env, el: Any) -> Value:
                try:
                    return impl(a0(env, el), a1(env, el))
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                except TypeError as exc:
                    raise _Fail(_failed(name, exc), pos) from None

            return call2

        def calln(env: Env, el: Any) -> Value:
            try:
                return impl(*[a(env, el) for a in args])
            except EvalError as exc:
                raise _refail(exc, pos) from None
            except TypeError as exc:
                raise _Fail(_failed(name, exc), pos) from None

        return calln

    # ----------------------------------------------------------------- operators

    def unary(self, node: Unary) -> Fn:
        operand = self.compile(node.operand)
        if node.op == "not":
            return lambda env, el: not operand(env, el)
        pos = node.pos
        if self.type_of(node.operand) is INT:

            def negated(env: Env, el: Any) -> Value:
                v = operand(env, el)
                try:
                    return -v
                except TypeError:  # (a none where the check saw an int: an element read from a list)
                    raise _Fail(f"unary '-' needs an int, got {_kind(v)}", pos) from None

            return negated

        def neg(env: Env, el: Any) -> Value:
            v = operand(env, el)
            if type(v) is not int:
                raise _Fail(f"unary '-' needs an int, got {_kind(v)}", pos)
            return -v

        return neg

    def boolop(self, node: BoolOp) -> Fn:
        left, right = self.compile(node.left), self.compile(node.right)
        if node.op == "and":
            return lambda env, el: left(env, el) and right(env, el)
        return lambda env, el: left(env, el) or right(env, el)

    def binop(self, node: BinOp) -> Fn:
        left, right, pos, op = self.compile(node.left), self.compile(node.right), node.pos, node.op
        lt, rt = self.type_of(node.left), self.type_of(node.right)
        if op == "+":
            # Joined text and lists count their length as work: a variable doubled in a loop
            # (`set: {s: s + s}`) would otherwise fill the memory in a few dozen steps.
            if lt is STR and rt is STR:
                return lambda env, el: _grown(left(env, el) + right(env, el), pos)
            if isinstance(lt, ListType) and isinstance(rt, ListType):
                return lambda env, el: _grown((*left(env, el), *right(env, el)), pos)
            if lt is not INT or rt is not INT:
                return lambda env, el: _add_any(left(env, el), right(env, el), pos)
        if lt is INT and rt is INT:
            const = _constant(node.right)
            if op in ("+", "-", "*") and const is not _NO_CONST:
                return _int_op_literal(op, left, const, pos)
            return _int_op(op, left, right, pos)
        return _guarded_int_op(op, left, right, pos)

    def compare(self, node: Compare) -> Fn:
        tests = []
        for i, op in enumerate(node.ops):
            lt, rt = self.type_of(node.operands[i]), self.type_of(node.operands[i + 1])
            pos = node.op_pos[i] if node.op_pos else node.pos
            tests.append(_comparator(op, lt, rt, pos))
        if len(tests) == 1:
            test = tests[0]
            left, right = node.operands
            const = _constant(right)
            if const is not _NO_CONST:
                fused = self._compare_literal(left, _LITERAL_TESTS.get(test), const)
                if fused is not None:
                    return fused
            lf = self.compile(left)
            if const is not _NO_CONST:
                # A literal on the right (the common `x.score >= 3`) is compared directly.
                if test is _eq:
                    return lambda env, el: lf(env, el) == const
                if test is _ne:
                    return lambda env, el: lf(env, el) != const
                if test is _lt:
                    return lambda env, el: lf(env, el) < const
                if test is _le:
                    return lambda env, el: lf(env, el) <= const
                if test is _gt:
                    return lambda env, el: lf(env, el) > const
                if test is _ge:
                    return lambda env, el: lf(env, el) >= const
            rf = self.compile(right)
            base = getattr(test, "base", None)
            if base is not None:  # two texts: their comparison is charged, inline (every guess compares)
                free = _FREE_TEXT

                def texts(env: Env, el: Any) -> Value:
                    a, b = lf(env, el), rf(env, el)
                    if a.__class__ is str and b.__class__ is str and len(a) > free and len(b) > free:
                        charge(min(len(a), len(b)))
                    return base(a, b)

                return texts
            if test is _eq:
                return lambda env, el: lf(env, el) == rf(env, el)
            if test is _lt:
                return lambda env, el: lf(env, el) < rf(env, el)
            if test is _le:
                return lambda env, el: lf(env, el) <= rf(env, el)
            if test is _gt:
                return lambda env, el: lf(env, el) > rf(env, el)
            if test is _ge:
                return lambda env, el: lf(env, el) >= rf(env, el)
            return lambda env, el: test(lf(env, el), rf(env, el))
        fns = [self.compile(o) for o in node.operands]
        first, rest = fns[0], list(zip(tests, fns[1:]))

        def chain(env: Env, el: Any) -> Value:
            left = first(env, el)
            for test, f in rest:
                right = f(env, el)
                if not test(left, right):
                    return False
                left = right
            return True

        return chain

    def _compare_literal(self, left: Node, opf: Callable[[Any, Any], Any] | None, const: Any) -> Fn | None:
        # `seat.score < 3` and `count(hand where symbol == "star") >= 2`, the two commonest
        # condition shapes, read and compare in one closure instead of a comparison calling a read.
        if opf is None:
            return None
        if isinstance(left, Field) and not isinstance(self.type_of(left.obj), ListType):
            key = self._scope_key(left.obj)
            if key is None:
                return None
            name, pos = left.name, left.pos

            def field_vs_literal(env: Env, el: Any) -> Value:
                value = env[key]
                try:
                    v = value.field(name)
                except AttributeError:
                    raise _no_field(value, name, pos) from None
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                return opf(v, const)

            return field_vs_literal
        if isinstance(left, Call) and self._is_builtin_count(left) and isinstance(left.args[0], Where):
            where = left.args[0]
            test = self._elem_test(where.cond)
            if test is not None:
                return self._where_fused(where, self.compile(where.source), test, True, (opf, const))
        return None

    def _is_builtin_count(self, node: Call) -> bool:
        fn = self.checked.calls[id(node)]
        return len(node.args) == 1 and fn.name in ("count", "len") and fn is BUILTINS.get(fn.name)

    # ----------------------------------------------------------------- queries

    def where(self, node: Where, counting: bool = False) -> Fn:
        source, pos = self.compile(node.source), node.pos
        test = self._elem_test(node.cond)
        if test is not None:
            return self._where_fused(node, source, test, counting)
        terms = self._elem_terms(node.cond)
        if terms is not None:
            return self._where_terms(node, source, terms, counting)
        cond = self.compile(node.cond)

        # Explicit loops rather than comprehensions: on the short lists of a game (a hand, a row)
        # the comprehension's own function call costs more than the loop it saves.
        def where_cond(env: Env, el: Any) -> Value:
            out = []
            for x in _as_list(source(env, el), pos, "'where'"):
                if cond(env, (x, el)):
                    out.append(x)
            return len(out) if counting else tuple(out)

        return where_cond

    def _where_fused(
        self,
        node: Where,
        source: Fn,
        test: _ElemTest,
        counting: bool,
        bound: tuple[Callable[[Any, Any], Any], Any] | None = None,
    ) -> Fn:
        # `hand where symbol == "star"`, `hand where "star" in symbols`, `row where number > 4`:
        # the condition compares one field of the element with a literal, so the loop tests the
        # field itself, with no closure call and no scope link per element. A list named in the
        # environment is read directly; `count(...)` of the query builds no tuple, and `bound`
        # compares the count with a literal in the same closure.
        fname, opf, const, const_first, negate = test
        key = self._scope_key(node.source)
        pos = node.pos
        plain_eq = opf is operator.eq and not const_first and not negate
        bound_op, bound_value = bound if bound is not None else (None, None)

        def failed(exc: Exception) -> _Fail:
            if isinstance(exc, AttributeError):
                return _Fail(f"cannot read field '{fname}' of an element that is not a record", pos)
            if isinstance(exc, EvalError):
                return _Fail(exc.message, pos)
            return _Fail(f"'where' could not test field '{fname}' of an element (is it none?)", pos)

        if counting:

            def count_fused(env: Env, el: Any) -> Value:
                xs = env[key] if key is not None else source(env, el)
                if xs.__class__ is not tuple and xs.__class__ is not list:
                    xs = _as_list(xs, pos, "'where'")
                n = 0
                try:
                    if plain_eq:
                        for x in xs:
                            if x.field(fname) == const:
                                n += 1
                    elif const_first:
                        for x in xs:
                            if opf(const, x.field(fname)) is not negate:
                                n += 1
                    else:
                        for x in xs:
                            if opf(x.field(fname), const) is not negate:
                                n += 1
                except (AttributeError, EvalError, TypeError) as exc:
                    raise failed(exc) from None
                return n if bound_op is None else bound_op(n, bound_value)

            return count_fused

        def where_fused(env: Env, el: Any) -> Value:
            xs = _query_source(env, el, key, source, pos)
            out = []
            try:
                if plain_eq:
                    for x in xs:
                        if x.field(fname) == const:
                            out.append(x)
                elif const_first:
                    for x in xs:
                        if opf(const, x.field(fname)) is not negate:
                            out.append(x)
                else:
                    for x in xs:
                        if opf(x.field(fname), const) is not negate:
                            out.append(x)
            except (AttributeError, EvalError, TypeError) as exc:
                raise failed(exc) from None
            return tuple(out)

        return where_fused

    def _elem_terms(self, cond: Node) -> list[_Term] | None:
        """`active and index != current.index`: a condition made of field tests joined by `and`,
        each comparing a field of the element with a literal or with an expression that does not
        read the element (computed once per query, when first needed); None for any other shape."""
        terms: list[Node] = []
        stack = [cond]
        while stack:
            node = stack.pop()
            if isinstance(node, BoolOp) and node.op == "and":
                stack += (node.right, node.left)
            else:
                terms.append(node)
        out: list[_Term] = []
        invariant = False
        for term in terms:
            test = self._elem_test(term)
            if test is not None:
                fname, opf, const, const_first, negate = test
                out.append((fname, self._field_pos(term), opf, const_first, negate, None, const))
                continue
            if not (isinstance(term, Compare) and len(term.ops) == 1 and term.ops[0] in _ORDERED_OR_EQUAL):
                return None
            left, right = term.operands
            for field_side, other, const_first in ((left, right, False), (right, left, True)):
                read = self._elem_field(field_side)
                if read is None or not self._invariant(other):
                    continue
                if not all(_plain(t) and not _is_seqish(t) for t in (self.type_of(field_side), self.type_of(other))):
                    return None
                out.append((read, field_side.pos, _OPERATORS[term.ops[0]], const_first, False, self.compile(other), None))
                invariant = True
                break
            else:
                return None
        return out if invariant or len(out) > 1 else None

    def _field_pos(self, term: Node) -> int:
        """The column of the element field an `_elem_test` term reads (`not revealed`, `number > 2`)."""
        stack = [term]
        while stack:
            node = stack.pop()
            if self._elem_field(node) is not None:
                return node.pos
            stack.extend(reversed(children(node)))
        return term.pos  # pragma: no cover - an _elem_test term reads a field

    def _invariant(self, node: Node) -> bool:
        """Whether `node` reads no element of an enclosing query (nor starts a query of its own)."""
        if isinstance(node, Where | Select):
            return False
        if isinstance(node, Name) and isinstance(self.checked.bindings.get(id(node)), ElemRef):
            return False
        return all(self._invariant(c) for c in children(node))

    def _where_terms(self, node: Where, source: Fn, terms: list[_Term], counting: bool) -> Fn:
        # Evaluated in the general closures' order (the field before an invariant on its right,
        # after one on its left), failing with their messages at their columns.
        key = self._scope_key(node.source)
        pos = node.pos
        unset = _NO_CONST
        starts = [unset if rhs is not None else const for (*_, rhs, const) in terms]
        steps = [(i, *term[:6]) for i, term in enumerate(terms)]

        def where_terms(env: Env, el: Any) -> Value:
            xs = _query_source(env, el, key, source, pos)
            values = starts[:]
            out = []
            for x in xs:
                for i, fname, fpos, opf, const_first, negate, rhs in steps:
                    c = values[i]
                    if c is unset and const_first:
                        c = values[i] = rhs(env, (x, el))
                    try:
                        v = x.field(fname)
                    except AttributeError:
                        raise _no_field(x, fname, fpos) from None
                    except EvalError as exc:
                        raise _refail(exc, fpos) from None
                    if c is unset:
                        c = values[i] = rhs(env, (x, el))
                    if (opf(c, v) if const_first else opf(v, c)) is negate:
                        break
                else:
                    out.append(x)
            return len(out) if counting else tuple(out)

        return where_terms

    def _elem_test(self, cond: Node) -> _ElemTest | None:
        # `where revealed` / `where not revealed`: a true-or-false field tested as it is.
        negated = isinstance(cond, Unary) and cond.op == "not"
        flag = self._elem_field(cond.operand if isinstance(cond, Unary) and negated else cond)
        if flag is not None and self.type_of(cond.operand if negated else cond) is BOOL:  # type: ignore[attr-defined]
            return flag, operator.eq, not negated, False, False
        if not (isinstance(cond, Compare) and len(cond.ops) == 1):
            return None
        op = cond.ops[0]
        left, right = cond.operands
        for field_side, const_side, const_first in ((left, right, False), (right, left, True)):
            fname = self._elem_field(field_side)
            const = _constant(const_side)
            if const is _NO_CONST and isinstance(const_side, ListLit):
                const = self._constant_list(const_side)
            if fname is None or const is _NO_CONST:
                continue
            ftype = self.type_of(field_side)
            if not _plain(ftype) or isinstance(const, tuple) and op not in ("in", "not in"):
                return None
            if op in ("in", "not in"):
                # `a in b` is contains(b, a): the container decides the argument order.
                return fname, operator.contains, const, not const_first, op == "not in"
            if op not in ("==", "!=") and not isinstance(const, int | str):
                return None
            return fname, _OPERATORS[op], const, const_first, False
        return None

    def _elem_field(self, node: Node) -> str | None:
        binding = self.checked.bindings.get(id(node)) if isinstance(node, Name) else None
        if isinstance(binding, ElemRef) and binding.depth == 0 and binding.field is not None:
            fname: str = binding.field
            return fname
        return None

    def _constant_list(self, node: ListLit) -> Any:
        items = tuple(_constant(i) for i in node.items)
        if any(i is _NO_CONST or isinstance(i, list | tuple) for i in items):
            return _NO_CONST
        return items

    def _scope_key(self, node: Node) -> str | None:
        binding = self.checked.bindings.get(id(node)) if isinstance(node, Name) else None
        return binding.name if isinstance(binding, ScopeRef) else None

    def select(self, node: Select) -> Fn:
        source, pos = self.compile(node.source), node.pos
        expr = node.expr
        binding = self.checked.bindings.get(id(expr)) if isinstance(expr, Name) else None
        if isinstance(binding, ElemRef) and binding.depth == 0 and binding.field is not None:
            fname = binding.field

            def select_field(env: Env, el: Any) -> Value:
                out = []
                try:
                    for x in _as_list(source(env, el), pos, "'select'"):
                        out.append(x.field(fname))
                except AttributeError:
                    raise _Fail(
                        f"cannot read field '{fname}' of an element that is not a record", pos
                    ) from None
                except EvalError as exc:
                    raise _refail(exc, pos) from None
                return tuple(out)

            return select_field
        f = self.compile(expr)

        def select_expr(env: Env, el: Any) -> Value:
            out = []
            for x in _as_list(source(env, el), pos, "'select'"):
                out.append(f(env, (x, el)))
            return tuple(out)

        return select_expr


# --------------------------------------------------------------------------- runtime helpers


def _outer(el: Any, depth: int) -> Value:
    for _ in range(depth):
        el = el[1]
    return el[0]


def _kind(v: Value) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "a bool"
    if isinstance(v, int):
        return "an int"
    if isinstance(v, str):
        return "a str"
    if isinstance(v, list | tuple):
        return "a list"
    return "a record" if isinstance(v, Record) else type(v).__name__


def _no_field(value: Value, name: str, pos: int) -> _Fail:
    return _Fail(f"cannot read field '{name}' of {_kind(value)}", pos)


def _at_operator(exc: TypeError, pos: int) -> _Fail:
    """An operator's TypeError (a none among the numbers, read from a list) as a failure at the
    operator, in the rules' words; the checker let it through as an int."""
    return _Fail(f"evaluation failed: {_in_words(exc)}", pos)


def _int_op(op: str, left: Fn, right: Fn, pos: int) -> Fn:
    # One closure per operator keeps the common cases to a single Python call.
    if op == "+":

        def add(env: Env, el: Any) -> Value:
            try:
                v = left(env, el) + right(env, el)
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return add
    if op == "-":

        def sub(env: Env, el: Any) -> Value:
            try:
                v = left(env, el) - right(env, el)
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return sub
    if op == "*":

        def mul(env: Env, el: Any) -> Value:
            try:
                v = left(env, el) * right(env, el)
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return mul
    if op in ("//", "%"):
        floor = op == "//"

        def div(env: Env, el: Any) -> Value:
            a = left(env, el)
            b = right(env, el)
            if b == 0:
                raise _Fail("division by zero" if floor else "remainder of division by zero", pos)
            try:
                v = a // b if floor else a % b
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return div
    assert op == "**"

    def power(env: Env, el: Any) -> Value:
        return _power(left(env, el), right(env, el), pos)

    return power


def _int_op_literal(op: str, left: Fn, const: int, pos: int) -> Fn:
    # `seat.tokens + 1`: the literal is applied inline rather than called for.
    if op == "+":

        def add_literal(env: Env, el: Any) -> Value:
            try:
                v = left(env, el) + const
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return add_literal
    if op == "-":

        def sub_literal(env: Env, el: Any) -> Value:
            try:
                v = left(env, el) - const
            except TypeError as exc:
                raise _at_operator(exc, pos) from None
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise _overflow(pos)

        return sub_literal

    def mul_literal(env: Env, el: Any) -> Value:
        try:
            v = left(env, el) * const
        except TypeError as exc:
            raise _at_operator(exc, pos) from None
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise _overflow(pos)

    return mul_literal


def _guarded_int_op(op: str, left: Fn, right: Fn, pos: int) -> Fn:
    # Used when an operand's static type is `any`: check the values, then run the plain operator.
    def checked(f: Fn) -> Fn:
        def value(env: Env, el: Any) -> Value:
            v = f(env, el)
            if type(v) is not int:
                raise _Fail(f"'{op}' needs ints, got {_kind(v)}", pos)
            return v

        return value

    return _int_op(op, checked(left), checked(right), pos)


def _power(a: int, b: int, pos: int) -> int:
    if b < 0:
        raise _Fail("'**' needs an exponent of 0 or more", pos)
    # Refuse before computing: 9 ** 9 ** 9 would otherwise run for a very long time.
    if abs(a) > 1 and (abs(a).bit_length() - 1) * b > 64:
        raise _overflow(pos)
    v: int = a**b
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise _overflow(pos)


def _add_any(a: Value, b: Value, pos: int) -> Value:
    if type(a) is int and type(b) is int:
        v = a + b
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise _overflow(pos)
    if isinstance(a, str) and isinstance(b, str):
        return _grown(a + b, pos)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return _grown((*a, *b), pos)
    raise _Fail(f"cannot add {_kind(a)} and {_kind(b)}", pos)


def _grown(v: Any, pos: int) -> Any:
    """A joined text or list, its length counted against the work budget."""
    _METER[0] += len(v)
    if _METER[0] > _METER[1]:
        raise _Fail(_budget_message(), pos)
    return v


def _eq(a: Value, b: Value) -> bool:
    return bool(a == b)


def _ne(a: Value, b: Value) -> bool:
    return bool(a != b)


def _lt(a: Value, b: Value) -> bool:
    return bool(a < b)


def _le(a: Value, b: Value) -> bool:
    return bool(a <= b)


def _gt(a: Value, b: Value) -> bool:
    return bool(a > b)


def _ge(a: Value, b: Value) -> bool:
    return bool(a >= b)


# The plain comparison tests, as the C operator functions a fused closure calls.
_LITERAL_TESTS: dict[Callable[[Value, Value], bool], Callable[[Any, Any], Any]] = {
    _eq: operator.eq,
    _ne: operator.ne,
    _lt: operator.lt,
    _le: operator.le,
    _gt: operator.gt,
    _ge: operator.ge,
}


def _is_seqish(t: Type) -> bool:
    return t is ANY or isinstance(t, ListType)


# Texts compared character by character cost their length in work beyond this many characters
# (two 500,000-character texts compared 168,000 times in one expression took minutes).
_FREE_TEXT = 64


def _text_charged(test: Callable[[Value, Value], bool]) -> Callable[[Value, Value], bool]:
    """`test` (==, <...) counting a comparison of two long texts against the work budget."""

    def compare_texts(a: Value, b: Value) -> bool:
        if a.__class__ is str and b.__class__ is str:
            n = min(len(a), len(b))
            if n > _FREE_TEXT:
                charge(n)
        return test(a, b)

    compare_texts.base = test  # type: ignore[attr-defined]  # for `compare`'s inlined closure
    return compare_texts


def _comparator(op: str, lt: Type, rt: Type, pos: int) -> Callable[[Value, Value], bool]:
    test = _untexted_comparator(op, lt, rt, pos)
    if op not in ("in", "not in") and (lt is STR or lt is ANY) and (rt is STR or rt is ANY):
        return _text_charged(test)
    return test


def _untexted_comparator(op: str, lt: Type, rt: Type, pos: int) -> Callable[[Value, Value], bool]:
    if op in ("==", "!="):
        if _is_seqish(lt) and _is_seqish(rt):
            # Engine lists and expression tuples must compare equal element by element.
            if op == "==":
                return lambda a, b: bool(same_value(a, b))
            return lambda a, b: not same_value(a, b)
        return _eq if op == "==" else _ne
    if op in ("in", "not in"):
        if isinstance(rt, ListType) and not _is_seqish(rt.elem):
            contains: Callable[[Value, Value], bool] = _in_plain
        else:
            contains = _in_any

        def member(a: Value, b: Value) -> bool:
            try:
                charge(len(b))
                return contains(a, b)
            except TypeError:
                raise _Fail(f"'{op}' needs a list or a str on its right, got {_kind(b)}", pos) from None

        if op == "in":
            return member
        return lambda a, b: not member(a, b)
    base = {"<": _lt, "<=": _le, ">": _gt, ">=": _ge}[op]
    if lt is ANY or rt is ANY:

        def ordered(a: Value, b: Value) -> bool:
            if type(a) is not type(b) or not isinstance(a, int | str) or isinstance(a, bool):
                raise _Fail(f"cannot compare {_kind(a)} with {_kind(b)} using '{op}'", pos)
            return base(a, b)

        return ordered
    return base


def _in_plain(a: Value, b: Value) -> bool:
    return a in b


def _in_any(a: Value, b: Value) -> bool:
    if isinstance(b, str):
        if not isinstance(a, str):
            raise TypeError("not a str")
        return a in b
    if not isinstance(b, list | tuple):
        raise TypeError("not a list")
    return any(same_value(a, x) for x in b)


# --------------------------------------------------------------------------- public entry points


def compile_checked(checked: Checked, source: str, locate: Locator | None = None) -> Compiled:
    """Compile an already checked AST."""
    fn = _Compiler(checked).compile(checked.root)
    loc = locate or default_locator(source)
    return Compiled(source, checked.type, checked.root, frozenset(checked.names), fn, loc)


def compile_expr(
    source: str,
    scope: Scope,
    *,
    functions: FunctionLibrary = BUILTINS,
    expect: Type | None = None,
    locate: Locator | None = None,
    bound: frozenset[str] = frozenset(),
) -> Compiled:
    """Parse, check and compile an expression; errors are located with `locate(offset)`.
    `bound` names the scope's names a step bound (see `check`)."""
    node = parse(source, locate)
    checked = check(node, scope, source=source, functions=functions, expect=expect, locate=locate, bound=bound)
    return compile_checked(checked, source, locate)
