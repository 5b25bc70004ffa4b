"""The expression language, invalid side: each mistake gives its error class, words and column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from davinci.engine.errors import EvalError, ExprSyntaxError, ExprTypeError, SourceLocation
from davinci.engine.expr import BOOL, INT, STR, ListType, RecordType, compile_expr

TILE = RecordType("tile", {"number": INT, "colour": STR, "revealed": BOOL})
SEAT = RecordType("seat", {"score": INT, "tokens": INT, "name": STR})
SCOPE = {"row": ListType(TILE), "seat": SEAT, "roll": INT, "word": STR, "hand": ListType(TILE)}


class Rec:
    def __init__(self, **fields: Any) -> None:
        self._fields = fields

    def field(self, name: str) -> Any:
        return self._fields[name]


ENV = {
    "row": [Rec(number=3, colour="black", revealed=False)],
    "seat": Rec(score=1, tokens=2, name="red"),
    "roll": 0,
    "word": "ink",
    "hand": [],
}

SYNTAX: list[tuple[str, str, int]] = [
    ("roll > 1 and", "missing operand after 'and'", 13),
    ("roll >", "missing operand after '>'", 7),
    ("1 +* 2", "missing operand after '+'", 4),
    ("(roll + 1", "unclosed '('", 1),
    ("max([1, 2)", "unexpected ')'", 10),
    ("roll + 1)", "unexpected ')'", 9),
    ("[1, 2", "unclosed '['", 1),
    ("roll roll", "missing operator between name 'roll' and name 'roll'", 6),
    ("1 2", "missing operator", 3),
    ("roll = 2", "use '=='", 6),
    ("roll => 2", "unexpected '=>': did you mean '>='?", 6),
    ("roll =< 2", "did you mean '<='?", 6),
    ("roll && true", "use 'and'", 6),
    ("!true", "use 'not'", 1),
    ("7 / 2", "use '//'", 3),
    ("1 if roll > 0", "missing 'else'", 14),
    ("if roll then 1 else 2", "cannot start with 'if'", 1),
    ("and roll", "cannot start with 'and'", 1),
    ("seat.", "missing field name after '.'", 6),
    ("seat.in", "reserved word", 6),
    ("roll not 3", "expected 'in' after 'not'", 10),
    ("()", "empty parentheses", 2),
    ("[1,,2]", "expected a value after ','", 4),
    ("1, 2", "unexpected ','", 2),
    ("roll else 2", "'else' without 'if'", 6),
    ('"unclosed', "unclosed string", 1),
    ('"bad \\q"', "unknown escape", 6),
    ("seat.name.upper()", "cannot be called", 16),
    ("3 (4)", "missing operator before '('", 3),
    ("roll $ 2", "unexpected character '$'", 6),
    ("[1, 2, 3][0:2]", "no slices; for xs[0:2] write range(0, 2) select xs[it]", 12),
    ("[1, 2, 3][1:]", "no slices; for xs[1:] write range(1, len(xs)) select xs[it]", 12),
    ("99999999999999999999", "integer literal is too large", 1),
    ("9223372036854775809", "integer literal is too large", 1),
    ("row where", "missing operand after 'where'", 10),
]


@pytest.mark.parametrize(("source", "fragment", "column"), SYNTAX)
def test_syntax_error_is_described_in_words_at_its_column(source: str, fragment: str, column: int) -> None:
    with pytest.raises(ExprSyntaxError) as info:
        compile_expr(source, SCOPE)
    err = info.value
    assert fragment in err.message
    assert err.location == SourceLocation("<expr>", 1, column)
    # The message shows the expression and a caret under the column.
    lines = err.message.splitlines()
    assert lines[-1].index("^") - 4 == column - 1
    assert "Token" not in err.message and "$END" not in err.message


@pytest.mark.parametrize("source", ["", "   "])
def test_an_empty_expression_says_how_to_write_an_empty_text(source: str) -> None:
    # `lead_suit: ''` in YAML is an empty expression: the message was "empty expression" over a
    # blank excerpt, with nothing said of the quotes an empty text needs.
    with pytest.raises(ExprSyntaxError) as info:
        compile_expr(source, SCOPE)
    assert info.value.message == ("empty expression (an empty text is written with its quotes inside the YAML "
                                  "string: \"''\")")
    assert info.value.location == SourceLocation("<expr>", 1, 1)


TYPE: list[tuple[str, str, int]] = [
    ('open("x")', "unknown function 'open'", 1),
    ('__import__("os")', "unknown function '__import__'", 1),
    ("coutn(row)", "did you mean 'count'?", 1),
    ("seat.scroe", "seat has no field 'scroe'; did you mean 'score'?", 6),
    ("seat.__class__", "seat has no field '__class__'", 6),
    ("rol + 1", "unknown name 'rol'; did you mean 'roll'?", 1),
    ("tokens > 1", "did you mean 'seat.tokens'?", 1),
    ("it", "only defined inside 'where' or 'select'", 1),
    ("seat()", "'seat' is not a function", 1),
    ("max", "is a function", 1),
    ('"a" < 3', "cannot compare a str with an int using '<'", 5),
    ('roll == "3"', "cannot compare an int with a str", 6),
    ("0 < roll < word", "cannot compare an int with a str using '<'", 10),
    ("seat < seat", "cannot compare a seat with a seat", 6),
    ('1 + "a"', "'+' adds two ints", 3),
    ("word - 1", "'-' needs ints", 1),
    ("-word", "unary '-' needs an int", 2),
    ("roll and true", "'and' needs a bool, got an int", 1),
    ("not roll", "'not' needs a bool", 5),
    ('1 if roll else 2', "condition of 'if' needs a bool", 6),
    ('1 if true else "a"', "different types: int and str", 3),
    ('[1, "a"]', "list items have different types", 5),
    ("roll.x", "an int has no fields", 6),
    ("roll[0]", "cannot index an int", 5),
    ('row["a"]', "an index must be an int", 5),
    ("row where number", "condition after 'where' needs a bool", 11),
    ("roll where true", "'where' needs a list on its left, got an int", 6),
    ("roll select 1", "'select' needs a list", 6),
    ("row where colr == 1", "did you mean 'colour'?", 11),
    ("count()", "count() takes 1 to 2 arguments, got 0", 1),
    ("abs(1, 2)", "abs() takes 1 argument, got 2", 1),
    ("max()", "max() takes at least 1 argument", 1),
    ('abs("a")', "argument 1 of abs() must be an int, got a str", 5),
    ("sum(row)", "argument 1 of sum() must be a list[int], got a list[tile]", 5),
    ("max(row)", "max() needs a list of int or str", 1),
    ("max(1, word)", "max() needs int or str arguments of one type", 1),
    ("sorted(row)", "sorted() needs a list of int or str", 1),
    ("len(roll)", "len() expects a list or a str", 1),
    ("first(roll)", "must be a list[any]", 7),
    ("1 in word", "'in' on a str looks for a str", 3),
    ('"a" in row.number', "'in' looks for an int, got a str", 5),
    ("1 in roll", "'in' needs a list or a str on its right", 3),
    ('count(row.number, "a")', "count() looks for an int", 1),
    ("flatten(row)", "argument 1 of flatten() must be a list[list[any]]", 9),
    ("roll == 1 or True", "unknown name 'True': the rules write true", 14),
    ("roll == None", "unknown name 'None': the rules write none", 9),
    ('index_of(row.number, "a")', "index_of() looks for an int", 1),
    # One bare word is most often a text quoted only for YAML (`{phase: 'guess'}`).
    ("guess", "unknown name 'guess' (a text is quoted inside the YAML string: \"'guess'\")", 1),
    ("rol", "unknown name 'rol' (a text is quoted inside the YAML string: \"'rol'\"), or did you mean 'roll'?", 1),
]


@pytest.mark.parametrize(("source", "fragment", "column"), TYPE)
def test_type_error_names_the_mistake_at_its_column(source: str, fragment: str, column: int) -> None:
    with pytest.raises(ExprTypeError) as info:
        compile_expr(source, SCOPE)
    assert fragment in info.value.message
    assert info.value.location == SourceLocation("<expr>", 1, column)


def test_expect_rejects_other_type() -> None:
    with pytest.raises(ExprTypeError, match="expected a bool here, got an int"):
        compile_expr("roll + 1", SCOPE, expect=BOOL)


EVAL: list[tuple[str, str, int]] = [
    ("1 // roll", "division by zero", 3),
    ("1 % roll", "division by zero", 3),
    ("max(hand.number)", "max() of an empty list", 1),
    ("min([])", "min() of an empty list", 1),
    ("first(hand)", "first() of an empty list", 1),
    ("last([])", "last() of an empty list", 1),
    ("row[5]", "index 5 is outside a list of 1", 4),
    ("2 ** 63 * 2", "integer result is out of range", 9),
    ("2 ** 63 + 1", "integer result is out of range", 9),
    ("-(2 ** 63) - 1", "integer result is out of range", 12),
    ("9 ** 9 ** 9 ** 9", "integer result is out of range", 8),
    ("2 ** -1", "exponent of 0 or more", 3),
    ("sum([2 ** 62, 2 ** 62, 2 ** 62])", "integer result is out of range", 1),
    ("range(100000)", "range() of more than", 1),
    ("clamp(1, 5, 2)", "lower bound 5 above upper bound 2", 1),
]


@pytest.mark.parametrize(("source", "fragment", "column"), EVAL)
def test_runtime_failure_is_an_eval_error_at_the_failing_operator(source: str, fragment: str, column: int) -> None:
    compiled = compile_expr(source, SCOPE)
    with pytest.raises(EvalError) as info:
        compiled(ENV)
    assert fragment in info.value.message
    assert info.value.location == SourceLocation("<expr>", 1, column)
    assert source.strip() in info.value.message  # the message shows the expression


def test_locate_maps_offsets_into_the_yaml_file() -> None:
    def locate(offset: int) -> SourceLocation:
        return SourceLocation("games/x.yaml", 12, 9 + offset)

    with pytest.raises(ExprTypeError) as info:
        compile_expr("seat.scroe > 1", SCOPE, locate=locate)
    assert info.value.location == SourceLocation("games/x.yaml", 12, 14)
    assert str(info.value).startswith("games/x.yaml:12:14: DV041 seat has no field 'scroe'")

    compiled = compile_expr("1 // roll", SCOPE, locate=locate)
    with pytest.raises(EvalError) as ev:
        compiled(ENV)
    assert ev.value.location == SourceLocation("games/x.yaml", 12, 11)


def test_multiline_source_reports_line_and_column() -> None:
    source = "roll > 1\n  and seat.scroe"
    with pytest.raises(ExprTypeError) as info:
        compile_expr(source, SCOPE)
    assert info.value.location == SourceLocation("<expr>", 2, 12)
    assert "and seat.scroe" in info.value.message


def test_missing_environment_value_is_an_eval_error() -> None:
    compiled = compile_expr("roll + 1", SCOPE)
    with pytest.raises(EvalError, match="no value for 'roll'"):
        compiled({})


def test_engine_value_of_the_wrong_kind_is_an_eval_error() -> None:
    compiled = compile_expr("seat.score + 1", SCOPE)
    with pytest.raises(EvalError):
        compiled({"seat": Rec(score=None)})
    with pytest.raises(EvalError, match="cannot read field 'score' of none"):
        compiled({"seat": None})


def test_python_wording_never_reaches_the_author() -> None:
    # A value the rules let be none at run time (a field of a record that has none).
    compiled = compile_expr("roll + seat.score", SCOPE)
    with pytest.raises(EvalError, match="cannot apply \\+ to int and none") as info:
        compiled({"roll": 1, "seat": Rec(score=None)})
    assert "NoneType" not in info.value.message and "operand" not in info.value.message
    compiled = compile_expr("seat.score > roll", SCOPE)
    with pytest.raises(EvalError, match="cannot compare none with int using >"):
        compiled({"roll": 1, "seat": Rec(score=None)})


def test_record_raising_eval_error_is_located() -> None:
    class Broken:
        def field(self, name: str) -> Any:
            raise EvalError(f"no such field {name}")

    compiled = compile_expr("roll + seat.score", SCOPE)
    with pytest.raises(EvalError) as info:
        compiled({"roll": 1, "seat": Broken()})
    assert info.value.location == SourceLocation("<expr>", 1, 13)


def test_filter_over_missing_list_or_field_is_an_eval_error() -> None:
    compiled = compile_expr("count(hand where number > 2)", SCOPE)
    with pytest.raises(EvalError, match="'where' needs a list, got none"):
        compiled({"hand": None})
    with pytest.raises(EvalError, match="could not test field 'number'"):
        compiled({"hand": [Rec(number=None)]})
    with pytest.raises(EvalError, match="cannot read field 'number' of an element that is not a record"):
        compiled({"hand": [3]})


def test_a_number_where_a_seat_is_expected_says_how_to_name_seat_n() -> None:
    seat = RecordType("seat", {"index": INT}, "a seat")
    with pytest.raises(ExprTypeError, match=r"expected a seat here, got an int \(seat number N is `first\(seats where index == N\)`"):
        compile_expr("1", {}, expect=seat)


def test_an_index_past_the_end_of_a_text_says_text() -> None:
    with pytest.raises(EvalError) as e:
        compile_expr('"abc"[10]', SCOPE)(ENV)
    assert "index 10 is outside a text of 3 characters" in e.value.message


def test_a_failure_deep_in_a_chain_of_definitions_is_reported_where_it_happens(tmp_path: Path) -> None:
    # `outer` uses `middle` inside a select, `middle` uses `inner`, and `inner` fails: the error
    # was placed at outer's first line with inner's excerpt, sending the author to the wrong line.
    from helpers import write_game_pack

    from davinci.engine.lint.runner import lint_paths

    game = """kind: game
