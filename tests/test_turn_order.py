"""Who plays when: `turn_order.first`, `turn_order.next`, and the `requires` checks a game makes
before it starts (settings and player counts it cannot be played with)."""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game

MANIFEST = """kind: pack
id: order
name: Turn order tests
version: "1.0.0"
games: [relay.yaml]
"""

# Each turn the player names who plays next; the game ends after six turns.
RELAY = """kind: game
id: relay
name: Relay
description: Name the player who plays next.
players: {min: 2, max: 4}
bots: [random]
turn_order:
  first: settings.first
  next: passed_to
settings:
  first: {type: int, default: 1, min: 0, max: 9, doc: The first seat.}
  steps: {type: list, default: [1, 2], min: 1, max: 3, doc: Unused numbers with bounds.}
  spare: {type: int, default: 0, doc: An unused number without bounds.}
requires:
  - check: "settings.first <= players"
    message: "first names a seat that is not at the table"
vars:
  passed_to: 1
flow:
  turn:
    - choose:
        prompt: Who plays next?
        options:
          - action: give
            args: {to: "range(1, players + 2)"}
            do:
              - set: {passed_to: to}
end:
  when: "turn >= 6"
  winners: "seats where index == passed_to"
  max_turns: 50
"""


@pytest.fixture
def pack(tmp_path: Path) -> str:
    (tmp_path / "pack.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "relay.yaml").write_text(RELAY, encoding="utf-8")
    return str(tmp_path)


def turns_played(game, passes: list[int]) -> list[int]:
    """The 1-based seat of each turn when the players pass to `passes` in turn."""
    st = game.new_state(3, seed=1)
    seats = []
    for to in passes:
        seats.append(st.current + 1)
        st.apply(st.current_seats[0], f"give {to}")
    return seats


def test_next_names_the_seat_of_the_following_turn(pack: str) -> None:
    game = load_game("relay", packs=[pack])
    assert turns_played(game, [3, 3, 2, 1, 2]) == [1, 3, 3, 2, 1]


def test_a_next_seat_that_is_not_at_the_table_is_an_error_at_the_expression(pack: str) -> None:
    game = load_game("relay", packs=[pack])
    st = game.new_state(3, seed=1)
    with pytest.raises(DavinciError) as e:
        st.apply(0, "give 4")
    assert e.value.code == "DV042"
    assert "turn_order.next gave 4: not a seat number from 1 to 3" in e.value.message
    assert e.value.location is not None and (e.value.location.line, e.value.location.col) == (9, 9)


def test_the_first_seat_comes_from_its_expression(pack: str) -> None:
    game = load_game("relay", None, {"first": 2}, [pack])
    assert game.new_state(3, seed=1).current == 1


def test_first_seat_zero_draws_the_first_seat_with_the_seed(pack: str) -> None:
    game = load_game("relay", None, {"first": 0}, [pack])
    firsts = {game.new_state(3, seed=s).current for s in range(20)}
    assert firsts == {0, 1, 2}


def test_a_failed_requirement_refuses_the_game_with_its_message(pack: str) -> None:
    game = load_game("relay", None, {"first": 4}, [pack])
    with pytest.raises(DavinciError) as e:
        game.new_state(3, seed=1)
    assert e.value.code == "DV081"
    assert e.value.message == ("the game cannot start: first names a seat that is not at the table "
                               "(with 3 players)")
    assert e.value.location is not None and e.value.location.line == 15
    assert game.new_state(4, seed=1).current == 3  # four players: seat 4 exists


def test_list_setting_bounds_hold_for_every_number(pack: str) -> None:
    with pytest.raises(DavinciError, match="setting 'steps' must have every number <= 3, got 7"):
        load_game("relay", None, {"steps": "1,7"}, [pack])
    assert load_game("relay", None, {"steps": "3,1"}, [pack]).settings["steps"] == [3, 1]


@pytest.mark.parametrize(("game_id", "settings", "players", "words"), [
    ("da-vinci-code", {"hand_large": 8}, 4, "not enough tiles for every player's starting row"),
    ("da-vinci-code", {"first_player": 4}, 2, "first_player names a seat that is not at the table"),
    ("da-vinci-game", {"awards": []}, 3, "awards needs at least one number"),
    ("da-vinci-game", {"first_team": 5}, 4, "first_team names a team that is not at the table"),
])
def test_shipped_games_refuse_settings_they_cannot_be_played_with(game_id: str, settings: dict, players: int,
                                                                  words: str) -> None:
    # These used to start and then fail mid-game (or quietly wrap the first seat around).
    game = load_game(game_id, None, settings)
    with pytest.raises(DavinciError, match=words):
        game.new_state(players, seed=1)


@pytest.mark.parametrize("text", ["[[1]]", "[]]", "1,,2", "+3", "1_0", "\u0661,\u0662"])
def test_a_list_setting_is_plain_comma_separated_whole_numbers(pack: str, text: str) -> None:
    with pytest.raises(DavinciError, match="must be a comma-separated list of integers"):
        load_game("relay", None, {"steps": text}, [pack])


@pytest.mark.parametrize(("text", "value"), [("[3, 1]", [3, 1]), ("3,1", [3, 1]), ("[]", []), ("", [])])
def test_a_list_setting_may_be_written_with_or_without_brackets(pack: str, text: str, value: list[int]) -> None:
    assert load_game("relay", None, {"steps": text}, [pack]).settings["steps"] == value


@pytest.mark.parametrize(("text", "words"), [("+1", "must be an integer"), ("1" + "0" * 30, "too large a number"),
                                             ("9" * 5000, "too large a number")])  # from a save: Python's int() failed
def test_an_int_setting_is_plain_digits_the_rules_can_hold(pack: str, text: str, words: str) -> None:
    with pytest.raises(DavinciError, match=words):
        load_game("relay", None, {"spare": text}, [pack])


def test_eliminate_takes_a_seat_or_a_list_of_seats(tmp_path: Path) -> None:
    from davinci.engine.lint.runner import lint_paths

    (tmp_path / "pack.yaml").write_text(MANIFEST, encoding="utf-8")
    game = RELAY.replace("turn_order:\n  first: settings.first\n  next: passed_to\n", "").replace(
        "              - set: {passed_to: to}\n",
        "              - set: {passed_to: to}\n              - eliminate: \"seats where index == to and index != 1\"\n")
    (tmp_path / "relay.yaml").write_text(game.replace('"range(1, players + 2)"', '"range(1, players + 1)"'),
                                         encoding="utf-8")
    assert lint_paths([str(tmp_path)]) == []  # a list of seats (it was an internal error)
    st = load_game("relay", packs=[str(tmp_path)]).new_state(3, seed=1)
    st.apply(st.current_seats[0], "give 2")
    assert st.active == [True, False, True]
    (tmp_path / "relay.yaml").write_text(game.replace('index == to and index != 1"', 'index == to and index != 1 '
                                                      'select name"'), encoding="utf-8")
    problems = lint_paths([str(tmp_path)])
    assert [p.code for p in problems] == ["DV041"] and "takes a seat or a list of seats, got list[str]" in \
        problems[0].message


def test_next_may_be_a_plain_number_as_first_may(tmp_path: Path) -> None:
    # `next: 2` was refused ("'next' must be text") where `first: 1` passed: both are int expressions.
    from davinci.engine.lint.runner import lint_paths

    (tmp_path / "pack.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "relay.yaml").write_text(RELAY.replace("  next: passed_to\n", "  next: 2\n"), encoding="utf-8")
    assert lint_paths([str(tmp_path)]) == []
    game = load_game("relay", packs=[str(tmp_path)])
    assert turns_played(game, [3, 1, 3, 1]) == [1, 2, 2, 2]
