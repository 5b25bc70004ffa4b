"""Da Vinci Code deduction: 002's worked examples, and how the deducer follows tiles and failed guesses.

The candidate logic is shared by the `deducer` bot and the screen's `--hints`; it works from one
seat's view only.
"""

from __future__ import annotations

import itertools

import pytest
from test_dvc_positions import play, position, show

from davinci.engine.bots import RandomBot
from davinci.engine.game import load_game
from davinci.engine.rng import derive_seed
from davinci.games.da_vinci_code.bots import (
    JOKER,
    DeducerBot,
    Seen,
    Tracker,
    align,
    candidates,
    exclusions_from,
    parse_events,
    read_rows,
    row_counts,
    sort_key,
)
from davinci.games.da_vinci_code.screen import hints


def tile_names(values: list[str], colour: str) -> list[str]:
    return [f"{colour} {v}" for v in values]


def by_order(tiles: list[str]) -> list[str]:
    """Sort 'white 2'-style names in row order (ascending, black first on ties)."""
    return sorted(tiles, key=lambda t: sort_key(int(t.split()[1]), t.split()[0]))


# ---------------------------------------------------------------- 002 worked examples


def test_002_worked_example_between_black_2_and_white_5() -> None:
    """002: a row black 2 (face up), hidden, white 5 (face up): the hidden tile is white 2, black 3,
    white 3, black 4, white 4 or black 5; if it is white, it is white 2, 3 or 4."""
    white = position(["b0 w0 b1", "b2* w3 w5*"], drawn="b11")
    black = position(["b0 w0 b1", "b2* b4 w5*"], drawn="b11")
    as_white = hints(white.view(0))["row.2.2"]
    as_black = hints(black.view(0))["row.2.2"]
    assert as_white == ["2", "3", "4"]
    assert as_black == ["3", "4", "5"]
    assert by_order(tile_names(as_white, "white") + tile_names(as_black, "black")) == [
        "white 2",
        "black 3",
        "white 3",
        "black 4",
        "white 4",
        "black 5",
    ]


def test_002_tiles_revealed_elsewhere_are_struck_out() -> None:
    """002: tiles already revealed elsewhere are struck out of the candidates."""
    st = position(["b0 w0 b1", "b2* w3 w5*", "w4* b9"], drawn="b11")
    assert hints(st.view(0))["row.2.2"] == ["2", "3"]


def test_the_deducer_also_strikes_out_its_own_tiles() -> None:
    """Issue: the deducer uses its own tiles (they are not where the opponent's hidden tile is)."""
    st = position(["b0 w2 b6", "b2* w3 w5*"], drawn="w4")
    assert hints(st.view(0))["row.2.2"] == ["3"]


def test_hints_show_only_what_the_viewer_may_know() -> None:
    """Hints come from the view: another viewer holding different tiles sees other candidates."""
    st = position(["b0 w2 b6", "b2* w3 w5*", "w4 b9"], drawn="b11")
    assert hints(st.view(0))["row.2.2"] == ["3", "4"]
    assert hints(st.view(2))["row.2.2"] == ["2", "3"]


def test_colours_and_order_narrow_a_run_of_hidden_tiles() -> None:
    """Sorted order binds hidden neighbours too: b? b? before face-up black 2 can only be 0 and 1."""
    st = position(["w9 w10", "b0 b1 b2*"], drawn="b11")
    h = hints(st.view(0))
    assert h["row.2.1"] == ["0"]
    assert h["row.2.2"] == ["1"]


def test_a_joker_may_stand_anywhere_so_order_binds_less() -> None:
    """With jokers in play a hidden tile may be the joker of its colour, which breaks no order."""
    st = position(["w9 w10", "b2* w3 w5*"], drawn="b11", variant="advanced")
    assert hints(st.view(0))["row.2.2"] == ["joker", "2", "3", "4"]
    st = position(["w9 wj", "b2* w3 w5*"], drawn="b11", variant="advanced")
    assert hints(st.view(0))["row.2.2"] == ["2", "3", "4"]  # the viewer holds the white joker


# ---------------------------------------------------------------- failed guesses


