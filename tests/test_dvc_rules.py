"""Da Vinci Code: one scenario per rule sentence of shared/rules/001 and 002 (and the README decisions).

Each test names the sentence it checks (001 = the Czech rules in English, 002 = the Korean guide,
as translated in shared/rules/README.md). Positions come from `test_dvc_positions`; rows read
left to right, `*` marks a face-up tile, `?` a number the viewer cannot see.
"""

from __future__ import annotations

import pytest
from test_dvc_positions import drawn_of, game, play, position, show, tile_pid, to_act

from davinci.engine.errors import IllegalAction, UsageError


def legal(st: object, seat: int | None = None) -> list[str]:
    """The legal actions' texts for a 1-based seat (default: the one to act)."""
    from davinci.engine.state import State

    assert isinstance(st, State)
    s = st.current_seats[0] if seat is None else seat - 1
    return [str(a) for a in st.legal_actions(s)]


def sort_keys(row: str) -> list[int]:
    out = []
    for token in row.split():
        letter, value = token[0], token[1:].rstrip("*")
        if value not in ("j", "?"):
            out.append(int(value) * 2 + (0 if letter == "b" else 1))
    return out


# ---------------------------------------------------------------- 001 setup


def test_001_basic_game_leaves_the_two_dash_tiles_in_the_box() -> None:
    """001: 'Put the two panels with the "-" symbol back into the box' - 24 numbered tiles only."""
    pieces = game().definition.pieces
    assert len(pieces) == 24
    assert {(p.attrs["number"], p.attrs["colour"]) for p in pieces} == {
        (n, c) for n in range(12) for c in ("black", "white")
    }


def test_001_all_tiles_are_shuffled_face_down_in_the_middle() -> None:
    """001: the panels lie face down in the centre, shuffled - the pile shows only its size; seeds shuffle."""
    g = game()
    st = g.new_state(2, seed=5)
    pile = st.view(0)["zones"]["pile"]
    assert set(pile) == {"kind", "count"}  # no tile of the pile is shown to anybody
    deals = {show(g.new_state(2, seed=s), 1) for s in range(8)}
    assert len(deals) > 1
    assert show(g.new_state(2, seed=5), 1) == show(st, 1)  # the same seed deals the same tiles


@pytest.mark.parametrize(("players", "tiles"), [(2, 4), (3, 4), (4, 3)])
def test_001_002_each_player_takes_four_tiles_or_three_with_four_players(players: int, tiles: int) -> None:
    """001/002: 4 tiles each with 2-3 players, 3 each with 4 (002 FAQ: two players start with 4)."""
    st = game(first_player=1).new_state(players, seed=3)
    assert [len(show(st, s).split()) for s in range(1, players + 1)] == [tiles] * players
    assert drawn_of(st, 1) != ""  # the first player has already drawn the turn's tile, beside the row


@pytest.mark.parametrize("players", [1, 5])
def test_002_two_to_four_players(players: int) -> None:
    """002: 2-4 players."""
    with pytest.raises(UsageError):
        game().new_state(players, seed=1)


def test_001_only_the_owner_sees_the_numbers() -> None:
    """001: numbers face their owner so only the owner sees them; 002: colours are visible to all."""
    st = position(["b1 w4", "b2 w5"])
    assert show(st, 1, viewer=1) == "b1 w4"
    assert show(st, 1, viewer=2) == "b? w?"
    assert show(st, 2, viewer=1) == "b? w?"


@pytest.mark.parametrize("seed", range(10))
def test_001_002_rows_stand_in_ascending_order(seed: int) -> None:
    """001/002: lowest number on the left, rising to the right; black first on equal numbers."""
    st = game().new_state(3, seed=seed)
    for s in (1, 2, 3):
        keys = sort_keys(show(st, s))
        assert keys == sorted(keys)


def test_001_example_b4_b1_w7_w10_stand_as_b1_b4_w7_w10() -> None:
    """001 example: drawing black 4, black 1, white 7, white 10 gives black 1, black 4, white 7, white 10."""
    st = position(["w11", "w0"], pile="b4 b1 w7 w10", drawn="")
    for token in ("b4", "b1", "w7", "w10"):  # in the order drawn; the row's sort rule places each
        st.place(tile_pid(game(), token), "row#0")
    assert show(st, 1) == "b1 b4 w7 w10 w11"


