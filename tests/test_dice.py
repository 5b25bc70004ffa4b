"""`roll` with `dice`: several dice in one step, bound as a list, logged in the order rolled."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

DOUBLES = """\
kind: game
id: doubles
name: Doubles
players: {min: 2, max: 4}
settings:
  dice: {type: int, default: 2, min: 0, max: 5, doc: Dice rolled each turn.}
seat_vars:
  total: 0
  doubles: 0
flow:
  turn:
    - roll: {sides: 6, dice: settings.dice, as: pair}
    - set: {seat: current, total: current.total + sum(pair)}
    - if: "len(pair) >= 2 and pair[0] == pair[1]"
      then:
        - set: {seat: current, doubles: current.doubles + 1}
    - choose:
        options:
          - action: go
            do: []
end:
  when: "any(seats select total >= 40)"
  winners: "seats where total >= 40"
  score: "seat.doubles"
  max_turns: 200
"""


def _game(tmp_path: Path, **settings: int):  # type: ignore[no-untyped-def]
    return load_game("doubles", packs=[write_game_pack(tmp_path, "doubles", DOUBLES)], settings=settings)


def test_the_dice_are_one_list_and_the_log_names_each_in_order(tmp_path: Path) -> None:
    assert lint_paths([write_game_pack(tmp_path, "doubles", DOUBLES)]) == []
    st = _game(tmp_path).new_state(2, seed=7)
    totals, doubles, rolls = [0, 0], [0, 0], 0
    seen = 0
    while True:
        fresh = st.logged - seen  # the state keeps the latest 40 events: read them as they come
        for _, line in st.events[len(st.events) - fresh:]:
            m = re.fullmatch(r"Player (\d) rolls (\d), (\d)", line)
            if m:
                seat, a, b = int(m.group(1)) - 1, int(m.group(2)), int(m.group(3))
                assert 1 <= a <= 6 and 1 <= b <= 6
                totals[seat] += a + b
                doubles[seat] += a == b
                rolls += 1
        seen = st.logged
        if st.is_terminal():
            break
        st.apply(st.current_seats[0], "go")
    assert rolls > 4
    assert max(totals) >= 40
    assert st.result()["scores"] == doubles


def test_the_same_seed_rolls_the_same_dice_and_a_save_keeps_them(tmp_path: Path) -> None:
    game = _game(tmp_path, dice=3)
    a, b = game.new_state(3, seed=11), game.new_state(3, seed=11)
    for _ in range(5):
        a.apply(a.current_seats[0], "go")
        b.apply(b.current_seats[0], "go")
    assert a.events == b.events
    assert any(re.fullmatch(r"Player \d rolls \d, \d, \d", line) for _, line in a.events)
    again = game.state_from_json(json.loads(json.dumps(a.to_json())))
    assert again.to_json() == a.to_json()


def test_a_dice_count_out_of_range_is_an_error_at_the_step(tmp_path: Path) -> None:
    with pytest.raises(DavinciError) as e:
        _game(tmp_path, dice=0).new_state(2, seed=1)
    assert "'dice' must be from 1 to 100, got 0" in e.value.message
    assert e.value.location is not None and e.value.location.line == 12


def test_a_list_of_dice_is_not_a_number(tmp_path: Path) -> None:
    pack = write_game_pack(tmp_path, "doubles", DOUBLES.replace("current.total + sum(pair)", "current.total + pair"))
    [problem] = lint_paths([pack])
    assert problem.code == "DV041" and problem.location.line == 13


CUPS = """\
kind: game
id: cups
name: Cups
description: Every seat rolls a hidden cup; the seat with the highest total wins.
players: {min: 2, max: 4}
seat_vars: {cup: [], cup_size: 3}
private_seat_vars: [cup]
turn_order: {first: "1"}
flow:
  setup:
    - for_each:
        in: "seats where active"
        as: s
        do:
          - roll: {dice: s.cup_size, as: rolled, to: s}
          - set: {seat: s, cup: rolled}
  turn:
    - choose:
        options:
          - action: stop
            do: [{end_game: true}]
end:
  when: "false"
  winners: "seats where sum(cup) == max(seats select sum(cup))"
