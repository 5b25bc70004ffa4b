"""Mistakes authors make, each reported by `davinci lint` at its place with a useful message.

Every case edits the authoring tutorial's game (tests/packs/tutorial/pig.yaml) the way a stranger
writing a game from the docs did, and names the one problem lint must report. A typo that lints
clean is the worst kind: it silently changes the rules (a misspelt `then:` drops a branch).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from davinci.engine.lint.registry import Problem
from davinci.engine.lint.runner import lint_paths

PACK = Path(__file__).parent / "packs" / "tutorial"

# A component and a zone to hold it, inserted before `seat_vars:` (line 16); its `product:` is line 19.
CHIPS = """components:
  chip:
    fields: {{value: int}}
    product: {}
zones:
  box: {{kind: bag, visibility: public, contents: [chip]}}

"""

# (what, text in pig.yaml, replacement, code, line, column, words in the message)
CASES = [
    ("a seat variable without its seat", "banked: current.banked + pot}", "banked: banked + pot}",
     "DV041", 39, 50, "unknown name 'banked'; did you mean 'current.banked'?"),
    ("a misspelt key beside a step kind", "          then:\n", "          than:\n",
     "DV011", 28, 11, "unknown key 'than' in the 'if' step; did you mean 'then'?"),
    ("a then: indented under a choose option", "                do: []\n",
     "                do: []\n                then: []\n",
     "DV011", 37, 17, "unknown key 'then' in this 'choose' option ('then' belongs to an 'if' step: is it indented under"),
    # Keys of a step's own mapping, lined up with the step: "the 'choose' step takes no other keys".
    ("options: lined up with choose:", "            options:\n", "          options:\n",
     "DV011", 34, 11, "unknown key 'options' in the 'choose' step ('options' belongs inside 'choose:': indent it under "
     "'choose', with"),
    # The local a failed expression set has no known type: what reads it is not reported too
    # ("unknown name 'suit'; did you mean 'it'?" for a real field).
    ("a failed where, then a field of what it set", "        - set: {pot: pot + die}\n",
     '        - set: {rolls: "[die] where rnk > 0"}\n        - log: "{rolls select face}"\n'
     "        - set: {pot: pot + die}\n",
     "DV041", 31, 37, "unknown name 'rnk'"),
    ("a misspelt key inside a step", "{sides: 6, as: die}", "{sides: 6, az: die}",
     "DV011", 26, 28, "unknown key 'az' in the 'roll' step; did you mean 'as'?"),
    ("a misspelt key of a choose option", "                do: []\n", "                doo: []\n",
     "DV011", 36, 17, "unknown key 'doo' in this 'choose' option; did you mean 'do'?"),
    ("a key of the wrong step", "                  - end_turn: true\n",
     "                  - end_turn: true\n                    to: current\n",
     "DV011", 42, 21, "unknown key 'to' in the 'end_turn' step (the 'end_turn' step takes no other keys)"),
    ("a condition given to end_turn (which always ends the turn)", "                  - end_turn: true\n",
     "                  - end_turn: \"pot > 20\"\n",
     "DV050", 41, 31, "'end_turn' takes true, got the text 'pot > 20': the step always ends the turn (for a condition, put it under an 'if')"),
    ("a misspelt for_each key", "        - set: {pot: pot + die}\n",
     "        - set: {pot: pot + die}\n        - for_each: {in: seats, as: s, doo: []}\n",
     "DV011", 32, 40, "unknown key 'doo' in the 'for_each' step; did you mean 'do'?"),
    ("a game that cannot end, with no max_turns",
     '  when: "any(seats select banked >= settings.target)"\n  winners: "seats where banked >= settings.target"\n'
     '  score: "seat.banked"\n  max_turns: 2000\n',
     '  when: "false"\n  winners: "seats where banked >= settings.target"\n  score: "seat.banked"\n',
     "DV055", 44, 3, "no random test game ended by `end.when`: all 2 stopped at the limit of 1,000 turns"),
    ("winners that fail only when a game ends", 'winners: "seats where banked >= settings.target"',
     'winners: "seats where banked == max(seats where banked > 9999 select banked)"',
     "DV042", 45, 35, "max() of an empty list"),
    ("a setting's default in quotes (a bool's \"no\" was quietly false)", "    default: 50\n", '    default: "50"\n',
     "DV053", 12, 14, "default of setting 'target' must be a whole number, got the text '50' (write a whole number in decimal digits, not in quotes)"),
    ("a list value written as YAML, not as an expression", "set: {pot: pot + die}", "set: {pot: []}",
     "DV050", 31, 22, 'expected an expression (text) (a list here is written as an expression, in quotes: "[]", "[1, 2]")'),
    ("winners written over `seat`, as score is", 'winners: "seats where banked >= settings.target"',
     'winners: "seats where seat.banked >= settings.target"',
     "DV041", 45, 25, "unknown name 'seat': only end.score and end.tie_break are worked out for each seat; end.winners "
     "is one expression over the whole table: inside `seats where ...` a seat's own variables are read by their names"),
    ("a misspelt variable in set (a new local nobody reads)", "set: {pot: pot + die}", "set: {pto: pot + die}",
     "DV058", 31, 17, "'pto' is set here but never read: a misspelt variable; did you mean 'pot'?"),
    ("a misspelt seat variable", "set: {seat: current, banked: current.banked + pot}",
     "set: {seat: current, bankd: current.banked + pot}",
     "DV050", 39, 42, "'bankd' is not a seat variable; did you mean 'banked'?"),
    ("a misspelt bot", "bots: [random]", "bots: [random, randon]",
     "DV057", 7, 16, "unknown bot 'randon' (did you mean 'random'?)"),
    ("an unclosed brace in a log line", "loses {pot} points", "loses {pot points",
     "DV040", 29, 56, "an unmatched '{' in the text: an {expression} goes between braces; write '{{' or '}}'"),
    ("a stray closing brace in a log line", "loses {pot} points", "loses {pot}} points",
     "DV040", 29, 61, "an unmatched '}' in the text"),
    ("sort on a zone that is not a row", "seat_vars:\n",
     CHIPS.replace("kind: bag", "kind: hand").replace("contents: [chip]", "contents: [chip], sort: piece.value")
     .format("{value: [1, 2]}") + "seat_vars:\n",
     "DV050", 21, 59, "'sort' orders row zones only; 'box' is a hand"),
    ("a row's sort key reading a variable", "seat_vars:\n",
     CHIPS.replace("kind: bag", "kind: row").replace("contents: [chip]", "contents: [chip], sort: piece.value * pot")
     .format("{value: [1, 2]}") + "seat_vars:\n",
     "DV050", 21, 64, "'sort' is computed once for each piece, so it may read only the piece's own fields and the "
     "settings; it reads pot, which changes during play"),
    ("another game's bot", "bots: [random]", "bots: [greedy]",
     "DV057", 7, 8, "bot 'greedy' plays leonardos-riddle, not pig"),
    ("an empty product range", "seat_vars:\n", CHIPS.format("{value: {from: 5, to: 1}}") + "seat_vars:\n",
     "DV050", 19, 22, "the range of 'value' is empty: from 5 to 1"),
    ("a product value of the wrong type", "seat_vars:\n", CHIPS.format("{value: [1, two]}") + "seat_vars:\n",
     "DV050", 19, 26, "field 'value' is int, got 'two'"),
    ("a misspelt product field", "seat_vars:\n", CHIPS.format("{valeu: [1, 2]}") + "seat_vars:\n",
     "DV050", 19, 15, "unknown field 'valeu' (did you mean 'value'?)"),
    ("an item value of the wrong type", "seat_vars:\n",
     CHIPS.replace("product: {}", "items: [{{value: 1}}, {{value: '2'}}]").format() + "seat_vars:\n",
     "DV050", 19, 33, "field 'value' is int, got '2'"),
    ("include_if reading the table", "seat_vars:\n",
     CHIPS.replace("    product: {}", "    include_if: players == 4\n    product: {}").format("{value: [1, 2]}") + "seat_vars:\n",
     "DV041", 19, 17, "unknown name 'players' ('include_if' is worked out before the game is set up: it reads only settings)"),
    ("a variable named like a built-in name", "turn\n", "turn\n  current: 0\n",
     "DV050", 21, 3, "'current' is a built-in name (the seat whose turn it is): give this variable another name"),
    ("a seat variable named like a seat field", "starting at 0\n", "starting at 0\n  index: 3\n",
     "DV050", 18, 3, "'index' is a field every seat has (its number from 1): give this seat variable another name"),
    ("a bound name hiding a variable", "as: die}", "as: pot}",
     "DV050", 26, 32, "'pot' is a variable of the game: a name bound here would hide it; choose another name"),
    ("a choice argument hiding a built-in name", "              - action: roll\n                do: []",
     "              - action: roll\n                args: {seats: '[1, 2]'}\n                do: []",
     "DV050", 36, 24, "'seats' is a built-in name (the list of seats): a name bound here would hide it"),
    ("a fractional start value", "  banked: 0 ", "  banked: 1.5 ",
     "DV050", 17, 11, "'banked' starts at 1.5: the rules have no fractional numbers"),
    ("a start value beyond the rules' numbers", "  banked: 0 ", "  banked: 99999999999999999999999 ",
     "DV050", 17, 11, "'banked' starts at a number beyond the rules' limit of 9,223,372,036,854,775,808"),
    # Inside `where`, a seat's own `active` hides the loop's `active`: the count is of active seats.
    ("a bound name hidden by an element's field", "        - set: {pot: pot + die}\n",
     "        - set: {pot: pot + die}\n"
     "        - for_each: {in: '[true]', as: active, do: [{log: '{len(seats where active)}'}]}\n",
     "DV041", 32, 77, "'active' here is each element's field 'active', not the 'active' bound earlier"),
    ("end.score reading a seat variable bare (the seat it scores is `seat`)", 'score: "seat.banked"',
     'score: "banked"', "DV041", 46, 11, "unknown name 'banked'; did you mean 'seat.banked'?"),
    ("a local read after the block that set it ended",
     "do: []\n              - action: bank\n                do:\n                  - set: {seat: current, banked: current.banked + pot}",
     "do: [{set: {again: die}}]\n              - action: bank\n                do:\n"
     "                  - set: {seat: current, banked: current.banked + again}", "DV041", 39, 67,
     "unknown name 'again': the local 'again' (line 36) does not reach here (a local lasts to the end of the block "
     "that sets it"),
    ("a local named as a function read after its block ended (it was called a function to call)",
     "do: []\n              - action: bank\n                do:\n                  - set: {seat: current, banked: current.banked + pot}",
     "do: [{set: {last: die}}]\n              - action: bank\n                do:\n"
     "                  - set: {seat: current, banked: current.banked + last}", "DV041", 39, 67,
     "unknown name 'last': the local 'last' (line 36) does not reach here (a local lasts to the end of the block "
     "that sets it, and a procedure's are its own); to carry its value further, declare 'last' under vars (or "
     "under turn_vars when only the rest of its turn reads it"),
    ("a setting whose min is above its max", "    min: 10\n", "    min: 500\n    max: 100\n", "DV053", 13, 10, "setting 'target' has min 500 above its max 100"),
    ("a component field named like a field every piece has (it hid the piece's owner)", "seat_vars:\n",
     CHIPS.replace("{{value: int}}", "{{value: int, owner: str}}").format("{value: [1, 2], owner: [me]}") + "seat_vars:\n",
     "DV050", 18, 26, "a field may not be called 'owner': every piece has it already (the seat whose zone holds it)"),
    # The hint said to quote it, and a quoted 'random' is a text where a seat number is needed.
    ("a misspelt 'random' as the first seat", "players: {min: 2, max: 6}\n",
     "players: {min: 2, max: 6}\nturn_order: {first: randon}\n", "DV041", 7, 21,
     "turn_order.first is 'random' or a seat number (an expression); got 'randon'; did you mean 'random'?"),
    ("a bare word where a number is needed (no hint to quote it)", 'score: "seat.banked"', 'score: "lots"',
     "DV041", 46, 11, "unknown name 'lots'\n"),
    # A line feed in a log line printed a line of the pack's choosing on the players' screen.
    ("a log line of two lines", "loses {pot} points", "loses {pot} points\\nRandom 2 wins the game!", "DV040", 29, 68,
     "a log line or prompt is one line of text: it holds \\n"),
    ("a bare break", "            - end_turn: true\n        - set", "            - break\n        - set",
     "DV050", 30, 15, "write 'break: true' (a bare 'break' is a text)"),
    # Steps that can never run (the counter after `end_turn` was never counted; lint said nothing).
    ("a step after end_turn", "            - end_turn: true\n", "            - end_turn: true\n            - set: {pot: 0}\n",
     "DV065", 31, 15, "this step never runs: the step before it (line 30) always ends the turn"),
    ("a step after a branch that leaves both ways",
     '                  - log: "{current.name} banks {pot} and has {current.banked}"\n                  - end_turn: true\n',
     '                  - if: "pot > 10"\n                    then: [{end_turn: true}]\n'
     '                    else: [{end_turn: true}]\n                  - log: "{current.name} banks {pot}"\n',
     "DV065", 43, 21, "the step before it (line 40) leaves in both of its branches"),
    ("a step after a loop with no way out", "                  - end_turn: true\n",
     "                  - end_turn: true\n    - log: after\n",
     "DV065", 42, 7, "(line 24) is a 'while: true' loop with no 'break'"),
    ("a branch under a condition written false", 'if: "die == 1"', 'if: "false"',
     "DV065", 29, 13, "these steps never run: the condition is always false"),
    # An option's `if` reading its own argument: the advice was to declare it under turn_vars.
    ("an option's if reading its argument", "              - action: roll\n                do: []\n",
     "              - action: roll\n                args: {n: \"range(1, 3)\"}\n                if: \"n > 1\"\n"
     "                do: []\n",
     "DV041", 37, 22, "an option's 'if' is checked before its arguments are chosen, so it cannot read 'n'; to filter "
     "the argument values, write this condition under 'when'"),
    ("a local read before the step that sets it", "        - set: {pot: pot + die}\n",
     '        - log: "{bonus}"\n        - set: {bonus: die}\n        - set: {pot: pot + bonus}\n',
     "DV041", 31, 18, "unknown name 'bonus': it is set later, at line 32 (a local exists from the step that sets it on"),
    ("a name declared under vars and turn_vars", "turn_vars:\n", "vars:\n  pot: 1\nturn_vars:\n",
     "DV050", 22, 3, "'pot' is declared under both vars and turn_vars"),
]


def lint_edited(tmp_path: Path, pack: Path, file: str, old: str, new: str) -> list[Problem]:
    """Lint a copy of `pack` in which `file` has its first `old` replaced by `new`."""
    copy = tmp_path / pack.name
    shutil.copytree(pack, copy)
    target = copy / file
    text = target.read_text()
    assert old in text, old
    target.write_text(text.replace(old, new, 1))
    return lint_paths([str(copy)])


def assert_one_problem(problems: list[Problem], file: str, code: str, line: int, col: int, words: str) -> None:
    """Exactly one problem, in `file`, with this code, at this place, saying `words`."""
    found = [(Path(p.location.path).name, p.code, p.location.line, p.location.col) for p in problems]
    assert found == [(file, code, line, col)], problems
    assert words in problems[0].message


@pytest.mark.parametrize(("old", "new", "code", "line", "col", "words"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_an_authors_mistake_is_reported_where_it_is(
    tmp_path: Path, old: str, new: str, code: str, line: int, col: int, words: str
) -> None:
    assert_one_problem(lint_edited(tmp_path, PACK, "pig.yaml", old, new), "pig.yaml", code, line, col, words)


@pytest.mark.parametrize(("old", "new", "words"), [
    # Shown on screen as `if=0`, `my var=0`, and no expression could ever read them.
    ("seat_vars:\n", "seat_vars:\n  if: 0\n", "'if' is a word of the rule language"),
    ("seat_vars:\n", "seat_vars:\n  it: 0\n", "'it' is a name the engine binds"),
    ("seat_vars:\n", 'seat_vars:\n  "my var": 0\n', "must be a name: letters, digits and _"),
    # A merge key was read as a literal key '<<'.
    ("seat_vars:\n", "seat_vars:\n  <<: {x: 0}\n", "merge keys ('<<') are not allowed"),
])
def test_a_variable_name_no_expression_could_read_is_refused(tmp_path: Path, old: str, new: str, words: str) -> None:
    problems = [p for p in lint_edited(tmp_path, PACK, "pig.yaml", old, new) if Path(p.location.path).name == "pig.yaml"]
    assert problems and words in problems[0].message and problems[0].location.line == 17


def test_a_key_of_a_section_at_the_top_level_says_where_it_belongs(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "  max_turns: 2000", "max_turns: 2000")
    mine = [p for p in problems if Path(p.location.path).name == "pig.yaml"]
    assert [(p.code, p.location.line, p.location.col) for p in mine] == [("DV011", 47, 1)]
    assert mine[0].message == "unknown key 'max_turns' ('max_turns' is a key of 'end:': indent it under 'end')"


def test_a_variable_given_a_value_of_another_type_names_its_declaration(tmp_path: Path) -> None:
    # Every use was blamed ("'best' holds str values, this expression gives int"), never the
    # start value that set the type, where the one fix goes.
    copy = tmp_path / "tutorial"
    shutil.copytree(PACK, copy)
    pig = copy / "pig.yaml"
    pig.write_text(pig.read_text().replace("  pot: 0 ", '  pot: "" ').replace("{pot: pot + die}", "{pot: die}"))
    problems = [p for p in lint_paths([str(copy)]) if p.location.line == 31]
    assert [(p.code, p.location.col) for p in problems] == [("DV041", 22)], problems
    assert problems[0].message.startswith("'pot' holds str values (declared under turn_vars at line 20 with the start "
                                          "value '': the start value sets the type), this expression gives int")


def test_a_variant_changing_a_setting_its_game_lacks_is_reported(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig-short.yaml", "  target:", "  targte:")
    assert_one_problem(problems, "pig-short.yaml", "DV056", 7, 3, "'pig' has no setting 'targte'; did you mean 'target'?")


def test_a_setting_given_a_bare_value_says_how_to_write_it(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig-short.yaml", "  target:\n    default: 20", "  target: 20")
    assert_one_problem(problems, "pig-short.yaml", "DV012", 7, 11,
                       "'target' must be a mapping, got a whole number 20; write `target: {default: 20}` to set its default value")
    problems = lint_edited(tmp_path / "game", PACK, "pig.yaml", "  target:\n    type: int\n    default: 50\n",
                           "  target: true\n  other:\n    type: int\n    default: 50\n")
    problems = [p for p in problems if p.location.path.endswith("pig.yaml")]  # (its variant waits for it)
    assert_one_problem(problems, "pig.yaml", "DV012", 10, 11, "'target' must be a mapping, got true/false true; "
                       "write `target: {type: bool, default: true}` to set its default value")


def test_a_misspelt_kind_gets_a_suggestion(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig-short.yaml", "kind: variant", "kind: varient")
    assert [p.message for p in problems if p.code == "DV017"] == [
        "cannot tell what this file is: 'kind' must be one of pack, game, variant, deck, deck-overlay (found "
        "'varient'); did you mean 'variant'?"]


def test_a_variant_offering_another_games_bot_is_reported(tmp_path: Path) -> None:
    # A variant's bots were not checked: `davinci play pig --variant short` then failed on the seat.
    problems = lint_edited(tmp_path, PACK, "pig-short.yaml", "extends: pig\n", "extends: pig\nbots: [random, deducer]\n")
    assert_one_problem(problems, "pig-short.yaml", "DV057", 5, 16, "bot 'deducer' plays da-vinci-code, not pig")


def test_a_variant_may_add_a_setting_that_declares_its_type(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig-short.yaml", "    default: 20",
                           "    default: 20\n  bonus: {type: int, default: 2, doc: Unused here.}")
    assert problems == []


def test_a_variant_whose_game_file_is_broken_points_at_that_file(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "max_turns: 2000", "max_turns: 2000\n\tbad: [")
    variant = [p for p in problems if p.location.path.endswith("pig-short.yaml")]
    assert [p.code for p in variant] == ["DV020"]
    assert "this pack's pig.yaml could not be read: fix that first" in variant[0].message


def test_a_game_file_failing_its_schema_leaves_its_variants_waiting_not_crashing(tmp_path: Path) -> None:
    # A turn limit from a setting: the game file fails its schema, and its variant's rules used
    # to build the game all the same and crash (DV999, twice).
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "max_turns: 2000", "max_turns: settings.limit")
    found = [(Path(p.location.path).name, p.code, p.location.line, p.location.col) for p in problems]
    assert found == [("pig-short.yaml", "DV020", 4, 10), ("pig.yaml", "DV012", 47, 14)], problems
    assert "'max_turns' must be a whole number, got text 'settings.limit'; this field takes a plain number" in (
        problems[1].message)
    assert problems[0].message == "the game 'pig' this variant extends has problems in pig.yaml: fix those first"


# Banking no longer ends the turn, a 1 no longer stops it and the game cannot be won: the turn
# loops for as long as the players like, and random players never stop it.
ENDLESS_TURN = [("            - end_turn: true\n", "            - set: {pot: 0}\n"),
                ('"die == 1"', '"die == 7"'),
                ("                  - end_turn: true\n", "                  - set: {pot: 0}\n"),
                ('when: "any(seats select banked >= settings.target)"', 'when: "any(seats select banked < 0)"')]


def endless_pig(tmp_path: Path) -> Path:
    copy = tmp_path / "tutorial"
    shutil.copytree(PACK, copy)
    game = copy / "pig.yaml"
    text = game.read_text()
    for old, new in ENDLESS_TURN:
        assert old in text, old
        text = text.replace(old, new, 1)
    game.write_text(text)
    return copy


def test_a_turn_that_never_ends_is_reported_at_the_turn_flow(tmp_path: Path) -> None:
    problems = lint_paths([str(endless_pig(tmp_path))])
    assert [(Path(p.location.path).name, p.code, p.location.line) for p in problems] == [("pig.yaml", "DV043", 24)]
    assert "turn 1 has taken 10,000 decisions without ending" in problems[0].message


def test_simulate_stops_a_turn_that_never_ends_with_a_message(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    result = CliRunner().invoke(main, ["simulate", "pig", "--pack", str(endless_pig(tmp_path)), "--games", "1",
                                       "--players", "random,random"])
    assert result.exit_code == 1, result.output
    assert "pig.yaml:24:7:" in result.output and "has taken 10,000 decisions without ending" in result.output
    assert "Traceback" not in result.output


def test_a_requirement_failing_only_at_the_largest_table_is_reported(tmp_path: Path) -> None:
    # Lint's test games play the smallest tables; every player count the game allows must start.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "seat_vars:\n",
                           'requires:\n  - check: "players <= 5"\n    message: "at most five can play"\n\nseat_vars:\n')
    assert_one_problem(problems, "pig.yaml", "DV081", 17, 5,
                       "the game cannot start: at most five can play (with 6 players)")


def test_every_wrong_expression_of_a_file_is_reported_in_one_run(tmp_path: Path) -> None:
    # Lint used to stop at the first: an author fixed one typo per run.
    copy = tmp_path / "tutorial"
    shutil.copytree(PACK, copy)
    game = copy / "pig.yaml"
    text = game.read_text()
    for old, new in [('"die == 1"', '"die === 1"'), ("{pot: pot + die}", "{pot: pott + die}"),
                     ("current.banked + pot", "current.bankd + pot")]:
        assert old in text
        text = text.replace(old, new, 1)
    game.write_text(text)
    found = [(p.code, p.location.line, p.location.col) for p in lint_paths([str(copy)])]
    assert found == [("DV040", 27, 22), ("DV041", 31, 22), ("DV041", 39, 58)]


def test_a_players_range_no_table_fits_is_reported(tmp_path: Path) -> None:
    # Found by a hostile tester: lint said "no problems", and then every play and simulate refused.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "players: {min: 2, max: 6}", "players: {min: 5, max: 1}")
    found = [(Path(p.location.path).name, p.code, p.message) for p in problems]
    assert ("pig.yaml", "DV050", "players: min 5 is more than max 1: no table can play this game") in found


def test_reading_into_a_map_setting_is_refused_when_checked(tmp_path: Path) -> None:
    # It passed the checks and failed only when a random test game happened to reach it.
    copy = tmp_path / PACK.name
    shutil.copytree(PACK, copy)
    game = copy / "pig.yaml"
    text = game.read_text().replace("  target:\n", "  skill: {type: map, default: {fast: 1}, doc: For bots.}\n  target:\n", 1)
    game.write_text(text.replace('if: "die == 1"', 'if: "die == 1 and settings.skill.fast == 1"', 1))
    assert_one_problem(lint_paths([str(copy)]), "pig.yaml", "DV041", 28, 44,
                       "map setting (read by bots and screens, not by the rules) has no field 'fast'")


def test_an_item_may_give_its_own_number_of_copies(tmp_path: Path) -> None:
    # A newcomer's market game needed six components for six goods with different card counts.
    from davinci.engine.game import load_game

    copy = tmp_path / PACK.name
    shutil.copytree(PACK, copy)
    game = copy / "pig.yaml"
    goods = CHIPS.replace("product: {}", "items: [{{value: 1, copies: 3}}, {{value: 2}}, {{value: 5, copies: settings.target}}]")
    game.write_text(game.read_text().replace("seat_vars:\n", goods.format() + "seat_vars:\n", 1))
    assert [p for p in lint_paths([str(copy)]) if p.severity == "error"] == []
    pieces = load_game("pig", packs=[str(copy)], settings={"target": 10}).definition.pieces
    assert [p.attrs["value"] for p in pieces if p.component == "chip"] == [1, 1, 1, 2] + [5] * 10
    bad = goods.replace("copies: 3", "copies: 0")
    game.write_text((PACK / "pig.yaml").read_text().replace("seat_vars:\n", bad.format() + "seat_vars:\n", 1))
    problems = [p for p in lint_paths([str(copy)]) if p.severity == "error"]
    assert [(p.code, p.message) for p in problems] == [("DV050", "'copies' gave 0: it must be from 1 to 1000")]


def test_a_deck_or_hand_without_visibility_is_a_warning(tmp_path: Path) -> None:
    # Zones are public when they say nothing: a newcomer's dice supply and deck showed every
    # piece, in order, to every seat, and lint was silent.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "seat_vars:", CHIPS.format("{value: {from: 1, to: 3}}")
                           .replace("box: {kind: bag, visibility: public, contents: [chip]}",
                                    "box: {kind: bag, contents: [chip]}") + "seat_vars:")
    assert [(p.code, p.severity) for p in problems] == [("DV063", "warning")]
    assert problems[0].message.startswith("'box' (bag) has no visibility, so it is public")


def test_a_variable_that_starts_as_an_empty_list_may_hold_a_list_of_texts(tmp_path: Path) -> None:
    # `[]` was read as a list of numbers: setting it to texts was a DV041 the author could only
    # get round by writing `null`.
    from helpers import STOP_AT_ONCE, write_game_pack

    from davinci.engine.game import load_game

    game = ("kind: game\nid: code\nname: Code\nplayers: {min: 2, max: 2}\nseat_vars: {code: []}\nflow:\n  setup:\n"
            "    - set: {seat: current, code: \"['red', 'blue']\"}\n" + STOP_AT_ONCE)
    pack = write_game_pack(tmp_path, "code", game)
    assert [p.code for p in lint_paths([pack]) if p.severity == "error"] == []
    st = load_game("code", packs=[pack]).new_state(2, seed=0)
    assert st.view(None)["seats"][0]["vars"]["code"] == ["red", "blue"]


MANY_MISTAKES = """\
kind: game
id: multi
name: Multi
players: {min: 2, max: 2}
components:
  pawn:
    fields: {n: int}
    items: [{n: 1}, {n: 2}]
