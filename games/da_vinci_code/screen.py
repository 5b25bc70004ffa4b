"""Terminal screen for Da Vinci Code: rows as tile chips, pile, recent events, help and hints.

`render(view, seat, hints=False)` draws one seat's view (rich renderables); `HELP` explains the
commands; `hints(view)` lists each hidden opponent tile's remaining values, using the
deducer's counting; `expand(text, view)` turns short commands such as `2.3 7` into actions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from davinci.engine.errors import ShortFormError
from davinci.engine.values import events_since_own_move, fit_events, lines_left, turn_text, winners_text
from davinci.games.da_vinci_code.bots import (
    JOKER,
    Seen,
    Tracker,
    candidates,
    read_drawn,
    read_rows,
    value_text,
)

_HELP = """\
[bold]Da Vinci Code - commands[/bold]
  guess row.{other}.3 7    guess that seat {other}'s third tile is a 7 (say [bold]joker[/bold] for
                     a joker)
  {other}.3 7              the same, shorter; with one opponent, [bold]3 7[/bold] is enough
  stop               end your turn after a right guess (your drawn tile joins
                     your row hidden)
  reveal row.{me}.2     (pile empty, wrong guess) show one of your own hidden
                     tiles; short: [bold]r 2[/bold]
  position 3         (advanced) put your joker at place 3 of your row;
                     short: [bold]p 3[/bold]
  draw black         (colour choice) the colour of the tile you draw;
                     short: [bold]b[/bold] or [bold]w[/bold]
