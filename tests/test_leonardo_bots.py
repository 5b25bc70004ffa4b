"""Leonardo's Riddle: the greedy bot wins Keys, avoids handing Keys to its neighbour, beats random.

Positions come from the save-format builder in test_leonardo_rules. The bot only ever gets a
seat's view and the legal actions.
"""

from __future__ import annotations

from test_leonardo_rules import CH, CS, KE, LINE, MF, SC, SIX, game, position

from davinci.engine.bots import RandomBot, make_bot
from davinci.games.leonardos_riddle.bots import GreedyBot, Rules, keys_made, mask, openings


def greedy_move(st: object, seed: int = 0) -> str:
    """What the greedy bot plays for the seat to act."""
    seat = st.current_seats[0]  # type: ignore[attr-defined]
    return str(GreedyBot(seed=seed).choose(st.view(seat), st.legal_actions(seat)))  # type: ignore[attr-defined]


def test_greedy_is_registered_for_this_game() -> None:
    bot = make_bot("greedy", 1, "leonardos-riddle")
    assert bot.name == "greedy" and bot.games == ("leonardos-riddle",)


def test_lines_and_openings_are_read_from_symbol_masks() -> None:
    tops = {(0, 0): mask(["mechanism", "profile"]), (1, 0): mask(["mechanism", "cat"])}
    op = openings(tops, Rules())
    assert op.free == mask(["mechanism"]), "2,0 or -1,0 would finish a mechanism row"
    tops[(2, 0)] = mask(["mechanism", "flower"])
    assert keys_made(tops, (2, 0), Rules()) == mask(["mechanism"])
    assert keys_made(tops, (2, 0), Rules(length=4)) == 0


def test_greedy_takes_a_key_when_it_can() -> None:
    st = position(game(), hands={1: [*SIX[:5], MF]}, grid=LINE)
    move = greedy_move(st)
    st.apply(0, move)
    assert [p["symbol"] for p in st.view(0)["seats"][0]["zones"]["keys"]["pieces"]] == ["mechanism"]


def test_greedy_does_not_leave_a_key_for_the_next_player() -> None:
    # Placing the seagull-cat card beside the cat-horseman card makes two cats in a row with an
    # open end: the next player could finish it. Diagonally, or on top, it opens nothing.
    st = position(game(), hands={1: [SC, CS]}, grid={(0, 0): [CH]}, deck_size=0, turns_left=5)
    for seed in range(5):
        verb, card, cell = greedy_move(st, seed).split()
        x, y = map(int, cell.split(","))
        assert not (verb == "place" and (x == 0 or y == 0)), f"{verb} {card} {cell} opens a cat line"


def test_greedy_builds_two_of_three_when_the_next_player_cannot_use_it() -> None:
    st = position(game(), hands={1: [SC, CS]}, grid={(0, 0): [CH]}, keys={2: ["cat"]}, deck_size=0, turns_left=5)
    verb, card, cell = greedy_move(st).split()
    x, y = map(int, cell.split(","))
    assert verb == "place" and (x == 0 or y == 0), "two cats in a line, and a cat card kept in hand"


def test_greedy_keeps_to_legal_moves_in_the_diagonal_variant() -> None:
    st = position(game("diagonals"), hands={1: [MF, KE]}, grid={(0, 0): [KE]})
    assert greedy_move(st) in [str(a) for a in st.legal_actions()]


def test_greedy_beats_random_in_both_seat_orders() -> None:
    # Short games (20 cards left in the deck) keep the test fast; the measured win rate comes from full games.
    g = game()
    for greedy_seat in (0, 1):
        st = position(g, seed=21 + greedy_seat, current=1, deck_size=20)
        bots = [GreedyBot(seed=3), RandomBot(seed=4)] if greedy_seat == 0 else [RandomBot(seed=4), GreedyBot(seed=3)]
        while not st.is_terminal():
            s = st.current_seats[0]
            legal = st.legal_actions(s)
            st.apply(s, bots[s].choose(st.view(s), legal))
        result = st.result()
        assert result["winners"] == [greedy_seat], result


def test_two_greedy_bots_play_the_deck_out_rather_than_swap_for_ever() -> None:
    # Each feared handing the other a Key, and a swap (which draws nothing) risked least: self-play
    # ran every game to the 1,000-turn limit. A swap now has to earn its place.
    g = game()
    st = position(g, seed=5, current=1, deck_size=20)
    bots = [GreedyBot(seed=3), GreedyBot(seed=4)]
    while not st.is_terminal():
        s = st.current_seats[0]
        st.apply(s, bots[s].choose(st.view(s), st.legal_actions(s)))
    assert st.result()["reason"] == "end" and st.turns_played() < 60
