"""Terminal screen for The Da Vinci Game: the pentacle board, teams, tokens, treasures, bids and card.

`render(view, seat)` draws one seat's view as rich renderables, readable without colour too.
The board's geometry (space positions, types, tracks) and its colours come from the game
definition (`board` and `display` sections), loaded by the game id in the view; pieces, tokens
and the card come from the view.
Where the seat must choose a destination, the board shows the number of each choice and a
list below names the space each number lands on.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from davinci.engine.values import events_since_own_move, lines_left, turn_text, winners_text
from davinci.games.da_vinci_game.bots import definition_from_view


def help_text(settings: Mapping[str, Any], seat: int = 1) -> str:
    """The rules in short, as this game's settings have them, then the commands (their examples
    name the reader's own tokens: `seat`, from 1)."""
    awards = [int(a) for a in settings.get("awards") or [3, 2, 1, 1, 1]]
    cap = int(settings.get("token_cap", 4))
    seconds = int(settings.get("timer_seconds", 60))
    timing = f"within {seconds} seconds" if seconds > 0 else "untimed"
    paid = (", ".join(map(str, awards)) + " tokens (the last number repeats)" if len(awards) > 1
            else f"{awards[0]} token{'s' if awards[0] != 1 else ''} each")
    rules = (
        "Throw the die and move exactly that many spaces (a 5 moves 1 to 5), never onto a space already "
        "walked this move, and without turning at an intersection x1-x5 (a move that starts on one may leave "
        f"it in any direction). Clue space: a card of its category; every other team answers ({timing}); "
        f"correct bids, in the order they locked in, take {paid} from the bag. Triskel: throw again and "
        f"move on, or take one token. A team keeps at most {cap} tokens and returns the excess, its choice. "
        "Treasure space: pay two tokens of its category (a Mona Lisa matches any) to face its challenge alone; "
        "solved, the team takes that Treasure. A team that fails may not stop there next turn. With the four "
        "Treasures and one token of each category, reach the Ankh: the die picks the final challenge "
        "(1 Vitruvian Man, 2 Logic Key, 3 Rose, 4 Codex, 5 the team chooses, 6 the next team chooses); solving "
        "it wins. A failed final costs one category token, and the team must leave the Ankh."
    )
    return ("[bold]The Da Vinci Game - the rules in short[/bold]\n" + textwrap.fill(rules, 78) + "\n\n"
            + HELP.replace("tokens.1.", f"tokens.{seat}."))


HELP = """\
[bold]The Da Vinci Game - commands[/bold]
  go o12              move your piece to space o12 (or type the number the
                      list shows)
  reroll / token      on a Triskel: throw again and move on, or take one
                      token from the bag
  attempt 0           at a Treasure space: pay two matching tokens (attempt
                      1 or 2: pay that many Mona Lisa tokens instead) and
                      face the challenge alone; decline to pass
  return tokens.1.3   above the token cap: give your token 3 back to the bag
                      (the tokens column numbers your tokens: 1:C 2:V ...);
                      short: [bold]return 3[/bold]
  category rose       (final challenge on a 5 or 6) choose the category
  discard tokens.1.2  (after a failed final) give your token 2 back to the bag;
                      short: [bold]discard 2[/bold]
During a challenge each team types its answer privately; bids rank by the
time of locking in. On a terminal with the clock running, a team first presses
its number to take the keyboard, then types the answer and Enter (a team alone
in its own challenge types at once).
Board: C L R V are Clue spaces (Codex, Logic Key, Rose, Vitruvian Man) and
c l r v (lower case) the Treasure spaces of those categories; @ Triskel; A the
Ankh; dots are the tracks. The digit after a space's letter is the team
standing there (+ several). An x after the letter (Lx) marks an intersection
(x1-x5): no turning there within a move. On your move, >1 to >9 and 10, 11...
(black on yellow) mark the spaces you may move to: type that number; the list
under the board says what each space is. "Bids: 1:2 2:-" under the board: the
bid spaces, each with the team whose spare piece stands there: the order in
which the teams locked in their answers to the latest challenge."""

