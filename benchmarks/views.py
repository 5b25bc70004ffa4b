"""Cost of building views: every seat's view of a mid-game state, per game.

    python benchmarks/views.py [--reps 300]

A state is reached by seeded random play (The Da Vinci Game: 4 teams after 500 actions; Da Vinci
Code: 3 players after 10; Leonardo's Riddle: 3 players after 20). Each seat's view is then built
`--reps` times; the figure is CPU time per view, best of 5 batches. Compare commits by running it
in an exported old tree (`PYTHONPATH=/tmp/old python benchmarks/views.py`, see history.py).
"""

from __future__ import annotations

import argparse
import time

from davinci.engine.bots import RandomBot
from davinci.engine.game import load_game
from davinci.engine.state import State

STATES = [("da-vinci-game", 4, 500), ("da-vinci-code", 3, 10), ("leonardos-riddle", 3, 20)]


def mid_game(game_id: str, seats: int, actions: int) -> State:
    """The state after `actions` seeded random actions (seed 3)."""
    st = load_game(game_id).new_state(seats, seed=3)
    bot = RandomBot(1)
    for _ in range(actions):
        if st.is_terminal():
            break
        seat = st.current_seats[0]
        st.apply(seat, bot.choose({}, st.legal_actions(seat)))
    return st


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=300)
    args = ap.parse_args()
    for game_id, seats, actions in STATES:
        st = mid_game(game_id, seats, actions)
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            for _ in range(args.reps):
                for seat in range(seats):
                    st.view(seat)
            best = min(best, (time.process_time() - t) / args.reps / seats)
        print(f"{game_id:18} {seats} seats, after {actions:>3} actions: {best * 1e6:6.1f} us per view")


if __name__ == "__main__":
    main()