zones:
  box: {kind: pile, contents: [pawn], visibility: public}
  board: {kind: board}
board:
  start: s0
  spaces:
    - {id: s0, type: plain}
    - {id: s1, type: plain}
  tracks:
    - {spaces: [s0, s1]}
seat_vars: {pts: 0}
flow:
  setup:
    - move: {piece: "first(box)", to: board}
  turn:
    - roll: {sides: 6, az: die}
    - choose:
        options:
          - action: pass
            do: []
          - action: wait
            do:
              - set: {seat: current, pts: die}
    - choose:
        options:
          - action: help
            do: []
end:
  when: "turn > 3"
  winners: "seats"
"""


def test_one_lint_run_reports_every_wrong_step(tmp_path: Path) -> None:
    # The first wrong step stopped the build: an author fixed six mistakes in five runs. A step
    # after a wrong one that names what it would have bound ('die') is not a second mistake.
    from helpers import write_game_pack

    problems = lint_paths([write_game_pack(tmp_path, "multi", MANY_MISTAKES)])
    assert [(p.code, p.location.line) for p in problems] == [("DV050", 22), ("DV011", 24), ("DV050", 27),
                                                             ("DV050", 34)]


def test_a_break_after_a_loop_whose_steps_are_wrong_is_still_outside_any_loop(tmp_path: Path) -> None:
    from helpers import STOP_AT_ONCE, write_game_pack

    game = ("kind: game\nid: brk\nname: Brk\nplayers: {min: 2, max: 2}\nflow:\n  setup:\n"
            '    - while: "true"\n      do: 5\n    - break: true\n' + STOP_AT_ONCE)
    problems = lint_paths([write_game_pack(tmp_path, "brk", game)])
    assert [(p.code, p.location.line, p.message) for p in problems] == [
        ("DV050", 8, "expected a list of steps"), ("DV050", 9, "'break' outside a loop")]


def test_an_option_that_is_no_mapping_is_named_and_the_next_steps_are_checked(tmp_path: Path) -> None:
    # It read "malformed 'choose' step (AttributeError: 'int' object has no attribute 'get')".
    from helpers import write_game_pack

    game = ("kind: game\nid: opt\nname: Opt\nplayers: {min: 2, max: 2}\nflow:\n  turn:\n    - choose:\n"
            "        options:\n          - 5\n          - action: go\n            do: []\n    - call: nope\n"
            'end:\n  when: "false"\n  winners: "seats"\n')
    problems = lint_paths([write_game_pack(tmp_path, "opt", game)])
    assert [(p.code, p.location.line) for p in problems] == [("DV050", 9), ("DV052", 12)]
    assert problems[0].message.startswith("each option of a choose is a mapping with an 'action'")


def test_an_expression_a_comma_cut_short_in_a_flow_mapping_says_to_quote_it(tmp_path: Path) -> None:
    # `{sides: max(6, 1)}` holds `max(6`: "unclosed '('" did not say that YAML had split it.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "{sides: 6, as: die}", "{sides: max(6, 1), as: die}")
    assert_one_problem(problems, "pig.yaml", "DV011", 26, 32, "unknown key '1)' in the 'roll' step (in a {...} "
                       "mapping a comma ends a value that is not quoted: quote the expression before it)")
    # Where no key is left over, the expression itself says it.
    problems = lint_edited(tmp_path / "b", PACK, "pig.yaml", "{pot: pot + die}", "{pot: max(pot, die)}")
    unclosed = [p for p in problems if p.code == "DV040"]
    assert len(unclosed) == 1
    assert "in a {...} mapping a comma ends a value that is not quoted: quote the expression, \"max(pot, ...\"" \
        in unclosed[0].message


def test_double_quotes_inside_a_double_quoted_expression_are_explained(tmp_path: Path) -> None:
    # libyaml's "did not find expected key" alone did not say which quote ended the text.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", 'if: "die == 1"', 'if: "die == 1 and "a" == "a""')
    broken = [p for p in problems if p.code == "DV001"]  # (and the variant of the file it breaks: DV020)
    assert len(broken) == 1 and "write its texts in single quotes ('colour')" in broken[0].message


def test_a_variant_setting_that_fails_its_games_requires_names_the_variant(tmp_path: Path) -> None:
    # The failing `requires` is in the game's file: the message did not say the variant caused it.
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: big\nname: Big\nversion: "1.0"\nvariants: [big.yaml]\n')
    (tmp_path / "big.yaml").write_text("kind: variant\nid: big\nextends: da-vinci-code\nname: Big hands\n"
                                       "description: Seven tiles each.\nsettings:\n  hand_large: {default: 7}\n")
    problems = lint_paths([str(tmp_path)])
    assert [p.code for p in problems] == ["DV081"]
    assert "not enough tiles" in problems[0].message and problems[0].message.endswith("(with the variant big.yaml applied)")


def test_a_game_name_of_two_lines_is_refused(tmp_path: Path) -> None:
    # The game menu printed it as a line of the pack's choosing (`::error::` for a CI runner).
    problems = [p for p in lint_edited(tmp_path, PACK, "pig.yaml", "name: Pig\n", 'name: "Pig\\n::error::Pwned"\n')
                if Path(p.location.path).name == "pig.yaml"]
    assert_one_problem(problems, "pig.yaml", "DV015", 4, 7, "'name' must be one line of text that shows something, without control or invisible characters")


def test_a_game_that_never_asks_for_a_decision_is_a_warning(tmp_path: Path) -> None:
    # Lint said "no problems", and simulate then reported games of 0 actions.
    from helpers import write_game_pack

    game = """\