CATEGORY_ORDER = ("codex", "logic-key", "rose", "vitruvian-man")
_DEFAULT_CATS: dict[str, dict[str, str]] = {
    "codex": {"letter": "C", "name": "Codex", "colour": "dark_orange"},
    "logic-key": {"letter": "L", "name": "Logic Key", "colour": "dodger_blue1"},
    "rose": {"letter": "R", "name": "Rose", "colour": "red1"},
    "vitruvian-man": {"letter": "V", "name": "Vitruvian Man", "colour": "green3"},
    "mona-lisa": {"letter": "M", "name": "Mona Lisa", "colour": "magenta"},
}
_DEFAULT_SPACES: dict[str, dict[str, str]] = {
    "ankh": {"glyph": "A", "style": "bold black on gold1"},
    "treasure": {"glyph": "T", "style": "bold white on grey11"},
    "triskel": {"glyph": "@", "style": "bold white on purple4"},
    "bid": {"glyph": "#", "style": "black on grey70"},
}
_DEFAULT_TEAMS = ("bright_yellow", "bright_cyan", "bright_magenta", "bright_green", "bright_red", "bright_white")
CELL = 2  # characters per space on the board


# What each entry of a `display` section may hold, and how each value is judged.
_FIELDS = {"categories": {"letter": "char", "name": "text", "colour": "colour"},
           "spaces": {"glyph": "char", "style": "style"}}


def _value_problem(kind: str, value: Any) -> str | None:
    """Why `value` cannot be a display value of `kind` (a colour, a style, one character, a
    text), or None. A style may only colour the screen: a `link` (a terminal hyperlink to any
    address) is refused, as is anything rich cannot read."""
    from rich.color import Color, ColorParseError
    from rich.errors import StyleSyntaxError
    from rich.style import Style as RichStyle

    if not isinstance(value, str):
        return "must be a text"
    if kind == "char":  # one column of the board: no wide letter, no combining mark
        ok = (len(value) == 1 and value.isprintable() and not value.isspace()
              and unicodedata.east_asian_width(value) not in ("W", "F") and not unicodedata.category(value).startswith("M"))
        return None if ok else "must be one character one column wide"
    if kind == "text":
        if not 0 < len(value) <= 40:
            return "must be a name of 1 to 40 characters"
        return None if value.isprintable() else "must be plain text (no control or invisible characters, no no-break space)"
    try:
        if kind == "colour":
            Color.parse(value)
            return None
        parsed = RichStyle.parse(value)
        if parsed.link:
            return f"'{value[:40]}' holds a link: a style only colours the screen"
        if parsed.conceal or parsed.blink or parsed.blink2:
            return f"'{value[:40]}' hides or blinks what it styles: a style only colours the screen"
        return None
    except (ColorParseError, StyleSyntaxError):
        return f"'{value[:40]}' is no {'colour' if kind == 'colour' else 'style'} the terminal screen knows"


