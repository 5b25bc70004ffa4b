"""Terminal screen for Leonardo's Riddle: the grid of top cards, the hand, Keys, deck and help.

`render(view, seat)` draws one seat's view with rich; `legend()` explains the symbol glyphs;
`help_text(settings)` (and `HELP`, for the default settings) lists the commands; `expand(text,
view)` turns short commands such as `p 3 1,0` into full actions (`place hand.1.3 1,0`). Only the
view is read, never the state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from davinci.engine.errors import ShortFormError
from davinci.engine.values import events_since_own_move, fit_events, lines_left, turn_text, winners_text

GRID_SIZE = 5

# Two letters per symbol (unique, so a card reads without colour too) and a colour for each.
GLYPHS: dict[str, tuple[str, str]] = {
    "mechanism": ("Me", "bold bright_white on grey30"),
    "profile": ("Pr", "bold magenta"),
    "cathedral": ("Cd", "bold bright_blue"),
    "seagull": ("Gu", "bold cyan"),
    "skull": ("Sk", "bold white"),
    "cat": ("Ca", "bold yellow"),
    "horseman": ("Ho", "bold red"),
    "halberd": ("Hb", "bold bright_black"),
    "flower": ("Fl", "bold bright_magenta"),
    "figure": ("Fi", "bold green"),
    "stream": ("St", "bold blue"),
    "eclipse": ("Ec", "bold bright_yellow on grey15"),
}

def help_text(settings: Mapping[str, Any], seat: int = 1) -> str:
    """The commands and the rules in short, as this game's settings have them; the examples name
    the reader's own hand (`seat`, from 1)."""
    hand = int(settings.get("hand_size", 6))
    line = int(settings.get("line_length", 3))
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    lines = "in a row, column or diagonal" if settings.get("diagonals") else "in a row or column"
    each = ("nobody holds two Keys of one symbol" if settings.get("one_key_each", True)
            else "a player may hold several Keys of one symbol")
    senior = ("Mechanism is the highest" if settings.get("senior_first")
              else "Eclipse is the highest")
    return f"""\
[bold]Leonardo's Riddle - commands[/bold]
Cells are x,y: x grows to the right, y downwards; 0,0 is the first card.
  place hand.{seat}.3 1,0   put your 3rd card on the free cell 1,0 (it must touch
                       a card; diagonals count)
  p 3 1,0              the same, short ([bold]3 1,0[/bold] also places on an empty cell)
  cover hand.{seat}.3 0,0   lay your 3rd card on the card at 0,0; the two must
                       share a symbol; short: [bold]c 3 0,0[/bold]
  swap hand.{seat}.3 0,0    exchange your 3rd card for the top card at 0,0 (sharing
                       a symbol); short: [bold]s 3 0,0[/bold]
  skip                 only when you cannot play at all
After placing or covering you draw back to {hand} cards. After a swap the
replaced card joins your hand and you draw nothing.
A Key: {words.get(line, str(line))} top cards {lines} sharing a symbol,
one of them the card you just played. You receive it at the end of your turn
while the supply has one ({int(settings.get("key_copies", 3))} of each symbol);
{each}.
The grid never grows past 5x5. When the deck runs out everyone plays once
more, the player who drew the last card last. Most Keys wins; on a tie, the
most senior Key ({senior}).
In the grid [bold]+[/bold] marks a free cell (a card may go there), [bold]·[/bold] an empty cell
that touches no card yet (no card may go there now), and [bold]xN[/bold] a stack of N cards.
Under the grid, [bold]*[/bold] marks the player whose turn it is; [bold]Keys: 2: St Ec[/bold] means two
Keys held, in seniority number order, 1 (Mechanism) to 12 (Eclipse).
{legend().plain}"""


def glyph(symbol: str) -> Text:
    """One symbol as its coloured two-letter glyph."""
    abbr, style = GLYPHS.get(symbol, (symbol[:2].title(), ""))
    return Text(abbr, style=style)


def card_text(symbols: list[str] | tuple[str, ...]) -> Text:
    """A card as its glyphs separated by spaces."""
    out = Text()
    for i, s in enumerate(symbols):
        if i:
            out.append(" ")
        out.append_text(glyph(s))
    return out


def legend() -> Text:
    """The glyph of every symbol, with its name, in seniority order (junior first), six a line."""
    out = Text("Symbols: ", style="bold")
    for i, name in enumerate(GLYPHS):
        if i == 6:
            out.append("\n         ")
        elif i:
            out.append("  ")
        out.append_text(glyph(name))
        out.append(f" {name}")
    return out


HELP = help_text({})  # with the game's default settings (the symbol legend last: a short screen leaves it out)


Cell = tuple[int, int]


def _cells(view: dict[str, Any]) -> dict[Cell, dict[str, Any]]:
    grid = view.get("zones", {}).get("grid", {})
    return {(int(c["x"]), int(c["y"])): c for c in grid.get("cells", ())}


