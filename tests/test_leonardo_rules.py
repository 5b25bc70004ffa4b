"""Leonardo's Riddle: one scenario per rule sentence of shared/rules/003 and per README decision.

Positions are built through the public save format: a seeded new game is saved with
`to_json()`, its zones are rearranged (hands, grid stacks, deck), and `state_from_json()` loads
it back. Cards are named by their symbols, which are unique in the deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from davinci.engine.errors import IllegalAction
from davinci.engine.game import Game, load_game
from davinci.engine.serial import checksum
from davinci.engine.state import State

GAME = "leonardos-riddle"
SYMBOLS = (
    "mechanism",
    "profile",
    "cathedral",
    "seagull",
    "skull",
    "cat",
    "horseman",
    "halberd",
    "flower",
    "figure",
    "stream",
    "eclipse",
)

Cell = tuple[int, int]
Card = tuple[str, ...]


# ---------------------------------------------------------------- building positions


def game(variant: str | None = None, **settings: Any) -> Game:
    """The game, with a variant and settings."""
    return load_game(GAME, variant, settings)


def card_pid(g: Game, symbols: Iterable[str]) -> int:
    """The piece id of the card showing exactly these symbols."""
    want = set(symbols)
    for p in g.definition.pieces:
        if p.component == "card" and set(p.attrs["symbols"]) == want:
            return p.pid
    raise AssertionError(f"no card shows exactly {sorted(want)}")


def key_pid(g: Game, body: Mapping[str, Any], symbol: str) -> int:
    """A Key of `symbol` still in the supply."""
    for pid in body["zones"]["supply"]:
        if g.definition.pieces[pid].attrs["symbol"] == symbol:
            return int(pid)
    raise AssertionError(f"no {symbol} Key left in the supply")


def position(
    g: Game,
    *,
    players: int = 2,
    seed: int = 1,
    current: int = 1,
    hands: Mapping[int, Sequence[Card]] | None = None,
    grid: Mapping[Cell, Sequence[Card]] | None = None,
    deck_top: Sequence[Card] = (),
    deck_size: int | None = None,
    keys: Mapping[int, Sequence[str]] | None = None,
    turns_left: int | None = None,
) -> State:
    """A position where seat `current` (1-based) is about to play.

    `hands` gives whole hands (the cards they held go back into the deck), `grid` maps cells
    to stacks (bottom first), `deck_top` lies on top of the deck, `deck_size` trims the deck
    (cards set aside wait in the Key box, from which nothing is drawn after setup), and `keys`
    gives seats their Keys from the supply.
    """
    st = g.new_state(players, seed=seed)
    data = st.to_json()
    body = data["state"]
    zones: dict[str, list[int]] = body["zones"]
    pos = {int(p): w for p, w in body["pos"]}

    def take(pid: int) -> None:
        for pids in zones.values():
            if pid in pids:
                pids.remove(pid)
        pos.pop(pid, None)

    for seat, cards in (hands or {}).items():
        hand = f"hand#{seat - 1}"
        for pid in list(zones[hand]):
            take(pid)
            zones["deck"].append(pid)
        for c in cards:
            pid = card_pid(g, c)
            take(pid)
            zones[hand].append(pid)
    for (x, y), stack in (grid or {}).items():
        for c in stack:
            pid = card_pid(g, c)
            take(pid)
            zones["grid"].append(pid)
            pos[pid] = [x, y]
    for c in reversed(deck_top):
        pid = card_pid(g, c)
        take(pid)
        zones["deck"].insert(0, pid)
    if deck_size is not None:
        while len(zones["deck"]) > deck_size:
            zones["box"].append(zones["deck"].pop())
    for seat, symbols in (keys or {}).items():
        for s in symbols:
            pid = key_pid(g, body, s)
            zones["supply"].remove(pid)
            zones[f"keys#{seat - 1}"].append(pid)
    body["pos"] = [[p, w] for p, w in sorted(pos.items())]
    body["current"] = current - 1
    body["pending"]["seat"] = current - 1
    if turns_left is not None:
        body["vars"]["turns_left"] = turns_left
    data["checksum"] = checksum(body)
    return g.state_from_json(data)


def play(st: State, text: str) -> None:
    """The player to act plays `text`."""
    st.apply(st.current_seats[0], text)


def hand(st: State, seat: int) -> list[Card]:
    """A seat's hand (1-based seat) as symbol tuples, in order."""
    view = st.view(seat - 1)
    return [tuple(p["symbols"]) for p in view["seats"][seat - 1]["zones"]["hand"]["pieces"]]


