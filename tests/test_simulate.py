"""`davinci simulate`: streaming statistics, bounded percentiles, identical results for any --jobs."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from davinci.engine.errors import UsageError
from davinci.engine.simulate import (
    SimConfig,
    Tally,
    chunk_size,
    percentile,
    play_one,
    report_text,
    run,
    summarise,
)

TIMING_KEYS = {"elapsed_s", "playouts_per_s", "actions_per_s", "jobs", "processes"}


def _game(seat_bots: list[str], winners: list[int], actions: int, turns: int, reason: str = "won") -> dict[str, Any]:
    return {"index": 0, "seat_bots": seat_bots, "winners": winners, "actions": actions, "turns": turns, "reason": reason}


def _sorted_list_percentile(values: list[int], q: float) -> int:
    # Nearest rank: the smallest value with at least q*n values at or below it.
    xs = sorted(values)
    return next(x for x in xs if sum(1 for y in xs if y <= x) >= q * len(xs) - 1e-9)


def test_percentiles_are_by_nearest_rank() -> None:
    # p95 of 20 games was their maximum, and every p50 of an even count the upper middle value.
    lengths = [18, 20, 22, 23, 23, 23, 23, 24, 24, 25, 26, 26, 27, 28, 28, 28, 28, 30, 35, 37]
    tally = Tally(2)
    for n in lengths:
        tally.add(_game(["random", "random"], [0], n, n))
    assert (percentile(tally.actions, 0.5), percentile(tally.actions, 0.95)) == (25, 35)
    assert [percentile({v: 1 for v in range(1, 21)}, q) for q in (0.05, 0.5, 0.95, 1.0)] == [1, 10, 19, 20]


def test_the_seed_simulate_names_replays_the_same_game_in_play(tmp_path: Path) -> None:
    # Bots are reseeded before each decision in both: the game seed alone fixes the game.
    import json

    from click.testing import CliRunner

    from davinci.cli import main
    from davinci.engine.rng import derive_seed

    cfg = SimConfig("da-vinci-code", None, ("random", "naive"), 3, seed=7, settings={})
    for i in range(3):
        simulated = play_one(cfg, i)
        log = tmp_path / f"{i}.json"
        result = CliRunner().invoke(main, ["play", "da-vinci-code", "--players", "random,naive", "--seed",
                                           str(derive_seed(7, i)), "--log", str(log), "--no-clear"])
        assert result.exit_code == 0, result.output
        played = json.loads(log.read_text())
        assert len(played["actions"]) == simulated["actions"]
        assert played["result"]["winners"] == simulated["winners"]


@pytest.mark.parametrize("seed", range(5))
def test_histogram_percentiles_match_the_sorted_list_definition(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.randint(1, 40) for _ in range(rng.randint(1, 300))]
    tally = Tally(2)
    for v in values:
        tally.add(_game(["random", "random"], [0], v, v))
    for q in (0.0, 0.05, 0.5, 0.95, 0.999, 1.0):
        assert percentile(tally.actions, q) == _sorted_list_percentile(values, q)


def test_percentile_of_no_games_is_zero() -> None:
    assert percentile({}, 0.5) == 0


def test_the_tally_grows_with_distinct_lengths_not_with_games() -> None:
    tally = Tally(2)
    for i in range(20_000):
        tally.add(_game(["a", "b"], [i % 2], 10 + i % 7, 3 + i % 4))
    assert tally.games == 20_000
    assert len(tally.actions) == 7 and len(tally.turns) == 4


def test_merging_tallies_in_any_order_gives_the_same_report() -> None:
    rng = random.Random(7)
    games = [
        _game(["x", "y", "x"], rng.sample(range(3), rng.randint(0, 2)), rng.randint(5, 50), rng.randint(1, 9))
        for _ in range(200)
    ]
    cfg = SimConfig("g", None, ("x", "y", "x"), len(games), 0, {})
    whole = summarise(cfg, games, 1.0, 1)
    parts = [Tally(3) for _ in range(4)]
    for i, g in enumerate(games):
        parts[i % 4].add(g)
    for order in ([0, 1, 2, 3], [3, 1, 0, 2]):
        merged = Tally(3)
        for i in order:
            merged.merge(parts[i])
        assert summarise(cfg, merged, 1.0, 1) == whole


def test_a_shared_win_counts_one_over_the_number_of_winners() -> None:
    tally = Tally(3)
    tally.add(_game(["a", "b", "c"], [0, 1, 2], 10, 2))
    tally.add(_game(["a", "b", "c"], [0], 10, 2))
    tally.add(_game(["a", "b", "c"], [], 10, 2, "turn-limit"))
    report = summarise(SimConfig("g", None, ("a", "b", "c"), 3, 0, {}), tally, 1.0, 1)
    assert report["bot_wins"] == {"a": 1.333, "b": 0.333, "c": 0.333}
    assert report["wins"] == [2, 1, 1]
    assert report["draws"] == 1 and report["turn_limit_games"] == 1
    assert report["shared_wins"] == 1  # games with more than one winner


def test_the_text_report_says_when_every_seat_shares_the_win() -> None:
    # Every game won by all three seats: 100% for each seat, no draw; the text must say why.
    tally = Tally(3)
    for _ in range(4):
        tally.add(_game(["a", "b", "c"], [0, 1, 2], 3, 3))
    cfg = SimConfig("g", None, ("a", "b", "c"), 4, 0, {}, rotate=True)
    report = summarise(cfg, tally, 1.0, 1)
    assert report["win_rate"] == [1.0, 1.0, 1.0] and report["draws"] == 0 and report["shared_wins"] == 4
    text = "\n".join(report_text(report))
    assert "draws (no winner) / shared wins (several winners) / turn-limit games: 0 / 4 / 0" in text
    assert "seat win rates can add up to more than 100%" in text
    assert "bot win rates count 1/k of a win shared by k seats" in text
    alone = Tally(3)
    alone.add(_game(["a", "b", "c"], [1], 3, 3))
    text = "\n".join(report_text(summarise(cfg, alone, 1.0, 1)))
    assert "0 / 0 / 0" in text and "more than 100%" not in text  # no note when no win was shared


def test_the_seat_lines_stay_aligned_with_long_bot_names() -> None:
    names = ("random", "a-bot-with-a-long-name", "x")
    tally = Tally(3)
    tally.add(_game(list(names), [1], 3, 3))
    text = report_text(summarise(SimConfig("g", None, names, 1, 0, {}), tally, 1.0, 1))
    seat_lines = [line for line in text if line.startswith("  seat ") and " wins " in line and "advantage" not in line]
    assert len(seat_lines) == 3 and len({line.index(" wins ") for line in seat_lines}) == 1


def test_simulation_reports_are_identical_for_one_and_two_jobs() -> None:
    cfg = SimConfig("da-vinci-code", None, ("random", "naive"), 16, 42, {}, (), rotate=True)
    one = run(cfg, jobs=1)
    two = run(cfg, jobs=2)
    assert {k: v for k, v in one.items() if k not in TIMING_KEYS} == {
        k: v for k, v in two.items() if k not in TIMING_KEYS
    }
    assert one["games"] == 16 and sum(one["bot_win_rate"].values()) > 0


def test_the_report_agrees_with_the_games_played_one_by_one() -> None:
    cfg = SimConfig("da-vinci-code", "advanced", ("random", "random", "random"), 12, 3, {})
    games = [play_one(cfg, i) for i in range(cfg.games)]
    report = run(cfg, jobs=1)
    assert report["wins"] == [sum(1 for g in games if s in g["winners"]) for s in range(3)]
    assert report["mean_actions"] == round(sum(g["actions"] for g in games) / len(games), 2)
    assert report["actions_p95"] == _sorted_list_percentile([g["actions"] for g in games], 0.95)
    assert report["actions_max"] == max(g["actions"] for g in games)


def test_each_job_gets_many_small_chunks() -> None:
    assert chunk_size(100, 2) == 4
    assert chunk_size(100_000, 2) == 50
    assert chunk_size(1, 8) == 1


def test_unknown_bots_fail_before_any_game_is_played() -> None:
    with pytest.raises(UsageError, match="unknown bot"):
        run(SimConfig("da-vinci-code", None, ("random", "nobody"), 5, 0, {}))


TUTORIAL = str(Path(__file__).parent / "packs" / "tutorial")


def test_a_game_stopped_by_the_turn_limit_reports_the_turns_played() -> None:
    # Pig to 100,000 points never ends before its limit of 2,000 turns.
    cfg = SimConfig("pig", None, ("random", "random"), 2, 0, {"target": 100_000}, (TUTORIAL,))
    assert play_one(cfg, 0)["turns"] == 2000  # not 2001
    report = run(cfg)
    assert report["turn_limit_games"] == 2 and report["turns_p50"] == report["turns_p95"] == 2000
    # Said in words: a game whose end never comes ran for minutes and printed only a count.
    assert "  warning: every game stopped at the turn limit (end.max_turns), not by end.when" in "\n".join(report_text(report))


def test_a_failing_game_is_named_by_its_seed_and_seats(tmp_path: Path) -> None:
    import shutil

    from davinci.engine.errors import DavinciError

    pack = tmp_path / "tutorial"
    shutil.copytree(Path(__file__).parent / "packs" / "tutorial", pack)
    game = pack / "pig.yaml"
    game.write_text(game.read_text().replace("set: {pot: pot + die}", "set: {pot: pot + die // (die - die)}"))
    with pytest.raises(DavinciError) as info:
        run(SimConfig("pig", None, ("random", "random"), 3, 5, {}, (str(pack),)))
    assert "division by zero" in info.value.message
    assert info.value.message.startswith("in simulated game 0 (seed ")
    assert "seats random,random, after 0 actions): division by zero" in info.value.message


def test_a_game_its_settings_forbid_is_not_blamed_on_a_seed() -> None:
    # `requires` depends on the settings and the seats only: naming game 0's seed misled.
    from davinci.engine.errors import DavinciError

    with pytest.raises(DavinciError) as info:
        run(SimConfig("da-vinci-code", None, ("random", "random"), 3, 5, {"first_player": "4"}))
    assert info.value.code == "DV081"
    assert info.value.message == ("the game cannot start: first_player names a seat that is not at the table "
                                  "(with 2 players)")


def test_the_text_report_names_the_settings_changed() -> None:
    tally = Tally(2)
    tally.add(_game(["a", "b"], [0], 3, 3))
    plain = report_text(summarise(SimConfig("g", None, ("a", "b"), 1, 7, {}), tally, 1.0, 1))
    changed = report_text(summarise(SimConfig("g", None, ("a", "b"), 1, 7, {"target": "60", "bonus": "2"}),
                                    tally, 1.0, 1))
    assert plain[0] == "g: 1 game, seed 7"
    assert changed[0] == "g: 1 game, seed 7, bonus=2, target=60"
    flag = report_text(summarise(SimConfig("g", None, ("a", "b"), 1, 7, {"jokers": True}), tally, 1.0, 1))
    assert flag[0] == "g: 1 game, seed 7, jokers=true"  # as YAML writes it (was jokers=True)


@pytest.mark.parametrize(("sig", "jobs"), [("SIGTERM", "1"), ("SIGHUP", "1"), ("SIGHUP", "2")])
def test_sigterm_or_a_closed_terminal_report_the_games_played(sig: str, jobs: str) -> None:
    # With one job (the default) SIGTERM printed nothing at all, and SIGHUP nothing at any --jobs.
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "simulate", "da-vinci-code",
         "-n", "1000000", "-p", "random,random", "-j", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    time.sleep(3)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and out.startswith("interrupted after ") and err == "", (out, err)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigterm_stops_a_parallel_simulation_and_its_workers_quietly() -> None:
    # Found by a hostile tester: the parent died at once and its workers ran on for 20 s, then
    # printed BrokenPipeError tracebacks.
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "simulate", "da-vinci-code",
         "-n", "1000000", "-p", "random,random", "-j", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    time.sleep(3)
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    # The games played in those 3 s are reported (whole chunks of 50 games each).
    assert proc.returncode == 130 and out.startswith("interrupted after ") and err == ""
    time.sleep(0.5)
    for pid in children:
        assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read()


def test_the_seat_advantage_is_measured_only_where_seats_differ_by_place_alone() -> None:
    tally = Tally(2)
    for winner in [0] * 70 + [1] * 30:
        tally.add(_game(["random", "random"], [winner], 10, 5))
    same = summarise(SimConfig("g", None, ("random", "random"), 100, 0, {}), tally, 1.0, 1)
    adv = dict(same["seat_advantage"])
    lo, hi = adv.pop("interval")
    assert adv == {"seat": 1, "win_rate": 0.7, "average": 0.5, "points": 20.0, "clear": True, "confidence": 0.975}
    assert 0.5 < lo < 0.7 < hi  # the interval the verdict used leaves the average out
    # The verdict names the interval it used (wider than the 95% ones above it): a reader compared
    # the 95% interval with the average and found the verdict contradicting it.
    assert "  seat advantage: seat 1 wins 70.0%, +20.0 points over the seat average of 50.0% (outside its " \
           f"97.5% interval {lo:.1%}-{hi:.1%}, widened for 2 seats: an advantage)" in report_text(same)
    mixed = summarise(SimConfig("g", None, ("random", "naive"), 100, 0, {}), tally, 1.0, 1)
    assert mixed["seat_advantage"] is None
    assert any(line.startswith("  seat advantage: not measured") for line in report_text(mixed))


def test_a_rotated_bots_line_gives_its_share_of_the_games_and_per_seat() -> None:
    # Two random seats of three won 2 of 3 games: 66.7% of the games, 33.3% per seat it held.
    tally = Tally(3)
    for i, winner in enumerate([0, 1, 2]):
        bots = [["first", "random", "random"][(s + i) % 3] for s in range(3)]
        tally.add(_game(bots, [winner], 10, 5))
    report = summarise(SimConfig("g", None, ("first", "random", "random"), 3, 0, {}, rotate=True), tally, 1.0, 1)
    lines = report_text(report)
    assert "  bot random         won 66.7% of the games (seats rotated), 33.3% per seat it held (2 of 3 seats)" in lines
    assert report["bot_wins"] == {"first": 1.0, "random": 2.0}


def test_a_rotation_that_does_not_come_round_evenly_says_so() -> None:
    tally = Tally(3)
    for i in range(4):
        tally.add(_game([["a", "b", "c"][(s + i) % 3] for s in range(3)], [0], 10, 5))
    lines = report_text(summarise(SimConfig("g", None, ("a", "b", "c"), 4, 0, {}, rotate=True), tally, 1.0, 1))
    assert "  (rotation: 4 games is not a multiple of 3 seats: the first seat order was played once more)" in lines


def test_a_stopped_run_reports_the_games_it_played(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C after an hour of games threw every result away.
    import davinci.engine.simulate as sim

    real = sim._chunk
    calls = []

    def chunk(args: Any) -> Any:
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(args)

    monkeypatch.setattr(sim, "_chunk", chunk)
    cfg = SimConfig("da-vinci-code", None, ("random", "random"), 200, 1, {})
    report = run(cfg)
    assert report["interrupted"] is True and report["games"] == 2  # (one job plays a game at a time)
    assert report_text(report)[0] == "interrupted after 2 games: the figures are for those games"
    monkeypatch.setattr(sim, "_chunk", real)
    whole = run(SimConfig("da-vinci-code", None, ("random", "random"), 2, 1, {}))
    assert whole["wins"] == report["wins"] and "interrupted" not in whole  # the first games of the same run


def test_settings_are_reported_as_taken_and_a_table_where_everyone_always_wins_measures_no_advantage() -> None:
    # `-s jokers=yes` was reported as the text "yes"; greedy against itself (every game a win
    # shared by both seats) read "seat advantage: none, every seat wins 100.0%".
    report = run(SimConfig("da-vinci-code", None, ("random", "random"), 4, 1, {"jokers": "yes", "hand_small": "3"}))
    assert report["settings"] == {"jokers": True, "hand_small": 3}
    shared = run(SimConfig("leonardos-riddle", None, ("greedy", "greedy"), 3, 1, {}))
    assert shared["wins"] == [3, 3] and shared["seat_advantage"] is None
    assert "not measured (every game was a win shared by every seat" in "\n".join(report_text(shared))


def test_one_job_tallies_game_by_game() -> None:
    # A run of slow bots stopped during its first chunk (13 games) reported nothing: the games it
    # had finished were thrown away with the chunk.
    from davinci.engine.simulate import _iter_tallies

    cfg = SimConfig("da-vinci-code", None, ("random", "random"), 5, 3, {})
    assert [t.games for t in _iter_tallies(cfg, 1)] == [1, 1, 1, 1, 1]


def test_jobs_units_of_slow_games_are_small(monkeypatch: pytest.MonkeyPatch) -> None:
    # Units of up to 50 games each: with slow bots the bar sat at 0% and Ctrl-C reported nothing for
    # half a minute. The second game, played by the parent, sets the unit to about UNIT_SECONDS.
    import davinci.engine.simulate as sim

    cfg = sim.SimConfig("da-vinci-code", None, ("random", "random"), 100, 1, {})
    monkeypatch.setattr(sim, "UNIT_SECONDS", 1e9)  # as if every game were fast
    fast = [t.games for t in sim._iter_tallies(cfg, 2)]
    monkeypatch.setattr(sim, "UNIT_SECONDS", 1e-9)  # as if every game were slow
    slow = [t.games for t in sim._iter_tallies(cfg, 2)]
    assert fast == [1, 1] + [4] * 24 + [2]  # then units of chunk_size(98, 2) = 4
    assert slow == [1] * 100


def test_the_progress_bar_goes_to_standard_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bar was drawn on standard output, so a report redirected to a file began with its line.
    import sys

    from click.testing import CliRunner

    from davinci.cli import main

    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
        with pytest.raises(SystemExit) as done:
            main(["simulate", "da-vinci-code", "-n", "3", "-p", "random,random"], standalone_mode=True)
        assert done.value.code in (0, None)
        printed = out.getvalue().decode()
    assert printed.startswith("da-vinci-code: 3 games"), printed[:80]


def test_wins_are_counted_by_place_in_the_turn_order() -> None:
    # With the first player drawn, every seat won about 25% and "seat advantage: none clear", while
    # the last to play won 51%: the seats' figures cannot show the turn order's effect.
    tally = Tally(4)
    for i in range(100):
        first = i % 4
        tally.add({**_game(["random"] * 4, [(first + 1 + i % 3) % 4], 10, 5), "first": first})
    report = summarise(SimConfig("g", None, ("random",) * 4, 100, 0, {}), tally, 1.0, 1)
    assert not report["seat_advantage"]["clear"]
    order = report["turn_order"]
    assert order["wins"] == [0, 34, 33, 33] and order["games"] == 100
    assert order["first_seats"] == {"1": 25, "2": 25, "3": 25, "4": 25}
    assert order["farthest"]["place"] == 1 and order["farthest"]["clear"]  # never won: clearly behind
    lines = report_text(report)
    assert "  turn order: wins by place, the 1st to play first: 1st 0.0%, 2nd 34.0%, 3rd 33.0%, 4th 33.0% " \
           "(the first player varied)" in lines
    assert any(line.startswith("    the 1st to play wins 0.0%, -25.0 points under the place average of 25.0% (outside")
               and line.endswith(": a disadvantage)") for line in lines)
    # Different bots and always the same first seat: place and bot cannot be told apart.
    fixed = Tally(2)
    fixed.add({**_game(["random", "naive"], [0], 10, 5), "first": 0})
    assert summarise(SimConfig("g", None, ("random", "naive"), 1, 0, {}), fixed, 1.0, 1)["turn_order"] is None


def test_simulate_records_who_took_the_first_turn() -> None:
    from davinci.engine.simulate import play_one

    firsts = {play_one(SimConfig("da-vinci-code", None, ("random", "random"), 1, 5, {}), i)["first"] for i in range(12)}
    assert firsts == {0, 1}  # drawn by each game's seed
    fixed = SimConfig("da-vinci-code", None, ("random", "random"), 1, 5, {"first_player": 2})
    assert {play_one(fixed, i)["first"] for i in range(4)} == {1}


def test_the_text_rounds_intervals_once_and_says_when_rotating_changes_nothing() -> None:
    # "95% CI 9.4%-90.5%": the Wilson bound 9.453% was rounded to 0.0945 for the JSON, then again.
    tally = Tally(2)
    for winner in (0, 1):
        tally.add(_game(["deducer", "deducer"], [winner], 10, 5))
    report = summarise(SimConfig("g", None, ("deducer", "deducer"), 2, 0, {}, rotate=True), tally, 1.0, 1)
    lines = report_text(report)
    assert "(95% CI 9.5%-90.5%)" in lines[1] and "deducer" in lines[1]  # a seat's own bot: there is one
    assert "  (--rotate changes nothing here: every seat holds deducer)" in lines
    assert not any(line.startswith("  bot deducer") for line in lines)


def test_a_report_records_every_setting_in_effect_and_the_packs() -> None:
    # The JSON held only the --setting overrides: a variant's or game's defaults, and the pack
    # folders, were not in it, so a saved report could not be repeated.
    report = run(SimConfig("pig", None, ("random", "random"), 2, 0, {"target": 30}, (TUTORIAL,)))
    assert report["settings"] == {"target": 30}
    assert report["settings_in_effect"] == {"target": 30}  # pig's one setting
    default = run(SimConfig("da-vinci-code", "advanced", ("random", "random"), 1, 0, {}))
    assert default["settings"] == {} and default["settings_in_effect"]["jokers"] is True  # the variant's
    assert report["packs"] == [TUTORIAL]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ignored_by_a_background_run_is_ignored_with_any_jobs(jobs: str) -> None:
    # Started with `&` in a script (Ctrl-C ignored), a `--jobs 2` run stopped on SIGINT, a `--jobs 1`
    # run did not; both now go on, as the shell asked.
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "simulate", "da-vinci-code",
         "-n", "1500", "-p", "random,random", "-j", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and out.startswith("da-vinci-code: 1500 games"), (out, err)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_worker_that_dies_stops_the_run_instead_of_hanging_it() -> None:
    # `kill -9` of one worker (or the out-of-memory killer): the pool replaced it, the games it was
    # playing never came back, and the run waited forever at 1% CPU.
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", "from davinci.cli import main; main()", "simulate", "da-vinci-code",
         "-n", "100000", "-p", "random,random", "-j", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    time.sleep(3)
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert children, "no worker processes"
    os.kill(int(children[0]), signal.SIGKILL)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 1 and "DV072 a simulation worker process stopped (killed by signal 9" in err, err


SOLO = """\
kind: game
id: solo
name: Solo
players: {min: 1, max: 1}
seat_vars:
  points: 0
