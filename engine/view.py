"""Views: exactly what one seat may see, as JSON-able data.

Bots and front ends get views, never the state. A piece's field is shown when the piece is
revealed, or its zone is public (and the field not secret), or its zone is owner-only and the
viewer owns it, or the field is declared `public` on its component (colours on tile backs). A
piece turned face down (`hide`, `face_up: false`) shows only its public fields in any zone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from davinci.engine.steps.core import render_value
from davinci.engine.values import PieceV, decode, sees

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.state import State


DEFAULT_PROMPTS = {
    "position": "Choose the place of your free piece in the row (it never moves afterwards)",
    "overflow": "Too many pieces: choose one to return",
    "respond": "Answer the challenge",
}


def piece_view(
    state: State, pid: int, seat: int | None, zone_vis: str, owner: int | None, ref: str | None = None
) -> dict[str, Any]:
    g = state.game
    revealed = pid in state.revealed
    sees_all = revealed or seat is None or (
        pid not in state.face_down and ((zone_vis == "owner" and owner == seat) or zone_vis == "public"
                                        or (zone_vis == "others" and owner is not None and owner != seat))
    )
    key = (pid, revealed, sees_all, seat is None)
    shown = g.view_cache.get(key) or _piece_fields(state, key)
    out = {"ref": ref if ref is not None else state.piece_label(pid), **shown}
    lists = g.view_lists.get(key)
    if lists:
        _own_lists(out, lists)
    return out


def _own_lists(piece: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Give a piece's view lists of its own for `fields`, in place of the cache's tuples: a bot
    may change its view, never the cached fields nor the definition's values they share."""
    for f in fields:
        piece[f] = list(piece[f])


def _settings(g: Any) -> dict[str, Any]:
    """The game's settings as a view holds them: a copy at every depth, so that a bot changing
    its view's `settings.awards` changes no rule (list and map settings are read by the rules)."""
    text = g.view_settings
    if text is None:
        plain = all(v.__class__ in _PLAIN_TYPES for v in g.settings.values())
        text = g.view_settings = "" if plain else json.dumps(g.settings)
    return json.loads(text) if text else dict(g.settings)


def _piece_fields(state: State, key: tuple[int, bool, bool, bool]) -> dict[str, Any]:
    """What a piece view shows besides its ref, for `key` = (piece, revealed, sees all, spectator):
    the same for every view in the same situation, so it is kept in the game's view cache."""
    pid, revealed, sees_all, spectator = key
    g = state.game
    pdef = g.pieces[pid]
    comp = g.components[pdef.component]
    out: dict[str, Any] = {"kind": pdef.component}
    hidden = False
    for f, v in pdef.attrs.items():
        if f in comp.secret and not revealed and not spectator:
            continue
        if sees_all or f in comp.public:
            if isinstance(v, (list, tuple)):  # kept immutable here; each view gets its own list
                v = tuple(v)
                g.view_lists[key] = (*g.view_lists.get(key, ()), f)
            out[f] = v
        else:
            hidden = True
    if comp.label is not None and comp.label in out:  # the field that names the piece, when shown
        out["name"] = render_value(out[comp.label])
    out["revealed"] = revealed
    if hidden:
        # Which component a hidden piece is can itself be the secret (a wild piece among
        # numbered ones), so hidden pieces show only their public fields, not their kind.
        del out["kind"]
        out["hidden"] = True
    g.view_cache[key] = out
    return out


@dataclass(frozen=True)
class ZoneSlot:
    """One zone of a view, with what showing it needs worked out once per game and seat count."""

    name: str
    key: str
    kind: str
    visibility: str
    owner: int | None
    prefix: str  # of its pieces' labels, as State.piece_label makes them
    pool: bool  # a hidden bag or deck: only its count and any revealed pieces show
    width: int | None
    height: int | None


def view_plan(state: State) -> tuple[tuple[tuple[ZoneSlot, ...], ...], tuple[ZoneSlot, ...]]:
    """The zones of each seat, and the shared zones, in definition order (cached per seat count)."""
    g = state.game
    n = len(state.seat_names)
    plan = g.view_plans.get(n)
    if plan is None:

        def slot(name: str, key: str, owner: int | None) -> ZoneSlot:
            z = g.zones[name]
            pool = z.visibility == "hidden" and z.kind in ("bag", "deck")
            return ZoneSlot(name, key, z.kind, z.visibility, owner, g.label_prefix(key)[1], pool, z.width, z.height)

        seats = tuple(
            tuple(slot(z.name, f"{z.name}#{i}", i) for z in g.zones.values() if z.per_seat) for i in range(n)
        )
        shared = tuple(slot(z.name, z.name, None) for z in g.zones.values() if not z.per_seat)
        plan = g.view_plans[n] = (seats, shared)
    return plan