def tops(st: State) -> dict[Cell, Card]:
    """The top card of every grid cell."""
    cells = st.view(None)["zones"]["grid"]["cells"]
    return {(c["x"], c["y"]): tuple(c["top"]["symbols"]) for c in cells}


def heights(st: State) -> dict[Cell, int]:
    """The stack height of every grid cell."""
    return {(c["x"], c["y"]): c["height"] for c in st.view(None)["zones"]["grid"]["cells"]}


def keys_of(st: State, seat: int) -> list[str]:
    """The Keys a seat (1-based) holds."""
    return [p["symbol"] for p in st.view(None)["seats"][seat - 1]["zones"]["keys"]["pieces"]]


def supply(st: State) -> Counter[str]:
    """How many Keys of each symbol are left in the supply."""
    return Counter(p["symbol"] for p in st.view(None)["zones"]["supply"]["pieces"])


def deck_count(st: State) -> int:
    """Cards left in the deck."""
    return int(st.view(None)["zones"]["deck"]["count"])


def legal(st: State) -> list[str]:
    """The legal actions of the player to act, as text."""
    return [str(a) for a in st.legal_actions()]


def cells_of(actions: Iterable[str], verb: str, card_ref: str | None = None) -> set[Cell]:
    """The cells named by the actions of one verb (optionally for one card)."""
    out = set()
    for a in actions:
        parts = a.split()
        if parts[0] == verb and (card_ref is None or parts[1] == card_ref):
            x, y = parts[2].split(",")
            out.add((int(x), int(y)))
    return out


# Cards used below, named by what they show.
MPH = ("mechanism", "profile", "halberd")
MPF = ("mechanism", "profile", "figure")
MPS = ("mechanism", "profile", "stream")
MCS = ("mechanism", "cathedral", "seagull")
MSC = ("mechanism", "skull", "cat")
MC = ("mechanism", "cathedral")
MF = ("mechanism", "flower")
ME = ("mechanism", "eclipse")
PS = ("profile", "skull")
PH = ("profile", "horseman")
PF = ("profile", "flower")
SC = ("seagull", "cat")
SH = ("seagull", "horseman")
SF = ("seagull", "figure")
SE = ("seagull", "eclipse")
KH = ("skull", "halberd")
KE = ("skull", "eclipse")
CH = ("cat", "horseman")
CS = ("cat", "stream")
HF = ("halberd", "figure")
HS = ("halberd", "stream")
FF = ("flower", "figure")
FS = ("figure", "stream")
CFE = ("cat", "figure", "eclipse")
HFE = ("horseman", "figure", "eclipse")
HSE = ("horseman", "stream", "eclipse")
KSE = ("skull", "stream", "eclipse")
SKE = ("seagull", "skull", "eclipse")
SFE = ("seagull", "flower", "eclipse")
PCE = ("profile", "cat", "eclipse")
CHE = ("cathedral", "halberd", "eclipse")
CFE2 = ("cathedral", "figure", "eclipse")
HFE2 = ("halberd", "flower", "eclipse")
PFE = ("profile", "flower", "eclipse")

SIX = [PS, PH, PF, SC, SH, SF]  # a hand with no mechanism and no eclipse


# ---------------------------------------------------------------- the cards


def test_deck_has_67_cards_of_two_or_three_of_the_12_symbols() -> None:
    d = game().definition
    cards = [p.attrs["symbols"] for p in d.pieces if p.component == "card"]
    assert len(cards) == 67
    assert all(len(c) in (2, 3) and len(set(c)) == len(c) and set(c) <= set(SYMBOLS) for c in cards)
    assert len({frozenset(c) for c in cards}) == 67, "no two cards are alike"


def test_every_symbol_is_on_15_cards_and_every_pair_meets_two_or_three_times() -> None:
    d = game().definition
    cards = [p.attrs["symbols"] for p in d.pieces if p.component == "card"]
    assert Counter(s for c in cards for s in c) == {s: 15 for s in SYMBOLS}
    pairs = Counter(frozenset((a, b)) for c in cards for a in c for b in c if a < b)
    assert len(pairs) == 66 and set(pairs.values()) == {2, 3}


