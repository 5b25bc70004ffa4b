"""A piece over capacity asks its holder in the middle of a step's `do`: the rest of the `do` runs
after the answer, and the game's end is not judged while the step is half done."""

from __future__ import annotations

from pathlib import Path

from helpers import write_game_pack

from davinci.engine.game import load_game

# Take a card from a market of two; the market is refilled at once. The game ends when the market
# cannot be refilled, which is true for a moment inside every `take`.
MARKET = """\
kind: game
id: market-take
name: Market take
players: {min: 2, max: 2}
components:
  card: {fields: {n: int}, label: n, product: {n: {from: 1, to: 12}}}
zones:
  deck: {kind: deck, visibility: hidden, contents: [card]}
  market: {kind: row, visibility: public}
  hand: {kind: hand, per_seat: true, visibility: owner, capacity: 1, overflow_to: discard}
  discard: {kind: pile, visibility: public}
flow:
  setup:
    - draw: {from: deck, to: market, count: 2, face_up: true}
  turn:
    - choose:
        options:
          - action: take
            args: {card: market}
            do:
              - move: {piece: card, to: hand, owner: current}
              - draw: {from: deck, to: market, count: "2 - len(market)", face_up: true}
              - log: "refilled: {len(market)} in the market"
end:
  when: "len(market) < 2"
  winners: "seats"
"""


def _first_action(st) -> str:  # type: ignore[no-untyped-def]
    """Play the first legal action of the seat to act; returns the kind of decision it answered."""
    seat = st.current_seats[0]
    kind = str(st.view(None)["pending"]["type"])
    st.apply(seat, st.legal_actions(seat)[0])
    return kind


def test_the_do_finishes_after_a_return_and_only_then_may_the_game_end(tmp_path: Path) -> None:
    st = load_game("market-take", packs=[write_game_pack(tmp_path, "market-take", MARKET)]).new_state(2, seed=3)
    first = st.current
    _first_action(st)  # one card in hand: at capacity
    _first_action(st)
    _first_action(st)  # a second card: over capacity, in the middle of the do
    assert not st.is_terminal()
    assert st.view(None)["pending"]["type"] == "overflow" and st.current_seats == [first]
    assert len(st.zones["market"]) == 1  # not refilled yet
    _first_action(st)  # return one
    assert not st.is_terminal()
    assert len(st.zones["market"]) == 2 and len(st.zones[f"hand#{first}"]) == 1
    assert [t for _, t in st.events].count("refilled: 2 in the market") == 3
    # Played out, the game ends when the deck can no longer refill the market: 12 cards, 2 in the
    # market at the start, so 11 takes.
    takes = 3
    while not st.is_terminal():
        takes += _first_action(st) == "choose"
    assert takes == 11
