"""The strict loader: scalar resolution, hazards with positions, limits, and source mapping."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from davinci.engine.errors import PackError, UsageError, YamlError
from davinci.engine.yamlload import load_yaml_file, load_yaml_text


def load(text: str) -> object:
    return load_yaml_text(text, "t.yaml").data


def error(text: str | bytes, **kw: int) -> YamlError:
    with pytest.raises(YamlError) as info:
        load_yaml_text(text, "t.yaml", **kw)
    return info.value


# ---- scalars --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("NO", "NO"), ("no", "no"), ("yes", "yes"), ("Yes", "Yes"), ("on", "on"), ("off", "off"),
        ("y", "y"), ("true", True), ("false", False), ("True", True), ("FALSE", False),
        ("null", None), ("~", None), ("", None),
        ("12", 12), ("-3", -3), ("0", 0), ("017", "017"), ("0x1F", "0x1F"), ("0o17", "0o17"),
        ("1:20", "1:20"), ("1_000", "1_000"),
        ("1.5", 1.5), ("2e3", 2000.0), ("1.", 1.0), (".5", 0.5),
        ("'12'", "12"), ('"true"', "true"), ("!!str 12", "12"),
        ("2001-12-14", "2001-12-14"),
    ],
)
def test_scalar_resolution_has_no_yaml11_surprises(text: str, value: object) -> None:
    data = load(f"v: {text}\n")
    assert isinstance(data, dict)
    assert data["v"] == value
    assert type(data["v"]) is type(value)


def test_mapping_keys_are_strings_as_written() -> None:
    assert load("1: a\ntrue: b\nnull: c\n") == {"1": "a", "true": "b", "null": "c"}


def test_empty_file_is_none() -> None:
    assert load("") is None
    assert load("# only a comment\n") is None


def test_huge_integer_stays_text() -> None:
    digits = "9" * 5000
    assert load(f"v: {digits}\n") == {"v": digits}


# ---- hazards --------------------------------------------------------------------------------

def test_syntax_error_position() -> None:
    e = error("a: 1\nb: [1, 2\nc: 3\n")
    assert e.code == "DV001"
    assert e.location is not None and e.location.line >= 2


def test_duplicate_key_in_flow_mapping() -> None:
    e = error("a: {x: 1, y: 2, x: 3}\n")
    assert (e.code, e.location and (e.location.line, e.location.col)) == ("DV002", (1, 17))


def test_alias_rejected_with_position() -> None:
    e = error("a: 1\nb: *a\n")
    assert e.code in ("DV001", "DV003")  # an undefined alias may be a parse error first
    e = error("a: &x 1\n")
    assert (e.code, e.location and e.location.col) == ("DV003", 4)


def test_tags_rejected() -> None:
    assert error("a: !!binary aGVsbG8=\n").code == "DV009"
    assert error("a: !custom 1\n").code == "DV009"
    assert error("a: !!set {x}\n").code == "DV009"


def test_size_cap_bytes_and_text() -> None:
    assert error(b"a: 1\n" * 100, max_bytes=50).code == "DV006"
    assert error("a: 1\n" * 100, max_bytes=50).code == "DV006"
    assert error("é" * 40, max_bytes=50).code == "DV006"  # 80 bytes in UTF-8


def test_depth_cap_is_checked_without_recursion() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    start = time.perf_counter()
    e = error(deep)
    assert e.code == "DV007"
    assert time.perf_counter() - start < 2
    nested_blocks = "".join("  " * i + "k:\n" for i in range(70))
    assert error(nested_blocks).code == "DV007"
    assert load("[" * 64 + "]" * 64) is not None
    assert error("[" * 65 + "]" * 65).code == "DV007"
    assert error("[" * 10 + "]" * 10, max_depth=5).code == "DV007"


def test_second_document_rejected() -> None:
    e = error("a: 1\n---\nb: 2\n")
    assert (e.code, e.location and e.location.line) == ("DV008", 2)
    assert load("---\na: 1\n...\n") == {"a": 1}


def test_encoding_hazards() -> None:
    assert error(b"a: \xff\n").code == "DV005"
    assert error("a: \x00\n").code == "DV005"
    assert error("a: \ud800\n").code == "DV005"  # lone surrogate in a str
    assert error(b"\xfe\xff\x00a").code == "DV005"
    assert load_yaml_text(b"\xef\xbb\xbfa: 1\n").data == {"a": 1}


@pytest.mark.parametrize(
    ("text", "where", "char"),
    [
        ('name: "Nim\\e]2;pwned\\a\\e[31mRED"\n', (1, 11), "U+001B (written '\\e')"),  # window title, colour
        ('prompt: "\\e[2JFlip"\n', (1, 10), "U+001B"),  # clears the screen
        ('a: ok\nb: "one \\x07 bell"\n', (2, 9), "U+0007 (written '\\x07')"),
        ('a: "\\u009b2J"\n', (1, 5), "U+009B"),  # the one-character C1 form of ESC [
        ('a: "x\\U0000007f"\n', (1, 6), "U+007F"),
        ('a: "back\\rover"\n', (1, 9), "U+000D"),  # a carriage return overwrites the line
        ('a: "line\\\n  \\N"\n', (2, 3), "U+0085"),
        ('"key\\e": 1\n', (1, 5), "U+001B"),  # keys too
        ('a: ["x", "\\0"]\n', (1, 11), "U+0000"),
    ],
)
def test_control_characters_written_as_escapes(text: str, where: tuple[int, int], char: str) -> None:
    e = error(text)
    assert e.code == "DV005"
    assert e.location is not None and (e.location.line, e.location.col) == where
    assert f"control character {char}" in e.message


@pytest.mark.parametrize(
    ("text", "where", "char"),
    [
        ("name: Nim \u202eevil\n", (1, 11), "U+202E"),  # raw, in a plain scalar: turns the rest around
        ("a: ok\ntext: |\n  one\n  two \u2067x\n", (4, 7), "U+2067"),  # in a block scalar
        ("a: 'it''s \u202a'\n", (1, 11), "U+202A"),
        ('a: "x\\u2066y"\n', (1, 6), "U+2066 (written '\\u2066')"),  # written as an escape
        ("\u202dkey: 1\n", (1, 1), "U+202D"),  # keys too
    ],
)
def test_direction_controls_refused_in_any_text(text: str, where: tuple[int, int], char: str) -> None:
    e = error(text)
    assert e.code == "DV005"
    assert e.location is not None and (e.location.line, e.location.col) == where
    assert f"direction character {char} is not allowed" in e.message


@pytest.mark.parametrize(("text", "where", "words"), [
    ("a: 1\n# a comment\u2028tokens: 9\n", (2, 12), "line separator U+2028"),  # a key hidden in a comment
    ("a: 'one\u2029two'\n", (1, 8), "paragraph separator U+2029"),
    ("a: 1\n# keep it short\x85max_turns: 2\n", (2, 16), "next-line character U+0085"),  # NEL hid a key too
    ("name: Co\x85in\n", (1, 9), "next-line character U+0085"),
])
def test_unicode_line_separators_are_refused(text: str, where: tuple[int, int], words: str) -> None:
    # YAML reads them as line breaks that editors, diff and grep do not show.
    e = error(text)
    assert e.code == "DV005" and words in e.message
    assert e.location is not None and (e.location.line, e.location.col) == where


def test_direction_marks_and_right_to_left_text_are_allowed() -> None:
    # The marks only set the direction of nearby neutral characters; Hebrew and Arabic text is fine.
    assert load("a: \u200f\u05e9\u05dc\u05d5\u05dd \u200e\u061c\n") == {"a": "\u200f\u05e9\u05dc\u05d5\u05dd \u200e\u061c"}


def test_escapes_that_are_plain_text_stay_allowed() -> None:
    assert load('a: "tab\\tand\\nnewline"\nb: "\\\\e is a backslash and e"\nc: \'\\e\'\n') == {
        "a": "tab\tand\nnewline", "b": "\\e is a backslash and e", "c": "\\e"}
    # Other styles have no escapes; their CR line breaks are read as line feeds (a raw NEL is refused).
    assert load("a: |\n  x\r\n  y\n") == {"a": "x\ny\n"}


def test_tab_in_indentation_but_not_in_text() -> None:
    assert error("a:\n\tb: 1\n").code == "DV004"
    assert load("a: 'x\ty'\nb: |\n  col1\tcol2\n") == {"a": "x\ty", "b": "col1\tcol2\n"}


# ---- positions ------------------------------------------------------------------------------

DOC = """\
deck:
  id: codex
  cards:
    - id: c-1
      answer: "Mona Lisa"
    - {id: c-2, answer: 7}