id: defchain
name: Def chain
players: {min: 2, max: 2}
define:
  inner:
    args: {n: int}
    value: "[10, 20][n]"
  middle:
    args: {n: int}
    value: "inner(n) + 1"
  outer:
    args: {n: int}
    value: "sum(range(3) select middle(it + n))"
flow:
  turn:
    - choose:
        options:
          - action: go
            args: {k: "range(1, 3)"}
            when: "outer(k) > 0"
            do: []
end:
  when: "turn > 4"
  winners: "seats where index == 1"
"""
    problems = lint_paths([write_game_pack(tmp_path, "defchain", game)])
    assert [(p.code, p.location.line, p.location.col) for p in problems] == [("DV042", 8, 21)]
    assert "index 2 is outside a list of 2" in problems[0].message and "sum(range(3)" not in problems[0].message


def test_a_bare_field_of_untyped_elements_says_to_write_it_dot_field() -> None:
    # A variable declared `null` is of any type: "unknown name 'seat_no'; did you mean
    # 'pawn.seat_no'?" sent the author to another name, where `it.seat_no` was meant.
    from davinci.engine.expr import ANY

    with pytest.raises(ExprTypeError) as info:
        compile_expr("land.pieces where seat_no != 1", {"land": ANY})
    assert info.value.message.startswith("unknown name 'seat_no': the elements of this list have no known fields")
    assert "write 'it.seat_no'" in info.value.message
    compile_expr("land.pieces where it.seat_no != 1", {"land": ANY})  # (read as it comes)


def test_one_mistake_in_a_definition_is_one_error_not_another_where_it_is_used(tmp_path: Path) -> None:
    # `colours_at` used the broken `at` and got "unknown name 'top'" with advice that was wrong.
    from helpers import write_game_pack

    from davinci.engine.lint.runner import lint_paths

    game = """kind: game
