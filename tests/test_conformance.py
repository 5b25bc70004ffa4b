"""Conformance: every registered game and variant, played by random bots, keeps the engine's invariants."""

from __future__ import annotations

import itertools
import json

import pytest

from davinci.engine.bots import RandomBot
from davinci.engine.game import game_variants, load_game
from davinci.engine.view import piece_view

GAMES = game_variants()


def check_invariants(st) -> None:
    g = st.game
    # every component exists exactly once across zones
    seen = sorted(itertools.chain.from_iterable(st.zones.values()))
    assert seen == list(range(len(g.pieces)))
    for key, pids in st.zones.items():
        assert [st.zone_of[p] for p in pids] == [key] * len(pids), f"a piece of {key} is recorded elsewhere"
    # capacities hold whenever nobody is being asked to return pieces
    if st.pending is None or st.pending.get("type") != "overflow":
        for key in st.zones:
            z = g.zones.get(key.split("#")[0])
            if z is not None and z.capacity is not None:
                assert len(st.zones[key]) <= z.capacity(st.env())
    # no view shows another seat's hidden values
    public = set().union(*(c.public for c in g.components.values()))
    for seat in range(len(st.seat_names)):
        view = st.view(seat)
        for other in view["seats"]:
            for zname, zone in other["zones"].items():
                zdef = g.zones[zname]
                for piece in zone.get("pieces", []):
                    if other["index"] - 1 != seat and zdef.visibility == "owner" and not piece["revealed"]:
                        shown = set(piece) - {"ref", "revealed", "hidden"}
                        assert shown <= public, (zname, piece)  # not even the component kind
        for zname, zone in view["zones"].items():
            if g.zones[zname].visibility == "hidden":
                assert "pieces" not in zone
    # a piece turned face down shows only its public fields, whatever its zone, to every seat
    for pid in st.face_down:
        key = st.zone_of[pid]
        z = g.zones.get(key.split("#")[0])
        owner = int(key.split("#")[1]) if "#" in key else None
        for seat in range(len(st.seat_names)):
            shown = piece_view(st, pid, seat, z.visibility if z else "hidden", owner)
            assert set(shown) - {"ref", "revealed", "hidden"} <= public, (key, shown)


@pytest.mark.parametrize("game_id,variant", GAMES)
def test_random_playouts_keep_invariants(game_id: str, variant: str | None) -> None:
    game = load_game(game_id, variant)
    d = game.definition
    for seed in range(2):
        n = d.min_players + seed % (d.max_players - d.min_players + 1)
        st = game.new_state(n, seed=seed)
        bots = [RandomBot(seed * 100 + i) for i in range(n)]
        steps = 0
        while not st.is_terminal():
            # Every action early on, then a sample: long games (hundreds of turns) stay fast.
            if steps < 150 or steps % 25 == 0:
                check_invariants(st)
            seat = st.current_seats[0]
            legal = st.legal_actions(seat)
            assert legal, "a seat that must act has legal actions"
            st.apply(seat, bots[seat].choose(st.view(seat), legal))
            steps += 1
            if steps % 7 == 0:
                # clone and JSON round trips are exact
                c = st.clone()
                assert c.to_json() == st.to_json()
                r = game.state_from_json(json.loads(json.dumps(st.to_json())))
                assert r.to_json() == st.to_json()
        assert st.turn <= d.end.max_turns + 1
        # replaying the history reproduces the final state
        again = game.new_state(n, seed=seed)
        for seat, text in st.history:
            again.apply(seat, text)
        assert again.to_json() == st.to_json()
        assert st.result() == again.result()


@pytest.mark.parametrize("game_id,variant", GAMES)
def test_same_seed_same_game(game_id: str, variant: str | None) -> None:
    game = load_game(game_id, variant)
    n = game.definition.min_players
    runs = []
    for _ in range(2):
        st = game.new_state(n, seed=42)
        bot = RandomBot(7)
        while not st.is_terminal():
            seat = st.current_seats[0]
            st.apply(seat, bot.choose(st.view(seat), st.legal_actions(seat)))
        runs.append(st.to_json())
    assert runs[0] == runs[1]


def test_illegal_actions_are_refused_with_a_reason() -> None:
    from davinci.engine.errors import IllegalAction

    game = load_game(GAMES[0][0], GAMES[0][1])
    st = game.new_state(game.definition.min_players, seed=1)
    seat = st.current_seats[0]
    other = (seat + 1) % len(st.seat_names)
    with pytest.raises(IllegalAction, match="not"):
        st.apply(other, st.legal_actions(seat)[0])
    with pytest.raises(IllegalAction):
        st.apply(seat, "fly to the moon")


@pytest.mark.parametrize("game_id,variant", GAMES)
def test_legal_actions_agree_in_every_form(game_id: str, variant: str | None) -> None:
    """Indexing, iterating, the texts in views and membership all list the same actions, and an
    action picked by index binds the same as the same action parsed from its text."""
    game = load_game(game_id, variant)
    st = game.new_state(game.definition.min_players, seed=11)
    bot = RandomBot(3)
    for _ in range(40):
        if st.is_terminal():
            break
        seat = st.current_seats[0]
        legal = st.legal_actions(seat)
        listed = list(legal)
        assert [legal[i] for i in range(len(legal))] == listed
        assert legal.texts() == [str(a) for a in listed]
        assert st.view(seat)["legal"] == [str(a) for a in listed]
        for i in (0, len(legal) // 2, len(legal) - 1):
            picked = legal[i]
            parsed = game.parse_action(str(picked))
            assert parsed in legal
            assert legal.binding(parsed) == legal.binding(picked)
        twin = st.clone()
        action = bot.choose(st.view(seat), legal)
        st.apply(seat, action)
        twin.apply(seat, str(action))
        assert twin.to_json() == st.to_json()
