"""The Python API refuses odd inputs with a DavinciError that says what it takes, never a bare
TypeError or AttributeError, and checks the number of seats before building anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from davinci.engine.errors import IllegalAction, UsageError
from davinci.engine.game import load_game


@pytest.mark.parametrize(("players", "seed", "words"), [
    (10**100, 0, "takes 2-4 players, got 1000"),  # the seat names were built first: out of memory
    ("ab", 0, "players must be a number of seats or a list of seat names, got str"),  # seated 'a' and 'b'
    (1.5, 0, "got float"),
    ([1, 2], 0, "seat names must be text"),
    (2, "x", "the seed must be a whole number, got str"),
    (2, 1.7, "the seed must be a whole number, got float"),  # was truncated to 1
    (2, None, "got NoneType"),
    # Seeds equal modulo 2**64 played the same game.
    (2, -1, r"from 0 to 2\*\*64 - 1, got -1"),
    (2, 2**64, "got 18446744073709551616"),
])
def test_new_state_refuses_what_it_cannot_seat(players: Any, seed: Any, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        load_game("da-vinci-code").new_state(players, seed=seed)


@pytest.mark.parametrize(("names", "words"), [
    (["Ana", "ana"], "two seats are named 'ana'"), (["", "Ben"], "a seat name is empty"),
    (["  ", "Ben"], "a seat name is empty"),
])
def test_seat_names_are_checked_as_on_the_command_line(names: list[str], words: str) -> None:
    with pytest.raises(UsageError, match=words):
        load_game("da-vinci-code").new_state(names, seed=1)


def test_the_seed_range_ends_at_two_to_the_64() -> None:
    game = load_game("da-vinci-code")
    assert game.new_state(2, seed=2**64 - 1).to_json() != game.new_state(2, seed=0).to_json()
    with pytest.raises(UsageError, match="got a number of 16610 bits"):  # too long to print as digits
        game.new_state(2, seed=10**5000)


@pytest.mark.parametrize(("seat", "action"), [("0", "ok"), (None, "ok"), (1.0, "ok"), (0, None), (0, 123), (0, b"guess")])
def test_apply_refuses_what_is_not_a_seat_and_an_action(seat: Any, action: Any) -> None:
    st = load_game("da-vinci-code").new_state(2, seed=1)
    if action == "ok":
        action = st.legal_actions()[0]
    with pytest.raises(IllegalAction, match="apply takes a seat number and an action"):
        st.apply(seat, action)


def test_result_is_for_a_finished_game() -> None:
    # It gave every seat as a winner, with no reason, while the game went on.
    st = load_game("da-vinci-code").new_state(2, seed=1)
    with pytest.raises(IllegalAction, match="the game is not over"):
        st.result()


@pytest.mark.parametrize("name", ["Ann\u202ex", "Ann\u200b", "Ann\u2028Bo", "\u3164", "Ann\u2800"])
def test_a_seat_name_may_not_hide_or_turn_text_around(name: str) -> None:
    # A right-to-left override (U+202E) printed on every screen turns the rest of the line around.
    with pytest.raises(UsageError, match="holds an invisible or direction-changing character") as e:
        load_game("da-vinci-code").new_state([name, "Bo"], seed=1)
    assert name not in e.value.message  # shown escaped


def test_a_seat_name_must_show_a_letter() -> None:
    # A name of two combining accents read "Pass the keyboard to " with nothing after it.
    with pytest.raises(UsageError, match="shows no letter"):
        load_game("da-vinci-code").new_state(["\u0301\u0301", "Bo"], seed=1)
    assert load_game("da-vinci-code").new_state(["Zoe\u0301", "\u05e9\u05dc\u05d5\u05dd"], seed=1)


def _forged(change: Any) -> dict[str, Any]:
    from davinci.engine.serial import checksum

    st = load_game("da-vinci-code").new_state(2, seed=1)
    st.apply(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])
    data = json.loads(json.dumps(st.to_json()))
    change(data["state"])
    data["checksum"] = checksum(data["state"])  # anyone can recompute it
    return data


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s.update(pending=None), "no decision is waiting"),
    (lambda s: s["pending"].update(seat=99), "names a seat that is not at the table"),
    (lambda s: s["pending"].update(seat="x"), "names a seat that is not at the table"),
    (lambda s: s["pending"].update(at=["turn", 999]), "the save is damaged"),
    (lambda s: s.update(stack=[]), "a choice is waiting outside the flow"),
    (lambda s: s.update(active=[False, False]), "every seat is out"),
    (lambda s: s["seat_names"].__setitem__(0, "\x1b[2J"), "holds a control character"),
    (lambda s: s["vars"].update({"probe": {"$p": 10**9}}), "the save is damaged"),
], ids=["no pending", "seat 99", "seat text", "bad step", "empty stack", "all out", "escape name", "bad ref"])
def test_a_hand_edited_state_the_engine_cannot_play_on_is_refused_when_loaded(change: Any, words: str) -> None:
    # Accepted before, each failed later with a bare IndexError, KeyError or TypeError, or left a
    # game nobody could act in.
    from davinci.engine.errors import SaveError

    with pytest.raises(SaveError, match=words):
        load_game("da-vinci-code").state_from_json(_forged(change))


def test_packs_is_a_list_of_folders_or_none() -> None:
    assert load_game("da-vinci-code", packs=None).definition.id == "da-vinci-code"
    with pytest.raises(UsageError, match=r"packs is a list of pack folders, got the single path 'abc': write packs=\['abc'\]"):
        load_game("da-vinci-code", packs="abc")  # read as the folders 'a', 'b' and 'c'


@pytest.mark.parametrize("settings", ["jokers=true", 5, ["jokers", True]])
def test_settings_is_a_mapping(settings: Any) -> None:
    # A text or a list raised a bare ValueError or TypeError.
    with pytest.raises(UsageError, match="settings must be a mapping of setting names to values"):
        load_game("da-vinci-code", settings=settings)


@pytest.mark.parametrize("seat", [9, -1, True, "1"])
def test_is_legal_refuses_a_seat_that_is_not_at_the_table(seat: Any) -> None:
    # It answered False, where legal_actions and apply raise NoSuchSeat.
    from davinci.engine.errors import NoSuchSeat

    st = load_game("da-vinci-code").new_state(2, seed=1)
    with pytest.raises(NoSuchSeat):
        st.is_legal(seat, "stop")
    assert st.is_legal(st.current_seats[0], st.legal_actions(st.current_seats[0])[0])


def test_a_game_for_one_number_of_seats_says_exactly(tmp_path: Any) -> None:
    # It said "takes 2-2 players".
    from helpers import STOP_AT_ONCE, write_game_pack

    pack = write_game_pack(tmp_path, "duel", "kind: game\nid: duel\nname: Duel\nplayers: {min: 2, max: 2}\nflow:\n"
                                             "  setup: []\n" + STOP_AT_ONCE)
    with pytest.raises(UsageError, match="Duel takes exactly 2 players, got 3"):
        load_game("duel", packs=[pack]).new_state(3, seed=0)


def test_in_legal_takes_an_action_or_its_text() -> None:
    # `"stop" in legal` was False while stop was legal: a bot that asked so never stopped.
    from davinci.engine.legal import Choices

    g = load_game("da-vinci-code")
    st = g.new_state(2, seed=0)
    while "stop" not in st.legal_actions(st.current_seats[0]).verbs():
        seat = st.current_seats[0]
        st.apply(seat, st.legal_actions(seat)[0])
    legal = st.legal_actions(st.current_seats[0])
    assert "stop" in legal and "stop" in Choices(legal) and " stop " in legal
    assert str(legal[0]) in legal and "guess row.9.9 7" not in legal and "sto" not in legal


def test_state_from_json_says_what_it_was_given() -> None:
    from davinci.engine.errors import SaveError

    g = load_game("da-vinci-code")
    saved = g.new_state(2, seed=1).to_json()
    with pytest.raises(SaveError, match=r"takes the dict State.to_json\(\) returned \(json.loads the text first\)"):
        g.state_from_json(json.dumps(saved))  # type: ignore[arg-type]
    with pytest.raises(SaveError, match="this save is for the base game, not variant 'advanced'"):
        load_game("da-vinci-code", variant="advanced").state_from_json(saved)
    with pytest.raises(SaveError, match="this save is for no game, not 'da-vinci-code'"):
        g.state_from_json({k: v for k, v in saved.items() if k != "game"})


def test_a_pass_with_values_is_refused_during_a_challenge() -> None:
    # `is_legal` said yes to 'pass extra words' (while `in legal_actions` said no), and any values,
    # of any type, went into the history, saves and logs.
    from davinci.engine.actions import Action
    from davinci.engine.errors import IllegalAction

    game = load_game("da-vinci-game")
    state = game.new_state(3, seed=0)
    while (state.view(state.current_seats[0]).get("pending") or {}).get("type") != "respond":
        seat = state.current_seats[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.current_seats[0]
    assert state.is_legal(seat, "pass") and not state.is_legal(seat, "pass extra words")
    for bad in ("pass extra words", Action("pass", (1, None, ["x"]))):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            state.apply(seat, bad)


def test_changing_a_returned_or_given_settings_value_changes_no_game() -> None:
    # Editing to_json()'s awards list changed the rules of every later game in the process
    # (load_game caches games), and so did the caller's own list given as a setting.
    game = load_game("da-vinci-game")
    saved = game.new_state(3, seed=0).to_json()
    saved["settings"]["awards"][0] = 0
    game.settings["awards"] = [9]
    assert load_game("da-vinci-game").new_state(3, seed=0).to_json()["settings"]["awards"] == [3, 2, 1, 1, 1]
    mine = {"awards": [5, 4]}
    chosen = load_game("da-vinci-game", settings=mine)
    mine["awards"].append(7)
    assert chosen.settings["awards"] == [5, 4]
    # The JSON form reads back as it was written: lists, not tuples.
    assert json.loads(json.dumps(saved["settings"])) == {**saved["settings"], "awards": [0, 2, 1, 1, 1]}
    assert load_game("da-vinci-game", settings=chosen.settings).settings == chosen.settings  # a tuple is a list too


@pytest.mark.parametrize(("call", "words"), [
    (lambda: load_game(None), "a game is named by its id, a text such as 'my-game', got NoneType"),
    (lambda: load_game(5), "got int"),
    (lambda: load_game("da-vinci-code", variant=5), "variant must be a variant's id .* got int"),
])
def test_load_game_refuses_arguments_of_the_wrong_type(call: Any, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        call()


def test_make_bot_and_the_random_source_refuse_what_they_cannot_do() -> None:
    from davinci.engine.bots import make_bot
    from davinci.engine.rng import Rng

    with pytest.raises(UsageError, match="a bot is named by text"):
        make_bot(None, 1)  # type: ignore[arg-type]
    rng = Rng(1)
    for bad, words in [(lambda: rng.below(0), "needs n >= 1, got 0"), (lambda: rng.randint(5, 1), "lo <= hi"),
                       (lambda: rng.choice([]), "empty sequence")]:
        with pytest.raises(ValueError, match=words):
            bad()
    assert rng.below(1) == 0 and 1 <= rng.randint(1, 6) <= 6


def test_in_legal_reads_the_verb_in_any_case_as_apply_does() -> None:
    state = load_game("da-vinci-code").new_state(2, seed=3)
    seat = state.current_seats[0]
    legal = state.legal_actions(seat)
    text = str(legal[0])
    shouted = text.split()[0].upper() + text[len(text.split()[0]):]
    assert shouted in legal and state.is_legal(seat, shouted)


def test_history_is_a_copy_so_changing_it_changes_no_state() -> None:
    game = load_game("da-vinci-code")
    state = game.new_state(2, seed=3)
    for _ in range(4):
        seat = state.current_seats[0]
        state.apply(seat, state.legal_actions(seat)[0])
    moves = state.history
    assert isinstance(moves, tuple) and len(moves) == 4
    list(moves).clear()
    assert game.state_from_json(state.to_json()).history == moves


def test_an_edited_pack_file_is_read_again_and_the_cache_is_bounded(tmp_path: Any, monkeypatch: Any) -> None:
    # load_game kept the game built before the edit (keyed by the folder as typed), and every
    # settings combination ever loaded for as long as the process ran.
    import shutil
    from pathlib import Path

    import davinci.engine.game as game_module

    pack = tmp_path / "pk"
    shutil.copytree(Path(__file__).parent / "packs" / "from-docs", pack)
    monkeypatch.chdir(tmp_path)
    assert load_game("nim", packs=["pk"]).settings["max_take"] == 3
    nim = pack / "nim.yaml"
    nim.write_text(nim.read_text(encoding="utf-8").replace("max_take: {type: int, default: 3",
                                                           "max_take: {type: int, default: 5"), encoding="utf-8")
    assert load_game("nim", packs=["pk"]).settings["max_take"] == 5
    assert load_game("nim", packs=["./pk"]) is load_game("nim", packs=[str(pack)])
    monkeypatch.setattr(game_module, "CACHED_GAMES", 3)
    for tokens in range(10, 16):
        load_game("nim", settings={"tokens": tokens}, packs=["pk"])
    assert len(game_module._CACHE) == 3
    game_module.clear_cache()
    assert not game_module._CACHE


@pytest.mark.parametrize(("game_id", "change", "words"), [
    ("leonardos-riddle", lambda s: s["vars"].clear(), "the game variable 'turns_left' is missing"),
    ("leonardos-riddle", lambda s: s["vars"].update(extra=1), "the game has no game variable 'extra'"),
    ("da-vinci-game", lambda s: s["seat_vars"][0].update(ready=[1]), "seat 1's variable 'ready' is \\[1\\], not true"),
    ("leonardos-riddle", lambda s: s["vars"].update(turns_left="3"), "'turns_left' is \"3\", not a whole number"),
    ("da-vinci-code", lambda s: s["locals"].update(correct=True), "the turn variable 'correct' is true, not a whole"),
    ("da-vinci-game", lambda s: s["seat_vars"][1].pop("ready"), "seat 2's variable 'ready' is missing"),
])
def test_a_save_whose_variables_are_not_the_games_is_refused(game_id: str, change: Any, words: str) -> None:
    # A state without its declared variable loaded, and the next move failed half-way with an
    # error at the game's YAML, leaving a state nobody could act in.
    from davinci.engine.errors import SaveError
    from davinci.engine.serial import checksum

    game = load_game(game_id)
    data = json.loads(json.dumps(game.new_state(3, seed=2).to_json()))
    change(data["state"])
    data["checksum"] = checksum(data["state"])
    with pytest.raises(SaveError, match=words):
        game.state_from_json(data)


def test_a_state_whose_rules_failed_says_so_at_the_next_apply(tmp_path: Path) -> None:
    # After a DV042 in the flow, apply said "it is not Player 1's decision (waiting for )".
    from helpers import write_game_pack

    from davinci.engine.errors import EvalError

    game = """kind: game
id: fails
name: Fails
players: {min: 2, max: 2}
vars: {n: 0}
flow:
  turn:
    - choose:
        options:
          - action: inc
            do:
              - set: {n: "n + 1"}
    - set: {n: "1 // (2 - n)"}
end:
  when: "false"
  winners: "seats"
"""
    st = load_game("fails", packs=[write_game_pack(tmp_path, "fails", game)]).new_state(2, seed=1)
    seat = st.current_seats[0]
    st.apply(seat, "inc")
    seat = st.current_seats[0]
    with pytest.raises(EvalError):
        st.apply(seat, "inc")
    assert st.current_seats == [] and not st.is_terminal()
    with pytest.raises(IllegalAction, match="the game's rules failed after action 2"):
        st.apply(seat, "inc")