id: cascade
name: Cascade
players: {min: 2, max: 2}
components:
  blank: {fields: {colour: str}, items: [{colour: "."}], copies: 4}
zones:
  box: {kind: pile, visibility: public, contents: [blank]}
  board: {kind: grid, width: 2, height: 2, visibility: public}
define:
  at:
    args: {x: int, y: int}
    value: "board.cells where x == x and y == y"
  colours_at:
    args: {cx: int}
    value: "at(cx, 0) select top.colour"
flow:
  turn:
    - choose:
        options:
          - action: go
            if: "len(colours_at(0)) >= 0"
            do: []
end:
  when: "turn > 2"
  winners: "seats where index == 1"
"""
    problems = lint_paths([write_game_pack(tmp_path, "cascade", game)])
    assert [(p.code, p.location.line) for p in problems] == [("DV041", 13)], problems


def test_an_if_swallowed_by_a_where_says_to_put_the_query_in_parentheses() -> None:
    with pytest.raises(ExprTypeError) as info:
        compile_expr("[1, 2] where it > 1 if true else [3]", SCOPE)
    assert "put the query in parentheses, (xs where ...) if c else ys" in info.value.message
    compile_expr("([1, 2] where it > 1) if true else [3]", SCOPE)


@pytest.mark.parametrize("source", ["[1, none][1] + 1", "[1, none][1] - [2][0]", "[1, none][1] * 3",
                                    "[1, none][1] // 2", "[1, none][1] % 2"])
def test_a_none_met_in_arithmetic_is_reported_at_the_operator(source: str) -> None:
    # It was reported at column 1, under the expression's start.
    with pytest.raises(EvalError) as info:
        compile_expr(source, SCOPE)({})
    assert "cannot apply" in info.value.message and "to none and int" in info.value.message
    assert info.value.location == SourceLocation("<expr>", 1, 14)


def test_a_none_negated_says_so_in_the_rules_words() -> None:
    # "bad operand type for unary -: 'none'" was Python's wording.
    with pytest.raises(EvalError) as info:
        compile_expr("-[1, none][1]", SCOPE)({})
    assert "unary '-' needs an int, got none" in info.value.message
    assert info.value.location == SourceLocation("<expr>", 1, 1)
