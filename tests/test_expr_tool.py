"""`davinci expr`: evaluate against a JSON context; value on the last line; exit 1 with the error."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from davinci.engine.expr.tool import run_expr

CONTEXT = {
    "team": {"name": "red", "tokens": 3, "score": 2},
    "teams": [{"name": "red", "score": 2}, {"name": "blue", "score": 4}],
    "hand": [
        {"symbols": ["skull", "eye"], "number": 3},
        {"symbols": ["eye"], "number": 5},
        {"symbols": ["skull"], "number": 1},
    ],
    "row": [1, 4, 9],
    "pile": [],
    "bid": None,
}


@pytest.fixture()
def context(tmp_path: Path) -> str:
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps(CONTEXT), encoding="utf-8")
    return str(path)


def _run(expression: str, context_path: str | None) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = run_expr(expression, context_path, out)
    return code, out.getvalue().splitlines()


@pytest.mark.parametrize(
    ("expression", "type_", "value"),
    [
        ('count(hand where "skull" in symbols) >= 2 and team.score < 3', "bool", True),
        ("max(hand select number)", "int", 5),
        ("teams where score > 2 select name", "list[str]", ["blue"]),
        ("first(hand)", "hand", {"symbols": ["skull", "eye"], "number": 3}),
        ("row + pile", "list[int]", [1, 4, 9]),
        ("coalesce(bid, 0)", "int", 0),
        ('"ink" + "well"', "str", "inkwell"),
    ],
)
def test_prints_type_then_json_value_on_last_line(
    context: str, expression: str, type_: str, value: object
) -> None:
    code, lines = _run(expression, context)
    assert code == 0
    assert lines[-2] == f"type: {type_}"
    assert json.loads(lines[-1]) == value


def test_works_without_a_context() -> None:
    code, lines = _run("2 ** 10 - 24", None)
    assert (code, lines[-1]) == (0, "1000")


@pytest.mark.parametrize(
    ("expression", "fragment"),
    [
        ("team.scroe", "<expr>:1:6: DV041 team has no field 'scroe'; did you mean 'score'?"),
        ("team.score >", "DV040 missing operand after '>'"),
        ("max(pile)", "DV042 max() of an empty list"),
        ('open("x")', "DV041 unknown function 'open'"),
    ],
)
def test_errors_print_with_caret_and_exit_1(context: str, expression: str, fragment: str) -> None:
    code, lines = _run(expression, context)
    assert code == 1
    assert fragment in lines[0]
    assert lines[-1].strip() == "^"


def test_missing_context_file_is_a_usage_error(tmp_path: Path) -> None:
    code, lines = _run("1", str(tmp_path / "absent.json"))
    assert code == 1 and "DV080" in lines[0] and "cannot read the context file" in lines[0]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"x": 1.5}', "numbers must be whole"),
        ('{"x": 99999999999999999999999}', "integer is too large"),
        # `true == 1` held in a list the tool typed list[bool]: the rules have no mixed lists.
        ('{"y": [true, 1]}', "context value y[1]: is an int, but the items before it are a bool: a list's items have one type"),
        # Records of two shapes were merged, and sum() then failed with Python's own words.
        ('{"x": [{"a": 1}, {"a": "s"}]}', "context value x[1].a: is a str, but in the items before it 'a' is an int"),
        ('{"x": [{"a": 1}, 2]}', "context value x[1]: is not a record, but the items before it are records"),
        ('{"x": [2, {"a": 1}]}', "context value x[1]: is a record, but the items before it are not (an int)"),
        # A first value of null or [] let any type follow.
        ('{"x": [{"a": null}, {"a": "x"}, {"a": 1}]}', "context value x[2].a: is an int, but in the items before it"),
    ],
)
def test_bad_context_is_a_usage_error(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, lines = _run("1", str(path))
    assert code == 1 and fragment in lines[0]


def test_objects_in_a_list_get_the_union_of_their_fields(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps({"cards": [{"a": 1}, {"b": "x"}]}), encoding="utf-8")
    code, lines = _run("cards select a", str(path))
    assert code == 0 and json.loads(lines[-1]) == [1, None]


def test_records_of_one_shape_under_several_keys_are_one_kind(tmp_path: Path) -> None:
    # Seven columns of cards and a waste pile could not be joined or compared: "list items have
    # different types: list[col1] and list[col3]", "cannot compare a col1 with a waste".
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps({"col1": [{"suit": "C", "rank": 5}], "col3": [{"suit": "S", "rank": 13}],
                                "waste": [{"suit": "C", "rank": 5}], "chip": {"value": 1}}), encoding="utf-8")
    assert _run("[col1, col3] select len(it)", str(path)) == (0, ["type: list[int]", "[1, 1]"])
    assert _run("col1[0] == waste[0] and col3[0] != waste[0]", str(path))[1][-1] == "true"
    assert _run("col1 + col3 select rank", str(path))[1][-1] == "[5, 13]"
    assert _run("col1[0] == chip", str(path))[0] == 1  # another shape: still another kind


def _feed_pipe(path: Path, text: bytes) -> threading.Thread:
    """Write `text` into the named pipe once a reader opens it (so an old reader fails, not hangs)."""

    def write() -> None:
        try:
            with open(path, "wb") as pipe:
                pipe.write(text)
        except OSError:  # the reader left without reading: that is the point
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_context_that_is_not_a_regular_file_is_refused_without_reading(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # reading a pipe would wait for a writer, forever if none comes
    writer = _feed_pipe(pipe, b"{}")
    code, lines = _run("1", str(pipe))
    os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))  # let the writer go if nobody opened the pipe
    writer.join(5)
    assert code == 1 and "cannot read the context file: not a regular file" in lines[0]
    code, lines = _run("1", "/dev/zero")  # endless: refused before any byte is read
    assert code == 1 and "cannot read the context file: not a regular file" in lines[0]


def test_a_huge_context_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"x": "' + "a" * 5_000_000 + '"}', encoding="utf-8")
    code, lines = _run("1", str(path))
    assert code == 1 and "the context file is larger than" in lines[0]


def test_a_game_helper_is_named_as_one_where_there_is_no_game() -> None:
    out = io.StringIO()
    assert run_expr("text(3)", None, out) == 1
    assert "'text' is an engine helper: it works in game files" in out.getvalue()
    out = io.StringIO()
    assert run_expr("nosuch(3)", None, out) == 1
    assert "engine helper" not in out.getvalue()


def test_a_context_nested_too_deeply_names_the_file(tmp_path: Path) -> None:
    deep: object = 1
    for _ in range(600):
        deep = {"a": deep}
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"x": deep}), encoding="utf-8")
    code, lines = _run("x", str(path))
    assert code == 1
    assert len(lines) == 1 and lines[0].startswith(f"{path}: DV080 context value x.a.a.a")
    assert lines[0].endswith(": is nested more than 64 levels deep")


def test_an_expression_starting_with_a_minus_needs_no_double_dash() -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    result = CliRunner().invoke(main, ["expr", "-1 + 3"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "2"


def test_a_key_given_twice_in_the_context_is_refused(tmp_path: Path) -> None:
    # JSON keeps the last of two equal keys without a word: the first value would be lost silently.
    path = tmp_path / "twice.json"
    path.write_text('{"a": 1, "b": {"c": 1, "c": 2}}', encoding="utf-8")
    code, lines = _run("a", str(path))
    assert code == 1
    assert lines == [f"{path}: DV080 the context file gives the key 'c' twice"]


@pytest.mark.parametrize(("context", "words"), [
    # The type of a list nested 499 deep was printed, then "input is nested too deeply" with no file.
    ('{"x": ' + "[" * 499 + "]" * 499 + "}", "is nested more than 64 levels deep"),
    # Names no expression can use were taken silently.
    ('{"a b": 1}', "context value 'a b': is not a name an expression can use"),
    ('{"x": {"true": 1}}', "context value 'x.true': is not a name an expression can use"),
    ('{"": 1}', "context value '': is not a name an expression can use"),
    ('{"caf\u00e9": 1}', "is not a name an expression can use"),  # the rules' names are ASCII
])
def test_a_context_no_expression_could_read_is_refused_with_its_file(tmp_path: Path, context: str, words: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(context)
    out = io.StringIO()
    assert run_expr("1", str(path), out) == 1
    assert f"{path}: DV080 " in out.getvalue() and words in out.getvalue()


def test_a_misspelt_bare_field_suggests_the_record_it_belongs_to() -> None:
    # In a draw's `where`, `rnak != 8` got no suggestion, while `rank != 8` got "piece.rank".
    from davinci.engine.errors import DavinciError
    from davinci.engine.expr import compile_expr
    from davinci.engine.expr.types import INT, STR, RecordType

    piece, seat = RecordType("piece", {"rank": INT, "suit": STR}), RecordType("seat", {"rank": INT})
    with pytest.raises(DavinciError, match="unknown name 'rnak'; did you mean 'piece.rank'"):
        compile_expr("rnak != 8", {"current": seat, "piece": piece})


def test_a_kind_several_keys_hold_is_named_after_all_of_them(tmp_path: Path) -> None:
    # `me.m` said "hand has no field 'm'": a key the expression never mentioned.
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps({"hand": [{"n": 1}], "tiles": [{"n": 2}], "me": {"n": 5}}), encoding="utf-8")
    code, lines = _run("me.m", str(path))
    assert code == 1 and "hand/tiles/me has no field 'm'" in "\n".join(lines)
    assert _run("tiles", str(path))[1][0] == "type: list[hand/tiles/me]"


def test_a_field_some_records_lack_is_typed_any_and_none_among_numbers_is_said_plainly(tmp_path: Path) -> None:
    # `first(a).m` said `type: int` and gave null; `sum` failed with Python's words for None.
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps({"a": [{"n": 1}, {"n": 2, "m": 3}]}), encoding="utf-8")
    assert _run("first(a).m", str(path)) == (0, ["type: any", "null"])
    code, lines = _run("sum(a select m)", str(path))
    assert code == 1 and "sum() met none among its values" in "\n".join(lines) and "NoneType" not in "\n".join(lines)