flow:
  turn:
    - choose:
        options:
          - action: score
            do: [{set: {seat: current, points: 7}}, {end_game: true}]
end:
  when: "false"
  winners: "seats"
  score: "seat.points"
"""


def test_a_solo_game_reports_its_score_and_no_seat_comparison(tmp_path: Path) -> None:
    # A solitaire ended "Game over. Winner: Player 1" without its score, and simulate said "every
    # game was a win shared by every seat" beside "shared wins 0", then a turn order of one place.
    import io

    from helpers import write_game_pack
    from rich.console import Console
    from test_play_io import typed

    from davinci.engine.game import load_game
    from davinci.engine.play import parse_seats, run_play

    pack = write_game_pack(tmp_path, "solo", SOLO)
    report = run(SimConfig("solo", None, ("random",), 3, 0, {}, (pack,), rotate=True))
    lines = report_text(report)
    assert "  seat advantage: not measured (one seat)" in lines and report["seat_advantage"] is None
    assert "  games not won / turn-limit games: 0 / 0" in lines and not any("rotate" in line for line in lines)
    assert not any("turn order" in line for line in lines)
    game = load_game("solo", packs=[pack])
    console = Console(file=io.StringIO(), width=100)
    run_play(game, parse_seats("human", game), 1, {}, console, typed(["score"]), clear=False, timer=False)
    assert "Score: 7" in console.file.getvalue()


def test_scores_are_summarised_per_seat_and_per_bot_and_agree_with_the_games() -> None:
    # A designer balancing a game needs its scores, not only who won: mean, median, spread.
    cfg = SimConfig("leonardos-riddle", None, ("random", "greedy"), 6, 5, {}, (), rotate=True)
    games = [play_one(cfg, i) for i in range(cfg.games)]
    report = run(cfg, jobs=1)
    for seat in range(2):
        values = [g["scores"][seat] for g in games]
        stats = report["scores"][seat]
        assert stats["mean"] == round(sum(values) / len(values), 2)
        assert (stats["min"], stats["max"]) == (min(values), max(values))
        assert stats["p50"] == _sorted_list_percentile(values, 0.5)
    greedy = [g["scores"][s] for g in games for s in range(2) if g["seat_bots"][s] == "greedy"]
    assert report["bot_scores"]["greedy"]["mean"] == round(sum(greedy) / len(greedy), 2)
    lines = report_text(report)
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("scores"))
    assert lines[header].split()[1:] == ["mean", "p50", "p5", "to", "p95", "min", "to", "max"]
    assert lines[header + 1].split()[:4] == ["seat", "1", "(any", "bot)"]
    assert any(line.split()[:2] == ["bot", "greedy"] for line in lines[header:])


def test_score_statistics_are_identical_for_one_and_two_jobs() -> None:
    cfg = SimConfig("da-vinci-code", None, ("random", "naive"), 12, 9, {}, (), rotate=True)
    assert run(cfg, jobs=1)["scores"] == run(cfg, jobs=2)["scores"]


def test_a_game_without_a_score_reports_none_and_prints_no_score_lines(tmp_path: Path) -> None:
    from helpers import write_game_pack

    pack = write_game_pack(tmp_path, "solo", SOLO.replace('  score: "seat.points"\n', ""))
    report = run(SimConfig("solo", None, ("random",), 2, 0, {}, (pack,)))
    assert report["scores"] is None and report["bot_scores"] is None
    assert not any(line.lstrip().startswith("scores") for line in report_text(report))


def test_a_lower_is_better_game_says_so_beside_its_scores(tmp_path: Path) -> None:
    from helpers import write_game_pack

    pack = write_game_pack(tmp_path, "solo", SOLO.replace('  score: "seat.points"\n',
                                                          '  score: "seat.points"\n  lower_is_better: true\n'))
    report = run(SimConfig("solo", None, ("random",), 2, 0, {}, (pack,)))
    assert report["lower_is_better"] is True
    assert report["scores"] == [{"mean": 7.0, "p5": 7, "p50": 7, "p95": 7, "min": 7, "max": 7}]
    assert any(line.lstrip().startswith("scores, lower is better") for line in report_text(report))


def test_the_report_says_how_many_processes_played_when_jobs_could_not_all_help(monkeypatch: pytest.MonkeyPatch) -> None:
    # `-j 64` on two games said "64 jobs" though every game was played in the one process.
    import davinci.engine.simulate as simulate

    few = run(SimConfig("da-vinci-code", None, ("random", "random"), 2, 0, {}), jobs=64)
    assert (few["jobs"], few["processes"]) == (64, 0)
    assert report_text(few)[-1].endswith("64 jobs asked: too few games to share, all played in this process)")
    monkeypatch.setattr(simulate, "cpu_count", lambda: 2)
    many = run(SimConfig("da-vinci-code", None, ("random", "random"), 12, 0, {}), jobs=8)
    assert (many["jobs"], many["processes"]) == (8, 2)
    assert report_text(many)[-1].endswith("8 jobs asked: 2 worker processes, one per CPU)")
    assert report_text({**many, "jobs": 2})[-1].endswith("2 jobs)")


def test_a_solitaire_seats_one_human_by_default_and_says_player_for_one(tmp_path: Path) -> None:
    # `davinci play golf` (and the menu) said "Golf takes exactly 1 players, got 2".
    from helpers import write_game_pack

    from davinci.engine.game import load_game
    from davinci.engine.play import parse_seats

    game = load_game("solo", packs=[write_game_pack(tmp_path, "solo", SOLO)])
    assert [s.kind for s in parse_seats(None, game)] == ["human"]
    with pytest.raises(UsageError, match=r"Solo takes exactly 1 player, got 2$"):
        parse_seats("human,random", game)
    with pytest.raises(UsageError, match=r"takes exactly 1 player, got 2"):
        game.new_state(2)


def test_a_pool_the_system_cannot_start_falls_back_to_one_process(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # Under a thread or memory limit the pool failed after forking its workers: an internal error,
    # workers left waiting forever, sometimes a hung parent.
    import multiprocessing.context

    def refuse(self: object, *args: object, **kw: object) -> None:
        raise RuntimeError("can't start new thread")

    cfg = SimConfig("da-vinci-code", None, ("random", "random"), 8, 3, {})
    alone = run(cfg, jobs=1)
    monkeypatch.setattr(multiprocessing.context.BaseContext, "Pool", refuse)
    report = run(cfg, jobs=2)
    assert {k: v for k, v in report.items() if k not in TIMING_KEYS} == {
        k: v for k, v in alone.items() if k not in TIMING_KEYS}
    assert report["processes"] == 0
    assert "could not start 2 worker processes (RuntimeError: can't start new thread)" in capsys.readouterr().err


def test_simulate_and_play_need_no_players_for_a_solitaire(tmp_path: Path) -> None:
    # `simulate` insisted on --players ("Missing option"), and `play` greeted a solitaire player
    # with "You play Player 1 against ;" and a hot-seat hint for two.
    import json

    from click.testing import CliRunner
    from helpers import write_game_pack

    from davinci.cli import main

    pack = write_game_pack(tmp_path, "solo", SOLO.replace('  score: "seat.points"\n',
                                                          '  score: "seat.points"\n  lower_is_better: true\n'))
    result = CliRunner().invoke(main, ["simulate", "solo", "--pack", pack, "-n", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["players"] == ["random"]
    result = CliRunner().invoke(main, ["play", "solo", "--pack", pack, "--seed", "1", "--no-clear"], input="score\n")
    said = " ".join(result.output.split())
    assert "A game for one: you play Player 1" in said and "against" not in said
    assert "Score: 7 (lower is better)" in said
    two = CliRunner().invoke(main, ["simulate", "da-vinci-code", "-n", "2", "--json"])
    assert json.loads(two.output)["players"] == ["deducer", "deducer"]  # the game's strongest bot, as play seats


def test_the_first_seat_is_the_one_that_took_the_first_turn_even_without_a_decision(tmp_path: Path) -> None:
    # Pig with turn_order.first 2: a 1 rolled at once ends that turn with no decision, and the next
    # seat was counted as the first to play (first_seats {1: 25, 2: 175}).
    import shutil

    pack = tmp_path / "fp"
    shutil.copytree(Path(__file__).parent / "packs" / "tutorial", pack)
    pig = pack / "pig.yaml"
    pig.write_text(pig.read_text(encoding="utf-8").replace("bots: [random]", "bots: [random]\nturn_order: {first: 2}"),
                   encoding="utf-8")
    report = run(SimConfig("pig", None, ("random", "random"), 60, 1, {}, (str(pack),)))
    assert report["turn_order"]["first_seats"] == {"2": 60}
    assert report["turn_order"]["win_rate"][0] == report["win_rate"][1]