def test_the_12_keys_are_the_12_symbols_in_seniority_order() -> None:
    d = game().definition
    keys = {p.attrs["symbol"]: p.attrs["seniority"] for p in d.pieces if p.component == "key"}
    assert [s for s, _ in sorted(keys.items(), key=lambda kv: kv[1])] == list(SYMBOLS)


# ---------------------------------------------------------------- setting up


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_six_each_and_lays_three_of_each_key_beside_the_deck(players: int) -> None:
    st = game().new_state(players, seed=4)
    view = st.view(None)
    assert [len(s["zones"]["hand"]["pieces"]) for s in view["seats"]] == [6] * players
    assert deck_count(st) == 67 - 6 * players
    assert supply(st) == {s: 3 for s in SYMBOLS}
    assert all(not keys_of(st, s) for s in range(1, players + 1))


def test_key_copies_is_a_setting() -> None:
    assert supply(game(key_copies=1).new_state(2, seed=1)) == {s: 1 for s in SYMBOLS}


def test_hands_are_seen_only_by_their_owner() -> None:
    st = game().new_state(3, seed=2)
    view = st.view(0)
    assert all("symbols" in p for p in view["seats"][0]["zones"]["hand"]["pieces"])
    for other in view["seats"][1:]:
        assert all("symbols" not in p for p in other["zones"]["hand"]["pieces"])
    assert "pieces" not in view["zones"]["deck"]


def test_the_first_player_is_drawn_by_lot_with_the_seed() -> None:
    g = game()
    firsts = [g.new_state(3, seed=s).current_seats[0] for s in range(12)]
    assert firsts == [g.new_state(3, seed=s).current_seats[0] for s in range(12)]
    assert set(firsts) == {0, 1, 2}
    assert {game(first_player=2).new_state(3, seed=s).current_seats[0] for s in range(5)} == {1}


def test_play_passes_clockwise() -> None:
    st = game(first_player=3).new_state(4, seed=1)
    order = []
    for _ in range(6):
        order.append(st.current_seats[0])
        st.apply(st.current_seats[0], st.legal_actions()[0])
    assert order == [2, 3, 0, 1, 2, 3]


# ---------------------------------------------------------------- placing


def test_the_first_card_goes_in_the_centre() -> None:
    st = game().new_state(2, seed=3)
    actions = legal(st)
    assert len(actions) == 6
    assert all(a.startswith("place ") and a.endswith(" 0,0") for a in actions)


def test_a_card_is_placed_next_to_another_and_diagonal_contact_counts() -> None:
    st = position(game(), hands={1: [MPH, *SIX[:5]]}, grid={(0, 0): [KE]})
    assert cells_of(legal(st), "place", "hand.1.1") == {
        (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)
    }
    play(st, "place hand.1.1 1,1")
    assert tops(st)[(1, 1)] == MPH
    with pytest.raises(IllegalAction):
        position(game(), hands={1: [MPH]}, grid={(0, 0): [KE]}).apply(0, "place hand.1.1 2,0")


def test_no_row_or_column_grows_past_five_cards() -> None:
    row = {(x, 0): [c] for x, c in zip(range(4), [KE, SC, HS, FF])}
    st = position(game(), hands={1: [MPH]}, grid=row)
    four = cells_of(legal(st), "place")
    assert (-1, 0) in four and (4, 0) in four, "four in a row: either end is still open"
    st2 = position(game(), hands={2: [MF]}, grid={**row, (4, 0): [MPH]}, current=2)
    five = cells_of(legal(st2), "place")
    assert all(0 <= x <= 4 for x, _ in five), "five in a row fix the left and right borders"
    assert (-1, 0) not in five and (5, 0) not in five and (5, 1) not in five


def test_the_borders_fix_themselves_in_columns_too() -> None:
    column = {(0, y): [c] for y, c in zip(range(-2, 3), [KE, SC, HS, FF, MPH])}
    st = position(game(), hands={1: [MF]}, grid=column)
    free = cells_of(legal(st), "place")
    assert free and all(-2 <= y <= 2 for _, y in free)
    assert {(-1, -2), (1, 2)} <= free, "the sides stay open"