kind: game
id: auto
name: Auto
players: {min: 2, max: 2}
vars: {count: 0}
flow:
  turn:
    - set: {count: count + 1}
end:
  when: "count >= 10"
  winners: "seats"
"""
    problems = lint_paths([write_game_pack(tmp_path / "auto", "auto", game)])
    assert [(p.code, p.severity) for p in problems] == [("DV055", "warning")]
    assert "no seat decided anything in" in problems[0].message and "never asks for a decision" in problems[0].message
    # A flow that asks, under an end that holds from the start: the end is to blame, not the flow.
    over = game.replace("    - set: {count: count + 1}\n", "    - choose:\n        options:\n          - action: go\n"
                        "            do: [{set: {count: count + 1}}]\n").replace('"count >= 10"', '"count >= 0"')
    problems = lint_paths([write_game_pack(tmp_path / "over", "auto", over)])
    assert [(p.code, p.severity, p.location.line) for p in problems] == [("DV055", "warning", 13)]
    assert "`end.when` already held when the first decision came" in problems[0].message


@pytest.mark.parametrize(("old", "new", "col", "words"), [
    # A misspelt space type: the branch never ran, and the game never ended (lint said nothing).
    ("if: \"to.type == 'bonus'\"", "if: \"to.type == 'bonsu'\"", 37,
     "'bonsu' is no space's type in this game; did you mean 'bonus'?"),
    ("where type == 'goal')\"}", "where type == 'gaol')\"}", 58, "'gaol' is no space's type in this game"),
    ("if: \"to.type == 'trap'\"", "if: \"to.type in ['trap', 'bonsu']\"", 46, "'bonsu' is no space's type"),
])
def test_a_text_compared_with_a_field_of_known_values_must_be_one_of_them(
    tmp_path: Path, old: str, new: str, col: int, words: str
) -> None:
    pack = Path(__file__).parent / "packs" / "from-docs"
    problems = [p for p in lint_edited(tmp_path, pack, "race.yaml", old, new) if Path(p.location.path).name == "race.yaml"]
    assert [(p.code, p.location.col) for p in problems] == [("DV041", col)], problems
    assert words in problems[0].message


def test_a_failure_in_a_test_game_says_which_game(tmp_path: Path) -> None:
    # "DV042 first() of an empty list": it failed only with 3 seats (two pawns), and nothing said so.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: pawns
name: Pawns
players: {min: 2, max: 3}
components:
  pawn: {fields: {colour: str}, label: colour, items: [{colour: red}, {colour: blue}]}
zones:
  box: {kind: pile, visibility: public, contents: [pawn]}
  mine: {kind: pile, per_seat: true, visibility: public}
flow:
  setup:
    - for_each:
        in: seats
        as: s
        do:
          - move: {piece: "first(box)", to: mine, owner: s}
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path / "pawns", "pawns", game)])
    assert [p.code for p in problems] == ["DV042"]
    assert "first() of an empty list (starting a game of 3 seats: its setup, up to the first decision)" in problems[0].message


def test_the_reserved_piece_fields_are_the_fields_every_piece_has() -> None:
    # The names a component may not use (PIECE_BUILTINS) and the built-in fields the checker types
    # for every piece are one list: a field in one and not the other would hide or be hidden.
    from davinci.engine.build import PIECE_BUILTINS, Types
    from davinci.engine.definition import EMPTY_BOARD
    from davinci.engine.expr.types import RecordType

    types = Types({}, {}, {}, EMPTY_BOARD, RecordType("settings", {}))
    assert set(types.piece.fields) == set(PIECE_BUILTINS)


@pytest.mark.parametrize(("old", "new", "words"), [
    # libyaml's words alone ("did not find expected key (while parsing a block mapping ...)") did
    # not say that the line was indented wrong.
    ("        - set: {pot: pot + die}\n", "       - set: {pot: pot + die}\n",
     "check this line's indentation against the lines of the block above it"),
    ("    doc: Points needed to win.\n", "    doc: Points needed: to win.\n",
     "a ': ' inside a plain value (quote the value), or a key indented deeper than the keys beside it"),
])
def test_a_yaml_layout_mistake_says_what_to_look_at(tmp_path: Path, old: str, new: str, words: str) -> None:
    problems = [p for p in lint_edited(tmp_path, PACK, "pig.yaml", old, new) if p.location.path.endswith("pig.yaml")]
    assert [p.code for p in problems] == ["DV001"] and words in problems[0].message


def test_lower_is_better_ranks_the_lowest_score_first(tmp_path: Path) -> None:
    # A game where points count against you ranked 140 above 107 (or showed negated scores).
    from helpers import write_game_pack

    from davinci.engine.game import load_game

    game = """\
