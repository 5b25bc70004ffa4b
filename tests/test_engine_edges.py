"""Edge cases of the engine's steps that a reviewer's reading found: two zones over capacity at
once, pieces of two board zones on one space, turning a piece without moving it, the fields of
a piece that has left the game; and steps and keys refused where they are written."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.game import load_game

# The first seat's decision that ends the game, and the end: the last step of a test game's turn.
AND_STOP = STOP_AT_ONCE.removeprefix("  turn:\n")


def test_two_zones_over_capacity_at_once_are_each_brought_back_to_it(tmp_path: Path) -> None:
    # One swap put both piles over a lowered capacity: the second check replaced the first
    # pile's pending return, and that pile stayed at 3 pieces with a capacity of 1.
    game = """\
kind: game
id: swaps
name: Swaps
players: {min: 2, max: 2}
components:
  chip: {fields: {n: int}, label: n, product: {n: {from: 1, to: 6}}}
vars: {limit: 5}
zones:
  box: {kind: pile, visibility: public, contents: [chip]}
  a: {kind: pile, visibility: public, capacity: limit}
  b: {kind: pile, visibility: public, capacity: limit}
flow:
  setup:
    - draw: {from: box, to: a, count: 3}
    - draw: {from: box, to: b, count: 3}
  turn:
    - set: {limit: 1}
    - swap: {a: first(a), b: first(b)}
""" + AND_STOP
    g = load_game("swaps", packs=[write_game_pack(tmp_path, "swaps", game)])
    st = g.new_state(2, seed=1)
    asked = []
    while st.pending and st.pending["type"] == "overflow":
        asked.append(st.pending["zone"])
        st = g.state_from_json(st.to_json())  # a save between the returns keeps the zones to check
        st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])
    assert sorted(asked) == ["a", "a", "b", "b"]
    assert (len(st.zones["a"]), len(st.zones["b"])) == (1, 1)


def test_a_seats_capacity_is_computed_for_the_seat_whose_zone_it_is(tmp_path: Path) -> None:
    # `capacity: 2 * current.index` was the only way to write it, and gave the current seat's
    # capacity: seat 2 handing seat 1 three chips left seat 1 at 3 over its own capacity of 2.
    game = """\
kind: game
id: gifts
name: Gifts
players: {min: 2, max: 2}
turn_order: {first: 2}
components:
  chip: {fields: {n: int}, label: n, product: {n: {from: 1, to: 6}}}
zones:
  box: {kind: pile, visibility: public, contents: [chip]}
  purse: {kind: pile, per_seat: true, visibility: public, capacity: "2 * owner.index", overflow_to: box}
flow:
  turn:
    - draw: {from: box, to: purse, owner: 'first(seats where index == 1)', count: 3}
""" + AND_STOP
    g = load_game("gifts", packs=[write_game_pack(tmp_path, "gifts", game)])
    st = g.new_state(2, seed=1)
    assert st.pending["type"] == "overflow" and st.pending["zone"] == "purse#0" and st.pending["cap"] == 2
    st.apply(0, st.legal_actions(0)[0])
    assert len(st.zones["purse#0"]) == 2


def test_pieces_of_two_board_zones_on_one_space_keep_their_order_through_a_save(tmp_path: Path) -> None:
    game = """\
kind: game
id: boards
name: Boards
players: {min: 2, max: 2}
components:
  pawn: {fields: {colour: str}, label: colour, items: [{colour: red}, {colour: blue}]}
zones:
  box: {kind: pile, visibility: public, contents: [pawn]}
  track: {kind: board, visibility: public}
  marks: {kind: board, visibility: public}
board:
  spaces: [{id: s, type: plain}, {id: t, type: plain}]
  tracks: [{spaces: [s, t]}]
  start: s
flow:
  setup:
    - move: {piece: 'first(box where colour == "red")', to: track, space: "space(track, 's')"}
    - move: {piece: 'first(box where colour == "blue")', to: marks, space: "space(track, 's')"}