def test_when_the_square_is_full_only_covering_and_swapping_remain() -> None:
    g = game()
    others = [
        c for c in (tuple(p.attrs["symbols"]) for p in g.definition.pieces if p.component == "card")
        if "mechanism" not in c and "eclipse" not in c and c not in SIX
    ]
    full = {(x, y): [others[(y + 2) * 5 + (x + 2)]] for x in range(-2, 3) for y in range(-2, 3)}
    st = position(g, hands={1: SIX}, grid=full)
    verbs = {a.split()[0] for a in legal(st)}
    assert verbs == {"cover", "swap"}


# ---------------------------------------------------------------- covering


def test_a_card_may_cover_a_card_that_shares_a_symbol() -> None:
    st = position(game(), hands={1: [MPH, SC, PS, PH, PF, SH]}, grid={(0, 0): [MC], (1, 0): [KE]})
    actions = legal(st)
    assert "cover hand.1.1 0,0" in actions, "mechanism is on both"
    assert "cover hand.1.1 1,0" not in actions, "nothing in common"
    with pytest.raises(IllegalAction):
        st.apply(0, "cover hand.1.1 1,0")
    deck = deck_count(st)
    play(st, "cover hand.1.1 0,0")
    assert tops(st)[(0, 0)] == MPH and heights(st)[(0, 0)] == 2
    assert len(hand(st, 1)) == 6 and deck_count(st) == deck - 1, "drew back to six"


def test_after_placing_the_player_draws_back_to_six() -> None:
    st = position(game(), hands={1: [MPH, SC, PS, PH, PF, SH]}, grid={(0, 0): [KE]}, deck_top=[FF])
    deck = deck_count(st)
    play(st, "place hand.1.2 1,0")
    assert len(hand(st, 1)) == 6 and FF in hand(st, 1)
    assert deck_count(st) == deck - 1


# ---------------------------------------------------------------- swapping


def test_a_card_may_be_swapped_for_a_top_card_that_shares_a_symbol() -> None:
    st = position(game(), hands={1: [MPH, SC, PS, PH, PF, SH]}, grid={(0, 0): [MC], (1, 0): [KE]}, deck_top=[FF])
    assert "swap hand.1.1 0,0" in legal(st)
    assert "swap hand.1.1 1,0" not in legal(st)
    with pytest.raises(IllegalAction):
        st.apply(0, "swap hand.1.1 1,0")
    deck = deck_count(st)
    play(st, "swap hand.1.1 0,0")
    assert tops(st)[(0, 0)] == MPH and heights(st)[(0, 0)] == 1
    assert MC in hand(st, 1), "the replaced card goes to the hand"
    assert len(hand(st, 1)) == 6 and FF not in hand(st, 1), "no card is drawn after a swap"
    assert deck_count(st) == deck


def test_only_the_top_card_of_a_stack_can_be_swapped() -> None:
    # MC lies under KE: the mechanism card in hand shares a symbol with MC, not with KE.
    st = position(game(), hands={1: [MPH, SC, PS, PH, PF, SH]}, grid={(0, 0): [MC, KE]})
    assert "swap hand.1.1 0,0" not in legal(st)
    st2 = position(game(), hands={1: [SE, SC, PS, PH, PF, SH]}, grid={(0, 0): [MC, KE]})
    play(st2, "swap hand.1.1 0,0")
    assert KE in hand(st2, 1) and MC not in hand(st2, 1)
    assert tops(st2)[(0, 0)] == SE and heights(st2)[(0, 0)] == 2, "the covered card stays below"


# ---------------------------------------------------------------- Keys

LINE = {(0, 0): [MPH], (1, 0): [MSC]}  # two mechanism cards in a row; 2,0 completes it


def test_three_in_a_row_sharing_a_symbol_wins_its_key_at_the_end_of_the_turn() -> None:
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid=LINE)
    play(st, "place hand.1.1 2,0")
    assert keys_of(st, 1) == ["mechanism"] and keys_of(st, 2) == []
    assert supply(st)["mechanism"] == 2
    events = st.view(None)["events"]
    played = next(i for i, e in enumerate(events) if "places mechanism, flower at 2,0" in e)
    won = next(i for i, e in enumerate(events) if "wins the mechanism Key" in e)
    assert played < won, "the Key comes after the play, as the turn ends"
    assert st.current_seats == [1], "and then it is the next player's turn"