def test_001_002_black_stands_left_of_white_on_equal_numbers() -> None:
    """001 'Important' / 002: on equal numbers the black tile stands first, then the white."""
    st = position(["b5", "w0 w1"], drawn="w5")
    play(st, "guess row.2.1 3")  # wrong: the drawn white 5 joins the row face up
    assert show(st, 1) == "b5 w5*"
    st = position(["w5", "w0 w1"], drawn="b5")
    play(st, "guess row.2.1 3")
    assert show(st, 1) == "b5* w5"


def test_001_first_player_is_a_setting_and_play_goes_clockwise() -> None:
    """001: 'The youngest player starts. Play continues clockwise.' (README: a setting or a seeded draw)."""
    st = game(first_player=2).new_state(3, seed=1)
    order = []
    for _ in range(4):
        order.append(to_act(st))
        play(st, legal(st)[0])  # guesses that are wrong end the turn (or the seat goes on)
        while to_act(st) == order[-1] and "stop" in legal(st):
            play(st, "stop")
    assert order == [2, 3, 1, 2]


def test_first_player_zero_is_a_seeded_draw() -> None:
    """README: 'the engine picks by a seeded draw or by setting'."""
    g = game(first_player=0)
    firsts = {to_act(g.new_state(4, seed=s)) for s in range(30)}
    assert firsts == {1, 2, 3, 4}
    assert to_act(g.new_state(4, seed=7)) == to_act(g.new_state(4, seed=7))


def test_001_accidental_flip_has_no_digital_counterpart() -> None:
    """001 note (README: table manners): nothing lets a player turn up an own tile at will."""
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    assert {a.split()[0] for a in legal(st)} == {"guess"}
    assert all(a.split()[1].startswith("row.2.") for a in legal(st))


# ---------------------------------------------------------------- 001 basic rules / 002 your turn


def test_001_002_a_turn_starts_with_a_private_draw_from_the_pile() -> None:
    """001/002: at the start of a turn the player draws one random tile that only they can see."""
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    pile = st.view(0)["zones"]["pile"]["count"]
    play(st, "guess row.2.1 3")  # wrong: seat 2's turn begins
    assert to_act(st) == 2
    v2, v1 = st.view(1), st.view(0)
    assert v2["zones"]["pile"]["count"] == pile - 1
    (mine,) = v2["seats"][1]["zones"]["drawn"]["pieces"]
    (theirs,) = v1["seats"][1]["zones"]["drawn"]["pieces"]
    assert "number" in mine and "number" not in theirs and theirs["colour"] == mine["colour"]


def test_001_the_player_must_guess_and_may_choose_any_opponent() -> None:
    """001: the player must attack and may choose any opponent; README: at least one guess per turn."""
    st = position(["b1 w4", "b2 w5", "b3 w6*"], drawn="w7")
    acts = legal(st)
    assert "stop" not in acts
    targets = {a.split()[1] for a in acts}
    assert targets == {"row.2.1", "row.2.2", "row.3.1"}  # hidden tiles of both opponents, never own ones


def test_002_a_guess_names_only_the_number() -> None:
    """002: point at a tile and say a number; the colour is visible so it is not said."""
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    values = {a.split()[2] for a in legal(st)}
    assert values == {str(n) for n in range(12)}
    with pytest.raises(IllegalAction):
        play(st, "guess row.2.1 black 2")


def test_001_example_guess_the_rightmost_tile_of_the_player_opposite() -> None:
    """001 example: point at the rightmost tile of the player opposite, a black one, and say 'black 1'."""
    st = position(["w2 b6", "w0 b1"], drawn="w7")
    play(st, "guess row.2.2 1")
    assert show(st, 2, viewer=1) == "w? b1*"


def test_001_002_a_right_guess_reveals_the_tile_to_everybody_and_the_guesser_goes_on_or_stops() -> None:
    """001/002: if right, the tile is laid face up for all to see; the guesser may guess again or stop."""
    st = position(["b1 w4", "b2 w5", "b3 w6"], drawn="w7")
    play(st, "guess row.2.2 5")
    assert show(st, 2, viewer=3) == "b? w5*"
    assert to_act(st) == 1
    assert "stop" in legal(st) and any(a.startswith("guess ") for a in legal(st))


