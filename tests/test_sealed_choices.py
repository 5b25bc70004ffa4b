"""Sealed choices: an option marked `private` is told to its seat alone, and `private_seat_vars` are
seen only by their own seat, so seats can bid without seeing each other's bids until the game's
YAML reveals them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_game_pack

from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

SEALED = """\
kind: game
id: sealed-bid
name: Sealed bid
description: Each round both players secretly bid 0 to 5 of their coins; the higher bid takes a point, both pay. Three points win.
players: {min: 2, max: 4}
seat_vars:
  coins: 12
  bid: 0
  points: 0
private_seat_vars: [bid]
turn_order: {first: "1"}
vars:
  round: 0
flow:
  turn:
    - choose:
        prompt: "Your sealed bid ({current.coins} coins)"
        options:
          - action: bid
            private: true
            args: {n: "range(0, min([5, current.coins]) + 1)"}
            do:
              - set: {seat: current, bid: n}
  turn_end:
    - if: "current.index == players"
      then:
        - set: {round: round + 1}
        - log: "Round {round}: bids {seats select bid}"
        - for_each:
            in: "seats where bid == max(seats select bid) and len(seats where bid == max(seats select bid)) == 1"
            as: w
            do:
              - set: {seat: w, points: w.points + 1}
        - for_each:
            in: seats
            as: s
            do:
              - set: {seat: s, coins: s.coins - s.bid}
end:
  when: "any(seats select points >= 3) or round >= 12"
  winners: "seats where points == max(seats select points)"
  score: "seat.points"
"""


@pytest.fixture()
def pack(tmp_path: Path) -> str:
    return write_game_pack(tmp_path, "sealed-bid", SEALED)


def test_a_sealed_bid_is_seen_by_its_seat_alone_until_revealed(pack: str) -> None:
    st = load_game("sealed-bid", packs=[pack]).new_state(2, seed=2)
    st.apply(0, "bid 4")
    mine, theirs = st.view(0), st.view(1)
    assert mine["seats"][0]["vars"]["bid"] == 4 and "bid" not in theirs["seats"][0]["vars"]
    assert theirs["seats"][1]["vars"]["bid"] == 0  # a seat sees its own
    assert "Player 1: bid 4" in mine["events"] and "Player 1 has chosen" not in mine["events"]  # one line each
    assert "Player 1 has chosen" in theirs["events"] and not any("bid 4" in e for e in theirs["events"])
    assert st.view(None)["seats"][0]["vars"]["bid"] == 4  # the all-seeing view of tests and replays
    assert st.is_private("bid 3") and str(st.history[-1][1]) == "bid 4"  # the save keeps every move
    st.apply(1, "bid 2")
    assert "Round 1: bids 4, 2" in st.view(1)["events"]  # the game's own log line reveals them


def test_a_bot_watching_a_human_bid_does_not_see_it_on_screen(pack: str, tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from davinci.engine.play import parse_seats, run_play

    game = load_game("sealed-bid", packs=[pack])
    console = Console(file=io.StringIO(), width=100)
    answers = iter(["bid 1"] * 40)
    run_play(game, parse_seats("random,human", game), 2, {}, console, lambda p: next(answers), clear=False, timer=False)
    out = console.file.getvalue()
    assert "Random 1 has chosen" in out and "Random 1: bid" not in out


def test_a_public_log_naming_a_private_argument_is_a_lint_warning(tmp_path: Path) -> None:
    told = SEALED.replace("              - set: {seat: current, bid: n}\n",
                          "              - set: {seat: current, bid: n}\n              - log: \"{current.name} bids {n}\"\n")
    assert told != SEALED
    problems = lint_paths([write_game_pack(tmp_path, "sealed-bid", told)])
    assert [(p.code, p.severity, p.location.line) for p in problems] == [("DV059", "warning", 24)]
    # Told to the seat alone, or in a mapping with `to:`, it is fine.
    quiet = told.replace('- log: "{current.name} bids {n}"', "- log: {text: 'You bid {n}', to: current}")
    assert lint_paths([write_game_pack(tmp_path / "quiet", "sealed-bid", quiet)]) == []


def test_a_public_log_naming_a_local_set_from_a_private_argument_is_a_lint_warning(tmp_path: Path) -> None:
    # The argument passed on through a local name (and a second one) is told all the same.
    told = SEALED.replace("              - set: {seat: current, bid: n}\n",
                          "              - set: {seat: current, bid: n}\n              - set: {twice: n * 2}\n"
                          "              - set: {shown: twice + 1}\n"
                          "              - log: \"{current.name} wrote {shown}\"\n")
    assert told != SEALED
    problems = lint_paths([write_game_pack(tmp_path, "sealed-bid", told)])
    assert [(p.code, p.location.line, p.message) for p in problems] == [
        ("DV059", 26, "this log line is public and names 'shown', set from 'n', an argument of a private option: "
                      "every seat reads it (add `to:`, or log it when all have chosen)")]
    # A local that does not come from an argument may be told.
    apart = told.replace("{shown: twice + 1}", "{shown: 1}")
    assert [p.name for p in lint_paths([write_game_pack(tmp_path / "apart", "sealed-bid", apart)])] == [
        "unread-local"]  # 'twice', now read by nothing


def test_a_private_seat_variable_must_be_declared(tmp_path: Path) -> None:
    bad = SEALED.replace("private_seat_vars: [bid]", "private_seat_vars: [bids]")
    problems = lint_paths([write_game_pack(tmp_path, "sealed-bid", bad)])
    assert [(p.code, p.message) for p in problems if p.severity == "error"] == [
        ("DV050", "'bids' is not a seat variable (did you mean 'bid'?)")]


ALL_BID_IN_ONE_TURN = """\
kind: game
id: one-turn-bids
name: Every seat bids within one turn
players: {min: 2, max: 4}
seat_vars: {bid: 0, points: 0}
private_seat_vars: [bid]
vars: {round: 1}
turn_order: {first: "1"}
flow:
  turn:
    - for_each:
        in: seats
        as: s
        do:
          - choose:
              seat: s
              options:
                - action: bid
                  private: true
                  args: {n: "range(0, 10)"}
                  do:
                    - set: {seat: s, bid: n}
    - log: "The bids: {seats select bid}"
    - set: {round: round + 1}