kind: game
id: low
name: Low
players: {min: 3, max: 3}
seat_vars: {points: 0}
flow:
  setup:
    - for_each:
        in: seats
        as: s
        do:
          - set: {seat: s, points: "[0, 140, 107][s.index - 1]"}
  turn:
    - choose:
        options:
          - action: end
            do: [{end_game: true}]
end:
  when: "false"
  winners: "seats where points == min(seats select points)"
  score: "seat.points"
  lower_is_better: true
"""
    g = load_game("low", packs=[write_game_pack(tmp_path, "low", game)])
    st = g.new_state(3, seed=1)
    st.apply(st.current_seats[0], "end")
    assert st.result()["ranking"] == [0, 2, 1] and st.result()["scores"] == [0, 140, 107]
    assert lint_paths([str(tmp_path)]) == []


def test_a_seat_variable_set_in_a_loop_over_seats_without_seat_is_a_warning(tmp_path: Path) -> None:
    # Seat 1 got every seat's chips (set three times), the others kept 0, and lint said nothing.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: chips
name: Chips
players: {min: 3, max: 3}
seat_vars: {chips: 0, seen: 0}
flow:
  setup:
    - for_each:
        in: seats
        as: s
        do:
          - set: {chips: 11}
          - set: {seen: current.seen + 1}
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path, "chips", game)])
    found = [(p.code, p.location.line, p.location.col) for p in problems if p.code == "DV066"]
    assert found == [("DV066", 12, 19)]  # not the sum kept by the current seat
    assert "write set: {seat: s, chips: ...}" in next(p.message for p in problems if p.code == "DV066")


def test_unreachable_steps_are_found_in_time_linear_in_the_nesting(tmp_path: Path) -> None:
    # 27 nested `if: "true"` steps (8 KB) took lint past a minute: each level judged its branch twice.
    import time

    lines = ["kind: game", "id: deep", "name: Deep", "players: {min: 2, max: 2}", "flow:", "  turn:"]
    indent = "    "
    for _ in range(27):
        lines += [f'{indent}- if: "true"', f"{indent}  else: [{{log: x}}]", f"{indent}  then:"]
        indent += "    "
    lines += [f"{indent}- choose: {{options: [{{action: go, do: [{{end_game: true}}]}}]}}",
              "end:", '  when: "false"', '  winners: "seats"']
    from helpers import write_game_pack

    folder = write_game_pack(tmp_path, "deep", "\n".join(lines) + "\n")
    started = time.process_time()
    problems = lint_paths([folder])
    assert time.process_time() - started < 20  # (linear: well under a second)
    assert [p.code for p in problems] == ["DV065"] * 27


def test_a_variable_may_not_start_as_a_mapping(tmp_path: Path) -> None:
    # It linted clean, and every save of the game failed to resume ("unknown stored value").
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "  pot: 0 ", "  pot: {doc: 1, x: 2} ")
    mine = [p for p in problems if p.location.path.endswith("pig.yaml")]
    assert [(p.code, p.location.line) for p in mine] == [("DV050", 20)]
    assert mine[0].message.startswith("'pot' starts as a mapping or holds one: a variable holds a number, a text")


def test_a_loop_over_a_definition_of_the_seats_is_one_too_and_nested_loops_warn_once(tmp_path: Path) -> None:
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: chips2
name: Chips
players: {min: 3, max: 3}
seat_vars: {chips: 0}
define:
  alive: "seats where active"
flow:
  setup:
    - for_each:
        in: alive
        as: s
        do:
          - for_each:
              in: seats
              as: t
              do:
                - set: {chips: 11}
""" + STOP_AT_ONCE
    problems = [p for p in lint_paths([write_game_pack(tmp_path, "chips2", game)]) if p.code == "DV066"]
    assert len(problems) == 1 and "write set: {seat: t, chips: ...}" in problems[0].message