def test_002_each_further_guess_may_target_another_opponent() -> None:
    """002 FAQ: you may point at a different opponent for every guess."""
    st = position(["b1 w4", "b2 w5", "b3 w6"], drawn="w7")
    play(st, "guess row.2.2 5")
    play(st, "guess row.3.1 3")
    assert show(st, 3, viewer=1) == "b3* w?"
    assert to_act(st) == 1


def test_001_002_stopping_adds_the_drawn_tile_hidden_at_its_sorted_place() -> None:
    """001/002: on stopping, the drawn tile joins the row, hidden, at its sorted place; the row grows by one."""
    st = position(["b1 w4 b9", "b2 w5"], drawn="w7")
    play(st, "guess row.2.1 2")
    play(st, "stop")
    assert show(st, 1) == "b1 w4 w7 b9"
    assert show(st, 1, viewer=2) == "b? w? w? b?"
    assert to_act(st) == 2
    # Everyone at the table sees where it goes in: the log names its place (a bot could not tell
    # which of two hidden white tiles was the new one).
    assert "Player 1 stops: the drawn tile goes in at row.1.3" in st.view(1)["events"]


def test_001_002_a_wrong_guess_exposes_the_drawn_tile_in_place_and_ends_the_turn() -> None:
    """001/002: if wrong, the drawn tile goes face up into the row at its sorted place; the turn ends."""
    st = position(["b1 w4 b9", "b2 w5"], drawn="w7")
    play(st, "guess row.2.1 3")
    assert show(st, 1, viewer=2) == "b? w? w7* b?"
    assert "Player 1's drawn tile goes in face up at row.1.3" in st.view(1)["events"]  # which face-up tile is new
    assert show(st, 2, viewer=1) == "b? w?"  # the guessed tile stays hidden
    assert to_act(st) == 2


def test_001_a_wrong_guess_after_right_ones_still_exposes_the_drawn_tile() -> None:
    """001: going on after a right guess risks the drawn tile: a later wrong guess exposes it."""
    st = position(["b1 w4", "b2 w5 b8"], drawn="w7")
    play(st, "guess row.2.1 2")
    play(st, "guess row.2.2 6")
    assert show(st, 1, viewer=2) == "b? w? w7*"
    assert show(st, 2, viewer=1) == "b2* w? b?"
    assert to_act(st) == 2


def test_every_guess_and_its_outcome_is_in_everybodys_log() -> None:
    """002 'tiles already revealed are struck out': the log tells every player what was guessed."""
    st = position(["b1 w4", "b2 w5", "b3 w6"], drawn="w7")
    play(st, "guess row.2.1 2")
    play(st, "guess row.3.2 9")
    for viewer in (0, 1, 2):
        events = st.view(viewer)["events"]
        assert "Player 1 guessed row.2.1 = 2: right" in events
        assert "Player 1 guessed row.3.2 = 9: wrong" in events


# ---------------------------------------------------------------- 002 empty pile


def test_002_with_the_pile_empty_a_turn_starts_without_a_draw() -> None:
    """README decision (002): when the pile is empty the turn starts without drawing."""
    st = position(["b1 w4", "b2 w5"], drawn="w7", pile="")
    play(st, "guess row.2.1 3")
    assert to_act(st) == 2
    assert drawn_of(st, 2) == ""
    assert {a.split()[0] for a in legal(st)} == {"guess"}


def test_002_with_the_pile_empty_a_wrong_guess_reveals_an_own_hidden_tile_of_the_players_choice() -> None:
    """002: after the pile runs out, a wrong guess makes you choose one of your hidden tiles and reveal it."""
    st = position(["b1 w4", "b2 w5* b8"], current=2, drawn="", pile="")
    play(st, "guess row.1.1 0")
    assert to_act(st) == 2
    assert legal(st) == ["reveal row.2.1", "reveal row.2.3"]  # only hidden tiles; the face-up white 5 is not offered
    play(st, "reveal row.2.3")
    assert show(st, 2, viewer=1) == "b? w5* b8*"
    assert to_act(st) == 1


def test_002_with_the_pile_empty_stopping_adds_no_tile() -> None:
    st = position(["b1 w4", "b2 w5"], drawn="", pile="")
    play(st, "guess row.2.1 2")
    play(st, "stop")
    assert show(st, 1) == "b1 w4"
    assert to_act(st) == 2


