"""Replaying game logs, and verifying that a log reproduces its recorded result."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from davinci.engine.errors import (
    DavinciError,
    IllegalAction,
    ReplayMismatch,
    SaveError,
    UsageError,
    message_text,
    printable,
    quoted,
)
from davinci.engine.serial import CHANGED_SINCE, newer_format
from davinci.engine.values import action_line, sees


def _show_new_events(st: Any, before: int, action_line: str, echo: Callable[[str], Any]) -> None:
    """The public log lines added since `st.logged` was `before`, indented (the line that
    repeats the action itself left out; lines for one seat alone are never shown)."""
    new = st.logged - before
    kept = st.events[-new:] if new > 0 else []
    if new > len(st.events):
        echo(f"        ({new - len(st.events)} earlier log lines of this action not kept)")
    for to, line in kept:
        if sees(to, None) and line != action_line:
            echo(f"        {printable(line, one_line=True)}")


class LogRead(NamedTuple):
    """A log read and checked: its document, the game it was made with (loaded), its seats'
    names, seed and actions as (seat index, text)."""

    doc: dict[str, Any]
    game: Any
    names: list[str]
    seed: int
    actions: list[tuple[int, str]]


def read_log(path: str, packs: Sequence[str]) -> LogRead:
    """Read the log at `path` and load the game it was made with; SaveError naming any problem
    (a damaged file, a game or pack this installation lacks, other content than it was made with).
    Without `packs`, the content packs the log recorded are loaded."""
    from davinci.engine.play import (
        check_recorded_fields,
        load_recorded_game,
        missing_pack_blamed,
        read_json_file,
        read_pack_record,
        recorded_pack_paths,
    )

    doc = read_json_file(path, "log")
    newer_format(doc, "davinci_log", 1, "log", path)
    if doc.get("davinci_log") != 1 or type(doc.get("davinci_log")) is not int:
        hint = " (it is a save: `davinci play --resume` reads it)" if doc.get("davinci_save") == 1 else ""
        raise SaveError(f"{path}: not a davinci log (no 'davinci_log': 1){hint}")
    # The same rules as for saves: "5" or 5.5 is not a seed, a seat is a whole number.
    check_recorded_fields(doc, path, "log")
    game_id, variant = doc.get("game"), doc.get("variant")
    if not isinstance(game_id, str) or not isinstance(variant, (str, type(None))):
        raise SaveError(f"{path}: the log is damaged (it does not name its game and variant as text)")
    settings = dict(doc.get("settings_override", {}))
    seed: int = doc["seed"]
    names = [s["name"] for s in doc["seats"]]
    raw_actions = doc.get("actions")
    if not isinstance(raw_actions, list) or not all(
        isinstance(x, list) and len(x) == 2 and type(x[0]) is int and isinstance(x[1], str) for x in raw_actions
    ):
        raise SaveError(f"{path}: the log is damaged (its actions must be [seat number, text] pairs)")
    actions: list[tuple[int, str]] = [(s, a) for s, a in raw_actions]
    skipped: list[str] = []  # a recorded pack found nowhere, which the game seemed not to need
    if not packs:
        packs = recorded_pack_paths(read_pack_record(doc, path, "log"), path, "log", game_id, variant, skipped)
    # A game, variant or setting this installation lacks is a problem of the log, not of usage.
    game = load_recorded_game(game_id, variant, settings, packs, path, "logged game")
    if doc.get("content_hash") != game.content_hash:
        # (a recorded pack found nowhere is the likelier cause: then it is named)
        raise missing_pack_blamed(SaveError(
            f"{path}: the log was made with other game content or settings (hash {doc.get('content_hash')}, "
            f"now {game.content_hash}): {CHANGED_SINCE}; replaying it could diverge"
        ), skipped)
    return LogRead(doc, game, names, seed, actions)


def replay_log(
    path: str, verify: bool, packs: Sequence[str], echo: Callable[[str], Any], events: bool = False
) -> int:
    """Replay the log at `path`; with `verify`, compare the final result with the logged one;
    with `events`, show the public log lines (rolls, reveals, results) under each action.

    Without `packs`, the content packs the log recorded are loaded (a log written before packs
    were recorded has none).
    """
    doc, game, names, seed, actions = read_log(path, packs)
    if verify and doc.get("failure") is not None and doc.get("result") is not None:
        raise ReplayMismatch(f"{path}: the log records both a result and a failure of the rules: it is damaged")
    try:
        st = game.new_state(names, seed=seed)
    except UsageError as e:
        raise SaveError(f"{path}: the log's seats cannot start this game: {e.message}") from None
    except DavinciError as e:  # the game's own setup fails (as it did when played, the log may record)
        if _failed_as_logged(doc, "setup", 0, e):
            if verify:
                return _failure_verified(echo, 0, "the setup fails", e)
            echo("the game's rules fail in its setup, as the log records:")
            echo(message_text(str(e)))
            return 1
        raise _failed_otherwise(f"{path}: the game's setup fails: {e}", doc, verify) from None
    if events:
        _show_new_events(st, 0, "", echo)
    for i, (seat, text) in enumerate(actions, 1):
        shown = quoted(text)
        if not 0 <= seat < len(names):
            raise SaveError(f"{path}: action {i} ('{shown}') is by seat index {seat}, but the log has {len(names)} "
                            f"seats (its actions number them from 0: 0 to {len(names) - 1}; messages say seat 1 for 0)")
        before = st.logged
        try:
            st.apply(seat, text)
        except IllegalAction as e:
            raise ReplayMismatch(f"{path}: action {i} ('{shown}' by seat {seat + 1}) diverges: {e.message}") from None
        except DavinciError as e:  # the game's own rules fail on this action (as they did in play)
            # The action, and what its steps logged before they failed (an author's debugging
            # lines are there), then the failure.
            echo(f"{i:>4}. {action_line(names[seat], text)}")
            if events:
                _show_new_events(st, before, action_line(names[seat], text), echo)
            if verify and i == len(actions) and _failed_as_logged(doc, "action", i, e):
                return _failure_verified(echo, i, f"action {i} fails", e)
            if not verify and i == len(actions) and _failed_as_logged(doc, "action", i, e):
                # The game failed here when it was played, and the log says so: a faithful replay
                # (exit 1: the game's rules failed), not a log that differs from its game (DV071).
                echo(f"the game's rules fail at action {i}, as the log records:")
                echo(message_text(str(e)))
                return 1
            if verify and i < len(actions) and _failed_as_logged(doc, "action", i, e):
                raise ReplayMismatch(f"{path}: the rules fail at action {i}, as the log records, but the log goes on "
                                     f"with {_actions(len(actions) - i)} after it: it is damaged") from None
            raise _failed_otherwise(f"{path}: action {i} ('{shown}' by seat {seat + 1}) fails: {e}", doc, verify) from None
        echo(f"{i:>4}. {action_line(names[seat], text)}")
        if events:
            _show_new_events(st, before, action_line(names[seat], st.history[-1][1]), echo)
    try:
        result = st.result() if st.is_terminal() else None
    except DavinciError as e:
        if verify and _failed_as_logged(doc, "result", len(actions), e):
            return _failure_verified(echo, len(actions), "working out the result", e)
        raise _failed_otherwise(f"{path}: working out the result after the last action fails: {e}", doc, verify) from None
    if verify:
        failure = doc.get("failure")
        if failure is not None:
            said = quoted(json.dumps(failure), 120)
            raise ReplayMismatch(f"{path}: the log records that the game's rules failed ({said}), but the replay does not fail")
        logged = doc.get("result")
        if not result_as_logged(logged, result):
            raise ReplayMismatch(f"{path}: {_difference(result, logged, names)}")
        if result is None:
            echo(f"verified: {_replay(len(actions))}; the game is unfinished, as logged")
        else:
            echo(f"verified: {_replay(len(actions))} to the logged result ({_ending(result, names)})")
    elif result is not None:
        echo(f"result: {_ending(result, names)}")
    return 0


def _failure_verified(echo: Callable[[str], Any], count: int, where: str, e: DavinciError) -> int:
    """Say that the replay of `count` actions failed as the log records (`where`: how), and how; 0."""
    echo(f"verified: {_replay(count)} to the failure the log recorded ({where}):")
    echo(message_text(str(e)))
    return 0


def _failed_otherwise(message: str, doc: dict[str, Any], verify: bool) -> ReplayMismatch:
    """The replay's failure; with `verify`, a note under it saying what the log records of one."""
    mismatch = ReplayMismatch(message)
    if verify:
        failure = doc.get("failure")
        mismatch.add_note("(the log records no failure)" if failure is None
                          else f"(the log records the failure {quoted(json.dumps(failure), 120)})")
    return mismatch


