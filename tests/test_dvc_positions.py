"""Da Vinci Code: building positions for scenario tests, and the tests of that builder.

A tile is written `b7` (black 7) or `w10`; a trailing `*` means it lies face up; `bj` / `wj`
are the jokers. `position(["b1 w4*", "b2 w5"])` makes a game whose seat 1 holds black 1 and
face-up white 4, seat 2 black 2 and white 5; every other tile goes to the pile unless `pile`
lists the pile, in which case tiles named nowhere are set aside out of play. Positions are
built through the public save format (`to_json` / `state_from_json`), which refuses a position
where a tile is missing or doubled.

The other `test_dvc_*` files import these helpers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from davinci.engine.game import Game, load_game
from davinci.engine.serial import checksum
from davinci.engine.state import State

GAME = "da-vinci-code"


def game(variant: str | None = None, **settings: Any) -> Game:
    """The game with a variant and setting overrides."""
    return load_game(GAME, variant, settings)


def parse_tile(token: str) -> tuple[int, str, bool]:
    """`b7*` -> (7, 'black', face up); jokers have number -1."""
    up = token.endswith("*")
    body = token.rstrip("*")
    colour = {"b": "black", "w": "white"}[body[0]]
    number = -1 if body[1:] == "j" else int(body[1:])
    return number, colour, up


def tile_pid(g: Game, token: str) -> int:
    """The piece id of a tile named like `w5` or `bj`."""
    number, colour, _ = parse_tile(token)
    for p in g.definition.pieces:
        if p.attrs.get("number") == number and p.attrs.get("colour") == colour:
            return p.pid
    raise AssertionError(f"no tile {token} in this game")


def position(
    rows: Sequence[str],
    *,
    current: int = 1,
    drawn: str | None = None,
    pile: str | None = None,
    variant: str | None = None,
    seed: int = 1,
    **settings: Any,
) -> State:
    """A position where seat `current` (1-based) must guess, with these rows, drawn tile and pile.

    Rows are written left to right exactly as they stand (the builder does not sort them).
    `drawn` is the tile the current seat drew this turn ('' for none); by default, when the
    pile is not listed, the first tile left over is the drawn one.
    """
    g = game(variant, first_player=current, jokers_in_start=False, **settings)
    st = g.new_state(len(rows), seed=seed)
    assert st.pending is not None and st.pending["type"] == "choose"
    data = st.to_json()
    body = data["state"]
    zones: dict[str, list[int]] = {k: [] for k in body["zones"]}
    placed: set[int] = set()

    def put(key: str, token: str) -> None:
        pid = tile_pid(g, token)
        assert pid not in placed, f"tile {token} named twice"
        placed.add(pid)
        zones[key].append(pid)
        if parse_tile(token)[2]:
            revealed.add(pid)

    revealed: set[int] = set()
    for i, row in enumerate(rows):
        for token in row.split():
            put(f"row#{i}", token)
    if pile is not None:
        for token in pile.split():
            put("pile", token)
    rest = [p.pid for p in g.definition.pieces if p.pid not in placed]
    if drawn is None and pile is None and rest:
        drawn_pid = rest.pop(0)
        zones[f"drawn#{current - 1}"].append(drawn_pid)
    elif drawn:
        put(f"drawn#{current - 1}", drawn)
        rest = [p for p in rest if p != tile_pid(g, drawn)]
    zones["pile" if pile is None else "$supply"].extend(rest)
    body["zones"] = zones
    body["revealed"] = sorted(revealed)
    body["active"] = [any(p not in revealed for p in zones[f"row#{i}"]) for i in range(len(rows))]
    body["current"] = current - 1
    body["pending"]["seat"] = current - 1
    body["events"] = []
    body["history"] = []
    data["checksum"] = checksum(body)
    return g.state_from_json(data)


def show(st: State, seat: int, viewer: int | None = None) -> str:
    """Seat `seat`'s row as `viewer` sees it (1-based; None: everything): `b2* w? w5*`."""
    v = st.view(None if viewer is None else viewer - 1)
    out = []
    for p in v["seats"][seat - 1]["zones"]["row"]["pieces"]:
        letter = p["colour"][0]
        if "number" not in p:
            value = "?"
        elif p["number"] == -1:
            value = "j"
        else:
            value = str(p["number"])
        out.append(letter + value + ("*" if p["revealed"] else ""))
    return " ".join(out)


def drawn_of(st: State, seat: int) -> str:
    """The tile a seat holds aside this turn (`w7`), or '' if none."""
    v = st.view(None)
    pieces = v["seats"][seat - 1]["zones"]["drawn"]["pieces"]
    return " ".join(p["colour"][0] + ("j" if p["number"] == -1 else str(p["number"])) for p in pieces)


def play(st: State, text: str) -> None:
    """The seat that must act plays `text`."""
    st.apply(st.current_seats[0], text)


def to_act(st: State) -> int:
    """The 1-based seat that must act."""
    return st.current_seats[0] + 1


# ---------------------------------------------------------------- the builder itself


def test_position_places_rows_drawn_tile_and_pile() -> None:
    st = position(["b1 w4*", "b2 w5"], drawn="w7")
    assert show(st, 1) == "b1 w4*"
    assert show(st, 2) == "b2 w5"
    assert drawn_of(st, 1) == "w7"
    assert st.view(0)["zones"]["pile"]["count"] == 24 - 5
    assert to_act(st) == 1


def test_position_with_a_listed_pile_sets_the_other_tiles_aside() -> None:
    st = position(["b1", "w1"], drawn="", pile="b3")
    assert st.view(0)["zones"]["pile"]["count"] == 1
    assert drawn_of(st, 1) == ""


def test_position_refuses_a_tile_named_twice() -> None:
    with pytest.raises(AssertionError, match="twice"):
        position(["b1", "b1"])


def test_every_tile_exists_exactly_once_in_a_built_position() -> None:
    st = position(["b0 b1 b2", "w0 w1", "w11"], drawn="b5")
    pids = sorted(p for pids in st.zones.values() for p in pids)
    assert pids == list(range(24))