end:
  when: "round > 2"
  winners: "seats where bid == max(seats select bid)"
"""


def test_a_sealed_choice_made_earlier_in_the_turn_is_not_in_the_movers_locals(tmp_path: Path) -> None:
    # Found by a tester: the choice's argument stayed in the turn's locals, which the view shows
    # to the seat whose turn it is, so that seat's bot read an earlier seat's bid.
    game = load_game("one-turn-bids", packs=[write_game_pack(tmp_path, "one-turn-bids", ALL_BID_IN_ONE_TURN)])
    st = game.new_state(3, seed=1)
    st.apply(0, "bid 7")
    st.apply(1, "bid 3")
    assert st.current_seats == [2] and st.current == 0  # seat 1's turn; seat 3 bids now
    for seat in (None, 0, 1, 2):
        assert "n" not in st.view(seat)["locals"]
    assert not any("bid 7" in e or "bid 3" in e for e in st.view(2)["events"])


def test_a_name_a_sealed_option_sets_is_as_private_as_its_argument(tmp_path: Path) -> None:
    # `set: {copy: n}` inside the option put the bid into the turn's locals, which the view shows
    # to the seat whose turn it is (seat 1, while seat 2 bids in its turn).
    copied = ALL_BID_IN_ONE_TURN.replace("                    - set: {seat: s, bid: n}\n",
                                         "                    - set: {seat: s, bid: n}\n"
                                         "                    - set: {copy: n + 0}\n")
    assert copied != ALL_BID_IN_ONE_TURN
    game = load_game("one-turn-bids", packs=[write_game_pack(tmp_path, "one-turn-bids", copied)])
    st = game.new_state(3, seed=1)
    st.apply(1 if st.current_seats == [1] else 0, "bid 7")
    st.apply(st.current_seats[0], "bid 3")
    for seat in (None, 0, 1, 2):
        assert "copy" not in st.view(seat)["locals"]


def test_a_public_variable_set_from_a_sealed_choice_is_a_lint_warning(tmp_path: Path) -> None:
    told = ALL_BID_IN_ONE_TURN.replace("seat_vars: {bid: 0, points: 0}", "seat_vars: {bid: 0, points: 0, shown: 0}")
    told = told.replace("                    - set: {seat: s, bid: n}\n",
                        "                    - set: {seat: s, bid: n}\n                    - set: {seat: s, shown: n}\n")
    problems = lint_paths([write_game_pack(tmp_path, "one-turn-bids", told)])
    assert [(p.code, p.location.line) for p in problems] == [("DV059", 23)]
    assert "'shown' is a variable every seat sees: setting it from 'n'" in problems[0].message


def test_a_turn_variable_set_in_a_sealed_option_stays_a_turn_variable(tmp_path: Path) -> None:
    # Set from the argument, it was hidden from every view for the whole game (and lint still
    # warned that every seat sees it): a declared variable is the author's to keep public.
    told = ALL_BID_IN_ONE_TURN.replace("vars: {round: 1}", "vars: {round: 1}\nturn_vars: {top: 0}")
    told = told.replace("                    - set: {seat: s, bid: n}\n",
                        "                    - set: {seat: s, bid: n}\n                    - set: {top: n}\n")
    problems = lint_paths([write_game_pack(tmp_path, "one-turn-bids", told)])
    assert [p.code for p in problems] == ["DV059"] and "'top' is a variable every seat sees" in problems[0].message
    st = load_game("one-turn-bids", packs=[write_game_pack(tmp_path, "one-turn-bids", told)]).new_state(3, seed=1)
    st.apply(st.current_seats[0], "bid 7")
    assert st.view(None)["locals"].get("top") == 7


def test_a_name_inside_a_text_is_not_a_use_of_the_private_argument(tmp_path: Path) -> None:
    quiet = ALL_BID_IN_ONE_TURN.replace("vars: {round: 1}", "vars: {round: 1, note: 0}")
    quiet = quiet.replace("                    - set: {seat: s, bid: n}\n",
                          "                    - set: {seat: s, bid: n}\n                    - set: {note: \"len('n')\"}\n")
    assert [p.code for p in lint_paths([write_game_pack(tmp_path, "one-turn-bids", quiet)])] == []


HOLE = """\
kind: game
id: hole
name: Hole card
players: {min: 1, max: 2}
components:
  card: {fields: {rank: int}, product: {rank: {from: 1, to: 13}}}