def test_a_failed_guess_by_another_player_rules_that_value_out() -> None:
    """Issue: the deducer uses every failed guess, its own and the other players'."""
    st = position(["b7 w8", "b2* w3 w5*", "b9 w10"], current=3, drawn="b11")
    play(st, "guess row.2.2 2")  # seat 3 is wrong: white 3 is not a 2
    assert hints(st.view(0))["row.2.2"] == ["3", "4"]
    bot = DeducerBot(seed=1)
    assert str(bot.choose(st.view(0), st.legal_actions(0))) in ("guess row.2.2 3", "guess row.2.2 4")


def test_a_failed_guess_follows_its_tile_when_the_row_grows() -> None:
    """A tile's label shifts when its owner inserts a tile to its left; the ruled-out value moves with it."""
    st = position(["b1 w4", "w2 w6 b9"], drawn="b7", pile="b3")
    bot = Tracker()
    bot.update(st.view(0))
    play(st, "guess row.2.2 5")  # wrong: white 6 is not a 5 (seat 1 shows black 7)
    play(st, "guess row.1.1 1")  # seat 2 draws black 3, guesses right...
    play(st, "stop")  # ...and stops: black 3 stands hidden between white 2 and white 6
    assert show(st, 2) == "w2 b3 w6 b9"
    excl = bot.update(st.view(0))
    assert excl[2] == [frozenset(), frozenset(), frozenset({5}), frozenset()]


def test_where_an_insertion_is_ambiguous_the_ruled_out_value_is_dropped() -> None:
    """If the new tile could stand on either side of a guessed one, no place keeps the exclusion (sound)."""
    old = [Seen("row.2.1", "white", None, False), Seen("row.2.2", "white", None, False)]
    new = [*old, Seen("row.2.3", "white", None, False)]
    maps = align(old, new)
    assert len(maps) == 3
    excl = exclusions_from({2: new}, [], old_rows={2: old}, old_excl={2: [frozenset({5}), frozenset()]})
    assert excl[2] == [frozenset(), frozenset(), frozenset()]


def test_where_the_log_says_the_new_tile_went_in_the_ruled_out_value_is_kept() -> None:
    """The table sees where a drawn tile goes in: the deducer repeated a guess shown wrong, having
    dropped it as ambiguous though the log named the new tile's place."""
    old = [Seen("row.2.1", "white", None, False), Seen("row.2.2", "white", None, False)]
    new = [*old, Seen("row.2.3", "white", None, False)]
    placed = parse_events(["Ana stops: the drawn tile goes in at row.2.3"], ["Bo", "Ana"])
    assert [(e.kind, e.actor, e.target) for e in placed] == [("placed", 2, (2, 3))]
    excl = exclusions_from({2: new}, placed, old_rows={2: old}, old_excl={2: [frozenset({5}), frozenset()]})
    assert excl[2] == [frozenset({5}), frozenset(), frozenset()]
    face_up = parse_events(["Ana's drawn tile goes in face up at row.2.1"], ["Bo", "Ana"])
    excl = exclusions_from({2: new}, face_up, old_rows={2: old}, old_excl={2: [frozenset({5}), frozenset()]})
    assert excl[2] == [frozenset(), frozenset({5}), frozenset()]


def test_the_deducer_does_not_repeat_a_guess_shown_wrong() -> None:
    # Seed 7: the deducer guessed row.1.2 = 1 (wrong), then again after the row grew at place 3.
    from davinci.engine.bots import apply_bot, bot_choice

    game = load_game("da-vinci-code")
    st = game.new_state(["Me", "Deducer 2"], seed=7)
    bot = DeducerBot(seed=derive_seed(7, 1001))
    wrong: set[str] = set()
    mine = ["guess row.2.1 1", "guess row.2.1 0", "stop"]
    for _ in range(12):
        if st.is_terminal():
            break
        seat = st.current_seats[0]
        if seat == 0:
            action = mine.pop(0) if mine else str(st.legal_actions(0)[0])
            st.apply(0, action)
            continue
        action = bot_choice(bot, "deducer", st, 1)
        assert str(action) not in wrong  # (no tile went in before row.1.2 meanwhile: the same tile)
        apply_bot(st, 1, "deducer", action)
        if str(action).startswith("guess "):
            target, value = str(action).split()[1:]
            if any(text == f"Deducer 2 guessed {target} = {value}: wrong" for _, text in st.events[-3:]):
                wrong.add(str(action))