def test_revealing_your_own_last_hidden_tile_puts_you_out() -> None:
    """Issue rules: a seat with no hidden tiles is out; here the empty-pile penalty takes the last one."""
    st = position(["b1* w4", "b2 w5", "b3 w6"], drawn="", pile="")
    play(st, "guess row.2.1 0")
    assert legal(st) == ["reveal row.1.2"]
    play(st, "reveal row.1.2")
    assert st.view(None)["seats"][0]["active"] is False
    assert to_act(st) == 2


# ---------------------------------------------------------------- the end of the game


def test_001_002_a_player_with_no_hidden_tiles_is_out_and_skipped() -> None:
    """001: players without standing (hidden) tiles take no part; play skips them."""
    st = position(["b1 w4", "b2 w5*", "b3 w6"], drawn="w7")
    play(st, "guess row.2.1 2")
    assert st.view(None)["seats"][1]["active"] is False
    assert not st.is_terminal()
    assert all(not a.startswith("guess row.2.") for a in legal(st))
    play(st, "stop")
    assert to_act(st) == 3


def test_001_002_the_last_player_with_hidden_tiles_wins() -> None:
    """001: the game ends when only one player still has hidden tiles; that player wins (002: the same)."""
    st = position(["b1 w4", "b2* w5"], drawn="w7")
    play(st, "guess row.2.2 5")
    assert st.is_terminal()
    assert st.result()["winners"] == [0]


def test_the_winner_of_three_is_the_last_one_standing() -> None:
    st = position(["b1 w4", "b2* w5", "b3 w6*"], drawn="w7")
    play(st, "guess row.2.2 5")
    assert not st.is_terminal()
    play(st, "guess row.3.1 3")
    assert st.is_terminal()
    assert st.result()["winners"] == [0]


# ---------------------------------------------------------------- 001 advanced rules / 002 joker


def test_001_advanced_adds_the_two_dash_tiles() -> None:
    """001 advanced: add the 2 dash panels to the 24 (README: dash = joker, one per colour)."""
    g = game("advanced")
    jokers = [p for p in g.definition.pieces if p.attrs["joker"]]
    assert len(g.definition.pieces) == 26
    assert sorted(p.attrs["colour"] for p in jokers) == ["black", "white"]
    st = g.new_state(2, seed=1)
    assert sum(len(v) for k, v in st.zones.items() if not k.startswith("$")) == 26


def test_002_beginners_play_without_jokers() -> None:
    """002: leave the jokers out at first - the default game has none, and nobody can say 'joker'."""
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    assert not any(a.endswith(" joker") for a in legal(st))


def test_001_002_a_drawn_joker_goes_wherever_its_owner_chooses() -> None:
    """001/002: a drawn joker may be put anywhere in the row."""
    st = position(["b1 w4 b9", "b2 w5"], drawn="bj", variant="advanced")
    play(st, "guess row.2.1 2")
    play(st, "stop")
    assert to_act(st) == 1
    assert legal(st) == [f"position {i}" for i in range(1, 5)]
    play(st, "position 3")
    assert show(st, 1) == "b1 w4 bj b9"
    assert to_act(st) == 2


def test_001_002_a_joker_exposed_by_a_wrong_guess_is_also_placed_freely() -> None:
    st = position(["b1 w4", "b2 w5"], drawn="wj", variant="advanced")
    play(st, "guess row.2.1 3")
    play(st, "position 1")
    assert show(st, 1, viewer=2) == "wj* b? w?"


def test_001_002_a_placed_joker_never_moves() -> None:
    """001/002: once placed, a joker keeps its place; later tiles sort around it."""
    st = position(["b1 bj w9", "b2 w5"], drawn="b10", variant="advanced")
    play(st, "guess row.2.1 3")  # wrong: black 10 goes in face up
    assert show(st, 1) == "b1 bj w9 b10*"
    st = position(["b1 bj w9", "b2 w5"], drawn="b0", variant="advanced")
    play(st, "guess row.2.1 3")
    assert show(st, 1) == "b0* b1 bj w9"


def test_001_002_to_guess_a_joker_say_joker() -> None:
    """001/002: to guess a joker, point at it and say 'joker' (a number is wrong, and 'joker' on a number too)."""
    st = position(["b1 w4", "b2 wj w5"], drawn="w7", variant="advanced")
    play(st, "guess row.2.2 joker")
    assert show(st, 2, viewer=1) == "b? wj* w?"
    play(st, "guess row.2.1 joker")
    assert show(st, 1, viewer=2) == "b? w? w7*"  # wrong
    st = position(["b1 w4", "b2 wj w5"], drawn="w7", variant="advanced")
    play(st, "guess row.2.2 3")
    assert show(st, 2, viewer=1) == "b? w? w?"