""" + STOP_AT_ONCE
    g = load_game("boards", packs=[write_game_pack(tmp_path, "boards", game)])
    st = g.new_state(2, seed=1)
    live = st.pieces_on_space("s")
    assert g.state_from_json(st.to_json()).pieces_on_space("s") == live
    colours = [g.definition.pieces[p].attrs["colour"] for p in live]
    assert colours == ["blue", "red"]  # zone by zone, in the order of their names (marks, track)


def test_a_move_to_the_zone_a_piece_is_in_still_turns_it_face_up(tmp_path: Path) -> None:
    # `move: {..., to: hand, face_up: true}` on a card already in that hand did nothing.
    game = """\
kind: game
id: faces
name: Faces
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, label: n, product: {n: {from: 1, to: 3}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
flow:
  setup:
    - for_each: {in: seats, as: s, do: [{draw: {from: deck, to: hand, owner: s}}]}
  turn:
    - move: {piece: first(current.hand), to: hand, owner: current, face_up: true}
""" + AND_STOP
    st = load_game("faces", packs=[write_game_pack(tmp_path, "faces", game)]).new_state(2, seed=1)
    mover = st.current
    card = st.zones[f"hand#{mover}"][0]
    assert card in st.revealed
    shown = st.view(1 - mover)["seats"][mover]["zones"]["hand"]["pieces"][0]
    assert shown["revealed"] is True and shown["n"] == st.game.pieces[card].attrs["n"]  # the other seat sees it


def test_a_piece_that_left_the_game_has_no_owner_and_no_zone(tmp_path: Path) -> None:
    # `owner` of a piece returned over capacity without overflow_to failed with "no value for
    # '$supply'", an engine-internal name, which `zone` also gave.
    game = """\
kind: game
id: gone
name: Gone
players: {min: 2, max: 2}
components:
  chip: {fields: {n: int}, label: n, product: {n: {from: 1, to: 4}}}
zones:
  box: {kind: pile, visibility: public, contents: [chip]}
  hand: {kind: hand, per_seat: true, visibility: public, capacity: 0}
flow:
  turn:
    - draw: {from: box, to: hand, as: got}
    - log: "zone {got.zone}, owner {got.owner}"
""" + AND_STOP
    g = load_game("gone", packs=[write_game_pack(tmp_path, "gone", game)])
    st = g.new_state(2, seed=1)
    st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])  # the return over capacity
    assert "zone none, owner none" in [text for _, text in st.events]


def test_a_zone_overflowing_into_itself_is_refused_at_its_overflow_to(tmp_path: Path) -> None:
    # The returned piece landed over capacity again: lint found an endless flow (DV043) after
    # 10,000 decisions, located at the draw, and a player was asked to return a card for ever.
    from davinci.engine.errors import DefinitionError

    game = """\
kind: game
id: loops
name: Loops
players: {min: 2, max: 2}
components:
  chip: {fields: {n: int}, label: n, product: {n: {from: 1, to: 4}}}
zones:
  box: {kind: pile, visibility: public, contents: [chip]}
  hand: {kind: hand, per_seat: true, visibility: public, capacity: 1, overflow_to: hand}
flow:
""" + STOP_AT_ONCE
    with pytest.raises(DefinitionError) as e:
        load_game("loops", packs=[write_game_pack(tmp_path, "loops", game)])
    assert "'hand' overflows into itself" in e.value.message
    assert e.value.location is not None and e.value.location.line == 9


def test_a_timer_setting_is_a_number_of_seconds(tmp_path: Path) -> None:
    game = """\
kind: game
id: clocks
name: Clocks
players: {min: 2, max: 2}
settings:
  pace: {type: str, default: fast, timer: true}
flow:
""" + STOP_AT_ONCE
    from davinci.engine.errors import DefinitionError

    with pytest.raises(DefinitionError) as e:
        load_game("clocks", packs=[write_game_pack(tmp_path, "clocks", game)])
    assert "a timer setting is a number of seconds" in e.value.message and e.value.location is not None
    assert e.value.location.line == 6


@pytest.mark.parametrize(("setup", "words"), [
    ("    - log: before\n    - end_turn: true\n    - log: after\n", "'end_turn' in setup"),
    ("    - log: before\n    - return: true\n    - log: after\n", "'return' outside a procedure"),
])
def test_steps_that_would_skip_the_rest_of_setup_are_refused(tmp_path: Path, setup: str, words: str) -> None:
    # Both skipped the rest of setup without a word (`break` there was already refused).
    from davinci.engine.errors import DefinitionError

    game = "kind: game\nid: early\nname: Early\nplayers: {min: 2, max: 2}\nflow:\n  setup:\n" + setup + \
        STOP_AT_ONCE
    with pytest.raises(DefinitionError) as e:
        load_game("early", packs=[write_game_pack(tmp_path, "early", game)])
    assert words in e.value.message and e.value.location is not None and e.value.location.line == 8  # the step


def test_end_turn_in_a_procedure_setup_calls_is_located(tmp_path: Path) -> None:
    from davinci.engine.errors import EvalError

    game = ("kind: game\nid: early\nname: Early\nplayers: {min: 2, max: 2}\nflow:\n  setup:\n    - call: deal\n"
            "  procedures:\n    deal:\n      - end_turn: true\n") + STOP_AT_ONCE
    with pytest.raises(EvalError) as e:
        load_game("early", packs=[write_game_pack(tmp_path, "early", game)]).new_state(2, seed=0)
    assert "'end_turn' during setup" in e.value.message and e.value.location is not None
    assert e.value.location.line == 10


def test_not_now_goes_with_an_if(tmp_path: Path) -> None:
    from davinci.engine.errors import DefinitionError

    game = ("kind: game\nid: nn\nname: Nn\nplayers: {min: 2, max: 2}\nflow:\n  turn:\n    - choose:\n"
            "        options:\n          - action: stop\n            not_now: never\n            do: [{end_game: true}]\n"
            "end:\n  when: 'false'\n  winners: seats\n")
    with pytest.raises(DefinitionError) as e:
        load_game("nn", packs=[write_game_pack(tmp_path, "nn", game)])
    assert "'not_now' is a text saying why the option is not offered: it goes with an 'if' or a 'when'" \
        in e.value.message
    assert e.value.location is not None and e.value.location.line == 10


def test_not_now_fills_in_its_expressions(tmp_path: Path) -> None:
    # `{n}` was said as written, and lint called `n` unread.
    from davinci.engine.errors import IllegalAction
    from davinci.engine.lint.runner import lint_paths

    game = ("kind: game\nid: nn\nname: Nn\nplayers: {min: 2, max: 2}\nvars: {n: 0}\nflow:\n  turn:\n"
            "    - set: {n: n + 1}\n    - choose:\n        options:\n          - action: stop\n"
            "            if: n >= 3\n            not_now: 'only from the third turn: this is turn {n}'\n"
            "            do: [{end_game: true}]\n          - action: wait\n            do: []\n"
            "end:\n  when: 'false'\n  winners: seats\n  max_turns: 9\n")
    pack = write_game_pack(tmp_path, "nn", game)
    assert [p.code for p in lint_paths([pack])] == []
    st = load_game("nn", packs=[pack]).new_state(2, seed=0)
    with pytest.raises(IllegalAction) as e:
        st.apply(st.current_seats[0], "stop")
    assert "only from the third turn: this is turn 1" in e.value.message
    # A not_now whose expression fails when a move is refused leaves the engine's own words.
    failing = load_game("nn", packs=[write_game_pack(tmp_path / "f", "nn", game.replace("turn {n}", "turn {10 // (n - 1)}"))])
    st = failing.new_state(2, seed=0)
    with pytest.raises(IllegalAction) as e:
        st.apply(st.current_seats[0], "stop")
    assert "'stop' is not possible now" in e.value.message


def test_not_now_naming_the_options_own_argument_says_why_it_cannot(tmp_path: Path) -> None:
    # It said the local "does not reach here" and to declare it under turn_vars, which then clashed.
    from davinci.engine.lint.runner import lint_paths

    game = ("kind: game\nid: nn\nname: Nn\nplayers: {min: 2, max: 2}\nflow:\n  turn:\n    - choose:\n"
            "        options:\n          - action: pick\n            args: {n: 'range(1, 4)'}\n"
            "            when: n > 1\n            not_now: 'not {n}'\n            do: [{end_game: true}]\n"
            "end:\n  when: 'false'\n  winners: seats\n")
    [problem] = lint_paths([write_game_pack(tmp_path, "nn", game)])
    assert problem.code == "DV041" and problem.location.line == 12
    assert problem.message.startswith("unknown name 'n': an option's 'not_now' is said over the names of the decision")


def test_two_options_with_one_verb_name_each_other(tmp_path: Path) -> None:
    from davinci.engine.lint.runner import lint_paths

    game = ("kind: game\nid: nn\nname: Nn\nplayers: {min: 2, max: 2}\nflow:\n  turn:\n    - choose:\n"
            "        options:\n          - action: pick\n            do: [{end_game: true}]\n"
            "          - action: pick\n            do: []\nend:\n  when: 'false'\n  winners: seats\n")
    [problem] = lint_paths([write_game_pack(tmp_path, "nn", game)])
    assert (problem.code, problem.location.line) == ("DV050", 11)
    assert problem.message.startswith("two options of this decision share the action 'pick' (the other is at line 9)")


def test_end_turn_in_turn_end_is_refused_where_it_is_written(tmp_path: Path) -> None:
    # turn_end ran again and again until the step budget ran out (DV043 at another step).
    from davinci.engine.errors import DefinitionError

    game = ("kind: game\nid: again\nname: Again\nplayers: {min: 2, max: 2}\nflow:\n  turn_end:\n"
            "    - end_turn: true\n") + STOP_AT_ONCE
    with pytest.raises(DefinitionError) as e:
        load_game("again", packs=[write_game_pack(tmp_path, "again", game)])
    assert "'end_turn' in turn_end" in e.value.message and e.value.location is not None
    assert e.value.location.line == 7


def test_seats_the_rules_do_not_tell_apart_share_a_place(tmp_path: Path) -> None:
    # "Ranking: 1. Random 2 (700), 2. Random 1 (400), 3. Random 3 (400)": equal seats got places by seat.
    import io

    from rich.console import Console

    from davinci.engine.play import parse_seats, run_play

    game = """\
kind: game
id: ties
name: Ties
players: {min: 3, max: 3}
flow:
""" + STOP_AT_ONCE.replace('winners: "seats"', 'winners: "seats where index == 2"\n  score: "1 if seat.index == 2 else 0"')
    g = load_game("ties", packs=[write_game_pack(tmp_path, "ties", game)])
    st = g.new_state(3, seed=1)
    while not st.is_terminal():
        st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])
    assert st.result()["ranking"] == [1, 0, 2] and st.places() == [2, 1, 2]
    console = Console(file=io.StringIO(), width=120)
    run_play(g, parse_seats("random,random,random", g), 1, {}, console, lambda _: "", clear=False, timer=False)
    assert "Ranking: 1. Random 2 (1), 2. Random 1 (0), 2. Random 3 (0)" in console.file.getvalue()


def test_a_game_without_a_score_ranks_without_numbers(tmp_path: Path) -> None:
    # "Ranking: 1. Random 2 (0), 2. Random 1 (0)" for a game that scores nothing.
    import io

    from rich.console import Console

    from davinci.engine.play import parse_seats, run_play

    game = "kind: game\nid: plain\nname: Plain\nplayers: {min: 2, max: 2}\nflow:\n" + STOP_AT_ONCE
    g = load_game("plain", packs=[write_game_pack(tmp_path, "plain", game)])
    console = Console(file=io.StringIO(), width=120)
    run_play(g, parse_seats("random,random", g), 1, {}, console, lambda _: "", clear=False, timer=False)
    assert "Ranking: 1. Random 1, 1. Random 2" in console.file.getvalue()