def test_events_are_parsed_by_seat_name() -> None:
    names = ["Ana", "Ana B", "Bo"]
    events = parse_events(
        ["Ana B guessed row.1.2 = 7: wrong", "Ana: stop", "Bo guessed row.2.1 = joker: right", "Bo: reveal row.3.1"],
        names,
    )
    assert [(e.kind, e.actor, e.target, e.value) for e in events] == [
        ("wrong", 2, (1, 2), 7),
        ("stop", 1, None, None),
        ("right", 3, (2, 1), JOKER),
        ("reveal", 3, (3, 1), None),
    ]


# ---------------------------------------------------------------- counting


def _brute(row: list[Seen], unknown: set[tuple[int, str]]) -> dict[int, dict[int, int]]:
    hidden = [i for i, t in enumerate(row) if t.number is None]
    options = [[v for v in range(-1, 12) if (v, row[i].colour) in unknown] for i in hidden]
    out: dict[int, dict[int, int]] = {i: {} for i in hidden}
    for combo in itertools.product(*options):
        tiles = [(v, row[i].colour) for i, v in zip(hidden, combo)]
        if len(set(tiles)) < len(tiles):
            continue
        full = [t.number for t in row]
        for i, v in zip(hidden, combo):
            full[i] = v
        keys = [sort_key(v, row[i].colour) for i, v in enumerate(full) if v != JOKER and v is not None]
        if any(a >= b for a, b in zip(keys, keys[1:])):
            continue
        for i, v in zip(hidden, combo):
            out[i][v] = out[i].get(v, 0) + 1
    return out


@pytest.mark.parametrize(
    "pattern",
    ["b? w? b?", "b2 w? b? w9", "w? bj w? b?", "b? b? b? w5", "w? w? wj b?"],
)
def test_counting_agrees_with_enumerating_every_assignment(pattern: str) -> None:
    """The deducer's per-row counting equals brute-force enumeration (jokers included)."""
    row = []
    for i, tok in enumerate(pattern.split()):
        colour = "black" if tok[0] == "b" else "white"
        value = tok[1:]
        number = None if value == "?" else (JOKER if value == "j" else int(value))
        row.append(Seen(f"row.2.{i + 1}", colour, number, number is not None))
    unknown = {(n, c) for n in range(-1, 12) for c in ("black", "white")} - {
        (t.number, t.colour) for t in row if t.number is not None
    }
    total, per = row_counts(row, [frozenset()] * len(row), unknown)
    brute = _brute(row, unknown)
    for i, counts in brute.items():
        assert per[i] == counts
    assert total == sum(next(iter(brute.values())).values())


def test_the_true_value_always_stays_a_candidate_in_real_games() -> None:
    """Soundness: at every deducer decision in seeded games, each hidden tile's real value is a candidate."""
    checked = 0
    for variant, players, seed in [(None, 2, 1), (None, 3, 2), ("advanced", 4, 3), ("advanced", 2, 4), (None, 4, 5)]:
        g = load_game("da-vinci-code", variant)
        st = g.new_state(players, seed=seed)
        bots = [DeducerBot(seed=derive_seed(seed, i)) if i % 2 == 0 else RandomBot(seed=i) for i in range(players)]
        while not st.is_terminal():
            s = st.current_seats[0]
            view = st.view(s)
            action = bots[s].choose(view, st.legal_actions(s))
            if isinstance(bots[s], DeducerBot):
                excl = bots[s].tracker.memory[s + 1].excl
                truth = {t.ref: t.number for row in read_rows(st.view(None)).values() for t in row}
                for c in candidates(view, excl):
                    assert c.counts.get(truth[c.ref], 0) > 0, (variant, players, seed, c.ref)
                    checked += 1
            st.apply(s, action)
    assert checked > 100


def test_own_rows_are_followed_by_identity_even_when_a_joker_moves() -> None:
    """The viewer's own row is matched tile by tile, so placing its joker does not lose the deducer's memory."""

    def row(tokens: str) -> list[Seen]:
        out = []
        for i, tok in enumerate(tokens.split()):
            number = JOKER if tok[1:] == "j" else int(tok[1:])
            out.append(Seen(f"row.1.{i + 1}", "black" if tok[0] == "b" else "white", number, False))
        return out

    assert align(row("bj b1 w4 b9"), row("b1 w4 bj b9")) == [[1, 2, 0, 3]]
    assert align(row("b1 w4 b9"), row("bj b1 w4 b9")) == [[None, 0, 1, 2]]
    assert align(row("b1 w4"), row("b1 w5")) == []