"""


def test_loc_of_values_and_keys() -> None:
    doc = load_yaml_text(DOC, "d.yaml")
    assert str(doc.loc(["deck", "id"])) == "d.yaml:2:7"
    assert str(doc.loc(["deck", "id"], key=True)) == "d.yaml:2:3"
    assert str(doc.loc(["deck", "cards", 0])) == "d.yaml:4:7"
    assert str(doc.loc(["deck", "cards", 1, "answer"])) == "d.yaml:6:25"
    assert str(doc.loc(["deck", "cards", 1, "answer"], key=True)) == "d.yaml:6:17"


def test_loc_of_missing_path_is_nearest_ancestor() -> None:
    doc = load_yaml_text(DOC, "d.yaml")
    assert doc.loc(["deck", "cards", 0, "nope"]) == doc.loc(["deck", "cards", 0])
    assert doc.loc(["deck", "cards", 9]) == doc.loc(["deck", "cards"])
    assert doc.loc(["deck", "id", "deeper"]) == doc.loc(["deck", "id"])
    assert doc.loc([]).line == 1


def scalar_positions(text: str, path: list[str | int]) -> list[str]:
    """The raw character each parsed character maps back to (`\\n` for line ends)."""
    doc = load_yaml_text(text)
    lines = text.split("\n")
    value = doc.data
    for p in path:
        value = value[p]
    out = []
    for i in range(len(value)):
        loc = doc.scalar_loc(path, i)
        line = lines[loc.line - 1]
        out.append(line[loc.col - 1] if loc.col <= len(line) else "\n")
    return out


@pytest.mark.parametrize(
    "text",
    [
        "v: plain words here\n",
        "v: 'single ''quoted'' text'\n",
        'v: "tab\\there, \\u00e9t\\u00e9"\n',
        "v: |\n  line one\n    indented\n  three\n",
        "v: >-\n  folded one\n  folded two\n\n  second para\n",
        "v: multi line\n  plain scalar\n",
        "v: 'quoted over\n\n  two lines'\n",
        "k:\n  - |+\n    keep\n\n",
    ],
)
def test_scalar_loc_maps_every_character_back(text: str) -> None:
    doc = load_yaml_text(text)
    path: list[str | int] = ["k", 0] if "k:" in text else ["v"]
    value = doc.data["k"][0] if "k:" in text else doc.data["v"]
    raw = scalar_positions(text, path)
    for ch, src in zip(value, raw):
        if ch == "\n" or (ch == " " and src == "\n"):
            continue  # folded line breaks map to the break
        if ch in "\t\u00e9'" and src in "\\'":
            continue  # escapes map to their backslash or quote
        assert ch == src


def test_scalar_loc_points_inside_a_rule_expression() -> None:
    text = 'when: "count(hand) >= 2 and bogus(1)"\n'
    doc = load_yaml_text(text, "g.yaml")
    offset = doc.data["when"].index("bogus")
    assert str(doc.scalar_loc(["when"], offset)) == "g.yaml:1:29"
    block = "when: |\n  count(hand) >= 2\n  and bogus(1)\n"
    doc = load_yaml_text(block, "g.yaml")
    offset = doc.data["when"].index("bogus")
    assert str(doc.scalar_loc(["when"], offset)) == "g.yaml:3:7"


def test_scalar_loc_of_non_string_falls_back_to_value() -> None:
    doc = load_yaml_text("n: 12\n")
    assert doc.scalar_loc(["n"], 1) == doc.loc(["n"])


# ---- files ----------------------------------------------------------------------------------

def test_file_outside_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "pack"
    root.mkdir()
    outside = tmp_path / "secret.yaml"
    outside.write_text("a: 1\n")
    (root / "link.yaml").symlink_to(outside)
    with pytest.raises(PackError):
        load_yaml_file(root / ".." / "secret.yaml", root=root)
    with pytest.raises(PackError):
        load_yaml_file(root / "link.yaml", root=root)
    with pytest.raises(PackError):
        load_yaml_file(outside, root=root)


def test_file_size_checked_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as fh:
        fh.truncate(6 * 2**20)  # sparse: cheap to create
    with pytest.raises(YamlError) as info:
        load_yaml_file(big)
    assert info.value.code == "DV006"


def test_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        load_yaml_file(tmp_path / "missing.yaml")
    if os.name == "posix":
        with pytest.raises(UsageError):
            load_yaml_file(tmp_path)  # a folder


def test_display_path_is_used_in_errors(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("a: 1\na: 2\n")
    with pytest.raises(YamlError) as info:
        load_yaml_file(f, display="shown/x.yaml")
    assert str(info.value).startswith("shown/x.yaml:2:1: DV002")


def test_ten_thousand_cards_load_quickly() -> None:
    card = (
        "  - id: c-{i}\n    difficulty: 2\n    clue: |\n      A line of clue text for card {i}\n"
        "      and a second line for it\n    answer: word{i}\n    letters: 5\n"
    )
    text = "kind: deck\ncards:\n" + "".join(card.format(i=i) for i in range(10_000))
    # CPU time, not wall time: a busy machine must not fail this. It guards against a loader that
    # goes quadratic (the speed target itself is measured by benchmarks/run.py).
    start = time.process_time()
    doc = load_yaml_text(text)
    elapsed = time.process_time() - start
    assert len(doc.data["cards"]) == 10_000
    assert elapsed < 3  # ~0.3 s


def test_a_file_of_more_values_than_any_deck_needs_is_refused_while_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    # 485,000 one-line keys fit in the size cap: seconds to parse, then one did-you-mean each.
    from davinci.engine import yamlload

    monkeypatch.setattr(yamlload, "MAX_VALUES", 1000)
    err = error("".join(f"k{i}: 1\n" for i in range(600)))
    assert err.code == "DV006" and "more than 1,000 values" in err.message and err.location.line == 500
    # The mapping itself and 499 keys with their values: 999.
    assert load_yaml_text("".join(f"k{i}: 1\n" for i in range(499)), "ok.yaml").data["k498"] == 1


def test_the_schema_check_reports_at_most_a_few_hundred_problems_of_one_file() -> None:
    from davinci.engine.schema import MAX_SCHEMA_PROBLEMS, validate

    doc = load_yaml_text("kind: game\n" + "".join(f"k{i}: 1\n" for i in range(1000)), "g.yaml")
    problems = validate(doc, "game")
    assert len(problems) == MAX_SCHEMA_PROBLEMS + 1
    assert any("the schema check stops at 200 problems in one file" in p.message for p in problems)


def test_empty_lists_and_mappings_count_as_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # A million `[]` passed the cap on keys and values: 23 s and 457 MB.
    from davinci.engine import yamlload

    monkeypatch.setattr(yamlload, "MAX_VALUES", 1000)
    err = error("big: [" + ", ".join(["[]"] * 1200) + "]\n")
    assert err.code == "DV006" and "more than 1,000 values" in err.message


def test_a_number_past_any_float_is_kept_as_written() -> None:
    # `max: 1e400` was read as infinity, and the schema said "got a decimal number inf".
    assert load("a: 1e400\nb: -1e400\nc: 1.5e3\n") == {"a": "1e400", "b": "-1e400", "c": 1500.0}


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_named(encoding: str) -> None:
    # It was "1:2 DV005 NUL byte", which names no cure.
    from davinci.engine.errors import DavinciError
    from davinci.engine.yamlload import load_yaml_text

    with pytest.raises(DavinciError, match="file looks UTF-16 encoded .* save it as UTF-8"):
        load_yaml_text("kind: pack\nid: x\n".encode(encoding), "x.yaml")


def test_an_unquoted_expression_with_brackets_in_a_flow_mapping_says_to_quote_it() -> None:
    from davinci.engine.errors import DavinciError
    from davinci.engine.yamlload import load_yaml_text

    with pytest.raises(DavinciError, match=r"4:28: DV001 .*must be quoted: \{clues: \"clues \+ \[1\]\"\}"):
        load_yaml_text("kind: game\nflow:\n  turn:\n    - set: {clues: clues + [1]}\n", "q.yaml")