def test_002_a_joker_among_the_starting_tiles_is_placed_where_its_owner_likes() -> None:
    """002 'confusing situations': a joker dealt at the start goes wherever its owner likes."""
    g = game("advanced")
    for seed in range(200):
        st = g.new_state(2, seed=seed)
        if st.pending is not None and st.pending["type"] == "position":
            break
    else:
        pytest.fail("no seed deals a joker at the start")
    owner = to_act(st)
    n = len(show(st, owner).split())
    assert legal(st) == [f"position {i}" for i in range(1, n + 1)]
    play(st, f"position {n}")
    assert show(st, owner).split()[-1] in ("bj", "wj")


def test_002_both_jokers_dealt_to_one_player_each_keep_the_place_chosen() -> None:
    """002: "once placed, its position never changes" - with both jokers in one starting hand,
    placing the second moved the first (it was counted while the second still stood in front)."""
    g = game("advanced")
    for seed in range(200):
        st = g.new_state(2, seed=seed)
        if st.pending is not None and len(st.pending.get("queue", ())) == 2:
            break
    else:
        pytest.fail("no seed deals both jokers to one player")
    owner = to_act(st)
    numbers = [t for t in show(st, owner).split() if not t.endswith("j")]
    assert show(st, owner).split()[-2:] in (["bj", "wj"], ["wj", "bj"])  # both wait at the end
    first, second = show(st, owner).split()[-2:]
    assert legal(st) == [f"position {i}" for i in range(1, len(numbers) + 2)]  # among the placed tiles
    assert st.view(owner - 1)["pending"]["waiting"] == [f"row.{owner}.{len(numbers) + 1}", f"row.{owner}.{len(numbers) + 2}"]
    play(st, "position 2")
    assert show(st, owner).split() == [numbers[0], first, *numbers[1:], second]
    assert legal(st) == [f"position {i}" for i in range(1, len(numbers) + 3)]
    play(st, f"position {len(numbers) + 2}")  # the last place: the first joker stays second
    assert show(st, owner).split() == [numbers[0], first, *numbers[1:], second]


def test_house_rule_no_joker_in_a_starting_hand() -> None:
    """README: a Korean house rule forbids jokers in a starting hand (setting jokers_in_start: false)."""
    g = game("advanced", jokers_in_start=False)
    for seed in range(60):
        st = g.new_state(4, seed=seed)
        for s in (1, 2, 3, 4):
            assert "j" not in show(st, s).replace("*", "")


# ---------------------------------------------------------------- README: colour choice (published rules)


def test_colour_choice_the_drawer_chooses_the_colour() -> None:
    """README: the published English rules let the drawer choose the colour of the tile drawn."""
    st = position(["b1 w4", "b2 w5"], drawn="", variant="colour-choice")
    assert legal(st) == ["draw black", "draw white"]  # the turn starts with the choice of colour
    play(st, "draw white")
    assert drawn_of(st, 1).startswith("w")
    assert {a.split()[0] for a in legal(st)} == {"guess"}
    play(st, "guess row.2.1 3")  # wrong: seat 2's turn starts with the same choice
    assert legal(st) == ["draw black", "draw white"]


def test_colour_choice_with_one_colour_left_draws_without_asking() -> None:
    # It asked "Choose the colour of the tile you draw" with one answer on offer.
    st = position(["b1 w4", "b2 w5"], drawn="", pile="w8 w9", variant="colour-choice")
    assert legal(st) == ["draw white"]  # the position was built at a choice already posed
    play(st, "draw white")
    play(st, "guess row.2.1 3")  # wrong: seat 2's turn starts, with only white tiles left
    assert drawn_of(st, 2).startswith("w")
    assert {a.split()[0] for a in legal(st)} == {"guess"}


def test_by_default_the_draw_is_random() -> None:
    """README: random draw is the default (the seeds' rule); no colour decision is asked."""
    st = position(["b1 w4", "b2 w5"], drawn="w7")
    play(st, "guess row.2.1 3")
    assert drawn_of(st, 2) != ""
    assert {a.split()[0] for a in legal(st)} == {"guess"}
