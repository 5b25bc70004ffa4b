"""Da Vinci Code bots: `naive` and `deducer` choose legal actions from views only, as specified."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from test_dvc_positions import play, position

from davinci.engine.actions import Action
from davinci.engine.bots import RandomBot
from davinci.engine.game import load_game
from davinci.engine.rng import derive_seed
from davinci.games.da_vinci_code.bots import DeducerBot, NaiveBot


def act(bot: Any, st: Any) -> str:
    """The bot's choice for the seat that must act, as text."""
    s = st.current_seats[0]
    return str(bot.choose(st.view(s), st.legal_actions(s)))


def test_bots_name_themselves_and_their_game() -> None:
    assert (NaiveBot.name, DeducerBot.name) == ("naive", "deducer")
    assert NaiveBot.games == DeducerBot.games == ("da-vinci-code",)


# ---------------------------------------------------------------- naive


def test_naive_guesses_a_value_between_the_targets_neighbours() -> None:
    """Issue: naive guesses a value consistent with the target tile's immediate neighbours only."""
    st = position(["b0 w0 b1", "b2* w3 w5*"], drawn="b11")
    guesses = {act(NaiveBot(seed=s), st) for s in range(30)}
    assert guesses <= {"guess row.2.2 2", "guess row.2.2 3", "guess row.2.2 4"}
    assert len(guesses) > 1


def test_naive_ignores_everything_but_the_neighbours() -> None:
    """Unlike the deducer, naive does not strike out white 3 although it is revealed elsewhere."""
    st = position(["b0 w0 b1", "b2* w4 w5*", "w3* b9"], drawn="b11")
    guesses = {act(NaiveBot(seed=s), st) for s in range(40)}
    assert "guess row.2.2 3" in guesses


def test_naive_stops_after_a_right_guess() -> None:
    st = position(["b0 w0 b1", "b2* w3 w5* b8"], drawn="b11")
    play(st, "guess row.2.2 3")
    assert act(NaiveBot(seed=1), st) == "stop"


# ---------------------------------------------------------------- deducer


def test_deducer_guesses_the_likeliest_value() -> None:
    """Black 0 and black 1 are the only blacks below a face-up black 2: the deducer is sure."""
    st = position(["w9 w10", "b0 b1 b2* w7"], drawn="b11")
    assert act(DeducerBot(seed=3), st) in ("guess row.2.1 0", "guess row.2.2 1")


def test_002_advice_deducer_stops_on_a_coin_flip() -> None:
    """002 advice: after a right guess, when the next guess is a coin flip, stop (threshold 50 %)."""
    st = position(["b7 w9", "b0* w1 b2* b5"], drawn="b11")
    play(st, "guess row.2.4 5")  # right; the white tile left is white 0 or white 1, even odds
    assert act(DeducerBot(seed=1), st) == "stop"


def test_deducer_goes_on_while_the_chance_exceeds_the_threshold_setting() -> None:
    """settings.deducer_threshold: with 40 %, an even chance is worth another guess."""
    st = position(["b7 w9", "b0* w1 b2* b5"], drawn="b11", deducer_threshold=40)
    play(st, "guess row.2.4 5")
    assert act(DeducerBot(seed=1), st) in ("guess row.2.2 0", "guess row.2.2 1")


def test_deducer_goes_on_when_it_is_sure() -> None:
    st = position(["b7 w9", "b0* w1 b4* b5 b6*"], drawn="b11")
    play(st, "guess row.2.2 1")
    assert act(DeducerBot(seed=1), st) == "guess row.2.4 5"  # only black 5 stands between black 4 and black 6


def test_deducer_reveals_the_own_tile_the_others_are_likeliest_to_know() -> None:
    """Empty pile, wrong guess: the deducer shows the tile that is no secret anyway (black 0 left of black 1)."""
    st = position(["b0 b1* w9", "w2 w6 b10"], drawn="", pile="")
    play(st, "guess row.2.1 5")
    assert act(DeducerBot(seed=2), st) == "reveal row.1.1"