def _failed_as_logged(doc: dict[str, Any], where: str, action: int, e: DavinciError) -> bool:
    """Whether the log records that the game's rules failed here (`where` is "action" or
    "result", after `action` actions) with the code of `e`."""
    return same_json(doc.get("failure"), {"where": where, "action": action, "code": e.code})


def result_as_logged(logged: Any, result: Any) -> bool:
    """Whether the replay's `result` is the one the log recorded (as JSON values; an older log's
    turn-limit count too)."""
    return same_json(logged, result) or _old_turn_limit_count(logged, result)


def _old_turn_limit_count(logged: Any, result: Any) -> bool:
    """True when `logged` is `result` as earlier versions of davinci recorded it in logs.

    A game stopped by its turn limit used to report one turn more than it played (the turn
    that starts past the limit and ends the game at once); such a log still verifies.
    """
    if not isinstance(logged, dict) or not isinstance(result, dict) or result.get("reason") != "turn-limit":
        return False
    return same_json(logged, {**result, "turns": result["turns"] + 1})


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: `false` is not `0`, nor `1` the same as `1.0` or `"1"`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _difference(result: Any, logged: Any, names: list[str]) -> str:
    """How the replayed result differs from the logged one, naming the fields when the words agree."""
    said, recorded = _ending(result, names), _ending(logged, names)
    if said != recorded:
        return f"the replay ends {said}, but the log recorded {recorded}"
    if isinstance(result, dict) and isinstance(logged, dict):
        fields = sorted(k for k in result.keys() | logged.keys() if not same_json(result.get(k), logged.get(k)))
        shown = "; ".join(f"{k}: replay {_short(result.get(k))}, log {_short(logged.get(k))}" for k in fields[:3])
        return f"the replay ends {said} as logged, but the result's {', '.join(fields)} differ ({shown})"
    return f"the replay ends {said}, but the log recorded the result {_short(logged)}"


def _short(value: Any) -> str:
    return quoted(json.dumps(value))


def _ending(result: Any, names: list[str]) -> str:
    """A result in words: `unfinished`, `with no winner (turn-limit)`, `won by Ana, Ben (end)`."""
    if result is None:
        return "unfinished"
    if not isinstance(result, dict):
        return f"with a damaged result ({quoted(json.dumps(result), 80)})"  # `[]`, `"won"`: no result's shape
    listed = result.get("winners")
    if not isinstance(listed, list) or not all(type(w) is int and 0 <= w < len(names) for w in listed):
        return f"with a damaged result ({quoted(str(result), 80)})"  # "0" is no list of seats, nor -1 a seat
    winners = [names[w] for w in listed]
    who = f"won by {', '.join(winners)}" if winners else "with no winner"
    return f"{who} ({quoted(str(result.get('reason', '?')), 40)}, {quoted(str(result.get('turns', '?')), 20)} turns)"


def _replay(n: int) -> str:
    """`3 actions replay`, `1 action replays`."""
    return f"{_actions(n)} replay{'s' if n == 1 else ''}"


def _actions(n: int) -> str:
    return f"{n} action{'' if n == 1 else 's'}"