def test_a_column_counts_and_covering_or_swapping_can_complete_the_line() -> None:
    column = {(0, 0): [MPH], (0, 1): [MSC], (0, 2): [PF]}
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid=column)
    play(st, "cover hand.1.1 0,2")
    assert keys_of(st, 1) == ["mechanism"]
    st2 = position(game(), hands={1: [MF, *SIX[:5]]}, grid=column)
    play(st2, "swap hand.1.1 0,2")
    assert keys_of(st2, 1) == ["mechanism"]


def test_the_line_must_include_the_card_played_this_turn() -> None:
    three = {(0, 0): [MPH], (1, 0): [MSC], (2, 0): [MF]}
    st = position(game(), hands={1: [KH, *SIX[:5]]}, grid=three)
    play(st, "place hand.1.1 0,1")
    assert keys_of(st, 1) == []


def test_only_top_cards_count_in_a_line() -> None:
    # The mechanism card at 1,0 is covered by a card without mechanism.
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid={(0, 0): [MPH], (1, 0): [MSC, SC]})
    play(st, "place hand.1.1 2,0")
    assert keys_of(st, 1) == []


def test_diagonal_lines_count_only_with_the_setting() -> None:
    diag = {(0, 0): [MPH], (1, 1): [MSC]}
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid=diag)
    play(st, "place hand.1.1 2,2")
    assert keys_of(st, 1) == []
    st2 = position(game("diagonals"), hands={1: [MF, *SIX[:5]]}, grid=diag)
    play(st2, "place hand.1.1 2,2")
    assert keys_of(st2, 1) == ["mechanism"]


def test_a_player_holds_each_key_at_most_once() -> None:
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid=LINE, keys={1: ["mechanism"]})
    play(st, "place hand.1.1 2,0")
    assert keys_of(st, 1) == ["mechanism"] and supply(st)["mechanism"] == 2
    st2 = position(game(one_key_each=False), hands={1: [MF, *SIX[:5]]}, grid=LINE, keys={1: ["mechanism"]})
    play(st2, "place hand.1.1 2,0")
    assert keys_of(st2, 1) == ["mechanism", "mechanism"]


def test_no_key_is_won_when_the_supply_has_none_left() -> None:
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid=LINE, keys={2: ["mechanism"], 3: ["mechanism"]}, players=4)
    st2 = position(game(key_copies=2), hands={1: [MF, *SIX[:5]]}, grid=LINE, keys={2: ["mechanism"], 3: ["mechanism"]}, players=4)
    play(st, "place hand.1.1 2,0")
    play(st2, "place hand.1.1 2,0")
    assert keys_of(st, 1) == ["mechanism"], "the third copy"
    assert keys_of(st2, 1) == [] and supply(st2)["mechanism"] == 0


def test_one_play_can_win_two_keys() -> None:
    # Row y=0 shares mechanism, column x=2 shares eclipse, both through 2,0.
    grid = {(0, 0): [MPH], (1, 0): [MSC], (2, 1): [KE], (2, 2): [SE]}
    st = position(game(), hands={1: [ME, *SIX[:5]]}, grid=grid)
    play(st, "place hand.1.1 2,0")
    assert sorted(keys_of(st, 1)) == ["eclipse", "mechanism"]


def test_line_length_is_a_setting() -> None:
    st = position(game(line_length=2), hands={1: [MF, *SIX[:5]]}, grid={(0, 0): [MPH]})
    play(st, "place hand.1.1 1,0")
    assert keys_of(st, 1) == ["mechanism"]


# ---------------------------------------------------------------- the end


def test_when_the_last_card_is_drawn_everyone_plays_once_more_the_drawer_last() -> None:
    st = position(game(), players=3, hands={1: [MF, *SIX[:5]]}, grid={(0, 0): [KE]}, deck_size=1)
    play(st, "place hand.1.1 1,0")  # seat 1 draws the last card
    assert deck_count(st) == 0 and not st.is_terminal()
    order = []
    while not st.is_terminal():
        order.append(st.current_seats[0] + 1)
        st.apply(st.current_seats[0], st.legal_actions()[0])
    assert order == [2, 3, 1]