def check_display(display: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems of a game's `display` section for this screen, as (path under `display`,
    message); lint reports them (DV067), and the screen ignores each value concerned."""
    if not isinstance(display, Mapping):
        return []
    out: list[tuple[tuple[str | int, ...], str]] = []
    for section, fields in _FIELDS.items():
        entries = display.get(section)
        if entries is None:
            continue
        if not isinstance(entries, Mapping):
            out.append(((section,), f"'{section}' is a mapping of names to {{{', '.join(fields)}}}"))
            continue
        for name, entry in entries.items():
            if not isinstance(entry, Mapping):
                out.append(((section, name), f"'{name}' is a mapping of {', '.join(fields)}"))
                continue
            for key, value in entry.items():
                if key not in fields:
                    out.append(((section, name, key), f"unknown key '{key}' (an entry of {section} takes "
                                                      f"{', '.join(fields)})"))
                    continue
                problem = _value_problem(fields[key], value)
                if problem:
                    out.append(((section, name, key), f"{key} {problem}" if problem.startswith("must") else problem))
    teams = display.get("teams")
    if teams is not None:
        if not isinstance(teams, list) or not teams:
            out.append((("teams",), "'teams' is a list of colours, one per team"))
        else:
            for i, colour in enumerate(teams):
                problem = _value_problem("colour", colour)
                if problem:
                    out.append((("teams", i), f"colour {problem}" if problem.startswith("must") else problem))
    return out


def _entries(section: Any, fields: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The entries of a `display` section, each with the values this screen can use (the rest
    are left out: the defaults stand)."""
    if not isinstance(section, Mapping):
        return {}
    return {str(k): {str(a): str(b) for a, b in v.items() if a in fields and _value_problem(fields[a], b) is None}
            for k, v in section.items() if isinstance(v, Mapping)}


# The largest board drawing a terminal screen makes (columns, rows); a board placed beyond is listed, not drawn.
MAX_DRAWING = (300, 150)


class Style:
    """Colours and glyphs from the game's `display` section (with defaults)."""

    def __init__(self, display: Mapping[str, Any]) -> None:
        # Hints a pack's variant may change: an entry of another shape than these is left out
        # (the defaults stand), never a failing screen.
        self.cats = {k: {**_DEFAULT_CATS.get(k, {}), **v} for k, v in
                     {**_DEFAULT_CATS, **_entries(display.get("categories"), _FIELDS["categories"])}.items()}
        self.spaces = {k: {**_DEFAULT_SPACES.get(k, {}), **v} for k, v in
                       {**_DEFAULT_SPACES, **_entries(display.get("spaces"), _FIELDS["spaces"])}.items()}
        teams = display.get("teams")
        ok = isinstance(teams, list) and teams and all(_value_problem("colour", t) is None for t in teams)
        self.teams = tuple(teams) if ok else _DEFAULT_TEAMS  # type: ignore[arg-type]

    def cat(self, category: str) -> dict[str, str]:
        """Letter, name and colour of a category."""
        found = self.cats.get(category)
        return {"letter": "?", "name": category, "colour": "white", **(found if isinstance(found, dict) else {})}

    def team(self, index: int) -> str:
        """The colour of team `index` (1-based)."""
        return str(self.teams[(index - 1) % len(self.teams)])


# ---------------------------------------------------------------------------- reading the view


