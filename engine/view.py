"""Views: exactly what one seat may see, as JSON-able data.

Bots and front ends get views, never the state. A piece's field is shown when the piece is
revealed, or its zone is public (and the field not secret), or its zone is owner-only and the
viewer owns it, or the field is declared `public` on its component (colours on tile backs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from davinci.engine.steps.core import render_value
from davinci.engine.values import decode

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
    sees_all = revealed or seat is None or (zone_vis == "owner" and owner == seat) or zone_vis == "public"
    key = (pid, revealed, sees_all, seat is None)
    shown = g.view_cache.get(key)
    if shown is None:
        shown = g.view_cache[key] = _piece_fields(state, pid, revealed, sees_all, seat is None)
    return {"ref": ref if ref is not None else state.piece_label(pid), **shown}


def _piece_fields(state: State, pid: int, revealed: bool, sees_all: bool, spectator: bool) -> dict[str, Any]:
    """What a piece view shows besides its ref (the same for every view in the same situation)."""
    g = state.game
    pdef = g.pieces[pid]
    comp = g.components[pdef.component]
    out: dict[str, Any] = {"kind": pdef.component}
    hidden = False
    for f, v in pdef.attrs.items():
        if f in comp.secret and not revealed and not spectator:
            continue
        if sees_all or f in comp.public:
            out[f] = v
        else:
            hidden = True
    out["revealed"] = revealed
    if hidden:
        # Which component a hidden piece is can itself be the secret (a wild piece among
        # numbered ones), so hidden pieces show only their public fields, not their kind.
        del out["kind"]
        out["hidden"] = True
    return out


def zone_view(state: State, key: str, seat: int | None) -> dict[str, Any]:
    z = state.game.zones[key.split("#")[0]]
    owner = state.zone_owner(key)
    pids = state.zones[key]
    out: dict[str, Any] = {"kind": z.kind, "count": len(pids)}
    if z.visibility == "hidden" and z.kind in ("bag", "deck"):
        shown = state.revealed.intersection(pids) if state.revealed else None
        revealed = [piece_view(state, p, seat, "hidden", owner) for p in pids if p in shown] if shown else []
        if revealed:
            out["revealed"] = revealed
        return out
    if z.kind == "grid":
        cells = []
        for (x, y), stack in sorted(state.grid_stacks(key).items(), key=lambda kv: (kv[0][1], kv[0][0])):
            cells.append({"x": x, "y": y, "height": len(stack), "top": piece_view(state, stack[-1], seat, z.visibility, owner)})
        out["cells"] = cells
        out["width"] = z.width
        out["height"] = z.height
        return out
    if z.kind == "board":
        out["pieces"] = [
            {**piece_view(state, p, seat, z.visibility, owner), "space": state.pos.get(p)} for p in pids
        ]
        return out
    # Labels by position (as State.piece_label makes them), without searching the zone per piece.
    _, prefix = state.game.label_prefix(key)
    out["pieces"] = [piece_view(state, p, seat, z.visibility, owner, f"{prefix}{i}") for i, p in enumerate(pids, 1)]
    return out


_PLAIN = (int, str, bool, type(None))


def _public(value: Any, state: State) -> Any:
    """A variable's value as shown in views: plain values as they are, a single record by its
    label, a list of plain values as a list; lists holding records are not shown (they may name
    hidden pieces). Decided on the stored form, so a long list of references costs nothing."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, tuple):
        return list(value) if all(isinstance(x, (int, str, bool)) for x in value) else None
    return render_value(decode(value, state))


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None: a spectator who sees only public information... and all, for tests)."""
    g = state.game
    n = len(state.seat_names)
    seats = []
    for i in range(n):
        zones = {}
        for z in g.zones.values():
            if z.per_seat:
                zones[z.name] = zone_view(state, f"{z.name}#{i}", seat)
        seats.append(
            {
                "index": i + 1,
                "name": state.seat_names[i],
                "active": state.active[i],
                "vars": {k: _public(v, state) for k, v in state.seat_vars[i].items()},
                "zones": zones,
            }
        )
    shared = {z.name: zone_view(state, z.name, seat) for z in g.zones.values() if not z.per_seat}
    view: dict[str, Any] = {
        "game": g.id,
        "variant": g.variant,
        "seat": None if seat is None else seat + 1,
        "turn": state.turn,
        "current": state.current + 1,
        "players": n,
        "settings": dict(g.settings),
        "seats": seats,
        "zones": shared,
        "vars": {k: _public(v, state) for k, v in state.vars.items()},
        "locals": {k: _public(v, state) for k, v in state.locals.items() if not k.startswith("@")},
        "events": [t for (to, t) in state.events if to is None or to == seat],
        "to_act": [s + 1 for s in state.current_seats],
    }
    # Locals may hold references to hidden pieces: only plain values are shown, never refs.
    view["locals"] = {k: v for k, v in view["locals"].items() if isinstance(v, (int, bool)) or v is None}
    p = state.pending
    if p is not None and not state.terminal:
        pend: dict[str, Any] = {"type": p["type"], "prompt": p.get("prompt") or DEFAULT_PROMPTS.get(p["type"], "")}
        if p["type"] == "respond":
            pend["seats"] = [s + 1 for s in p["seats"]]
            pend["locked"] = [int(s) + 1 for s in p["answers"]]
            pend["time_limit"] = p["limit_ms"] // 1000
            pend["claims"] = p.get("claims", True)
            if p.get("card") is not None:
                pend["card"] = piece_view(state, int(p["card"]), seat, "public", None)
        if p["type"] == "overflow":
            pend["zone"] = p["zone"].split("#")[0]
            pend["capacity"] = p["cap"]
        view["pending"] = pend
    if seat is not None and seat in state.current_seats:
        view["legal"] = state.legal_actions(seat).texts()
    if state.terminal:
        view["result"] = state.result()
    return view