def test_the_last_round_does_not_start_before_the_deck_is_empty() -> None:
    st = position(game(), hands={1: [MF, *SIX[:5]]}, grid={(0, 0): [KE]}, deck_size=2)
    play(st, "place hand.1.1 1,0")
    assert deck_count(st) == 1 and st.view(None)["vars"]["turns_left"] == -1
    # Swapping draws nothing, so the deck does not run out on a swap.
    st2 = position(game(), hands={1: [SE, *SIX[:5]]}, grid={(0, 0): [KE]}, deck_size=1)
    play(st2, "swap hand.1.1 0,0")
    assert deck_count(st2) == 1 and st2.view(None)["vars"]["turns_left"] == -1


def test_a_player_with_no_possible_play_skips_and_only_then() -> None:
    g = game()
    others = [
        c for c in (tuple(p.attrs["symbols"]) for p in g.definition.pieces if p.component == "card")
        if not {"mechanism", "cathedral"} & set(c)
    ]
    full = {(x, y): [others[(y + 2) * 5 + (x + 2)]] for x in range(-2, 3) for y in range(-2, 3)}
    st = position(g, hands={1: [MC]}, grid=full, turns_left=2, deck_size=0)
    assert legal(st) == ["skip"]
    play(st, "skip")
    assert st.current_seats == [1]
    assert "skip" not in legal(position(g, hands={1: [MCS]}, grid=full))
    empty = position(g, hands={1: []}, grid={(0, 0): [KE]}, turns_left=2, deck_size=0)
    assert legal(empty) == ["skip"]


def finish(st: State) -> dict[str, Any]:
    """Play the rest of the game with the first legal action each time."""
    while not st.is_terminal():
        st.apply(st.current_seats[0], st.legal_actions()[0])
    return st.result()


def ended(g: Game, keys: Mapping[int, Sequence[str]], players: int = 2) -> dict[str, Any]:
    """The result of a game that ends right after this turn, with these Keys held."""
    st = position(g, players=players, hands={1: [SC]}, grid={(0, 0): [KE]}, deck_size=0, keys=keys, turns_left=1)
    play(st, "place hand.1.1 -1,-1")
    assert st.is_terminal()
    return st.result()


def test_most_keys_wins() -> None:
    r = ended(game(), {1: ["mechanism", "profile"], 2: ["eclipse"]})
    assert r["winners"] == [0] and r["scores"] == [2, 1]


def test_a_tie_goes_to_the_holder_of_the_most_senior_key_eclipse_by_default() -> None:
    r = ended(game(), {1: ["mechanism", "stream"], 2: ["profile", "eclipse"]})
    assert r["winners"] == [1] and r["ranking"] == [1, 0]


def test_a_tie_on_the_senior_key_looks_at_the_next_one() -> None:
    r = ended(game(), {1: ["cat", "eclipse"], 2: ["skull", "eclipse"]})
    assert r["winners"] == [0]


def test_identical_keys_share_the_win() -> None:
    assert ended(game(), {1: ["cat"], 2: ["cat"]})["winners"] == [0, 1]
    assert ended(game(), {})["winners"] == [0, 1]


def test_seniority_can_be_read_senior_first() -> None:
    r = ended(game(senior_first=True), {1: ["mechanism", "stream"], 2: ["profile", "eclipse"]})
    assert r["winners"] == [0]


# ---------------------------------------------------------------- whole games


def test_a_whole_game_ends_after_the_deck_runs_out() -> None:
    players = 4
    st = game().new_state(players, seed=11)
    result = finish(st)
    assert result["reason"] == "end"
    assert deck_count(st) == 0
    view = st.view(None)
    assert view["vars"]["turns_left"] == 0
    held = sum(len(s["zones"]["keys"]["pieces"]) for s in view["seats"])
    assert held + sum(supply(st).values()) == 36
    assert all(len(set(keys_of(st, s))) == len(keys_of(st, s)) for s in range(1, players + 1))


def test_save_and_load_midgame_continues_identically() -> None:
    g = game()
    st = g.new_state(3, seed=5)
    for _ in range(8):
        st.apply(st.current_seats[0], st.legal_actions()[-1])
    copy = g.state_from_json(st.to_json())
    for _ in range(8):
        action = st.legal_actions()[-1]
        assert copy.legal_actions()[-1] == action
        st.apply(st.current_seats[0], action)
        copy.apply(copy.current_seats[0], action)
    assert copy.to_json() == st.to_json()
