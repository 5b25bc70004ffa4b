"""Properties over generated expressions: printing round-trips, and nothing but DavinciError escapes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token

from davinci.engine.errors import DavinciError
from davinci.engine.expr import BOOL, INT, STR, ListType, RecordType, compile_expr, parse, to_source
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
    Name,
    Node,
    NoneLit,
    Select,
    StrLit,
    Unary,
    Where,
    _lark,
    _scan,
)

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

NAMES = ["x", "y", "xs", "tiles", "it", "number", "colour", "seat", "flag", "word"]
FIELDS = ["number", "colour", "score", "tokens", "name"]
FUNCS = ["count", "len", "sum", "min", "max", "any", "all", "abs", "first", "sorted", "distinct", "range", "nope"]

leaves = st.one_of(
    st.integers(min_value=0, max_value=2**63).map(IntLit),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6).map(StrLit),
    st.booleans().map(BoolLit),
    st.just(NoneLit()),
    st.sampled_from(NAMES).map(Name),
)


def _extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    two = st.tuples(children, children)
    return st.one_of(
        st.lists(children, max_size=3).map(lambda xs: ListLit(tuple(xs))),
        st.tuples(children, st.sampled_from(FIELDS)).map(lambda t: Field(t[0], t[1])),
        two.map(lambda t: Index(t[0], t[1])),
        st.tuples(st.sampled_from(FUNCS), st.lists(children, max_size=3)).map(lambda t: Call(t[0], tuple(t[1]))),
        st.tuples(st.sampled_from(["-", "not"]), children).map(lambda t: Unary(t[0], t[1])),
        st.tuples(st.sampled_from(["+", "-", "*", "//", "%", "**"]), children, children).map(
            lambda t: BinOp(t[0], t[1], t[2])
        ),
        st.tuples(st.sampled_from(["and", "or"]), children, children).map(lambda t: BoolOp(t[0], t[1], t[2])),
        st.lists(children, min_size=2, max_size=4).flatmap(
            lambda ops: st.lists(
                st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]),
                min_size=len(ops) - 1,
                max_size=len(ops) - 1,
            ).map(lambda cs: Compare(tuple(ops), tuple(cs)))
        ),
        st.tuples(children, children, children).map(lambda t: IfElse(t[0], t[1], t[2])),
        two.map(lambda t: Where(t[0], t[1])),
        two.map(lambda t: Select(t[0], t[1])),
    )


trees = st.recursive(leaves, _extend, max_leaves=12)


@SETTINGS
@given(trees)
def test_printing_then_parsing_gives_the_same_tree(tree: Node) -> None:
    text = to_source(tree)
    assert parse(text) == tree, text
    assert to_source(parse(text)) == text


TILE = RecordType("tile", {"number": INT, "colour": STR, "score": INT, "tokens": INT, "name": STR})
SCOPE = {
    "x": INT,
    "y": INT,
    "xs": ListType(INT),
    "tiles": ListType(TILE),
    "seat": TILE,
    "flag": BOOL,
    "word": STR,
}


class Rec:
    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def field(self, name: str) -> Any:
        return self._fields[name]


def _tile(n: int) -> Rec:
    return Rec(number=n, colour="black" if n % 2 else "white", score=n * 3, tokens=-n, name=f"t{n}")


ENVS = [
    {"x": 0, "y": -3, "xs": [], "tiles": [], "seat": _tile(0), "flag": False, "word": ""},
    {"x": 7, "y": 2**62, "xs": [3, 1, 2], "tiles": [_tile(1), _tile(4)], "seat": _tile(9), "flag": True, "word": "ink"},
]


@SETTINGS
@given(trees)
def test_compiling_and_evaluating_raise_nothing_but_davinci_errors(tree: Node) -> None:
    text = to_source(tree)
    try:
        compiled = compile_expr(text, SCOPE)
    except DavinciError:
        return
    for env in ENVS:
        try:
            compiled(env)
        except DavinciError:
            pass


# Well-typed trees, so that most examples get as far as evaluation.
int_leaf = st.one_of(st.integers(0, 50).map(IntLit), st.sampled_from(["x", "y"]).map(Name))
bool_leaf = st.one_of(st.booleans().map(BoolLit), st.just(Name("flag")))


def _typed_int(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    return st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*", "//", "%", "**"]), children, children).map(
            lambda t: BinOp(t[0], t[1], t[2])
        ),
        children.map(lambda c: Unary("-", c)),
        st.sampled_from(["count", "sum", "min", "max", "len"]).map(lambda f: Call(f, (Name("xs"),))),
        st.sampled_from(FIELDS[:1] + FIELDS[2:4]).map(lambda f: Field(Name("seat"), f)),
        st.tuples(children, children).map(lambda t: Call("max", t)),
        st.tuples(children, children).map(lambda t: Index(Name("xs"), t[0])),
        children.map(lambda c: Call("sum", (Select(Name("tiles"), BinOp("*", Name("number"), c)),))),
        children.map(lambda c: Call("count", (Where(Name("xs"), Compare((Name("it"), c), ("<",))),))),
        st.tuples(children, children).map(lambda t: IfElse(t[0], Compare(t, (">=",)), t[1])),
    )


typed_ints = st.recursive(int_leaf, _typed_int, max_leaves=10)


@SETTINGS
@given(typed_ints)
def test_well_typed_arithmetic_evaluates_or_fails_cleanly(tree: Node) -> None:
    text = to_source(tree)
    compiled = compile_expr(text, SCOPE, expect=INT)
    for env in ENVS:
        try:
            value = compiled(env)
        except DavinciError:
            continue
        assert type(value) is int and abs(value) <= 2**63


PIECES = list("xy1 ()[],.+-*/%<>=!'\"\\nt&|") + ["and ", "or ", "where ", "select ", "not ", "in ", "if ", " else "]


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=25).map("".join))
def test_arbitrary_text_never_escapes_as_a_python_error(text: str) -> None:
    try:
        compiled = compile_expr(text, SCOPE)
    except DavinciError:
        return
    for env in ENVS:
        try:
            compiled(env)
        except DavinciError:
            pass


@SETTINGS
@given(trees)
def test_fast_driver_builds_the_same_tree_as_larks_own_parser(tree: Node) -> None:
    # parse() runs Lark's LALR table through a tighter loop; Lark's driver must agree with it.
    text = to_source(tree)
    tokens = [Token(t.type, t.value, t.start_pos, 1, t.start_pos + 1) for t in _scan(text, None)]
    assert _lark().parse(tokens) == parse(text)