def test_deducer_places_a_joker_and_chooses_a_colour_legally() -> None:
    st = position(["b1 w4 b9", "b2 w5"], drawn="bj", variant="advanced")
    play(st, "guess row.2.1 2")
    play(st, "stop")
    assert act(DeducerBot(seed=4), st).startswith("position ")
    st = position(["b1 b4", "b2 w5"], drawn="", pile="w8 w9 b3", variant="colour-choice")
    assert act(DeducerBot(seed=4), st) == "draw white"  # more white tiles are unaccounted for


def test_deducer_names_the_joker_when_it_is_the_only_possibility() -> None:
    """No numbered white tile fits between white 3 and black 4: the hidden white one must be the joker."""
    st = position(["w9 b11", "w3* wj b4*"], drawn="b10", variant="advanced")
    assert act(DeducerBot(seed=1), st) == "guess row.2.2 joker"


# ---------------------------------------------------------------- fair play


def _without_kind(view: dict[str, Any]) -> dict[str, Any]:
    blind = copy.deepcopy(view)
    for s in blind["seats"]:
        for z in s["zones"].values():
            for p in z.get("pieces", ()):
                p["kind"] = "tile"
    return blind


@pytest.mark.parametrize("bot_class", [NaiveBot, DeducerBot])
def test_bots_never_read_a_hidden_tiles_component_kind(bot_class: Any) -> None:
    """A view names each piece's component; for a hidden joker that would give it away, so bots ignore it."""
    st = position(["w9 b11", "w3 wj b4"], drawn="b10", variant="advanced")
    view = st.view(0)
    legal = st.legal_actions(0)
    assert bot_class(seed=5).choose(view, legal) == bot_class(seed=5).choose(_without_kind(view), legal)


@pytest.mark.parametrize("variant", [None, "advanced", "colour-choice"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_whole_games_with_legal_actions(variant: str | None, players: int) -> None:
    g = load_game("da-vinci-code", variant)
    names = ["deducer", "naive", "random", "deducer"][:players]
    seed = derive_seed(players, 7)
    makers = {"deducer": DeducerBot, "naive": NaiveBot, "random": RandomBot}
    bots = [makers[n](seed=derive_seed(seed, i)) for i, n in enumerate(names)]
    st = g.new_state(players, seed=seed)
    while not st.is_terminal():
        s = st.current_seats[0]
        legal = st.legal_actions(s)
        choice = bots[s].choose(st.view(s), legal)
        assert isinstance(choice, Action) and choice in legal
        st.apply(s, choice)
    assert st.result()["reason"] == "end"


def test_deducer_beats_random_and_naive_in_a_few_seeded_games() -> None:
    """A smoke check of strength (the full measurement is in the report): both seat orders."""
    g = load_game("da-vinci-code")
    wins = 0
    for i in range(4):
        for order in (("deducer", "naive"), ("naive", "deducer")):
            seed = derive_seed(99, i)
            bots = [DeducerBot(seed=seed) if n == "deducer" else NaiveBot(seed=seed) for n in order]
            st = g.new_state(2, seed=seed)
            while not st.is_terminal():
                s = st.current_seats[0]
                st.apply(s, bots[s].choose(st.view(s), st.legal_actions(s)))
            wins += order.index("deducer") in st.result()["winners"]
    assert wins >= 6


def test_the_bots_play_a_variant_with_other_tiles_without_deducing(tmp_path: Path) -> None:
    # A pack variant numbering its tiles 0-499 crashed the deducer (IndexError in its counts):
    # the deductions assume the published tiles, so with others the bots play at random.
    from davinci.engine.bots import make_bot

    pack = str(tmp_path)
    (tmp_path / "big.yaml").write_text("kind: variant\nid: big\nextends: da-vinci-code\nname: Big\ncomponents:\n"
                                       "  tile:\n    product:\n      number: {from: 0, to: 99}\n"
                                       "      colour: [black, white]\n", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: big\nname: Big\nversion: "1.0"\nvariants: [big.yaml]\n',
                                        encoding="utf-8")
    game = load_game("da-vinci-code", "big", packs=[pack])
    for name in ("deducer", "naive"):
        st = game.new_state(2, seed=4)
        bots = [make_bot(name, seed, game.id, dict(game.settings)) for seed in (1, 2)]
        for _ in range(60):
            if st.is_terminal():
                break
            seat = st.current_seats[0]
            st.apply(seat, bots[seat].choose(st.view(seat), st.legal_actions(seat)))