Tiles: b = black, w = white, ██ = a hidden number, — = joker. Places count
from 1 at the left. In your own row, \\[brackets] mark tiles that lie face up:
everybody knows them.
A right guess reveals the tile and you may guess again; a wrong one shows
your drawn tile."""  # (the game's description, said first, names the winner)


def help_text(settings: Mapping[str, Any], seat: int = 1) -> str:
    """The commands, with examples in the reader's own numbers: `seat` (from 1) is the reader's,
    and the guesses name an opponent (seat 2 for seat 1, seat 1 for the others)."""
    other = 2 if seat == 1 else 1
    return _HELP.replace("{me}", str(seat)).replace("{other}", str(other))


HELP = help_text({})  # seat 1's

_BLACK = "bold white on grey15"
_WHITE = "bold black on grey85"
_CHIP = 5  # characters per tile, so place numbers line up under the tiles


def _face(t: Seen, show: bool) -> str:
    letter = "b" if t.colour == "black" else "w"
    if not show or t.number is None:
        return f"{letter}██"
    if t.number == JOKER:
        return f"{letter} —"
    return f"{letter}{t.number:>2}"


def _chips(tiles: list[Seen], own: bool) -> Text:
    line = Text()
    for t in tiles:
        face = _face(t, True)
        left, right = ("[", "]") if own and t.revealed else (" ", " ")
        line.append(left)
        line.append(face, style=_BLACK if t.colour == "black" else _WHITE)
        line.append(right)
    return line


def _places(n: int) -> Text:
    return Text("".join(f"{i:^{_CHIP}}" for i in range(1, n + 1)), style="dim")


def _seat_name(view: dict[str, Any], index: int) -> str:
    return str(view["seats"][index - 1]["name"])


def pile_colours(view: dict[str, Any]) -> dict[str, int] | None:
    """How many black and white tiles the pile holds: each colour has 12 tiles (13 with the
    jokers) and the backs of every tile outside the pile show their colour. None when the tiles
    in view do not add up (a view of another game's shape)."""
    per_colour = 13 if view.get("settings", {}).get("jokers") else 12
    seen = {"black": 0, "white": 0}
    for s in view.get("seats", ()):
        for zone in s.get("zones", {}).values():
            for p in zone.get("pieces", ()):
                if p.get("colour") in seen:
                    seen[str(p["colour"])] += 1
    left = {c: per_colour - n for c, n in seen.items()}
    pile = int(view.get("zones", {}).get("pile", {}).get("count", -1))
    return left if min(left.values()) >= 0 and sum(left.values()) == pile else None


def recent_events(view: dict[str, Any]) -> list[str]:
    """The log lines since the viewer's last move, at least 8 (the engine's echo of each guess or reveal is
    left out: the outcome line says it)."""
    return events_since_own_move(view, ("guess", "reveal"), least=8)


def hints(view: dict[str, Any], tracker: Tracker | None = None) -> dict[str, list[str]]:
    """Each hidden opponent tile's possible values (ref -> values).

    Alone, a view's log may not tell where older failed guesses point once rows have grown;
    a `tracker` fed every view of the seat in turn follows the tiles and remembers them.
    """
    excl = (tracker or Tracker()).update(view)
    return {c.ref: [value_text(v) for v in c.values()] for c in candidates(view, excl)}


# The terminal shows one game at a time; the tracker notices a new game and starts afresh.
_SCREEN_TRACKER = Tracker()


def render(view: dict[str, Any], seat: int | None = None, hints: bool = False, height: int | None = None,
           width: int = 80) -> RenderableType:
    """The screen for one seat's view (seat: 0-based, as the front end passes it; the view says too).
    With the terminal's `height` (and `width`) it fits above the move prompt: fewer recent events
    (at least 1), then no blank lines between the rows, so that your own row stays in sight."""
    if height is None:
        return _screen(view, hints, compact=False)
    full = _screen(view, hints, compact=False, events=0)
    compact = lines_left([full], view, height, width) < 4
    frame = _screen(view, hints, compact=compact, events=0) if compact else full
    room = lines_left([frame], view, height, width) - (0 if compact else 2)  # "Recent:" and its blank line
    if room < 2 and (view.get("pending") or {}).get("type") == "position":
        # Placing a joker: the places it may take, shown as your row, matter; the other rows wait.
        return _screen(view, hints, compact=True, events=0, mine_only=True)
    return fit_events(lambda n: _screen(view, hints, compact=compact, events=n), room, view, height, width)


def _screen(view: dict[str, Any], hints: bool, compact: bool, events: int | None = None,
            mine_only: bool = False) -> RenderableType:
    """The screen; `compact`: no blank line between rows; `events`: at most this many recent log
    lines (None: as many as `recent_events` gives); `mine_only`: the viewer's row alone."""
    me = view.get("seat")
    rows = read_rows(view)
    parts: list[RenderableType] = []
    head = Text()
    head.append("Da Vinci Code", style="bold")
    if view.get("variant"):
        head.append(f" ({view['variant']})")
    if view.get("turn", 0) == 0:
        # Still dealing: a joker dealt to a seat waits for its place before the next row is dealt.
        head.append(" - dealing the tiles")
    else:
        head.append(f" - {turn_text(view, _seat_name(view, int(view['current'])))}")
    pile = view.get("zones", {}).get("pile", {})
    count = pile.get("count", 0)
    left = pile_colours(view)  # the colours show on the tiles' backs: "pile: 6 black, 9 white tiles"
    what = f"{left['black']} black, {left['white']} white" if left is not None else str(count)
    pile_text = f"pile: {what} tile{'s' if count != 1 else ''}"
    # On an 80-column terminal a long header would break inside the pile count: it gets a line.
    head.append(f"\n{pile_text}" if len(head.plain) + len(pile_text) + 3 > 78 else f" - {pile_text}")
    parts.append(head)
    hint_table = _hints_for(view) if hints else {}
    order = [me] if me else []
    if not (mine_only and me):
        order += [s for s in rows if s != me]
    for s in order:
        info = view["seats"][s - 1]
        title = Text()
        who = f"{info['name']} (seat {s})"
        if s == me:
            title.append(f"Your row - {who}", style="bold")
        else:
            title.append(who, style="bold")
        hidden = sum(1 for t in rows[s] if not t.revealed)
        if not rows[s] and view.get("turn", 0) == 0:
            title.append("  no tiles yet: the deal has not reached this row", style="dim")
            parts.append(Text(""))
            parts.append(title)
            continue
        title.append(f"  {hidden} hidden" if info["active"] else "  out", style="dim" if info["active"] else "red")
        if not compact:
            parts.append(Text(""))
        parts.append(title)
        # Seen whole (the end of the game): brackets mark the tiles that lay face up, as in your own row.
        parts.append(_chips(rows[s], own=s == me or not me))
        parts.append(_places(len(rows[s])))
        if s == me or not me:
            drawn = read_drawn(view, s)
            if drawn:
                d = Text("Drawn: ")
                d.append_text(_chips(drawn, own=False))
                parts.append(d)
        elif hint_table:
            said = False
            for t in rows[s]:
                if t.ref in hint_table:
                    if not said:  # once per row: what the lines are
                        parts.append(Text("   possible values per hidden place:", style="cyan"))
                        said = True
                    place = t.ref.rsplit(".", 1)[1]
                    parts.append(Text(f"   {place}: {' '.join(hint_table[t.ref]) or '-'}", style="cyan"))
    recent = recent_events(view)
    if events is not None:
        recent = recent[len(recent) - events:] if events else []
    if recent:
        if not compact:
            parts.append(Text(""))
            parts.append(Text("Recent:", style="bold"))
        for e in recent:
            parts.append(Text(f"  {e}", style="dim"))
    what = _prompt(view)
    if what:
        parts.append(Text(""))
        parts.append(Text(what, style="yellow"))
    if "result" in view:
        winners = [_seat_name(view, w + 1) for w in view["result"].get("winners", ())]
        parts.append(Text(f"Game over - {winners_text(winners)}", style="bold green"))
        if not me:
            parts.append(Text("[brackets] mark the tiles that were face up; the others were still hidden.",
                              style="dim"))
    return Group(*parts)


def _hints_for(view: dict[str, Any]) -> dict[str, list[str]]:
    try:
        return hints(view, _SCREEN_TRACKER)
    except (KeyError, ValueError, TypeError):  # hints are a help, never a reason to lose the screen
        return {}


def _waiting_joker(view: dict[str, Any]) -> tuple[Any, list[Any]] | None:
    """The joker to place now and the tiles already placed in your row, or None when the view
    does not say (the jokers still waiting stand at the row's end, outside the count)."""
    me = view.get("seat")
    row = read_rows(view).get(int(me)) if me else None
    waiting = (view.get("pending") or {}).get("waiting") or []
    now = next((t for t in row or [] if waiting and t.ref == waiting[0]), None)
    if now is None:
        return None
    return now, [t for t in row or [] if t.ref not in waiting]


def _joker_places(view: dict[str, Any], n: int) -> list[str]:
    """Your row as each `position N` would leave it."""
    waiting = _waiting_joker(view)
    if waiting is None or len(waiting[1]) + 1 != n:
        return []  # say nothing rather than guess
    out = []
    for i in range(1, n + 1):
        tiles = [_face(t, True).replace("██", "?") for t in waiting[1]]
        tiles.insert(i - 1, "JOKER")
        out.append(f"  p {i}: {' '.join(t.replace(' ', '') for t in tiles)}")
    return out


def _example_guess(view: dict[str, Any]) -> str:
    """A guess at a real hidden tile of an opponent (never the viewer's own row)."""
    me = view.get("seat")
    seats = [int(s["index"]) for s in view["seats"]]
    rows = read_rows(view)
    after = [s for s in seats if me and s > me] + [s for s in seats if not me or s < me]
    for s in after:
        if s == me or not view["seats"][s - 1]["active"]:
            continue
        place = next((i for i, t in enumerate(rows[s], 1) if not t.revealed), None)
        if place is not None:
            return f"{s}.{place} 7"
    return "SEAT.PLACE 7"


def _prompt(view: dict[str, Any]) -> str:
    legal = view.get("legal") or []
    verbs = {a.split()[0] for a in legal}
    if "position" in verbs:
        n = len(legal)
        waiting = _waiting_joker(view)
        which = f"{waiting[0].colour} joker" if waiting and waiting[0].colour else "joker"
        more = len((view.get("pending") or {}).get("waiting") or []) - 1
        lines = [
            f"Place your {which}: p N puts it at place N (1-{n}) of your row, from the left"
            + (" (your other joker comes next)." if more > 0 else "."),
            "Your other tiles keep their order; the joker never moves afterwards.",
        ]
        return "\n".join(lines + _joker_places(view, n))
    if "reveal" in verbs:
        return "Wrong, and the pile is empty: reveal one of your own hidden tiles (r PLACE)."
    if "draw" in verbs:
        return "Choose the colour of the tile you draw: b or w."
    if "guess" in verbs:
        more = " or stop" if "stop" in verbs else ""
        return f"Guess a hidden tile: SEAT.PLACE VALUE (e.g. {_example_guess(view)}){more}. ? for help."
    return ""


def _value(word: str) -> str:
    """A guessed value as typed (`7`, `j`, `-` or `—` as the screen draws a joker) in full."""
    return "joker" if word in ("j", "joker", "-", "—") else word


def expand(text: str, view: dict[str, Any]) -> str | None:
    """A short command in full (`2.3 7` -> `guess row.2.3 7`); None if `text` is not a short form."""
    t = " ".join(text.strip().lower().split())
    me = view.get("seat")
    opponents = [int(s["index"]) for s in view["seats"] if s["index"] != me and s["active"]]
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(?:row\.)?(\d+)[.\s](\d+)\s+(-?\d+|j|joker|-|—)", t)
    if m:
        return f"guess row.{m.group(1)}.{m.group(2)} {_value(m.group(3))}"
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(\d+)\s+(-?\d+|j|joker|-|—)", t)
    if m and len(opponents) == 1:
        return f"guess row.{opponents[0]}.{m.group(1)} {_value(m.group(2))}"
    if m:
        raise ShortFormError(f"with {len(opponents)} opponents, name the seat too: SEAT.PLACE VALUE "
                             f"(e.g. {opponents[0]}.{m.group(1)} {m.group(2)})")
    values = "a number from 0 to 11" + (", or 'joker'" if (view.get("settings") or {}).get("jokers") else "")
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(?:row\.)?(\d+)[.\s](\d+)\s+(\S+)", t)
    if m:  # a tile and a value that is no tile's: say which part is wrong
        raise ShortFormError(f"'{m.group(3)}' is not a tile's value: guess {values} (e.g. {m.group(1)}.{m.group(2)} 7)")
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(\d+)\s+(\S+)", t)
    if m and len(opponents) == 1:  # `3 7x`: the place is right, the value is not
        raise ShortFormError(f"'{m.group(2)}' is not a tile's value: guess {values} (e.g. {m.group(1)} 7)")
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(?:row\.)?(\d+\.\d+|\d+)\s+(\S+)\s+.+", t)
    if m:  # `2.1 7 8`: a word too many
        raise ShortFormError(f"a guess names one tile and one value: {m.group(1)} VALUE (e.g. {m.group(1)} 7)")
    m = re.fullmatch(r"(?:g(?:uess)?\s+)?(?:row\.)?(\d+\.\d+)", t)
    if m:  # a tile without a value
        raise ShortFormError(f"a guess names a tile and a value: {m.group(1)} VALUE (e.g. {m.group(1)} 7)")
    if t in ("s", "stop"):
        return "stop"
    m = re.fullmatch(r"r(?:eveal)?\s+(\d+)", t)
    if m and me:
        return f"reveal row.{me}.{m.group(1)}"
    m = re.fullmatch(r"p(?:os(?:ition)?)?\s+(\d+)", t)
    if m:
        return f"position {m.group(1)}"
    if t in ("b", "black", "draw b"):
        return "draw black"
    if t in ("w", "white", "draw w"):
        return "draw white"
    return None
