"""Saving and restoring states as JSON, refusing anything edited, truncated or foreign."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from davinci.engine.definition import plain_settings, seat_range
from davinci.engine.errors import SaveError, json_shown, quoted
from davinci.engine.rng import Rng
from davinci.engine.values import from_json, to_json

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.game import Game
    from davinci.engine.state import State

FORMAT = 1


def _body(st: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat_names": list(st.seat_names),
        "active": list(st.active),
        "current": st.current,
        "turn": st.turn,
        "seat_vars": [{k: to_json(v) for k, v in sv.items()} for sv in st.seat_vars],
        "vars": {k: to_json(v) for k, v in st.vars.items()},
        "locals": {k: to_json(v) for k, v in st.locals.items()},
        "stack": [[f[0], f[1], {k: to_json(v) for k, v in f[2].items()}] if len(f) > 2 else [f[0], f[1]]
                  for f in st.stack],
        "pending": to_json_pending(st.pending),
        "zones": {k: list(v) for k, v in st.zones.items()},
        "pos": [[p, list(w) if isinstance(w, tuple) else w] for p, w in sorted(st.pos.items())],
        "revealed": sorted(st.revealed),
        "rng": st.rng.state,
        "history": [[s, a] for s, a in st.history],
        "events": [[to, t] for to, t in st.events],
        "phase": st.phase,
        "terminal": st.terminal,
        "reason": st.reason,
        "turn_trails": [[p, list(t)] for p, t in sorted(st.turn_trail.items())],
        "turn_start": st.turn_start,
    }
    if st.face_down:  # only games that turn pieces face down write it: older saves stay as they were
        out["face_down"] = sorted(st.face_down)
    if st.dirty:  # zones still to check against their capacity (several went over in one step)
        out["dirty"] = sorted(st.dirty)
    return out


def to_json_pending(p: dict[str, Any] | None) -> Any:
    return None if p is None else json.loads(json.dumps(p))


def checksum(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:24]


def state_to_json(st: State) -> dict[str, Any]:
    """The whole state as JSON-able data, with the game, variant, settings and content hash."""
    body = _body(st)
    return {
        "format": FORMAT,
        "game": st.game.id,
        "variant": st.game.variant,
        "settings": plain_settings(st.game.settings),
        "content_hash": st.game.content_hash,
        "state": body,
        "checksum": checksum(body),
    }


# What a content hash that differs from the recorded one means, for saves and logs alike.
CHANGED_SINCE = ("the game's files, its variant or a content pack it was played with (a deck overlay...) changed "
                 "since, or the file's settings were edited")


def newer_format(doc: Mapping[str, Any], key: str, known: int, what: str, path: str = "") -> None:
    """SaveError when `doc[key]` is a format number above `known`: a file a newer davinci wrote is
    said to be so, not called no davinci file at all."""
    number = doc.get(key)
    if type(number) is int and number > known:
        where = f"{path}: " if path else ""
        raise SaveError(f"{where}this {what} was written by a newer davinci (format {number}); this version reads "
                        f"format {known}: update davinci to read it")


def state_from_json(game: Game, data: Mapping[str, Any]) -> State:
    """Rebuild a state; SaveError naming the problem when the data does not fit this game."""
    from davinci.engine.state import State

    if isinstance(data, (str, bytes)):
        raise SaveError("state_from_json takes the dict State.to_json() returned (json.loads the text first)")
    if isinstance(data, Mapping):
        newer_format(data, "format", FORMAT, "save's state")
        if type(data.get("format")) is int and data["format"] < FORMAT:
            raise SaveError(f"not a davinci save: its format is {data['format']}, and every davinci save is format "
                            f"{FORMAT} or later (was the file edited?)")
    if not isinstance(data, Mapping) or data.get("format") != FORMAT or type(data.get("format")) is not int or not isinstance(data.get("state"), dict):
        raise SaveError("not a davinci save (missing format/state)")
    if data.get("game") != game.id:
        said = f"game '{quoted(str(data['game']), 80)}'" if isinstance(data.get("game"), str) else "no game"
        raise SaveError(f"this save is for {said}, not '{game.id}'")
    if data.get("variant") != game.variant:
        def named(v: Any) -> str:
            return f"variant '{quoted(str(v), 80)}'" if v is not None else "the base game"
        raise SaveError(f"this save is for {named(data.get('variant'))}, not {named(game.variant)}")
    if data.get("content_hash") != game.content_hash:
        raise SaveError(
            "this save was made with other game content or settings "
            f"(hash {data.get('content_hash')}, now {game.content_hash}): {CHANGED_SINCE}"
        )
    body = data["state"]
    if data.get("checksum") != checksum(body):
        raise SaveError("the save's checksum does not match: the file was edited or damaged")
    g = game.definition
    try:
        st = State(g)
        st.seat_names = [str(x) for x in body["seat_names"]]
        st.active = [bool(x) for x in body["active"]]
        st.current = int(body["current"])
        st.turn = int(body["turn"])
        st.seat_vars = [{k: from_json(v) for k, v in sv.items()} for sv in body["seat_vars"]]
        st.vars = {k: from_json(v) for k, v in body["vars"].items()}
        st.locals = {k: from_json(v) for k, v in body["locals"].items()}
        st.stack = [[str(f[0]), int(f[1]), {str(k): from_json(v) for k, v in f[2].items()}] if len(f) > 2
                    else [str(f[0]), int(f[1])] for f in body["stack"]]
        st.pending = body["pending"]
        st.zones = {k: [int(p) for p in v] for k, v in body["zones"].items()}
        st.zone_of = [""] * len(g.pieces)
        for k, pids in st.zones.items():
            for p in pids:
                st.zone_of[p] = k
        st.pos = {int(p): (tuple(w) if isinstance(w, list) else w) for p, w in body["pos"]}
        st.revealed = {int(p) for p in body["revealed"]}
        st.face_down = {int(p) for p in body.get("face_down", ())}
        st.dirty = {str(k) for k in body.get("dirty", ()) if str(k) in st.zones}
        st.rng = Rng(int(body["rng"]))
        st._history = [(int(s), str(a)) for s, a in body["history"]]
        st.events = [(None if to is None else int(to), str(t)) for to, t in body["events"]]
        st.phase = str(body["phase"])
        st.terminal = bool(body["terminal"])
        st.reason = str(body["reason"])
        if "turn_trails" in body:
            st.turn_trail = {int(p): [str(x) for x in t] for p, t in body["turn_trails"]}
        else:  # a save from before trails were per piece: its one trail applies to every piece
            old = [str(x) for x in body.get("turn_trail", [])]
            st.turn_trail = {-1: old} if old else {}
        st.turn_start = int(body.get("turn_start", 0))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        raise SaveError(f"the save is damaged: {_damage(e)}") from None
    if sorted(p for v in st.zones.values() for p in v) != list(range(len(g.pieces))):
        raise SaveError("the save is damaged: pieces are missing or duplicated")
    for frame in st.stack:
        if frame[0] not in g.programs:
            raise SaveError(f"the save refers to an unknown flow '{frame[0]}'")
        if not 0 <= frame[1] <= len(g.programs[frame[0]].code):
            raise SaveError(f"the save is damaged: flow '{frame[0]}' has no step {frame[1]}")
    _check_shape(st)
    _check_vars(st)
    _probe(st)
    return st


def _damage(e: BaseException) -> str:
    """What a Python error met while reading a save says of the file, in a player's words."""
    detail = quoted(str(e), 120)
    if isinstance(e, KeyError):
        return f"an entry it needs is missing ({detail})"
    if isinstance(e, IndexError):
        return f"a number in it points past the end of a list ({detail})"
    return f"a value in it is of the wrong kind ({detail})"