"""


def test_dice_rolled_to_a_seat_are_read_by_that_seat_alone(tmp_path: Path) -> None:
    st = load_game("cups", packs=[write_game_pack(tmp_path, "cups", CUPS)]).new_state(3, seed=4)
    cups = [st.view(None)["seats"][s]["vars"]["cup"] for s in range(3)]
    for seat in range(3):
        view = st.view(seat)
        mine = f"Player {seat + 1} rolls {', '.join(map(str, cups[seat]))}"
        assert view["events"] == [mine if s == seat else f"Player {s + 1} rolls 3 dice" for s in range(3)]
        assert [("cup" in v["vars"]) for v in view["seats"]] == [s == seat for s in range(3)]
        assert "rolled" not in view["locals"]  # (rolled in setup; a turn-level roll is tested below)


LONG_LOG = """\
kind: game
id: long-log
name: Long log
description: One log line repeats a text the setup doubled fifteen times.
players: {min: 2, max: 2}
vars: {s: "abcd", done: false}
flow:
  setup:
    - for_each: {in: "range(15)", as: i, do: [{set: {s: s + s}}]}
  turn:
    - choose:
        prompt: "Go ({s})"
        options:
          - action: go
            do:
              - log: "PARTS"
              - set: {done: true}
end:
  when: "done"
  winners: "seats"
""".replace("PARTS", "{s}" * 300)


def test_a_log_line_or_prompt_is_cut_at_its_limit(tmp_path: Path) -> None:
    # 300 copies of a 524,288-character text made a 157 MB log line (2.5 GB with four lines); a
    # variable now holds at most 200,000 characters, and 300 copies of 131,072 are still cut.
    from davinci.engine.steps.core import MAX_TEXT

    st = load_game("long-log", packs=[write_game_pack(tmp_path, "long-log", LONG_LOG)]).new_state(2, seed=1)
    mover = st.current_seats[0]
    assert len(st.view(mover)["pending"]["prompt"]) == MAX_TEXT + len(" [...]")
    st.apply(mover, "go")
    line = st.view(mover)["events"][-1]
    assert len(line) == MAX_TEXT + len(" [...]") and line.endswith("abcd [...]")


def test_a_roll_for_another_seat_is_in_no_view_even_at_the_movers_next_decision(tmp_path: Path) -> None:
    text = CUPS.replace("""  turn:
    - choose:""", """  turn:
    - roll: {as: theirs, to: "first(seats where index != current.index)"}
    - choose:""")
    st = load_game("cups", packs=[write_game_pack(tmp_path, "cups", text)]).new_state(2, seed=4)
    assert "theirs" in st.locals
    assert all("theirs" not in st.view(s)["locals"] for s in range(2))


@pytest.mark.parametrize(("old", "new", "code", "words"), [
    # The cup every seat could read, although each seat's dice were rolled for it alone.
    ("private_seat_vars: [cup]\n", "", "DV059", "'cup' is a variable every seat sees: setting it from 'rolled', dice "
                                                "rolled with `to:` for one seat alone, shows them to all (list 'cup' under "
                                                "private_seat_vars)"),
    # Every seat's dice told to the seat whose turn it is.
    ("as: rolled, to: s}", "as: rolled, to: current}", "DV066", "this roll is told to current (the seat whose turn "
                                                                "it is), not to 's' the loop is at: write to: s"),
])
def test_hidden_dice_told_to_everyone_or_to_the_wrong_seat_are_found(
        tmp_path: Path, old: str, new: str, code: str, words: str) -> None:
    from davinci.engine.lint.runner import lint_paths

    assert lint_paths([write_game_pack(tmp_path / "ok", "cups", CUPS)]) == []
    [problem] = lint_paths([write_game_pack(tmp_path / "bad", "cups", CUPS.replace(old, new))])
    assert (problem.code, problem.message) == (code, words)


def test_one_hidden_die_is_a_die(tmp_path: Path) -> None:
    st = load_game("cups", packs=[write_game_pack(tmp_path, "cups", CUPS.replace("cup_size: 3", "cup_size: 1"))]).new_state(2, seed=4)
    assert "Player 2 rolls a die" in st.view(0)["events"]  # not "rolls 1 dice"


def test_a_log_told_to_current_in_a_loop_over_seats_is_found_without_seat_variables(tmp_path: Path) -> None:
    # The check sat behind "no seat variables: nothing to report", meant for the `set` check alone.
    from davinci.engine.lint.runner import lint_paths

    game = CUPS.replace("seat_vars: {cup: [], cup_size: 3}\nprivate_seat_vars: [cup]\n", "").replace(
        "          - roll: {dice: s.cup_size, as: rolled, to: s}\n          - set: {seat: s, cup: rolled}\n",
        "          - log: {text: 'your turn is coming', to: current}\n").replace(
        'winners: "seats where sum(cup) == max(seats select sum(cup))"', "winners: seats")
    assert "seat_vars" not in game and "to: current" in game
    [problem] = lint_paths([write_game_pack(tmp_path, "cups", game)])
    assert (problem.code, problem.message) == (
        "DV066", "this log line is told to current (the seat whose turn it is), not to 's' the loop is at: write to: s")
