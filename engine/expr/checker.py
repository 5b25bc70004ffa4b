"""Static checking: resolves every name and call, computes every node's type, reports mistakes.

The result (`Checked`) is what the compiler specialises on, so evaluation never has to look at a
type again. Inside `where` / `select` the current element is `it` and, when it is a record, its
fields are visible as bare names; these shadow the outer scope.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from davinci.engine.errors import DavinciError, ExprTypeError
from davinci.engine.expr.functions import BUILTINS, Function, FunctionLibrary
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
    default_locator,
    located_message,
    parse,
)
from davinci.engine.expr.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    STR,
    ListType,
    RecordType,
    Scope,
    Type,
    assignable,
    comparable,
    describe,
    is_orderable,
    join,
)


@dataclass(frozen=True)
class ScopeRef:
    """A name read from the evaluation environment."""

    name: str


@dataclass(frozen=True)
class ElemRef:
    """The element bound by the `depth`-th enclosing where/select (0 = innermost), or its field."""

    depth: int
    field: str | None = None


Binding = ScopeRef | ElemRef

# Bindings are immutable values, and a game has few distinct ones: share them rather than build
# one per name node.
_scope_ref = lru_cache(maxsize=4096)(ScopeRef)
_elem_ref = lru_cache(maxsize=4096)(ElemRef)


@dataclass
class Checked:
    """The checker's findings, keyed by id() of AST nodes of `root`."""

    root: Node
    type: Type
    types: dict[int, Type] = field(default_factory=dict)
    bindings: dict[int, Binding] = field(default_factory=dict)
    calls: dict[int, Function] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)

    def type_of(self, node: Node) -> Type:
        """The type computed for a node of this tree."""
        return self.types[id(node)]


