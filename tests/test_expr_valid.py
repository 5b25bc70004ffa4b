"""The expression language, valid side: each expression with the value and type it must produce."""

from __future__ import annotations

from typing import Any

import pytest

from davinci.engine.expr import (
    ANY,
    BOOL,
    BUILTINS,
    INT,
    NONE,
    STR,
    Function,
    ListType,
    RecordType,
    compile_expr,
)


class Rec:
    """A minimal engine record: fields from keyword arguments, equal by identity."""

    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def field(self, name: str) -> Any:
        return self._fields[name]

    def __repr__(self) -> str:
        return f"Rec({self._fields})"


TILE = RecordType("tile", {"number": INT, "colour": STR, "revealed": BOOL})
CARD = RecordType("card", {"symbols": ListType(STR), "symbol": STR, "name": STR})
TEAM = RecordType("team", lambda: {"name": STR, "tokens": INT, "score": INT, "hand": ListType(CARD), "partner": TEAM})

SCOPE = {
    "row": ListType(TILE),
    "hand": ListType(CARD),
    "teams": ListType(TEAM),
    "team": TEAM,
    "roll": INT,
    "word": STR,
    "limit": INT,
    "nothing": NONE,
    "loose": ANY,
}

ROW = [
    Rec(number=1, colour="black", revealed=True),
    Rec(number=4, colour="white", revealed=False),
    Rec(number=4, colour="black", revealed=False),
    Rec(number=9, colour="white", revealed=True),
]
HAND = [
    Rec(symbols=["skull", "eye"], symbol="skull", name="crypt"),
    Rec(symbols=["eye"], symbol="eye", name="lens"),
    Rec(symbols=["skull"], symbol="skull", name="tomb"),
]
RED = Rec(name="red", tokens=3, score=2, hand=HAND)
BLUE = Rec(name="blue", tokens=0, score=5, hand=HAND[1:2])
RED._fields["partner"] = BLUE
BLUE._fields["partner"] = RED

ENV = {
    "row": ROW,
    "hand": HAND,
    "teams": [RED, BLUE],
    "team": RED,
    "roll": 5,
    "word": "quill",
    "limit": 7,
    "nothing": None,
    "loose": [1, 2],
}

VALID: list[tuple[str, Any]] = [
    # literals
    ("42", 42),
    ('"skull"', "skull"),
    ("'eye'", "eye"),
    ('"say \\"hi\\"\\n"', 'say "hi"\n'),
    ("true", True),
    ("false", False),
    ("none", None),
    ("[1, 2, 3]", (1, 2, 3)),
    ("[]", ()),
    ("[1, 2,]", (1, 2)),
    # arithmetic
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("-roll", -5),
    ("- -roll", 5),
    ("7 // 2", 3),
    ("-7 // 2", -4),
    ("7 % 3", 1),
    ("-7 % 3", 2),
    ("2 ** 10", 1024),
    ("-2 ** 2", -4),
    ("2 ** 3 ** 2", 512),
    ("roll - 2 - 1", 2),
    ('"quill" + "s"', "quills"),
    ("[1] + [2, 3]", (1, 2, 3)),
    ("row.number + [10]", (1, 4, 4, 9, 10)),
    ("2 ** 63", 2**63),
    # comparisons
    ("roll == 5", True),
    ("roll != 5", False),
    ("0 <= roll < 5", False),
    ("0 <= roll <= 5", True),
    ("1 < 2 < 3 < 4", True),
    ("3 > 2 > 2", False),
    ('"abc" < "abd"', True),
    ("roll >= limit", False),
    ("nothing == none", True),
    ("team.partner.partner.name == team.name", True),
    ("[1, 2] == [1, 2]", True),
    ("row.number == [1, 4, 4, 9]", True),
    # membership
    ("4 in row.number", True),
    ("5 not in row.number", True),
    ('"ui" in word', True),
    ('"skull" in first(hand).symbols', True),
    # booleans
    ("true and false", False),
    ("true or false", True),
    ("not true", False),
    ("not roll > 3", False),
    ("roll > 3 and roll < 7 or false", True),
    ("false and 1 // 0 == 0", False),
    ("true or 1 // 0 == 0", True),
    # conditional
    ('"big" if roll > 3 else "small"', "big"),
    ("1 if false else 2 if false else 3", 3),
    ("team.score if roll > 10 else none", None),
    # fields
    ("team.tokens", 3),
    ("team.partner.name", "blue"),
    ("teams.name", ("red", "blue")),
    ("team.hand.name", ("crypt", "lens", "tomb")),
    # indexing
    ("row[0].number", 1),
    ("row[-1].colour", "white"),
    ("word[0]", "q"),
    # where / select
    ('count(hand where symbol == "skull")', 2),
    ('count(hand where symbol != "skull")', 1),
    ('count(hand where "eye" in symbols)', 2),
    ("row where revealed select number", (1, 9)),
    ('row where colour == "black" and not revealed select number', (4,)),
    ("row select number * 2", (2, 8, 8, 18)),
    ("row.number where it > 3", (4, 4, 9)),
    ("[1, 2, 3] select it * it", (1, 4, 9)),
    ("any(teams where score >= 3)", True),
    ("all(teams select tokens >= 0)", True),
    ("teams where tokens > 0 select name", ("red",)),
    ("teams where count(hand where symbol == name) == 0 select name", ("red", "blue")),
    ("teams where count(hand where it.name == partner.name) == 0 select name", ("red", "blue")),
    ("teams where any(hand select symbol == \"eye\") select tokens", (3, 0)),
    ("max(row select number)", 9),
    # conditions that compare one field with a literal take a faster path; same results
    ("row where number > 3 select number", (4, 4, 9)),
    ("row where 3 < number select number", (4, 4, 9)),
    ("count(row where number >= 4)", 3),
    ("count(row where number <= -1)", 0),
    ('row where colour in ["black"] select number', (1, 4)),
    ('row where colour not in ["black"] select number', (4, 9)),
    ('count(hand where "skull" not in symbols)', 1),
    ('row where colour != "black" select number', (4, 9)),
    ('(row where revealed) where colour == "white" select number', (9,)),
    ('count(teams.hand[0] where symbol == "eye")', 1),
    ('count(flatten(teams.hand) where symbol == "eye")', 2),
    ('count(hand where symbol == "skull") >= 2 and team.score < 3', True),
    # functions
    ("count(row)", 4),
    ("count(row.number, 4)", 2),
    ("len(row)", 4),
    ('len("quill")', 5),
    ("sum(row.number)", 18),
    ("sum([])", 0),
    ("min(row.number)", 1),
    ("max(3, roll, 2)", 5),
    ("min(roll, limit)", 5),
    ('max(["a", "c", "b"])', "c"),
    ("any([false, false])", False),
    ("any([])", False),
    ("all([])", True),
    ("any(hand)", True),
    ("distinct(row.colour)", ("black", "white")),
    ("distinct([[1], [1], [2]])", ((1,), (2,))),
    ("abs(roll - 9)", 4),
    ("sorted([3, 1, 2])", (1, 2, 3)),
    ("is_sorted(row.number)", True),
    ("is_sorted([2, 1])", False),
    ("reversed([1, 2, 3])", (3, 2, 1)),
    ("first(row).number", 1),
    ("last(row.number)", 9),
    ('contains(word, "qu")', True),
    ("contains(row.number, 9)", True),
    ("index_of(row.number, 4)", 1),
    ("index_of(row.number, 5)", -1),
    ("range(3)", (0, 1, 2)),
    ("range(2, 5)", (2, 3, 4)),
    ("flatten(teams select hand) select name", ("crypt", "lens", "tomb", "lens")),
    ("clamp(roll + 10, 0, 7)", 7),
    ("coalesce(nothing, 3)", 3),
    ("coalesce(none, none)", None),
    # any-typed values are checked when evaluated
    ("loose + [3]", (1, 2, 3)),
    ("len(loose)", 2),
]


