"""A view shows a seat exactly what it may see: the turn's working values and a decision's prompt,
often worked out from the mover's hidden pieces, go to the seats concerned only."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game

SECRET_HAND = """\
kind: game
id: secret-hand
name: Secret hand
players: {min: 2, max: 3}
components:
  card: {fields: {rank: int}, product: {rank: {from: 1, to: 9}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
  played: {kind: pile, visibility: public}
vars:
  plays: 0
flow:
  setup:
    - shuffle: deck
    - for_each: {in: seats, as: s, do: [{draw: {from: deck, to: hand, owner: s, count: 3}}]}
  turn:
    - set: {best: "max(current.hand select rank)"}
    - choose:
        prompt: "Play a card (your best is {best}; you hold {current.hand select rank})"
        options:
          - action: play
            args: {c: "current.hand"}
            do:
              - move: {piece: c, to: played}
              - set: {plays: plays + 1}
end:
  when: "plays >= 3"
  winners: "seats"
"""


@pytest.fixture()
def game(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_game("secret-hand", packs=[write_game_pack(tmp_path, "secret", SECRET_HAND)])


def test_the_turns_locals_and_the_prompt_go_to_the_mover_only(game) -> None:  # type: ignore[no-untyped-def]
    st = game.new_state(3, seed=2)
    mover = st.current_seats[0]
    best = max(game.definition.pieces[p].attrs["rank"] for p in st.zones[f"hand#{mover}"])
    mine = st.view(mover)
    assert mine["locals"]["best"] == best
    assert mine["pending"]["prompt"].startswith(f"Play a card (your best is {best}; you hold ")
    for other in {0, 1, 2} - {mover}:
        theirs = st.view(other)
        assert theirs["locals"] == {}
        assert theirs["pending"] == {"type": "choose", "prompt": ""}
        assert str(best) not in str(theirs["seats"][mover]["zones"]["hand"])
    # Declared variables are public: every seat sees how many cards were played.
    st.apply(mover, st.legal_actions(mover)[0])
    assert {st.view(s)["vars"]["plays"] for s in range(3)} == {1}


def test_the_seats_answering_on_the_movers_turn_do_not_get_its_locals(tmp_path: Path) -> None:
    # The others answer a challenge on the mover's turn: they decide, but a local worked out from
    # the mover's hidden hand (The Da Vinci Game's `qualified`) is still the mover's alone.
    text = SECRET_HAND.replace("""    - choose:
        prompt: "Play a card""", """    - respond:
        seats: "seats where it != current"
        check: "given == 'x'"
        as: answers
    - choose:
        prompt: "Play a card""")
    assert text != SECRET_HAND
    st = load_game("secret-hand", packs=[write_game_pack(tmp_path, "secret", text)]).new_state(3, seed=2)
    mover = st.current
    assert st.locals["best"] > 0 and st.view(mover)["locals"] == {}  # the mover, not deciding now, gets none either
    answering = list(st.current_seats)
    assert len(answering) == 2 and mover not in answering
    for seat in answering:
        assert st.view(seat)["pending"]["type"] == "respond"
        assert "best" not in st.view(seat)["locals"]


def test_a_view_of_a_seat_that_is_not_at_the_table_is_refused(game) -> None:  # type: ignore[no-untyped-def]
    st = game.new_state(2, seed=1)
    for bad in (2, -1, True, "1"):
        with pytest.raises(ValueError, match="seats are 0 to 1"):
            st.view(bad)  # type: ignore[arg-type]
        with pytest.raises(DavinciError):  # an API user's mistake, reported like every other
            st.view(bad)  # type: ignore[arg-type]
    for bad in (True, 1.0, "0"):
        with pytest.raises(DavinciError, match=r"legal_actions takes a seat number \(0 to 1\) or None"):
            st.legal_actions(bad)  # type: ignore[arg-type]
    assert st.view(None)["seat"] is None and st.view(1)["seat"] == 2  # a view counts seats from 1



def _joker_placement(seed_range: range = range(60)):  # type: ignore[no-untyped-def]
    """A Da Vinci Code (jokers) game waiting for a seat to place its joker, after some random moves."""
    from davinci.engine.rng import Rng

    game = load_game("da-vinci-code", "advanced")
    for seed in seed_range:
        st = game.new_state(2, seed=seed)
        rng = Rng(seed)
        while not st.is_terminal():
            if st.pending and st.pending["type"] == "position":
                return st
            seat = st.current_seats[0]
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.below(len(legal))])
    raise AssertionError("no joker placement in these games")


