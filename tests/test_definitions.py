"""Named expressions: a game's `define` section names an expression (`alive`) or a function of
typed arguments (`hidden(s)`), checked once where it is written and usable by every expression
of the game, so a rule written in several places is written once."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

SHIPPED = Path(__file__).parent.parent / "games" / "da_vinci_code" / "game.yaml"

# Da Vinci Code's rules, with three definitions standing for what the shipped file writes out.
REWRITES = [
    ("id: da-vinci-code", "id: dvc-defined"),
    ("bots: [random, naive, deducer]", "bots: [random]"),
    ("turn_vars:\n  correct: 0\n", """turn_vars:
  correct: 0

define:
  opponents_hidden: "flatten(alive where index != current.index select row) where not revealed"
  hidden:
    args: {s: seat}
    value: "count(s.row where not revealed)"
    doc: How many of a seat's tiles are still hidden.
  alive: "seats where active"
"""),
    ('target: "flatten(seats where active and index != current.index select row) where not revealed"',
     'target: "opponents_hidden"'),
    ('if: "count(target.owner.row where not revealed) == 0"', 'if: "hidden(target.owner) == 0"'),
    ('when: "count(seats where active) <= 1"', 'when: "len(alive) <= 1"'),
    ('winners: "seats where active"', 'winners: "alive"'),
    ('score: "count(seat.row where not revealed)"', 'score: "hidden(seat)"'),
]


def _defined_dvc(tmp_path: Path) -> str:
    text = SHIPPED.read_text(encoding="utf-8")
    for old, new in REWRITES:
        assert text.count(old) == 1, old  # the shipped file still reads as this test expects
        text = text.replace(old, new)
    return write_game_pack(tmp_path / "p", "dvc-defined", text)


def _play(game: object, seed: int) -> tuple[list[tuple[int, str]], dict[str, object]]:
    from davinci.engine.bots import RandomBot

    st = game.new_state(3, seed=seed)  # type: ignore[attr-defined]
    bots = [RandomBot(seed * 10 + i) for i in range(3)]
    while not st.is_terminal():
        seat = st.current_seats[0]
        st.apply(seat, bots[seat].choose({}, st.legal_actions(seat)))
    return st.history, st.result()


def test_a_game_written_with_definitions_plays_exactly_as_the_one_written_out(tmp_path: Path) -> None:
    pack = _defined_dvc(tmp_path)
    assert lint_paths([pack]) == []
    defined, shipped = load_game("dvc-defined", packs=[pack]), load_game("da-vinci-code")
    for seed in range(12):
        assert _play(defined, seed) == _play(shipped, seed)


def test_definitions_may_come_in_any_order(tmp_path: Path) -> None:
    # `opponents_hidden` uses `alive`, written after it: each is checked after what it uses.
    pack = _defined_dvc(tmp_path)
    st = load_game("dvc-defined", packs=[pack]).new_state(2, seed=1)
    assert len(st.legal_actions(st.current_seats[0])) == 4 * 12  # four hidden tiles of one opponent


GAME = """\
kind: game
id: counting
name: Counting
description: Each turn a player adds one or two to the total; whoever reaches the target wins.
players: {min: 2, max: 4}
turn_order: {first: "1"}
vars:
  total: 0
define:
DEFINITIONS
flow:
  turn:
    - choose:
        options:
          - action: add
            args: {n: "STEPS"}
            do:
              - set: {total: total + n}
end:
  when: "WHEN"
  winners: "[current]"
"""


def _counting(tmp_path: Path, definitions: str, steps: str = "[1, 2]", when: str = "total >= 10") -> str:
    text = GAME.replace("DEFINITIONS", definitions).replace("STEPS", steps).replace("WHEN", when)
    return write_game_pack(tmp_path / "c", "counting", text)


def _problems(pack: str) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in lint_paths([pack])]


def test_a_function_of_typed_arguments_is_called_like_a_library_function(tmp_path: Path) -> None:
    pack = _counting(tmp_path, """\
  target: "10"
  left:
    args: {need: int}
    value: "need - total"