def _suggest(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


# Other languages' words for the literals: named in the message, not guessed at.
_LITERAL_WORDS = {"True": "true", "TRUE": "true", "False": "false", "FALSE": "false", "None": "none",
                  "null": "none", "nil": "none", "NULL": "none"}

_ARITH_WORD = {"-": "subtract", "*": "multiply", "//": "divide", "%": "take the remainder of", "**": "raise"}


class _Checker:
    def __init__(self, source: str, scope: Scope, functions: FunctionLibrary, locate: Locator) -> None:
        self.source = source
        self.scope = scope
        self.functions = functions
        self.locate = locate
        self.out: Checked | None = None
        self.types: dict[int, Type] = {}
        self.bound: frozenset[str] = frozenset()
        self.expect: Type | None = None  # what the whole expression must give, when the game says

    def fail(self, reason: str, offset: int) -> ExprTypeError:
        return ExprTypeError(located_message(reason, self.source, offset), self.locate(offset))

    def run(self, root: Node) -> Checked:
        self.out = Checked(root, ANY)
        self.types = self.out.types
        self.out.type = self.check(root, ())
        return self.out

    # Each frame is the element type bound by one enclosing where/select, innermost first.
    def check(self, node: Node, frames: tuple[Type, ...]) -> Type:
        # One dictionary lookup on the node's class instead of a chain of isinstance tests.
        cls = node.__class__
        t = _LITERAL_TYPES.get(cls)
        if t is None:
            rule = _RULES.get(cls)
            t = rule(self, node, frames) if rule is not None else self._check(node, frames)
        self.types[id(node)] = t
        return t

    def _check(self, node: Node, frames: tuple[Type, ...]) -> Type:
        # Subclasses of the node classes (none in this package) take the slow, general route.
        for cls, t in _LITERAL_TYPES.items():
            if isinstance(node, cls):
                return t
        for cls, rule in _RULES.items():
            if isinstance(node, cls):
                return rule(self, node, frames)
        raise AssertionError(f"unknown node {node!r}")  # pragma: no cover

    def boolop(self, node: BoolOp, frames: tuple[Type, ...]) -> Type:
        for side in (node.left, node.right):
            self.need_bool(side, frames, f"'{node.op}'")
        return BOOL

    def need_bool(self, node: Node, frames: tuple[Type, ...], what: str) -> None:
        t = self.check(node, frames)
        if t is not BOOL and t is not ANY:
            hint = " (compare it, for example 'x > 0')" if t is INT else ""
            raise self.fail(f"{what} needs a bool, got {describe(t)}{hint}", node.start)

    def visible(self, frames: tuple[Type, ...]) -> list[str]:
        names = list(self.scope)
        for t in frames:
            if isinstance(t, RecordType):
                names.extend(t.fields)
        if frames:
            names.append("it")
        return names

    def name(self, node: Name, frames: tuple[Type, ...]) -> Type:
        out = self.out
        assert out is not None
        name = node.name
        if frames:
            if name == "it":
                out.bindings[id(node)] = _elem_ref(0, None)
                return frames[0]
            for depth, t in enumerate(frames):
                if isinstance(t, RecordType):
                    fields = t.fields
                    if name in fields:
                        if name in self.bound:
                            raise self.fail(
                                f"'{name}' here is each element's field '{name}', not the '{name}' bound "
                                f"earlier (the element's field hides it inside 'where' and 'select'): "
                                f"rename the bound name, or write 'it.{name}' to show the field is meant",
                                node.pos,
                            )
                        out.bindings[id(node)] = _elem_ref(depth, name)
                        return fields[name]
        declared = self.scope.get(name)
        if declared is not None:
            out.bindings[id(node)] = _scope_ref(name)
            out.names.add(name)
            return declared
        if node.name == "it":
            raise self.fail("'it' is only defined inside 'where' or 'select'", node.pos)
        if frames and frames[0] == ANY and node.name not in self.functions and node.name not in _LITERAL_WORDS:
            # The elements' fields are unknown (a list read from a variable declared `null`): a
            # bare name cannot be told from a misspelt one, where `it.NAME` is read as it comes.
            raise self.fail(f"unknown name '{node.name}': the elements of this list have no known fields (it comes "
                            f"from a value of any type, such as a variable declared null): write 'it.{node.name}' "
                            "to read each element's field", node.pos)
        literal = _LITERAL_WORDS.get(node.name)
        if literal is not None:
            raise self.fail(f"unknown name '{node.name}': the rules write {literal}", node.pos)
        if node.name in self.functions:
            raise self.fail(f"'{node.name}' is a function: call it as {node.name}(...)", node.pos)
        # A bare field name used where the record itself must be named: suggest `seat.score`. An
        # exact field of a record in scope wins over a look-alike name (`tricks` is not `trick`).
        dotted = [f"{var}.{f}" for var, t in self.scope.items() if isinstance(t, RecordType) for f in t.fields]
        # The piece a `draw`'s `where` or a row's `sort` tests first, then the seat `end.score`
        # scores, then the current seat.
        exact = sorted((d for d in dotted if d.split(".", 1)[1] == node.name),
                       key=lambda d: (d != f"piece.{node.name}", d != f"seat.{node.name}", d != f"current.{node.name}"))
        hint = f"; did you mean '{exact[0]}'?" if exact else _suggest(node.name, self.visible(frames))
        if not hint:
            match = difflib.get_close_matches(
                node.name, [d.split(".", 1)[1] for d in dotted], n=1, cutoff=0.7  # (`rnak` for `rank`: 0.75)
            )
            if match:
                near = sorted((d for d in dotted if d.endswith("." + match[0])),
                              key=lambda d: (not d.startswith("piece."), not d.startswith("seat."),
                                             not d.startswith("current.")))
                hint = f"; did you mean '{near[0]}'?"
        if self.source.strip() == node.name and not exact and self.expect in (None, STR, ANY):
            # One bare word: most often a text quoted once, for YAML only (`{phase: 'guess'}`).
            hint = (f" (a text is quoted inside the YAML string: \"'{node.name}'\")"
                    + (f", or{hint[1:]}" if hint else ""))
        raise self.fail(f"unknown name '{node.name}'{hint}", node.pos)

    def list_lit(self, node: ListLit, frames: tuple[Type, ...]) -> Type:
        elem: Type = ANY
        first: Type | None = None
        for item in node.items:
            t = self.check(item, frames)
            if first is None:
                first = elem = t
                continue
            joined = join(elem, t)
            if joined is None:
                raise self.fail(f"list items have different types: {elem.name} and {t.name}", item.start)
            elem = joined
        return ListType(elem)

    def field_of(self, t: Type, name: str, node: Node) -> Type:
        if t is ANY:
            return ANY
        if isinstance(t, RecordType):
            if name in t.fields:
                return t.fields[name]
            declare = " (a new setting is declared under the game's settings:)" if t.name == "settings" else ""
            raise self.fail(f"{t.name} has no field '{name}'{_suggest(name, t.fields)}{declare}", node.pos)
        raise self.fail(f"{describe(t)} has no fields (cannot read '.{name}')", node.pos)

    def field(self, node: Field, frames: tuple[Type, ...]) -> Type:
        t = self.check(node.obj, frames)
        if isinstance(t, ListType):
            # Field access on a list of records maps over the list.
            return ListType(self.field_of(t.elem, node.name, node))
        return self.field_of(t, node.name, node)

    def index(self, node: Index, frames: tuple[Type, ...]) -> Type:
        t = self.check(node.obj, frames)
        it = self.check(node.index, frames)
        if it is not INT and it is not ANY:
            raise self.fail(f"an index must be an int, got {describe(it)}", node.index.start)
        if isinstance(t, ListType):
            return t.elem
        if t is STR or t is ANY:
            return t
        raise self.fail(f"cannot index {describe(t)}: only lists and strings have positions", node.pos)

    def call(self, node: Call, frames: tuple[Type, ...]) -> Type:
        assert self.out is not None
        fn = self.functions.get(node.func)
        if fn is None:
            if node.func in self.scope or node.func == "it":
                raise self.fail(f"'{node.func}' is not a function", node.pos)
            hint = _suggest(node.func, self.functions)
            if not hint:
                hint = f" (the functions are: {', '.join(sorted(self.functions))})"
            raise self.fail(f"unknown function '{node.func}'{hint}", node.pos)
        n = len(node.args)
        lo, hi = fn.arity_min, fn.arity_max
        if n < lo or (hi is not None and n > hi):
            if hi == lo:
                want = f"{lo} argument{'s' if lo != 1 else ''}"
            elif hi is None:
                want = f"at least {lo} argument{'s' if lo != 1 else ''}"
            else:
                want = f"{lo} to {hi} arguments"
            raise self.fail(f"{fn.name}() takes {want}, got {n}", node.pos)
        arg_types: list[Type] = []
        for i, arg in enumerate(node.args):
            try:
                t = self.check(arg, frames)
            except ExprTypeError:
                fa = fn.field_args
                if fa is not None and i == fa[2] and isinstance(arg, Name) and arg.name in fa[1]:
                    raise self.fail(f"argument {i + 1} of {fn.name}() is a field's name, written as a text: "
                                    f"'{arg.name}'", arg.start) from None
                raise
            want_t = fn.param_type(i)
            if not assignable(t, want_t):
                # Only grid and board zones are zones in expressions; the others are piece lists.
                note = " (a grid or board zone; other zones read as their list of pieces)" if want_t.name == "zone" else ""
                raise self.fail(
                    f"argument {i + 1} of {fn.name}() must be {describe(want_t)}{note}, got {describe(t)}",
                    arg.start,
                )
            arg_types.append(t)
        try:
            result = fn.result_type(arg_types)
        except ExprTypeError as exc:  # (one argument's fault: `arg` names it, and the caret goes under it)
            arg_at = getattr(exc, "arg", None)
            raise self.fail(exc.message, node.pos if arg_at is None else node.args[arg_at].start) from None
        if fn.field_args is not None:
            self.field_arguments(fn, node, arg_types)
        self.out.calls[id(node)] = fn
        if fn.with_env:  # a function the game defines: read like a name (lint finds unused ones)
            self.out.names.add(fn.name)
        return result

    def unary(self, node: Unary, frames: tuple[Type, ...]) -> Type:
        if node.op == "not":
            self.need_bool(node.operand, frames, "'not'")
            return BOOL
        t = self.check(node.operand, frames)
        if t is not INT and t is not ANY:
            raise self.fail(f"unary '-' needs an int, got {describe(t)}", node.operand.start)
        return INT

    def binop(self, node: BinOp, frames: tuple[Type, ...]) -> Type:
        lt = self.check(node.left, frames)
        rt = self.check(node.right, frames)
        if node.op == "+":
            if lt is ANY or rt is ANY:
                return rt if lt is ANY else lt
            if lt == rt and (lt is INT or lt is STR):
                return lt
            if isinstance(lt, ListType) and isinstance(rt, ListType):
                elem = join(lt.elem, rt.elem)
                if elem is not None:
                    return ListType(elem)
                raise self.fail(f"cannot join {describe(lt)} and {describe(rt)} with '+'", node.pos)
            raise self.fail(
                f"'+' adds two ints, or joins two strs or two lists; got {describe(lt)} and {describe(rt)}",
                node.pos,
            )
        for side, t in ((node.left, lt), (node.right, rt)):
            if t is not INT and t is not ANY:
                word = _ARITH_WORD[node.op]
                raise self.fail(f"'{node.op}' needs ints ({word} numbers), got {describe(t)}", side.start)
        return INT

    def compare(self, node: Compare, frames: tuple[Type, ...]) -> Type:
        check = self.check
        types = [check(op, frames) for op in node.operands]
        for i, op in enumerate(node.ops):
            lt, rt = types[i], types[i + 1]
            at = node.op_pos[i] if node.op_pos else node.pos
            if op in ("==", "!="):
                if not comparable(lt, rt):
                    raise self.fail(f"cannot compare {describe(lt)} with {describe(rt)} using '{op}'", at)
                self.known_value(node.operands[i], node.operands[i + 1], frames)
                self.known_value(node.operands[i + 1], node.operands[i], frames)
            elif op in ("in", "not in"):
                self.membership(lt, rt, op, at)
                right = node.operands[i + 1]
                for item in right.items if isinstance(right, ListLit) else ():  # `type in ['ladder', 'snak']`
                    self.known_value(node.operands[i], item, frames)
            else:
                if not (is_orderable(lt) and is_orderable(rt)) or join(lt, rt) is None:
                    raise self.fail(f"cannot compare {describe(lt)} with {describe(rt)} using '{op}'", at)
        return BOOL

    def known_value(self, side: Node, other: Node, frames: tuple[Type, ...]) -> None:
        """`other`, a text or number literal compared with the field `side`, must be one of the
        values the game gives that field (RecordType.domains): `to.type == 'bonsu'` or `rank == 15`
        (ranks 7 to 14) would never hold."""
        if isinstance(other, Unary) and other.op == "-" and isinstance(other.operand, IntLit):
            number = -other.operand.value
        elif isinstance(other, IntLit):
            number = other.value
        elif not isinstance(other, StrLit):
            return
        else:
            number = None
        record: Type | None = None
        name = ""
        if isinstance(side, Field):
            record, name = self.check(side.obj, frames), side.name
            if isinstance(record, ListType):
                record = record.elem
        elif isinstance(side, Name):
            name = side.name
            record = next((f for f in frames if isinstance(f, RecordType) and name in f.fields), None)
        domain = record.domains.get(name) if isinstance(record, RecordType) else None
        if domain is None or record is None:
            return
        if number is not None:
            numbers = sorted(v for v in domain if isinstance(v, int))
            if numbers and number not in numbers:
                shown = ", ".join(map(str, numbers[:12])) + (", ..." if len(numbers) > 12 else "")
                raise self.fail(f"{number} is no {record.name}'s {name} in this game (its values: {shown})", other.pos)
            return
        assert isinstance(other, StrLit)
        if other.value not in domain:
            raise self.not_in_domain(f"'{other.value}' is no {record.name}'s {name}", other, domain)

    def not_in_domain(self, what: str, value: StrLit, domain: frozenset[str]) -> ExprTypeError:
        """The error for a text no piece or space holds in the field `what` names, with the values it can hold."""
        shown = ", ".join(f"'{v}'" for v in sorted(domain)[:12]) + (", ..." if len(domain) > 12 else "")
        return self.fail(f"{what} in this game{_suggest(value.value, domain)} (its values: {shown})", value.pos)

    def field_arguments(self, fn: Function, node: Call, arg_types: list[Type]) -> None:
        """A function's argument that names a field of a record type, written as a text, must be
        one of its fields, and the text value to look for one that field can hold."""
        record, allowed, fi, vi = fn.field_args  # type: ignore[misc]
        named = node.args[fi]
        if not isinstance(named, StrLit) or not isinstance(record, RecordType):
            return
        if named.value not in allowed:
            known = sorted(allowed)
            listed = f" (fields: {', '.join(known)})" if known else " (the components declare no fields)"
            raise self.fail(f"argument {fi + 1} of {fn.name}() names a field of the components; none has "
                            f"'{named.value}'{_suggest(named.value, known)}{listed}", named.pos)
        value = node.args[vi] if vi < len(node.args) else None
        held = record.fields[named.value]
        elem = held.elem if isinstance(held, ListType) else held
        if value is not None and arg_types[vi] is not ANY and elem is not ANY and not comparable(arg_types[vi], elem):
            raise self.fail(f"a piece's {named.value} holds {describe(elem)}, never {describe(arg_types[vi])}: no line "
                            "could match", value.start)
        domain = record.domains.get(named.value)
        if isinstance(value, StrLit) and domain is not None and value.value not in domain:
            what = (f"no {record.name}'s {named.value} hold '{value.value}'" if isinstance(held, ListType)
                    else f"'{value.value}' is no {record.name}'s {named.value}")
            raise self.not_in_domain(what, value, domain)

    def membership(self, item: Type, container: Type, op: str, at: int) -> None:
        if container is ANY:
            return
        if container is STR:
            if item is not STR and item is not ANY:
                raise self.fail(f"'{op}' on a str looks for a str, got {describe(item)}", at)
            return
        if isinstance(container, ListType):
            if not comparable(item, container.elem):
                raise self.fail(f"'{op}' looks for {describe(container.elem)}, got {describe(item)}", at)
            return
        raise self.fail(f"'{op}' needs a list or a str on its right, got {describe(container)}", at)

    def ifelse(self, node: IfElse, frames: tuple[Type, ...]) -> Type:
        self.need_bool(node.cond, frames, "the condition of 'if'")
        a = self.check(node.then, frames)
        b = self.check(node.orelse, frames)
        t = join(a, b)
        if t is None:
            hint = (" (a 'where' or 'select' takes everything to its right, this 'if ... else' too: put the query "
                    "in parentheses, (xs where ...) if c else ys)" if frames else "")
            raise self.fail(f"the two branches of 'if' have different types: {a.name} and {b.name}{hint}", node.pos)
        return t

    def query(self, node: Where | Select, frames: tuple[Type, ...]) -> Type:
        kw = "where" if isinstance(node, Where) else "select"
        st = self.check(node.source, frames)
        if st is ANY:
            elem: Type = ANY
        elif isinstance(st, ListType):
            elem = st.elem
        else:
            raise self.fail(f"'{kw}' needs a list on its left, got {describe(st)}", node.pos)
        inner = (elem, *frames)
        if isinstance(node, Where):
            self.need_bool(node.cond, inner, "the condition after 'where'")
            return st if isinstance(st, ListType) else ListType(elem)
        return ListType(self.check(node.expr, inner))


_LITERAL_TYPES: dict[type[Node], Type] = {IntLit: INT, StrLit: STR, BoolLit: BOOL, NoneLit: NONE}
_RULES: dict[type[Node], Callable[[_Checker, Any, tuple[Type, ...]], Type]] = {
    Name: _Checker.name,
    ListLit: _Checker.list_lit,
    Field: _Checker.field,
    Index: _Checker.index,
    Call: _Checker.call,
    Unary: _Checker.unary,
    BinOp: _Checker.binop,
    BoolOp: _Checker.boolop,
    Compare: _Checker.compare,
    IfElse: _Checker.ifelse,
    Where: _Checker.query,
    Select: _Checker.query,
}


def check(
    node: Node,
    scope: Scope,
    *,
    source: str = "",
    functions: FunctionLibrary = BUILTINS,
    expect: Type | None = None,
    locate: Locator | None = None,
    bound: frozenset[str] = frozenset(),
) -> Checked:
    """Type-check an AST against a scope; raises a located ExprTypeError on the first mistake.

    `bound` names the scope's names that the game's steps bound (a choice's arguments, `as:`
    names). Inside `where`/`select` an element's field hides a scope name of the same spelling;
    hiding one of these is refused, since its author meant their own name (an argument `kind`
    read as each piece's kind)."""
    loc = locate or default_locator(source)
    checker = _Checker(source, scope, functions, loc)
    checker.bound = bound
    checker.expect = expect
    out = checker.run(node)
    if expect is not None and not assignable(out.type, expect):
        hint = ""
        if out.type is INT and getattr(expect, "name", "") == "seat":
            hint = " (seat number N is `first(seats where index == N)`; seats number from 1)"
        elif out.type is STR and getattr(expect, "name", "") == "space":
            hint = " (a space by its id: `space(board, 'ID')`)"
        raise checker.fail(f"expected {describe(expect)} here, got {describe(out.type)}{hint}", node.start)
    return out


def check_source(
    source: str,
    scope: Scope,
    *,
    functions: FunctionLibrary = BUILTINS,
    expect: Type | None = None,
    locate: Locator | None = None,
) -> Checked:
    """Parse and type-check source text (what `davinci lint` needs); returns the checker's findings."""
    return check(
        parse(source, locate), scope, source=source, functions=functions, expect=expect, locate=locate
    )


def check_all(
    items: Iterable[tuple[str, Scope, Type | None, Locator | None]],
    *,
    functions: FunctionLibrary = BUILTINS,
) -> list[DavinciError]:
    """Check many expressions, collecting every syntax and type error instead of stopping at the first."""
    errors: list[DavinciError] = []
    for source, scope, expect, locate in items:
        try:
            check_source(source, scope, functions=functions, expect=expect, locate=locate)
        except DavinciError as exc:
            errors.append(exc)
    return errors


def free_names(checked: Checked) -> frozenset[str]:
    """The scope names an expression reads (for dependency analysis)."""
    return frozenset(checked.names)


__all__ = ["Binding", "Checked", "ElemRef", "ScopeRef", "check", "check_all", "check_source", "free_names"]