def test_where_a_seat_places_its_joker_looks_to_the_others_like_any_decision() -> None:
    # Found by a rules audit: only a joker asks for a place, so a visible `position` decision (or a
    # bot's "position 2" on the human's screen) told every opponent that a joker had been drawn.
    st = _joker_placement()
    placing = st.current_seats[0]
    mine, other = st.view(placing), st.view(1 - placing)
    assert mine["pending"]["type"] == "position" and mine["legal"][0] == "position 1"
    assert other["pending"] == {"type": "choose", "prompt": ""}
    assert "position" not in str(other) and "free piece" not in str(other)


def test_the_terminal_does_not_show_a_bots_joker_placement() -> None:
    import io

    from rich.console import Console
    from test_play_io import typed

    from davinci.engine.play import parse_seats, run_play

    game = load_game("da-vinci-code", "advanced")
    console = Console(file=io.StringIO(), width=120)
    run_play(game, parse_seats("human,random", game), 2, {}, console, typed(["1"] * 6), clear=False, timer=False)
    out = console.file.getvalue()
    assert "Random 2 guessed " in out or "Random 2: stop" in out  # the bot's other moves are shown
    assert "Random 2: position" not in out


LEFTOVER = """\
kind: game
id: leftover
name: Leftover
description: A local summed from an opponent's hidden hand inside a loop must not reach the mover's view.
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, product: {n: {from: 1, to: 9}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  hand: {kind: hand, per_seat: true, visibility: owner}
turn_vars:
  asked: 0
flow:
  setup:
    - shuffle: deck
    - for_each: {in: seats, as: s, do: [{draw: {from: deck, to: hand, owner: s, count: 3}}]}
  turn:
    - for_each:
        in: "seats where index != current.index"
        as: o
        do:
          - set: {theirs: "sum(o.hand select n)"}
          - if: "theirs > 100"
            then: [{log: "never"}]
    - set: {asked: asked + 1, mine: "len(current.hand)"}
    - choose:
        options:
          - action: stop
            do: [{end_game: true}]
end:
  when: "false"
  winners: "seats"
"""


def test_a_local_of_a_finished_block_is_not_in_the_movers_view(tmp_path: Path) -> None:
    # `theirs` (an opponent's hidden total) outlives its for_each in the state, but no step after
    # the loop can read it, and the mover's view showed it.
    st = load_game("leftover", packs=[write_game_pack(tmp_path, "leftover", LEFTOVER)]).new_state(2, seed=1)
    assert "theirs" in st.locals
    assert st.view(st.current)["locals"] == {"asked": 1, "mine": 3}


def test_while_another_seat_chooses_in_the_movers_turn_the_mover_gets_no_locals(tmp_path: Path) -> None:
    # Each seat keeps or rerolls its own secret die in the current seat's turn: while seat 2
    # decided, seat 1 (the mover) read seat 2's die in its locals.
    game = """\
kind: game
id: secret-dice
name: Secret dice
description: Every seat rolls a secret die and keeps it or rerolls once.
players: {min: 2, max: 3}
seat_vars: {die: 0}
private_seat_vars: [die]
turn_order: {first: "1"}
vars: {rounds: 0}
flow:
  turn:
    - for_each:
        in: seats
        as: s
        do:
          - roll: {as: rolled, to: s}
          - set: {seat: s, die: rolled}
          - set: {chosen: rolled}
          - choose:
              seat: s
              options:
                - action: keep
                - action: reroll
                  do: [{set: {seat: s, die: 7 - s.die}}]
    - set: {rounds: rounds + 1}
end:
  when: "rounds >= 2"
  winners: "seats where die == max(seats select die)"
"""
    st = load_game("secret-dice", packs=[write_game_pack(tmp_path, "secret-dice", game)]).new_state(2, seed=3)
    st.apply(0, "keep")
    assert st.current == 0 and st.current_seats == [1]
    assert st.locals["chosen"] == st.view(None)["seats"][1]["vars"]["die"]  # seat 2's die, bound in seat 1's turn
    assert st.view(0)["locals"] == {}
