"""Replaying game logs, and verifying that a log reproduces its recorded result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from davinci.engine.errors import (
    DavinciError,
    ReplayMismatch,
    SaveError,
    UsageError,
    quoted,
    seat_name_problem,
)


def replay_log(path: str, verify: bool, packs: Sequence[str], echo: Callable[[str], Any]) -> int:
    """Replay the log at `path`; with `verify`, compare the final result with the logged one.

    Without `packs`, the content packs the log recorded are loaded (a log written before packs
    were recorded has none).
    """
    from davinci.engine.play import load_recorded_game, read_json_file, read_pack_record, recorded_pack_paths

    doc = read_json_file(path, "log")
    if doc.get("davinci_log") != 1:
        raise SaveError(f"{path}: not a davinci log (no 'davinci_log': 1)")
    try:
        game_id = str(doc["game"])
        variant = doc.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise TypeError("'variant' must be text")
        settings = dict(doc.get("settings_override") or {})
        seed = int(doc["seed"])
        names = [str(s["name"]) for s in doc["seats"]]
        actions = [(int(s), str(a)) for s, a in doc["actions"]]
    except (KeyError, TypeError, ValueError) as e:
        raise SaveError(f"{path}: the log is damaged ({type(e).__name__}: {e})") from None
    for name in names:
        problem = seat_name_problem(name)
        if problem is not None:  # each move is printed with its seat's name
            raise SaveError(f"{path}: the log's seat name {problem}")
    if not packs:
        packs = recorded_pack_paths(read_pack_record(doc, path, "log"), path, "log")
    # A game, variant or setting this installation lacks is a problem of the log, not of usage.
    game = load_recorded_game(game_id, variant, settings, packs, path, "logged game")
    if doc.get("content_hash") != game.content_hash:
        raise SaveError(
            f"{path}: the log was made with other game content (hash {doc.get('content_hash')}, "
            f"installed {game.content_hash}); replaying it could diverge"
        )
    try:
        st = game.new_state(names, seed=seed)
    except UsageError as e:
        raise SaveError(f"{path}: the log's seats cannot start this game: {e.message}") from None
    for i, (seat, text) in enumerate(actions, 1):
        shown = quoted(text)
        try:
            st.apply(seat, text)
        except DavinciError as e:
            raise ReplayMismatch(f"{path}: action {i} ('{shown}' by seat {seat + 1}) diverges: {e.message}") from None
        echo(f"{i:>4}. {names[seat]}: {text}")
    result = st.result() if st.is_terminal() else None
    if verify:
        logged = doc.get("result")
        if logged != result and not _old_turn_limit_count(logged, result):
            raise ReplayMismatch(
                f"{path}: the replay ends {_ending(result, names)}, but the log recorded {_ending(logged, names)}"
            )
        if result is None:
            echo(f"verified: {len(actions)} actions replay; the game is unfinished, as logged")
        else:
            echo(f"verified: {len(actions)} actions replay to the logged result ({_ending(result, names)})")
    elif result is not None:
        echo(f"result: winners {[names[w] for w in result['winners']]}")
    return 0


def _old_turn_limit_count(logged: Any, result: Any) -> bool:
    """True when `logged` is `result` as earlier versions of davinci recorded it in logs.

    A game stopped by its turn limit used to report one turn more than it played (the turn
    that starts past the limit and ends the game at once); such a log still verifies.
    """
    if not isinstance(logged, dict) or not isinstance(result, dict) or result.get("reason") != "turn-limit":
        return False
    return logged == {**result, "turns": result["turns"] + 1}


def _ending(result: Any, names: list[str]) -> str:
    """A result in words: `unfinished`, `with no winner (turn-limit)`, `won by Ana, Ben (end)`."""
    if not isinstance(result, dict):
        return "unfinished"
    try:
        winners = [names[int(w)] for w in result.get("winners") or ()]
    except (TypeError, ValueError, IndexError):
        return f"with a damaged result ({str(result)[:80]})"
    who = f"won by {', '.join(winners)}" if winners else "with no winner"
    return f"{who} ({result.get('reason', '?')}, {result.get('turns', '?')} turns)"