def test_a_number_compared_with_a_field_of_known_values_must_be_one_of_them(tmp_path: Path) -> None:
    # `rank == 15` with ranks 7 to 14: the queen-of-spades penalty silently never counted.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: ranks
name: Ranks
players: {min: 2, max: 2}
components:
  card:
    fields: {rank: int, suit: str}
    product: {rank: {from: 7, to: 14}, suit: [hearts, spades]}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
vars:
  n: 0
flow:
  setup:
    - set: {n: "count(deck where suit == 'spades' and rank == RANK)"}
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path / "bad", "ranks", game.replace("RANK", "15"))])
    assert [(p.code, p.location.line, p.location.col) for p in problems] == [("DV041", 15, 63)], problems
    assert "15 is no piece's rank in this game (its values: 7, 8, 9, 10, 11, 12, 13, 14)" in problems[0].message
    assert lint_paths([write_game_pack(tmp_path / "good", "ranks", game.replace("RANK", "12"))]) == []
    negative = lint_paths([write_game_pack(tmp_path / "neg", "ranks", game.replace("RANK", "-1"))])
    assert [p.code for p in negative] == ["DV041"] and "-1 is no piece's rank" in negative[0].message


def test_dealing_in_a_loop_over_seats_without_an_owner_is_reported(tmp_path: Path) -> None:
    # Every card went to seat 1; lint said only "DV044 no legal option ... (in a random test game)".
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: deal
name: Deal
players: {min: 2, max: 2}
components:
  card:
    fields: {rank: int}
    product: {rank: {from: 1, to: 8}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
flow:
  setup:
    - shuffle: deck
    - for_each: {in: seats, as: s, do: [{draw: {from: deck, to: hand, count: 2OWNER}}]}
""" + STOP_AT_ONCE
    problems = [p for p in lint_paths([write_game_pack(tmp_path / "bad", "deal", game.replace("OWNER", ""))])
                if p.code == "DV066"]
    assert [(p.location.line, p.severity) for p in problems] == [(15, "warning")], problems
    assert "this draw puts the pieces in current's hand" in problems[0].message and "add owner: s" in problems[0].message
    assert lint_paths([write_game_pack(tmp_path / "good", "deal", game.replace("OWNER", ", owner: s"))]) == []


def test_a_private_variable_set_from_a_public_choice_is_reported(tmp_path: Path) -> None:
    # Without `private: true` the code maker's action ("Ana: secret 3") was in everyone's log, and
    # the code breaker read the "private" code there; lint said nothing.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: code
name: Code
players: {min: 2, max: 2}
seat_vars:
  code: 0
private_seat_vars: [code]
flow:
  setup:
    - choose:
        options:
          - action: secret
            args: {n: "range(1, 7)"}PRIVATE
            do: [{set: {seat: current, code: n}}]
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path / "bad", "code", game.replace("PRIVATE", ""))])
    assert [(p.code, p.location.line) for p in problems] == [("DV059", 14)], problems
    assert "'code' is a private seat variable, set from 'n', an argument of an option that is not private" \
        in problems[0].message
    assert lint_paths([write_game_pack(tmp_path / "good", "code", game.replace("PRIVATE", "\n            private: true"))]) == []


def test_a_turn_whose_way_out_is_never_offered_is_named_as_such(tmp_path: Path) -> None:
    # Lint blamed "its rules query long lists far too often" (the lists were tiny): the turn never ended.
    from helpers import write_game_pack

    game = """\
kind: game
id: loop
name: Loop
players: {min: 1, max: 1}
vars:
  tries: 0
flow:
  turn:
    - while: "true"
      do:
        - choose:
            options:
              - action: again
                do: [{set: {tries: "len(range(0, 2000))"}}]
              - action: done
                if: "tries < 0"
                do: [{end_turn: true}]
end:
  when: "false"
  winners: "seats"
"""
    problems = [p for p in lint_paths([write_game_pack(tmp_path, "loop", game)]) if p.code == "DV055"]
    assert len(problems) == 1 and "turn 1 had taken" in problems[0].message, problems
    assert "a loop of decisions with no way out" in problems[0].message


def test_a_name_another_block_binds_is_not_said_to_be_set_later(tmp_path: Path) -> None:
    # "unknown name 's': it is set later, at line 22" named another procedure's `as: s`, and
    # advised moving the step after it.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: tiny
name: Tiny
players: {min: 2, max: 2}
seat_vars: {pts: 0}
flow:
  setup:
    - for_each:
        in: seats
        do:
          - set: {seat: s, pts: 1}
  procedures:
    other:
      - for_each:
          in: seats
          as: s
          do: [{log: "{s.name}"}]
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path, "tiny", game)])
    said = [p.message.splitlines()[0] for p in problems if p.code == "DV041"]
    assert said == ["unknown name 's'"]


def test_a_component_no_zone_holds_is_a_warning(tmp_path: Path) -> None:
    # `box: {kind: pile}` without `contents: [seed]`: the seeds were made and never reachable, and
    # the game failed at its first decision with nothing in lint to say why.
    chips = ("components:\n  chip:\n    fields: {value: int}\n    product: {value: {from: 1, to: 3}}\nzones:\n"
             "  box: {kind: bag, visibility: public}\n\n")
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "seat_vars:\n", chips + "seat_vars:\n")
    found = [(p.code, p.location.line) for p in problems if p.code == "DV068"]
    assert found == [("DV068", 17)]
    assert "component 'chip' is in no zone's contents" in next(p.message for p in problems if p.code == "DV068")


@pytest.mark.parametrize(("old", "new", "words"), [
    # `as: null` was an internal error (AssertionError) in lint, play and simulate.
    ("{sides: 6, as: die}", "{sides: 6, as: null}", "'as' must be a lower-case name, got null"),
    # New locals no expression could read were only "set but never read".
    ("set: {pot: pot + die}", "set: {'a b': 1, pot: pot + die}", "'a b' is not a name an expression can read"),
    ("set: {pot: pot + die}", "set: {else: 1, pot: pot + die}", "'else' is a word of the rule language"),
    # The second error of an unquoted `max(pot, die)` in {...}: said as what it is.
    ("set: {pot: pot + die}", "set: {pot: max(pot, die)}",
     "'die)' is the end of an expression a comma cut inside {...}: quote the whole expression"),
])
def test_a_local_no_expression_could_read_is_refused(tmp_path: Path, old: str, new: str, words: str) -> None:
    problems = [p for p in lint_edited(tmp_path, PACK, "pig.yaml", old, new) if Path(p.location.path).name == "pig.yaml"]
    assert problems and words in problems[-1].message, problems


TRICKS = Path(__file__).parent / "packs" / "from-docs"


@pytest.mark.parametrize(("old", "new", "key", "col"), [
    ("- move: {piece: trick, to: taken}", "- move: {piece: trick, to: taken, owner: winner}", "owner", 50),
    ("- move: {piece: trick, to: taken}", "- move: {piece: trick, to: taken, to_owner: winner}", "to_owner", 53),
    ("- draw: {from: deck, to: hand, owner: s,", "- draw: {from: deck, from_owner: s, to: hand, owner: s,", "from_owner", 44),
])
def test_an_owner_given_for_a_shared_zone_is_refused_not_ignored(tmp_path: Path, old: str, new: str, key: str,
                                                                  col: int) -> None:
    # A tricks-won pile whose `per_seat: true` was forgotten: `owner: winner` was ignored, and every
    # seat's tricks went into one pile without a word from lint.
    problems = lint_edited(tmp_path, TRICKS, "tricks.yaml", old, new)
    zone = "taken" if "taken" in new else "deck"
    assert [(p.code, p.location.col) for p in problems] == [("DV050", col)], problems
    assert (f"'{key}' names the seat whose '{zone}' it is, but '{zone}' is one shared zone: leave '{key}' out, or "
            f"give the zone 'per_seat: true'") in problems[0].message


def test_a_private_seat_variable_copied_into_a_public_one_is_a_warning_unless_a_log_showed_it(tmp_path: Path) -> None:
    # A code breaker's screen showed the maker's code: `set: {secret: ...code}` with `secret`
    # under vars, which every seat sees. Keeping the top bid after "The bids: ..." is fine.
    old = '        - log: "The bids: {seats select name + \' \' + text(bid)}"\n'
    problems = lint_edited(tmp_path, TRICKS, "trumps.yaml", old, "")
    assert [(p.code, p.location.line) for p in problems] == [("DV059", 128)], problems
    assert ("'top_bidder' is a variable every seat sees: setting it from 'bid', a private seat variable, shows it to "
            "all") in problems[0].message
    assert "use a local, or set it once a public log line has shown the value" in problems[0].message
    assert lint_edited(tmp_path / "kept", TRICKS, "trumps.yaml", old, old) == []
    # A line that names the variable in its words shows nothing: only a `{...}` it fills in does.
    prose = '        - log: "Every bid is in (sealed)"\n'
    assert [p.code for p in lint_edited(tmp_path / "prose", TRICKS, "trumps.yaml", old, prose)] == ["DV059"]
    # One seat a line, in a loop over the seats, shows every value too.
    each = '        - for_each: {in: seats, as: s, do: [{log: "{s.name} bid {s.bid}"}]}\n'
    assert lint_edited(tmp_path / "each", TRICKS, "trumps.yaml", old, each) == []


def test_a_choose_in_a_loop_over_seats_without_seat_is_a_warning(tmp_path: Path) -> None:
    # Each seat was to place its own ships; without `seat: s` the first seat placed everyone's.
    from helpers import STOP_AT_ONCE, write_game_pack

    game = """\
kind: game
id: ships
name: Ships
players: {min: 2, max: 2}
seat_vars: {ship: 0}
flow:
  setup:
    - for_each:
        in: seats
        as: s
        do:
          - choose:
              prompt: "{s.name}: place your ship"
              options:
                - action: place
                  args: {at: "range(1, 4)"}
                  do:
                    - set: {seat: s, ship: at}
""" + STOP_AT_ONCE
    problems = [p for p in lint_paths([write_game_pack(tmp_path, "ships", game)]) if p.code == "DV066"]
    assert [(p.location.line, p.location.col) for p in problems] == [(12, 13)]
    assert "this choose is put to current" in problems[0].message and "add seat: s" in problems[0].message
    fixed = game.replace("          - choose:\n", "          - choose:\n              seat: s\n")
    assert [p for p in lint_paths([write_game_pack(tmp_path / "fixed", "ships", fixed)]) if p.code == "DV066"] == []


def test_an_end_score_that_reads_no_seat_is_a_warning(tmp_path: Path) -> None:
    # `score: total(current)` gave every seat the same score, in rankings and simulate's statistics.
    problems = [p for p in lint_edited(tmp_path, PACK, "pig.yaml", 'score: "seat.banked"', 'score: "current.banked"')
                if p.code == "DV066"]
    assert [(p.location.line, p.location.col) for p in problems] == [(46, 10)]
    assert problems[0].message.startswith("end.score reads no `seat`, the seat it scores (`current` is the seat "
                                          "whose turn it was, the same for every seat)")


def test_a_truth_value_written_as_a_word_is_a_warning_at_the_declaration(tmp_path: Path) -> None:
    # `held: [no, no, no]` held text: four errors where it was used, none at the cause.
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "  pot: 0 ", "  held: [no, no, no]\n  pot: 0 ")
    found = [(p.code, p.location.line) for p in problems if p.code == "DV069"]
    assert found == [("DV069", 20)], problems
    assert "'no' here is the word 'no', not a truth value: 'held' holds text; write the list with true and false" in \
        next(p.message for p in problems if p.code == "DV069")


def test_seat_of_current_checks_spare_reasonable_games_and_follow_variants_and_definitions(tmp_path: Path) -> None:
    # A choose the current seat makes about each other seat ("give s how many of your coins?") and a
    # loop over numbers were reported; a variant's end over current, or a definition reading
    # current, were not.
    from helpers import STOP_AT_ONCE, write_game_pack

    gift = """\
kind: game
id: gift
name: Gift
players: {min: 2, max: 3}
seat_vars: {coins: 3}
define:
  mine: "current.coins"
flow:
  setup:
    - for_each:
        in: "seats where index != current.index"
        as: s
        do:
          - choose:
              prompt: "Give {s.name} how many coins?"
              options:
                - action: give
                  args: {n: "range(0, min([3, current.coins + 1]))"}
                  do:
                    - set: {seat: s, coins: s.coins + n}
    - for_each:
        in: "range(0, len(seats))"
        as: i
        do:
          - choose: {options: [{action: wait, do: []}]}
""" + STOP_AT_ONCE
    problems = lint_paths([write_game_pack(tmp_path / "a", "gift", gift)])
    assert [p for p in problems if p.code == "DV066"] == []
    scored = gift.replace('  when: "false"\n', '  when: "false"\n  score: "mine"\n')
    problems = lint_paths([write_game_pack(tmp_path / "b", "gift", scored)])
    assert [p.message.split(",")[0] for p in problems if p.code == "DV066"] == ["end.score reads no `seat`"]
    variant = "kind: variant\nid: cur\nextends: gift\nname: Cur\nend:\n  score: \"current.coins\"\n"
    folder = Path(write_game_pack(tmp_path / "c", "gift", gift))
    (folder / "cur.yaml").write_text(variant)
    (folder / "pack.yaml").write_text((folder / "pack.yaml").read_text() + "variants: [cur.yaml]\n")
    problems = lint_paths([str(folder)])
    assert [(Path(p.location.path).name, p.code) for p in problems if p.code == "DV066"] == [("cur.yaml", "DV066")]


def test_truth_words_are_found_at_any_depth_and_n_and_y_are_words(tmp_path: Path) -> None:
    problems = lint_edited(tmp_path, PACK, "pig.yaml", "  pot: 0 ",
                           "  grid: [[no, no], [no, no]]\n  vane: n\n  axis: y\n  votes: [yes, no, abstain]\n  pot: 0 ")
    found = [p for p in problems if p.code == "DV069"]
    assert [p.location.line for p in found] == [20], found
    assert "write the list with true and false" in found[0].message