def free_cells(cells: dict[Cell, Any]) -> set[Cell]:
    """Empty cells touching a card (diagonals count) that keep every card inside 5x5."""
    if not cells:
        return {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    out = set()
    for x, y in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c in cells:
                    continue
                if max(xs + [c[0]]) - min(xs + [c[0]]) < GRID_SIZE and max(ys + [c[1]]) - min(ys + [c[1]]) < GRID_SIZE:
                    out.add(c)
    return out


def grid_table(view: dict[str, Any]) -> Table:
    """The grid: every occupied cell's top card and stack height, and the free cells around."""
    cells = _cells(view)
    free = free_cells(cells)
    shown = set(cells) | free
    xs = sorted({c[0] for c in shown})
    ys = sorted({c[1] for c in shown})
    table = Table(show_header=True, header_style="dim", box=None, padding=(0, 1), show_lines=False)
    table.add_column("y\\x", style="dim", justify="right")
    for x in range(xs[0], xs[-1] + 1):
        table.add_column(str(x), justify="center", min_width=9)
    for y in range(ys[0], ys[-1] + 1):
        row: list[RenderableType] = [str(y)]
        for x in range(xs[0], xs[-1] + 1):
            c = cells.get((x, y))
            if c is not None:
                t = card_text(c["top"].get("symbols", []))
                if int(c.get("height", 1)) > 1:
                    t.append(f" x{c['height']}", style="dim")
                row.append(t)
            elif (x, y) in free:
                row.append(Text("+", style="green"))
            else:
                row.append(Text("·", style="dim"))
        table.add_row(*row)
    return table


def _keys_line(pieces: list[dict[str, Any]]) -> Text:
    """A seat's Keys: how many, then each, in seniority order (as the symbols are numbered)."""
    if not pieces:
        return Text("no Keys", style="dim")
    out = Text(f"{len(pieces)}: ")
    for i, p in enumerate(sorted(pieces, key=lambda p: int(p.get("seniority", 0)))):
        if i:
            out.append(" ")
        out.append_text(glyph(str(p.get("symbol", "?"))))
    return out


def _supply_line(view: dict[str, Any]) -> Text:
    counts: dict[str, int] = {}
    for p in view.get("zones", {}).get("supply", {}).get("pieces", ()):
        counts[str(p.get("symbol"))] = counts.get(str(p.get("symbol")), 0) + 1
    out = Text("Keys left: ", style="bold")
    for name in GLYPHS:
        out.append_text(glyph(name))
        out.append(f"{counts.get(name, 0)} ", style="dim" if not counts.get(name) else "")
    return out


def recent_events(view: dict[str, Any]) -> list[str]:
    """The log lines since the viewer's last move, at least 6 (the engine's echo of each action is
    left out: the game's own line says it)."""
    return [e for e in events_since_own_move(view, ("place", "cover", "swap")) if not e.endswith(": skip")]


def min_width(view: dict[str, Any]) -> int:
    """The columns the grid needs: a narrower terminal loses its right-hand cards (play says so)."""
    from io import StringIO

    from rich.console import Console

    return Console(file=StringIO(), width=1000).measure(grid_table(view)).minimum


def render(view: dict[str, Any], seat: int | None = None, height: int | None = None, width: int = 80) -> RenderableType:
    """The screen for one seat's view (`seat` 0-based as the front end passes it; the view says too).
    With the terminal's `height` (and `width`) it fits above the move prompt, so that the grid
    stays in sight: the hand on a line or two, no symbol legend (`?` shows it) and no blank
    lines, and as many recent events as are left room for (at least 1)."""
    full = _screen(view, compact=False)
    if height is None or lines_left([full], view, height, width) >= 0:
        return full
    room = lines_left([_screen(view, compact=True, events=0, width=width)], view, height, width)
    return fit_events(lambda n: _screen(view, compact=True, events=n, width=width), room, view, height, width)


def _screen(view: dict[str, Any], compact: bool, events: int | None = None, width: int = 80) -> RenderableType:
    """The screen; `compact`: the hand on few lines, no legend, no blank lines; `events`: at most
    this many recent log lines (None: as many as `recent_events` gives)."""
    me = view.get("seat")
    seats = view["seats"]
    parts: list[RenderableType] = []
    head = Text()
    head.append("Leonardo's Riddle", style="bold")
    if view.get("variant"):
        head.append(f" ({view['variant']})")
    current = seats[int(view["current"]) - 1]["name"]
    head.append(f" - {turn_text(view, current)}")
    deck = int(view.get("zones", {}).get("deck", {}).get("count", 0))
    head.append(f" - deck: {deck} card{'s' if deck != 1 else ''}")
    turns_left = view.get("vars", {}).get("turns_left", -1)
    if isinstance(turns_left, int) and turns_left > 0:
        head.append(f" - last round: {turns_left} turn{'s' if turns_left != 1 else ''} left", style="bold yellow")
    gap = [] if compact else [Text("")]
    parts.append(head)
    parts += gap
    parts.append(grid_table(view))
    parts += gap
    for s in seats:
        line = Text()
        line.append(f"{s['name']}", style="bold" if s["index"] == me else "")
        if s["index"] == view.get("current") and "result" not in view:  # nobody is to move after the end
            line.append(" *", style="bold yellow")
        n = int(s["zones"]["hand"].get("count", 0))
        line.append(f"  {n} card{'s' if n != 1 else ''} in hand  Keys: ")
        line.append_text(_keys_line(s["zones"]["keys"].get("pieces", [])))
        parts.append(line)
    parts.append(_supply_line(view))
    # Your hand; at the end of the game (the all-seeing view) every hand, as the table shows them.
    hands = [("Your hand:", seats[me - 1])] if me else (
        [(f"{s['name']}'s hand:", s) for s in seats] if view.get("result") else [])
    for title, holder in hands:
        cards = holder["zones"]["hand"].get("pieces", ())
        if not cards:
            continue
        parts += gap
        if compact:  # the cards side by side, a line broken between cards at the screen's edge
            line = Text(title, style="bold")
            for i, p in enumerate(cards, 1):
                item = Text(f"  {i}. ")
                item.append_text(card_text(p.get("symbols", [])))
                if len(line) + len(item) > width - 1:
                    parts.append(line)
                    line = Text(" " * (len(title) - 2))
                line.append_text(item)
            parts.append(line)
            continue
        parts.append(Text(title, style="bold"))
        for i, p in enumerate(cards, 1):
            t = Text(f"  {i}. ")
            t.append_text(card_text(p.get("symbols", [])))
            parts.append(t)
    if not compact:
        parts.append(Text(""))
        parts.append(legend())
    recent = recent_events(view)
    if events is not None:
        recent = recent[len(recent) - events:] if events else []
    if recent:
        parts += gap
        for e in recent:
            parts.append(Text(f"  {e}", style="dim"))
    if view.get("legal"):
        parts += gap
        parts.append(Text("Play: p N X,Y (place) / c N X,Y (cover) / s N X,Y (swap); ? for help.", style="yellow"))
    if "result" in view:
        r = view["result"]
        winners = [seats[w]["name"] for w in r.get("winners", ())]
        scores = r.get("scores") or []
        tied = [w for w in r.get("winners", ()) if w < len(scores) and scores.count(scores[w]) > 1]
        why = f" ({scores[tied[0]]} Keys each: the senior Key decides)" if len(winners) == 1 and tied else ""
        parts.append(Text(f"Game over - {winners_text(winners)}{why}", style="bold green"))
    return Group(*parts)


_VERBS = {"p": "place", "place": "place", "c": "cover", "cover": "cover", "s": "swap", "swap": "swap"}


# The short forms `expand` reads, by their first word (the play loop explains a misread one).
SHORT_FORMS = {"p": "p N X,Y (place card N on cell X,Y)", "c": "c N X,Y (cover the card at X,Y)",
               "s": "s N X,Y (swap card N for the card at X,Y)"}


def expand(text: str, view: dict[str, Any]) -> str | None:
    """A short command in full (`c 2 0,0` -> `cover hand.1.2 0,0`); None if `text` is not a short form."""
    t = " ".join(text.strip().lower().split())
    me = view.get("seat")
    if t in ("skip", "k"):
        return "skip"
    m = re.fullmatch(r"(?:(p|place|c|cover|s|swap)\s+)?(?:hand\.(\d+)\.)?(\d+)\s+(-?\d+)\s*,\s*(-?\d+)", t)
    if not m or not me or (m.group(2) is not None and int(m.group(2)) != int(me)):
        return None  # another player's hand is not a short form of one's own: the rules answer it
    verb = _VERBS[m.group(1)] if m.group(1) else None
    x, y = int(m.group(4)), int(m.group(5))
    if verb is None:
        if (x, y) in _cells(view):  # covering or swapping: the player must say which, of those possible
            n = m.group(3)
            legal = {str(a) for a in view.get("legal") or ()}
            ways = [f"{w[0]} {n} {x},{y} to {w if w == 'swap' else w + ' it'}" for w in ("cover", "swap")
                    if f"{w} hand.{me}.{n} {x},{y}" in legal]
            if not ways:
                raise ShortFormError(f"{x},{y} holds a card, which card {n} can neither cover nor swap now (they "
                                     "share no symbol?): choose another card or cell")
            raise ShortFormError(f"{x},{y} holds a card: type {', or '.join(ways)}")
        verb = "place"
    return f"{verb} hand.{me}.{m.group(3)} {x},{y}"