def _pieces(zone: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    return list((zone or {}).get("pieces", []))


def pawns_by_space(view: Mapping[str, Any], kind: str = "pawn") -> dict[str, list[int]]:
    """Space id -> teams whose piece (`pawn`) or spare piece (`spare`) stands there."""
    out: dict[str, list[int]] = {}
    for p in _pieces(view["zones"].get("board")):
        if p.get("kind") == kind and p.get("space") is not None:
            out.setdefault(str(p["space"]), []).append(int(p.get("team", 0)))
    return out


def choices(view: Mapping[str, Any]) -> dict[str, int]:
    """Destination space -> its number in the list of legal actions (as the prompt numbers them)."""
    out: dict[str, int] = {}
    for i, a in enumerate(view.get("legal") or [], 1):
        parts = str(a).split()
        if len(parts) == 2 and parts[0] == "go":
            out[parts[1]] = i
    return out


# ---------------------------------------------------------------------------- the board


def _track_dots(board: Any) -> set[tuple[int, int]]:
    """Canvas cells on the straight lines between neighbouring spaces (the printed tracks)."""
    dots: set[tuple[int, int]] = set()
    for a, nbs in board.neighbours.items():
        pa = board.spaces[a].pos
        for b, _track, _d in nbs:
            pb = board.spaces[b].pos
            if pa is None or pb is None or a > b:
                continue
            steps = max(abs(pb[0] - pa[0]) // 2, abs(pb[1] - pa[1]), 1)
            for k in range(1, steps):
                x = round(pa[0] + (pb[0] - pa[0]) * k / steps)
                y = round(pa[1] + (pb[1] - pa[1]) * k / steps)
                dots.add((x, y))
    return dots


def board_text(view: Mapping[str, Any], definition: Any, style: Style) -> Text:
    """The pentacle board as text: spaces by type and colour, pieces, bids and numbered choices."""
    board = definition.board
    # Bid spaces are markers beside the board (see `bids_text`), not part of the drawing.
    placed = {sid: sp.pos for sid, sp in board.spaces.items() if sp.pos is not None and sp.type != "bid"}
    if not placed:
        return Text("(this board has no drawing positions)")
    width = max(x for x, _ in placed.values()) + CELL + 1
    height = max(y for _, y in placed.values()) + 1
    if width > MAX_DRAWING[0] or height > MAX_DRAWING[1] or min(min(p) for p in placed.values()) < 0:
        return Text(f"(the board's drawing positions reach column {width - CELL - 1}, row {height - 1}: more than "
                    f"a screen draws, {MAX_DRAWING[0]} x {MAX_DRAWING[1]})")
    canvas: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
    for x, y in _track_dots(board):
        if 0 <= y < height and 0 <= x < width:
            canvas[y][x] = ("·", "grey35")
    pawns = pawns_by_space(view)
    spares = pawns_by_space(view, "spare")
    numbered = choices(view)
    for sid, (x, y) in placed.items():
        sp = board.spaces[sid]
        cells = _space_cells(sid, sp, pawns.get(sid, []), spares.get(sid, []), numbered.get(sid), style)
        for i, cell in enumerate(cells):
            if x + i < width:
                canvas[y][x + i] = cell
    out = Text()
    for row in canvas:
        line = Text()
        for ch, st in row:
            line.append(ch, style=st or None)
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def _space_cells(
    sid: str, sp: Any, teams: Sequence[int], spares: Sequence[int], number: int | None, style: Style
) -> list[tuple[str, str]]:
    if number is not None:
        # A destination: >1 to >9, then 10 to 99. A team piece is a letter and a digit, so a
        # two-cell number never reads as one (nor does '>').
        label = f">{number}" if number < 10 else f"{number}" if number < 100 else "**"
        return [(label[0], "bold black on yellow"), (label[1], "bold black on yellow")]
    if sp.type == "clue":
        cat = style.cat(str(sp.attrs.get("category")))
        glyph, look = cat["letter"], f"bold black on {cat['colour']}"
    elif sp.type == "treasure":
        # Lower case: without colour a Treasure space must still differ from a Clue space.
        cat = style.cat(str(sp.attrs.get("category")))
        glyph, look = cat["letter"].lower(), f"bold {cat['colour']} on grey11"
    elif sp.type == "bid":
        glyph, look = str(sp.attrs.get("number", "#")), str(style.spaces["bid"]["style"])
    else:
        info = {"glyph": "?", "style": "", **style.spaces.get(sp.type, {})}
        glyph, look = str(info["glyph"]), str(info["style"])
    if sp.no_turn:
        look += " underline"
    here = list(teams) or list(spares)
    if not here:
        # An empty intersection shows an x beside its letter (underlining needs colour).
        return [(glyph, look), ("x" if sp.no_turn else " ", look)]
    if len(here) == 1:
        return [(glyph, look), (str(here[0]), f"bold {style.team(here[0])} on grey15")]
    return [(glyph, look), ("+", "bold white on grey15")]


# ---------------------------------------------------------------------------- the decision


def space_name(sp: Any, style: Style) -> str:
    """What a space is, in words: `Clue (Rose)`, `Treasure (Codex)`, `Triskel`, `Ankh`."""
    if sp.type in ("clue", "treasure"):
        return f"{sp.type.capitalize()} ({style.cat(str(sp.attrs.get('category')))['name']})"
    return str(sp.type).capitalize()


class _Columns:
    """A bold title, then the entries in columns (read downwards) as wide as the terminal allows
    (25 destinations took 14 rows at 78 columns on a 160-column terminal)."""

    def __init__(self, title: str, entries: Sequence[str]) -> None:
        self.title = title
        self.entries = list(entries)

    def text(self, width: int = 80) -> Text:
        cell = max(len(e) for e in self.entries) + 3
        cols = max(1, (width - 2) // cell)
        rows = -(-len(self.entries) // cols)
        out = Text(self.title, style="bold")
        for r in range(rows):
            line = "".join(self.entries[i].ljust(cell) for i in range(r, len(self.entries), rows)).rstrip()
            out.append(f"\n  {line}")
        return out

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self.text(options.max_width)

    @property
    def plain(self) -> str:
        return self.text().plain


def _columns(title: str, entries: Sequence[str]) -> _Columns:
    return _Columns(title, entries)


def moves_text(view: Mapping[str, Any], definition: Any, style: Style) -> Text | None:
    """For a pending move: each destination's number (as the prompt and the board show it),
    space id, type and category, in columns within 80 characters."""
    numbered = choices(view)
    if not numbered:
        return None
    spaces = definition.board.spaces
    pawns = pawns_by_space(view)
    entries = []
    for sid, n in sorted(numbered.items(), key=lambda kv: kv[1]):
        sp = spaces.get(sid)
        what = space_name(sp, style) if sp is not None else "?"
        here = pawns.get(sid)
        if here:
            what += ", team " + "+".join(str(t) for t in here)
        entries.append(f"{n:>2} = {sid} {what}")
    return _columns("Where each move lands (the board marks them >1 to >9, then 10, 11...):", entries)


def _my_seat(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    me = view.get("seat")
    for s in view.get("seats") or []:
        if me is not None and int(s["index"]) == int(me):
            return dict(s)
    return None


def tokens_choice_text(view: Mapping[str, Any], style: Style) -> Text | None:
    """For a pending `return` (above the token cap) or `discard` (after a failed final): what
    the decision is and which token each action names."""
    legal = [str(a).split() for a in view.get("legal") or []]
    verbs = {a[0] for a in legal if a}
    if not legal or not verbs <= {"return", "discard"}:
        return None
    mine = _my_seat(view)
    pieces = _pieces((mine or {}).get("zones", {}).get("tokens")) if mine else []
    by_ref = {str(p.get("ref")): p for p in pieces}
    pend = view.get("pending") or {}
    if pend.get("type") == "overflow":
        cap = int(pend.get("capacity") or 0)
        extra = len(pieces) - cap
        title = (
            f"{len(pieces)} tokens, cap {cap}: return {extra} to the bag"
            + (", one at a time" if extra > 1 else "")
            + ". Which token goes back:"
        )
    else:
        title = "Give one token back to the bag (Mona Lisa tokens are kept). Which one:"
    entries = []
    for n, a in enumerate(legal, 1):
        p = by_ref.get(a[1]) if len(a) == 2 else None
        what = style.cat(str(p.get("category")))["name"] if p else "?"
        entries.append(f"{n:>2} = {' '.join(a)}: token {a[1].rpartition('.')[2]} ({what})")
    return _columns(title, entries)


def attempt_text(view: Mapping[str, Any], definition: Any, style: Style) -> Text | None:
    """For a pending Treasure attempt: what `attempt 0/1/2` pays (the number is how many Mona
    Lisa tokens), and what declining means."""
    legal = [str(a).split() for a in view.get("legal") or []]
    if not any(a[0] == "attempt" for a in legal if a):
        return None
    mine = _my_seat(view)
    space = pawns_by_space(view)
    here = next((sid for sid, teams in space.items() if mine and int(mine["index"]) in teams), None)
    sp = definition.board.spaces.get(here) if here else None
    cat = style.cat(str(sp.attrs.get("category"))) if sp is not None else {"name": "matching"}
    wild = style.cat("mona-lisa")["name"]
    entries = []
    for n, a in enumerate(legal, 1):
        if a[0] == "attempt" and len(a) == 2 and a[1].isdigit():
            w = int(a[1])
            paid = [f"{2 - w} {cat['name']}"] if w < 2 else []
            paid += [f"{w} {wild}"] if w else []
            entries.append(f"{n} = {' '.join(a)}: pay {' + '.join(paid)}")
        elif a[0] == "decline":
            entries.append(f"{n} = decline: keep your tokens, no challenge")
    title = (
        f"The {cat['name']} Treasure: pay two tokens and face its challenge alone.\n"
        f"'attempt N' pays N {wild} tokens (wild) and 2-N {cat['name']} tokens:"
    )
    return _columns(title, entries)


def numbers_actions(view: Mapping[str, Any]) -> bool:
    """Whether this screen lists the viewer's actions by their numbers (destinations, tokens to
    return, Treasure attempts): a bare number then picks from a list the player sees."""
    verbs = {str(a).split()[0] for a in view.get("legal") or [] if str(a).split()}
    return bool(verbs) and verbs <= {"go", "return", "discard", "attempt", "decline"}


def decision_text(view: Mapping[str, Any], definition: Any, style: Style) -> Text | None:
    """What the viewer's pending decision means, where its actions alone do not say."""
    return (
        moves_text(view, definition, style)
        or tokens_choice_text(view, style)
        or attempt_text(view, definition, style)
    )


# ---------------------------------------------------------------------------- panels


def teams_table(view: Mapping[str, Any], seat: int | None, style: Style) -> Table:
    """One row per team: its piece, Treasures, tokens (numbered, where the viewer sees them) and notes."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("")
    table.add_column("team")
    table.add_column("on")
    table.add_column("treasures")
    table.add_column("tokens")
    table.add_column("")
    pawns = {t: s for s, ts in pawns_by_space(view).items() for t in ts}
    current = int(view.get("current", 0))
    for s in view["seats"]:
        idx = int(s["index"])
        marker = Text("▶", style="bold") if idx == current else Text(" ")
        name = Text(str(s["name"]), style=f"bold {style.team(idx)}")
        name.append(f" ({idx})", style="dim")
        held = {str(p.get("category")) for p in _pieces(s["zones"].get("treasures"))}
        tre = Text()
        for c in CATEGORY_ORDER:
            info = style.cat(c)
            if c in held:
                tre.append(info["letter"], style=f"bold {info['colour']} on grey11")
            else:
                tre.append("·", style="grey35")
        toks = _tokens_text(s["zones"].get("tokens") or {}, style)
        notes = []
        barred = (s.get("vars") or {}).get("barred")
        if barred and str(pawns.get(idx, "")) == str(barred):
            notes.append(f"must leave {barred}")
        elif barred:  # gone already: it still may not end this turn's move there
            notes.append(f"may not stop on {barred}")
        if not s.get("active", True):
            notes.append("out")
        table.add_row(marker, name, str(pawns.get(idx, "-")), tre, toks, Text(", ".join(notes), style="yellow"))
    return table


def token_number(piece: Mapping[str, Any], index: int) -> str:
    """The number a `return`/`discard` action gives a token: the last part of its ref
    (`tokens.1.3` -> 3), its position in the zone; `index` (1-based) when the ref has none."""
    tail = str(piece.get("ref", "")).rpartition(".")[2]
    return tail if tail.isdigit() else str(index)


def _tokens_text(zone: Mapping[str, Any], style: Style) -> Text:
    """Visible tokens in zone order, numbered as `return tokens.T.N` and `discard` name them
    (`1:C 2:V 3:L`); hidden ones counted."""
    pieces = _pieces(zone)
    if not pieces or any(p.get("hidden") for p in pieces):
        n = int(zone.get("count", len(pieces)))
        return Text(f"{n} hidden" if n else "-", style="dim")
    out = Text()
    for i, p in enumerate(pieces, 1):
        info = style.cat(str(p.get("category")))
        if i > 1:
            out.append(" ")
        out.append(f"{token_number(p, i)}:", style="dim")
        out.append(info["letter"], style=f"bold black on {info['colour']}")
    return out


def card_panel(view: Mapping[str, Any], style: Style) -> RenderableType | None:
    """The challenge being raced for (or the latest one, with its answer)."""
    pend = view.get("pending") or {}
    if pend.get("type") == "respond" and pend.get("card"):
        card, live = pend["card"], True
    else:
        reading = _pieces(view["zones"].get("reading"))
        if not reading:
            return None
        card, live = reading[0], False
    info = style.cat(str(card.get("category")))
    lines = Text()
    title = f"{info['name']} challenge" if live else f"Last challenge ({info['name']})"
    lines.append(title, style=f"bold {info['colour']}")
    if card.get("anagram"):
        lines.append(f"\n  Anagram: {card['anagram']}", style="bold")
        # 000: only the anagram is read first; the hint and the word lengths come once the clock
        # starts (the play loop shows them after Enter), so a live card keeps them back here.
        if live and (card.get("hint") or card.get("lengths")):
            lines.append("\n  (the hint and the letter counts follow when you press Enter)", style="dim")
        elif not live:
            if card.get("hint"):
                lines.append(f"\n  Hint: {card['hint']}")
            if card.get("lengths"):
                lines.append(f"  {card['lengths']}")
    if card.get("clue"):
        for line in str(card["clue"]).rstrip().splitlines():
            lines.append(f"\n  {line}")
        if card.get("letters"):
            lines.append(f"\n  ({card['letters']} letters)", style="dim")
    if "answer" in card:
        lines.append(f"\n  Answer: {card['answer']}", style="bold green")
    if live:
        names = {int(s["index"]): str(s["name"]) for s in view["seats"]}
        seats = [names.get(int(i), str(i)) for i in pend.get("seats", [])]
        locked = [names.get(int(i), str(i)) for i in pend.get("locked", [])]
        limit = int(pend.get("time_limit") or 0)
        lines.append(f"\n  Answering: {', '.join(seats)}", style="dim")
        lines.append(f"\n  Locked in (bid order): {', '.join(locked) or '-'}", style="dim")
        lines.append(f"\n  Time: {limit} s" if limit else "\n  Untimed", style="dim")
    return lines


def bids_shown(view: Mapping[str, Any]) -> bool:
    """Whether the bid board belongs on the screen: while a challenge is in progress, and in the
    rest of the turn that decided it (a team returning tokens above the cap sees its bid).

    Spare pieces stay on the bid spaces until the next card is read, possibly many turns later;
    shown all that time they look like the bids of a challenge still going on. The turn's
    locals (reset each turn; the moving team's alone) hold the challenge's `responses` once it is
    decided; another team returning tokens above the cap on that turn got them as a bid.
    """
    kind = (view.get("pending") or {}).get("type")
    if kind == "respond":
        return True
    decided = "responses" in (view.get("locals") or {})
    returning = kind == "overflow" and view.get("seat") not in (None, view.get("current"))
    return (decided or returning) and bool(pawns_by_space(view, "spare"))


def bids_text(view: Mapping[str, Any], definition: Any, style: Style) -> Text:
    """The bid spaces 1-5 and whose spare piece stands on each."""
    spares = pawns_by_space(view, "spare")
    board = definition.board
    bids = sorted(
        (int(sp.attrs.get("number", 0)), sid) for sid, sp in board.spaces.items() if sp.type == "bid"
    )
    out = Text("Bids: ", style="bold")
    for n, sid in bids:
        teams = spares.get(sid, [])
        out.append(f" {n}:", style="dim")
        if teams:
            out.append(str(teams[0]), style=f"bold {style.team(teams[0])}")
        else:
            out.append("-", style="dim")
    return out


def header(view: Mapping[str, Any], seat: int | None) -> Text:
    """Turn, whose turn it is, the die, and whose view this is."""
    cur = int(view.get("current", 1))
    name = str(view["seats"][cur - 1]["name"]) if view.get("seats") else "?"
    out = Text(f"The Da Vinci Game - {turn_text(view, name)}", style="bold")
    roll = (view.get("locals") or {}).get("die")  # a turn variable: every decision of the mover can read it
    if roll:
        out.append(f"   die: {roll}", style="bold yellow")
    if seat is not None:
        out.append(f"   (view of {view['seats'][seat]['name']})", style="dim")
    result = view.get("result")
    if result:
        winners = [str(view["seats"][w]["name"]) for w in result.get("winners", [])]
        why = " (turn limit)" if result.get("reason") == "turn-limit" else ""
        out.append(f"\nGame over: {winners_text(winners)}{why}", style="bold green")
    return out


def render(view: dict[str, Any], seat: int | None, height: int | None = None, width: int = 120) -> RenderableType:
    """The whole screen for `seat` (0-based, None for a spectator). With the terminal's `height`
    (and `width`), fewer recent events are shown when the screen would not fit (at least 3)."""
    definition = definition_from_view(view)
    style = Style(definition.display or {})
    parts: list[RenderableType] = [header(view, seat), board_text(view, definition, style)]
    if bids_shown(view):
        parts.append(bids_text(view, definition, style))
    parts.append(teams_table(view, seat, style))
    card = card_panel(view, style)
    if card is not None:
        parts.append(card)
    # Last, next to the prompt: what the pending decision's choices mean.
    decision = decision_text(view, definition, style)
    tail = [decision] if decision is not None else []
    most = 16
    if height is not None:
        left = lines_left([*parts, *tail], view, height, width)
        if left < 3 and card is not None and (view.get("pending") or {}).get("type") != "respond":
            # The last challenge's card (not one being answered) gives way to the board: its
            # outcome is in the events, and the board's top rows had scrolled off at 100x40.
            parts.remove(card)
            left = lines_left([*parts, *tail], view, height, width)
        if left < 3:
            # The board is taller than the terminal: the header scrolls off the top, so the turn,
            # the die and whose view it is come again next to the prompt.
            tail.insert(0, header(view, seat))
        most = max(3, min(most, left))
    events = events_since_own_move(view, least=min(6, most), most=most)  # a challenge the viewer set, included
    if events:
        parts.append(Text("\n".join(f"· {e}" for e in events), style="dim"))
    return Group(*parts, *tail)


def min_width(view: dict[str, Any]) -> int:
    """The columns the board needs: a narrower terminal wraps it into a jumble (play says so)."""
    definition = definition_from_view(view)
    board = board_text(view, definition, Style(definition.display or {})).plain
    return max((len(line.rstrip()) for line in board.splitlines()), default=0)


# The short forms `expand` reads, by their first word (the play loop explains a misread one).
SHORT_FORMS = {"return": "return N (give your token N back)", "discard": "discard N (give your token N back)"}


def expand(text: str, view: dict[str, Any]) -> str | None:
    """A short command in full (`return 3` -> `return tokens.2.3` for team 2); None otherwise."""
    words = text.strip().lower().split()
    me = view.get("seat")
    if len(words) == 2 and words[0] in SHORT_FORMS and words[1].isdigit() and me:
        return f"{words[0]} tokens.{me}.{int(words[1])}"
    return None


__all__ = ["HELP", "SHORT_FORMS", "expand", "help_text", "min_width", "render"]