""", steps="[1, 2] where it <= left(target)", when="left(target) <= 0")
    assert _problems(pack) == []
    st = load_game("counting", packs=[pack]).new_state(2, seed=0)
    for _ in range(4):
        st.apply(st.current_seats[0], "add 2")
    st.apply(st.current_seats[0], "add 1")
    assert [str(a) for a in st.legal_actions(st.current_seats[0])] == ["add 1"]  # left(10) is 1
    st.apply(st.current_seats[0], "add 1")
    assert st.is_terminal() and st.result()["winners"] == [1]


@pytest.mark.parametrize(
    ("definitions", "message"),
    [
        ('  a: "b + 1"\n  b: "c"\n  c: "a * 2"\n',
         "'a' is defined in terms of itself (a -> b -> c -> a): a definition may use others, but not itself"),
        ('  f:\n    args: {x: int}\n    value: "f(x) + 1"\n', "'f' is defined in terms of itself (f -> f)"),
        ('  seats: "1"\n', "'seats' is a built-in name (the list of seats): give the definition another name"),
        ('  total: "1"\n', "'total' is a variable of the game: give the definition another name"),
        ('  count: "1"\n', "'count' is a function of the rule language: give the definition another name"),
        ('  f:\n    args: {x: widget}\n    value: "x"\n', "'widget' is not a type: write one of int, bool, str"),
        ('  f:\n    args: {current: int}\n    value: "current"\n', "argument 'current' would hide a built-in name"),
        ('  f:\n    args: {x: int}\n    value: "x"\n  g: "f(true) + 1"\n', "argument 1 of f() must be an int, got a bool"),
        ('  f:\n    args: {x: int}\n    value: "x"\n    extra: 1\n', "unknown key 'extra' (allowed: value, args, doc)"),
        ('  it: "1"\n', "'it' is a word of the rule language, or a name the engine binds"),
        ('  "true": "1"\n', "'true' is a word of the rule language"),
        ('  index: "1"\n', "'index' is a field every seat has (a seat variable or zone)"),
        ('  f:\n    args: {seat: int}\n    value: "1"\n', "argument 'seat' would hide a word of the rule language"),
        ('  g: "n + 1"\n', "unknown name 'n' (a definition reads only the game's own names: pass a name a step binds"),
        ("".join(f'  a{i}: "a{i + 1} + 1"\n' for i in range(40)) + '  a40: "1"\n',
         "definitions use each other more than 32 deep (a0 -> a1 -> a2 -> ... -> a32): shorten the chain"),
    ],
)
def test_a_wrong_definition_is_named_where_it_is_written(tmp_path: Path, definitions: str, message: str) -> None:
    pack = _counting(tmp_path, definitions)
    problems = [(c, m) for c, m in _problems(pack) if c != "DV062"]
    assert len(problems) == 1 and message in problems[0][1], problems
    with pytest.raises(DavinciError) as e:
        load_game("counting", packs=[pack])
    assert e.value.location is not None and e.value.location.line >= 9  # under `define:`, line 9 on


def test_a_definition_failing_in_play_is_located_in_its_own_text(tmp_path: Path) -> None:
    pack = _counting(tmp_path, '  pace: "10 // (6 - total)"\n', when="total >= 10 or pace > 99")
    game = load_game("counting", packs=[pack])
    st = game.new_state(2, seed=0)
    for _ in range(2):
        st.apply(st.current_seats[0], "add 2")
    with pytest.raises(DavinciError) as e:
        st.apply(st.current_seats[0], "add 2")  # the total reaches 6
    assert e.value.code == "DV042" and "10 // (6 - total)" in e.value.message
    assert e.value.location.line == 10


def test_a_definition_nothing_uses_is_a_warning(tmp_path: Path) -> None:
    pack = _counting(tmp_path, '  spare: "total * 2"\n  used: "total"\n', when="used >= 10")
    [(code, message)] = _problems(pack)
    assert code == "DV062" and message == "'spare' is defined but no expression of the game uses it"


def test_definitions_only_unused_ones_use_are_unused_too(tmp_path: Path) -> None:
    # 'spare' uses 'half', which uses the function 'part': nothing outside `define` reaches any of
    # them, so all three are named, not only the last of the chain.
    pack = _counting(tmp_path, '  spare: "half * 2"\n  half: "part(total)"\n  part:\n    args: {n: int}\n'
                               '    value: "n // 2"\n  used: "total"\n', when="used >= 10")
    assert sorted(m for c, m in _problems(pack) if c == "DV062") == [
        f"'{n}' is defined but no expression of the game uses it" for n in ("half", "part", "spare")]
    # Once the end reads 'spare', the whole chain is in use.
    pack = _counting(tmp_path / "used", '  spare: "half * 2"\n  half: "part(total)"\n  part:\n    args: {n: int}\n'
                                        '    value: "n // 2"\n', when="spare >= 10")
    assert _problems(pack) == []


def _with_variant(tmp_path: Path, name: str, target: str) -> str:
    """The counting game with `target: "10"`, and a variant `name` that redefines it as `target`."""
    pack = _counting(tmp_path, '  target: "10"\n', when="total >= target")
    (Path(pack) / f"{name}.yaml").write_text(
        f"kind: variant\nid: {name}\nname: {name.title()}\nextends: counting\ndefine:\n  target: {target}\n",
        encoding="utf-8")
    manifest = Path(pack) / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + f"variants: [{name}.yaml]\n", encoding="utf-8")
    return pack


def test_a_variant_may_redefine_a_name(tmp_path: Path) -> None:
    pack = _with_variant(tmp_path, "short", '"4"')
    assert _problems(pack) == []
    st = load_game("counting", variant="short", packs=[pack]).new_state(2, seed=0)
    st.apply(st.current_seats[0], "add 2")
    st.apply(st.current_seats[0], "add 2")
    assert st.is_terminal()


def test_definitions_that_each_use_the_next_twice_stop_at_the_work_budget(tmp_path: Path) -> None:
    # 2**20 evaluations of `a20` took a minute; 40 levels would never end.
    chain = "".join(f'  a{i}: "a{i + 1} + a{i + 1}"\n' for i in range(20)) + '  a20: "1"\n'
    pack = _counting(tmp_path, chain, when="total >= a0")
    [(code, message)] = _problems(pack)
    assert code == "DV042" and "the expression does too much work" in message


def test_a_function_with_empty_args_is_called_with_no_arguments(tmp_path: Path) -> None:
    pack = _counting(tmp_path, '  goal:\n    args: {}\n    value: "10"\n', when="total >= goal()")
    assert _problems(pack) == []


def test_a_failure_of_a_definitions_own_operation_is_located_in_it(tmp_path: Path) -> None:
    # `maybe + 1` with maybe none failed at the use (`{g}`), not at the definition that adds.
    pack = _counting(tmp_path, '  maybe: "1 if total > 100 else none"\n  g: "maybe + 1"\n', when="total >= 10 or g > 99")
    [(code, message)] = _problems(pack)
    assert code == "DV042" and "cannot apply + to none and int" in message and "maybe + 1" in message


def test_a_mistake_a_variant_causes_in_its_games_file_names_the_variant(tmp_path: Path) -> None:
    pack = _with_variant(tmp_path, "words", '"\'ten\'"')
    [problem] = lint_paths([str(Path(pack) / "words.yaml")])
    assert problem.location.path.endswith("counting.yaml")  # where `total >= target` is written
    assert problem.message.splitlines()[0].endswith("(with the variant words.yaml applied)")
