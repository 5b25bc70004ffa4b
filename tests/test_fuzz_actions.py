"""Fuzzing actions: any text, from any seat, at any position, is either legal or an IllegalAction.

`Game.parse_action` and `State.apply` are where a player's typing (or a log from someone else)
meets the engine. Random text, near misses built from the legal actions (numbers out of range,
negative places, other seats' rows, stray punctuation) and absurd seat numbers must only ever
raise `IllegalAction`, and a refused action must leave the state exactly as it was.
"""

from __future__ import annotations

import json
import string
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from davinci.engine.bots import RandomBot
from davinci.engine.errors import IllegalAction
from davinci.engine.game import Game, game_variants, load_game
from davinci.engine.state import State

GAMES = game_variants()
SWAPS = ["-1", "0", "99999999999999999999", "1e9", "row.0.0", "row.-1.1", "row.1.999", "-1,-1", "99,99", "",
         " ", "hand.1.0", "pile.-3", "board.?", "1.5", "nan", "none", "true", "\x00", "é", "joker", "row.1",
         "row..1", "0,0,0", "--", "answer", "pass"]


@cache
def positions(game_id: str, variant: str | None) -> list[State]:
    """A few positions reached by seeded random play: the start, the middle, near the end."""
    game = load_game(game_id, variant)
    d = game.definition
    out = []
    for seed in range(2):
        st = game.new_state(d.min_players + seed % (d.max_players - d.min_players + 1), seed=seed)
        bot = RandomBot(seed)
        for i in range(120):
            if st.is_terminal():
                break
            if i in (0, 7, 40, 119):
                out.append(st.clone())
            seat = st.current_seats[0]
            st.apply(seat, bot.choose({}, st.legal_actions(seat)))
        out.append(st)
    return out


@st.composite
def action_texts(draw: st.DrawFn, legal: list[str]) -> str:
    if not legal or draw(st.booleans()):
        return draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
                    | st.text(alphabet=string.printable, max_size=40))
    words = draw(st.sampled_from(legal)).split() or ["x"]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(words) - 1))
        words[i] = draw(st.sampled_from(SWAPS + words))
    return draw(st.sampled_from([" ", "  ", "\t"])).join(words)


def _try(game: Game, state: State, seat: int, text: str) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    work = state.clone()
    try:
        work.apply(seat, game.parse_action(text))
    except IllegalAction:
        assert json.dumps(work.to_json(), sort_keys=True) == before, "a refused action changed the state"
    work = state.clone()
    try:
        work.apply(seat, text)
    except IllegalAction:
        pass


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_from_any_seat_is_legal_or_an_illegal_action(data: st.DataObject) -> None:
    game_id, variant = data.draw(st.sampled_from(GAMES))
    game = load_game(game_id, variant)
    state = data.draw(st.sampled_from(positions(game_id, variant)))
    seats = state.current_seats or [0]
    legal = [str(a) for a in state.legal_actions(seats[0])] if not state.is_terminal() else []
    text = data.draw(action_texts(legal))
    seat = data.draw(st.sampled_from([*seats, 0, 1, -1, len(state.seat_names), 2**40]))
    _try(game, state, seat, text)


def test_every_legal_action_text_parses_back_to_itself() -> None:
    for game_id, variant in GAMES:
        game = load_game(game_id, variant)
        for state in positions(game_id, variant)[:3]:
            for seat in state.current_seats:
                for action in state.legal_actions(seat):
                    assert game.parse_action(str(action)) == action