def _check_vars(st: State) -> None:
    """Refuse a save whose variables are not the game's: one missing, one the game does not have,
    or a number, flag or text of another kind (the first rule to read it failed mid-move)."""
    from davinci.engine.expr.types import BOOL, INT, STR

    g = st.game
    kinds = {INT: (int, "a whole number"), BOOL: (bool, "true or false"), STR: (str, "a text")}
    # (whose: how a variable of the table is named in a message; kind: for "the game has no ...")
    tables = [("the game variable", "game variable", st.vars, g.global_vars, True)]
    tables += [(f"seat {i + 1}'s variable", "seat variable", sv, g.seat_vars, True) for i, sv in enumerate(st.seat_vars)]
    tables.append(("the turn variable", "turn variable", st.locals, g.turn_vars, False))
    for whose, kind, values, declared, complete in tables:
        if complete:
            missing = sorted(set(declared) - set(values))
            if missing:
                raise SaveError(f"the save is damaged: {whose} '{missing[0]}' is missing")
            extra = sorted(set(values) - set(declared))
            if extra:
                raise SaveError(f"the save is damaged: the game has no {kind} '{quoted(str(extra[0]), 80)}'")
        for name, var in declared.items():
            want = kinds.get(var.type)
            if name in values and want is not None and var.initial is not None and values[name].__class__ is not want[0]:
                raise SaveError(f"the save is damaged: {whose} '{name}' is {json_shown(values[name])}, not {want[1]}")