@pytest.mark.parametrize(("source", "expected"), VALID)
def test_valid_expression_evaluates_to_expected_value(source: str, expected: Any) -> None:
    compiled = compile_expr(source, SCOPE)
    value = compiled(ENV)
    assert value == expected
    assert type(value) is type(expected)


TYPES = [
    ("roll + 1", INT),
    ("roll > 1", BOOL),
    ('word + "s"', STR),
    ("row select number", ListType(INT)),
    ("row where revealed", ListType(TILE)),
    ("teams.hand", ListType(ListType(CARD))),
    ("team.partner", TEAM),
    ("first(row)", TILE),
    ("max(row.number)", INT),
    ("[]", ListType(ANY)),
    ("none", NONE),
    ("roll if true else none", INT),
    ("[1] + []", ListType(INT)),
]


@pytest.mark.parametrize(("source", "expected"), TYPES)
def test_static_type_of_expression(source: str, expected: Any) -> None:
    assert compile_expr(source, SCOPE).type == expected


def test_expect_accepts_matching_type() -> None:
    assert compile_expr("roll > 2", SCOPE, expect=BOOL)(ENV) is True


def test_compiled_records_the_names_it_reads() -> None:
    compiled = compile_expr("count(hand where symbol == word) + roll", SCOPE)
    assert compiled.names == frozenset({"hand", "word", "roll"})


def test_element_fields_shadow_outer_names() -> None:
    scope = {"row": ListType(TILE), "number": INT}
    compiled = compile_expr("row where number == 4 select number", scope)
    assert compiled({"row": ROW, "number": 1}) == (4, 4)


def test_library_extension_adds_a_function_without_changing_builtins() -> None:
    double = Function("double", "Twice the int.", ("double(2)",), (INT,), INT, lambda n: 2 * n)
    library = BUILTINS.extend([double])
    assert "double" in library and "double" not in BUILTINS
    assert compile_expr("double(roll) + 1", SCOPE, functions=library)(ENV) == 11


def test_function_with_type_rule_receives_argument_types() -> None:
    seen: list[list[Any]] = []

    def rule(args: list[Any]) -> Any:
        seen.append(args)
        return args[0]

    ident = Function("ident", "The argument.", (), (ANY,), rule, lambda x: x)
    compiled = compile_expr("ident(row)", SCOPE, functions=BUILTINS.extend([ident]))
    assert compiled.type == ListType(TILE)
    assert seen == [[ListType(TILE)]]


def test_lazy_record_fields_allow_recursive_types() -> None:
    assert compile_expr("team.partner.partner.partner.tokens", SCOPE)(ENV) == 0


def test_engine_lists_and_expression_lists_compare_equal() -> None:
    compiled = compile_expr("loose == [1, 2]", SCOPE)
    assert compiled(ENV) is True
    assert compiled({**ENV, "loose": (1, 2)}) is True