def zone_view(state: State, zone: ZoneSlot, seat: int | None) -> dict[str, Any]:
    pids = state.zones[zone.key]
    out: dict[str, Any] = {"kind": zone.kind, "count": len(pids)}
    revealed = state.revealed
    if zone.pool:
        if revealed:
            # Revealed pieces are few and pools large: look the other way round when cheaper.
            if len(revealed) < len(pids):
                key, zone_of = zone.key, state.zone_of
                shown = {p for p in revealed if zone_of[p] == key}
            else:
                shown = revealed.intersection(pids)
            if shown:
                out["revealed"] = [piece_view(state, p, seat, "hidden", zone.owner) for p in pids if p in shown]
        return out
    if zone.kind == "grid":
        cells = []
        for (x, y), stack in sorted(state.grid_stacks(zone.key).items(), key=lambda kv: (kv[0][1], kv[0][0])):
            top = piece_view(state, stack[-1], seat, zone.visibility, zone.owner)
            cells.append({"x": x, "y": y, "height": len(stack), "top": top})
        out["cells"] = cells
        out["width"] = zone.width
        out["height"] = zone.height
        return out
    # What every piece here shows, as piece_view finds it, without a call per cached piece.
    g = state.game
    cache = g.view_cache
    listy = g.view_lists
    spectator = seat is None
    visible = spectator or zone.visibility == "public" or (zone.visibility == "owner" and zone.owner == seat) or (
        zone.visibility == "others" and zone.owner is not None and zone.owner != seat)  # a hand held facing away
    board = zone.kind == "board"
    pos = state.pos
    down = state.face_down if visible and not spectator else ()  # face down: only the public fields, for every seat
    shown_pieces = []
    labels = state.zone_labels(zone.key) if board else None
    for i, p in enumerate(pids, 1):
        r = p in revealed
        k = (p, r, r or (visible and p not in down), spectator)
        fields = cache.get(k) or _piece_fields(state, k)
        if labels is not None:  # named by space, as State.piece_label names them
            piece = {"ref": labels[p], **fields, "space": pos[p]}
        else:
            piece = {"ref": f"{zone.prefix}{i}", **fields}
        lists = listy.get(k)
        if lists:
            _own_lists(piece, lists)
        shown_pieces.append(piece)
    out["pieces"] = shown_pieces
    return out