_PENDING_TYPES = ("choose", "respond", "overflow", "position")


def _probe(st: State) -> None:
    """Refuse a state the engine cannot go on from: one nobody can act in though the game is not
    over, or one whose decision, variables or seat names break the first question asked of it.

    A position built by hand (a test setting up a rare situation) may be loaded, so the state is
    not required to follow from its moves; it must only be one the engine can play on. Any
    failure here is the file's, named as such, not an internal error later in someone's loop."""
    from davinci.engine.errors import DavinciError, seat_names_problem

    problem = seat_names_problem(st.seat_names)
    if problem is not None:
        raise SaveError(f"the save is damaged: {problem}")
    p = st.pending
    if not st.terminal:
        if not isinstance(p, dict) or p.get("type") not in _PENDING_TYPES:
            raise SaveError("the save is damaged: the game is not over, but no decision is waiting")
        n = len(st.seat_names)
        listed = p.get("seats") or ()
        if not isinstance(listed, (list, tuple)):
            raise SaveError("the save is damaged: its decision's seats are not a list")
        named = [p.get("seat")] if "seat" in p else list(listed)
        if any(seat.__class__ is not int or not 0 <= seat < n for seat in named):
            raise SaveError("the save is damaged: its decision names a seat that is not at the table")
        if not any(st.active):
            raise SaveError("the save is damaged: the game is not over, but every seat is out")
        if p["type"] == "choose" and not st.stack:
            raise SaveError("the save is damaged: a choice is waiting outside the flow")
    try:
        seats = st.current_seats
        if not st.terminal and not seats:
            raise SaveError("the save is damaged: the game is not over, but nobody is to act")
        for seat in seats:
            if len(st.legal_actions(seat)) == 0 and st.pending and st.pending.get("type") == "choose":
                raise SaveError(f"the save is damaged: seat {seat + 1} must decide, but has nothing to choose from")
        for seat in (None, *range(len(st.seat_names))):
            st.view(seat)
        if seats:
            # The first move, tried on a copy: a variable or position of the wrong kind breaks the
            # step that reads it. The game's own rules failing there is not the file's doing.
            broke: BaseException | None = None
            for action in itertools.islice(st.legal_actions(seats[0]), 20):
                trial = st.clone()
                try:
                    trial.apply(seats[0], action)
                    broke = None
                    break
                except DavinciError as e:
                    # A step given a value of the wrong kind may be the file's doing (an edited
                    # variable) or the game's own (a rule that fails on one option): the save is
                    # damaged only when no move the position offers goes through.
                    if isinstance(e.__cause__, (TypeError, AttributeError, KeyError, IndexError, ValueError)):
                        broke = broke or e.__cause__
                    else:
                        broke = None
                        break
            if broke is not None:
                raise SaveError(f"the save is damaged: {_damage(broke)}") from None
    except SaveError:
        raise
    except DavinciError as e:
        raise SaveError(f"the save is damaged: {e.message}") from None
    except Exception as e:  # noqa: BLE001 - a forged state's failure is the file's, not an internal error
        raise SaveError(f"the save is damaged: {_damage(e)}") from None
    finally:
        st._legal = None


def _check_shape(st: State) -> None:
    """Refuse a state whose seat lists disagree or that names seats, zones or pieces that do not exist.

    The checksum guards against accidents only (anyone can recompute it), and the play loop
    would spin forever on, say, a current seat that is not at the table.
    """
    g = st.game
    n = len(st.seat_names)
    if not g.min_players <= n <= g.max_players:
        raise SaveError(f"the save is damaged: {n} seats, the game takes {seat_range(g.min_players, g.max_players)}")
    if len(st.active) != n or len(st.seat_vars) != n:
        raise SaveError("the save is damaged: its seat lists have different lengths")
    if not 0 <= st.current < n or any(not 0 <= seat < n for seat, _ in st.history):
        raise SaveError("the save is damaged: it names a seat that is not at the table")
    if not 0 <= st.turn_start <= st.action_count:
        raise SaveError("the save is damaged: its turn begins outside its history")
    from davinci.engine.state import SUPPLY

    known = {SUPPLY}
    for z in g.zones.values():
        known.update([f"{z.name}#{i}" for i in range(n)] if z.per_seat else [z.name])
    unknown = sorted(set(st.zones) - known)
    if unknown:
        raise SaveError(f"the save is damaged: unknown zone '{unknown[0]}'")
    if any(not 0 <= p < len(g.pieces) for p in [*st.pos, *st.revealed, *st.face_down, *(t for t in st.turn_trail if t != -1)]):
        raise SaveError("the save is damaged: it names a piece that does not exist")