zones:
  shoe: {kind: deck, visibility: hidden, contents: [card]}
  dealer: {kind: hand, visibility: public}
vars: {over: false}
flow:
  setup:
    - shuffle: shoe
    - draw: {from: shoe, to: dealer, face_up: false, as: hole}
    - log: "The dealer's hole card is a {hole.rank}"
  turn:
    - choose:
        options:
          - action: stand
            do: [{set: {over: true}}]
end:
  when: over
  winners: seats
"""


def test_a_public_line_naming_a_face_down_piece_is_a_warning_unless_revealed_first(tmp_path: Path) -> None:
    # The dealer's hole card showed `?` on the screen, while the log printed its rank to all.
    from helpers import write_game_pack

    from davinci.engine.lint.runner import lint_paths

    problems = lint_paths([write_game_pack(tmp_path / "a", "hole", HOLE)])
    assert [(p.code, p.location.line) for p in problems] == [("DV059", 15)]
    assert "this line names 'hole', a piece drawn or moved face down" in problems[0].message
    revealed = HOLE.replace("    - log:", "    - reveal: hole\n    - log:")
    assert lint_paths([write_game_pack(tmp_path / "b", "hole", revealed)]) == []
    told = HOLE.replace("    - log: \"The dealer's hole card is a {hole.rank}\"",
                        "    - log: {text: \"The hole card is a {hole.rank}\", to: current}")
    assert lint_paths([write_game_pack(tmp_path / "c", "hole", told)]) == []
    # Lines that show nothing hidden: the place (`{hole}`), a piece turned face up by a move, a
    # loop's own piece of the same name; and hidden again by `hide`, or moved face down by name.
    quiet = {
        "place": ("{hole.rank}", "{hole}"),
        "face up": ("    - log:", "    - move: {piece: hole, to: dealer, face_up: true}\n    - log:"),
        "loop": ('    - log: "The dealer\'s hole card is a {hole.rank}"',
                 '    - for_each: {in: "dealer where revealed", as: hole, do: [{log: "open {hole.rank}"}]}'),
    }
    for n, (old_text, new_text) in enumerate(quiet.values()):
        assert lint_paths([write_game_pack(tmp_path / f"q{n}", "hole", HOLE.replace(old_text, new_text))]) == []
    hidden = HOLE.replace("    - log:", "    - reveal: hole\n    - hide: hole\n    - log:")
    assert [p.code for p in lint_paths([write_game_pack(tmp_path / "h", "hole", hidden)])] == ["DV059"]
    moved = HOLE.replace("face_up: false, as: hole}", "as: hole}\n    - move: {piece: hole, to: dealer, face_up: false}")
    assert [p.code for p in lint_paths([write_game_pack(tmp_path / "m", "hole", moved)])] == ["DV059"]