_PLAIN = (int, str, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def _public(value: Any, state: State) -> Any:
    """A variable's value as shown in views: plain values as they are, a single record by its
    label, a list of plain values as a list; lists holding records are not shown (they may name
    hidden pieces). Decided on the stored form, so a long list of references costs nothing."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, tuple):
        return list(value) if all(isinstance(x, (int, str, bool)) for x in value) else None
    record = decode(value, state)
    if record.__class__ is PieceV and record.pid not in state.revealed and state.in_hidden_zone(record.pid):
        return None  # its place in a shuffled deck or a bag is the secret (a remembered ace)
    return render_value(record)


def _public_vars(values: dict[str, Any], state: State, hidden: frozenset[str] | None = None) -> dict[str, Any]:
    """`_public` of every variable but the `hidden` ones, plain values passed straight through."""
    return {k: v if v.__class__ in _PLAIN_TYPES else _public(v, state) for k, v in values.items()
            if not hidden or k not in hidden}


def _in_scope(state: State) -> frozenset[str] | Any:
    """The local names the step asking the pending decision can read: the `choose` or `respond`
    where it stands, or the step just run when the engine asks in the middle of one (a return over
    capacity, a free piece's place). A local set inside a block that has ended (a `for_each` over
    the opponents summing their hidden tiles) stays in the state but is in no scope there."""
    p = state.pending
    code = state.game.programs
    if p is not None and "at" in p:
        return code[p["at"][0]].code[p["at"][1]].in_scope
    if state.stack:
        prog, pc = state.stack[-1][:2]
        if 0 < pc <= len(code[prog].code):
            return code[prog].code[pc - 1].in_scope
    return state.game.turn_vars


def _public_locals(values: dict[str, Any], private: frozenset[str], in_scope: Any = None) -> dict[str, Any]:
    """Locals may hold references to hidden pieces: only numbers, flags and none are shown, and a
    list naming records shows as none (what `_public` makes of it), never its refs. The
    arguments of `private` options are never shown: another seat's sealed choice made earlier in
    the same turn stays in the locals. With `in_scope`, only the locals it names are shown."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if k.startswith("@") or k in private or (in_scope is not None and k not in in_scope):
            continue
        if v is None or isinstance(v, (int, bool)):
            out[k] = v
        elif isinstance(v, tuple) and not all(isinstance(x, (int, str, bool)) for x in v):
            out[k] = None
    return out


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None: the all-seeing view of tests and replays)."""
    g = state.game
    n = len(state.seat_names)
    seat_zones, shared_zones = view_plan(state)
    private = g.private_seat_vars
    seats = []
    for i in range(n):
        zones = {zone.name: zone_view(state, zone, seat) for zone in seat_zones[i]}
        seats.append(
            {
                "index": i + 1,
                "name": state.seat_names[i],
                "active": state.active[i],
                "vars": _public_vars(state.seat_vars[i], state, None if seat is None or seat == i else private),
                "zones": zones,
            }
        )
    shared = {zone.name: zone_view(state, zone, seat) for zone in shared_zones}
    deciding = state.current_seats
    # A prompt is written for the seats who decide (it may quote their hidden pieces). The turn's
    # locals, often worked out from the mover's hidden pieces, go to the mover alone, and only
    # while it decides: the other seats answering a challenge on its turn would learn what its
    # hidden pieces add up to, and the mover, while another seat chooses in its turn (a sealed
    # bid, a die rolled for that seat), what that seat's step bound.
    asked = seat is None or seat in deciding
    view: dict[str, Any] = {
        "game": g.id,
        "variant": g.variant,
        "seat": None if seat is None else seat + 1,
        "turn": state.turn,
        "current": state.current + 1,
        "players": n,
        "settings": _settings(g),
        "seats": seats,
        "zones": shared,
        # Declared variables are public, the turn's (`turn_vars`) too: they live among the locals.
        "vars": _public_vars(state.vars, state) if not g.turn_vars else {
            **_public_vars(state.vars, state),
            **_public_vars({k: state.locals.get(k, v.initial) for k, v in g.turn_vars.items()}, state)},
        "locals": _public_locals(state.locals, g.private_locals, _in_scope(state) if seat is not None else None)
        if seat is None or (seat == state.current and seat in deciding) else {},
        "events": [t for (to, t) in state.events if sees(to, seat)],
        "to_act": [s + 1 for s in deciding],
    }
    p = state.pending
    if p is not None and not state.terminal:
        # Where a seat puts a free piece is its own business: to the others the decision looks like
        # any other (when only some pieces are placed freely, the question would tell them one was drawn).
        ptype = "choose" if p["type"] == "position" and not asked else p["type"]
        pend: dict[str, Any] = {
            "type": ptype,
            # Empty for a seat that is not deciding (a web client would ask the reader to answer).
            "prompt": (p.get("prompt") or DEFAULT_PROMPTS.get(ptype, "")) if asked else "",
        }
        if p["type"] == "respond":
            pend["seats"] = [s + 1 for s in p["seats"]]
            # Who has locked in an answer, in bid order; a pass is no bid (the panel listed it as one).
            pend["locked"] = [int(s) + 1 for s, a in p["answers"].items() if a is not None]
            pend["passed"] = [int(s) + 1 for s, a in p["answers"].items() if a is None]
            pend["time_limit"] = p["limit_ms"] // 1000
            pend["claims"] = p.get("claims", True)
            if p.get("card") is not None:
                pend["card"] = piece_view(state, int(p["card"]), seat, "public", None)
        if p["type"] == "overflow":
            pend["zone"] = p["zone"].split("#")[0]
            pend["capacity"] = p["cap"]
            if asked and not p.get("prompt"):
                owned = state.zone_owner(p["zone"]) == seat
                to = p.get("to")
                where = ("put out of the game" if to is None else
                         f"return to your {to.split('#')[0]}" if "#" in to else f"return to the {to}")
                held = len(state.zones[p["zone"]])
                pend["prompt"] = (f"{'Your' if owned else 'The'} {pend['zone']}: {held} {state.kind_word(p['zone'])[1]}, "
                                  f"{p['cap']} at most - "
                                  f"choose one to {where}")
        if p["type"] == "position" and asked and p.get("queue"):
            kind = g.pieces[int(p["queue"][0])].component
            # The piece to place now, then those waiting after it (at the end of the row).
            pend["waiting"] = [state.piece_label(int(q)) for q in p["queue"]]
            place = pend["waiting"][0].rsplit(".", 1)[-1]
            which = f"{kind} (now at place {place})" if len(pend["waiting"]) > 1 and place.isdigit() else kind
            pend["prompt"] = (f"Choose where your {which} goes in your {p['zone'].split('#')[0]} (it never moves "
                              "afterwards" + ("; the others wait at the end for their turn)" if len(pend["waiting"]) > 1
                                              else ")"))
        view["pending"] = pend
    if seat is not None and seat in deciding:
        view["legal"] = state.legal_actions(seat).texts()
    if state.terminal:
        view["result"] = state.result()
    return view
