"""`davinci clue`: practise one clue card at the terminal, with the game's timing rule.

A card with an anagram is revealed in two steps, as at the table: the anagram alone
first (take your time to write it down), then the hint and the word lengths appear as
the clock starts. Any other card starts the clock as soon as it is shown. The answer is
judged by the same matching the game uses; an answer given after the time limit is too
late, whatever it says.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from davinci.engine.answers import answer_matches
from davinci.engine.decks import Card, Deck, draw_practice_card, find_deck
from davinci.engine.errors import UsageError, did_you_mean, quoted
from davinci.engine.race import STOP_WORDS
from davinci.engine.rng import Rng
from davinci.engine.values import tenths_up

__all__ = ["run_practice", "DEFAULT_TIME_LIMIT", "EXIT_INTERRUPTED"]

DEFAULT_TIME_LIMIT = 60.0
EXIT_INTERRUPTED = 130

InputFn = Callable[[str], str]
Clock = Callable[[], float]


def _installed_decks(packs: Sequence[str]) -> dict[str, Deck]:
    from davinci.engine.decks import load_decks
    from davinci.engine.packs import all_packs

    return load_decks(all_packs(packs))


def _choose_deck(decks: Mapping[str, Deck], category: str | None, difficulty: int | None, rng: Rng) -> Deck:
    if category is not None:
        return find_deck(decks, category)
    usable = [d for d in sorted(decks.values(), key=lambda d: d.id) if d.with_difficulty(difficulty)]
    if not usable:
        wanted = "" if difficulty is None else f" of difficulty {difficulty}"
        raise UsageError(f"no installed deck has cards{wanted}")
    return rng.choice(usable)


def _difficulty_label(level: int) -> str:
    return "*" * max(level, 0) if 0 < level <= 5 else str(level)


def _show_card_header(console: Console, deck: Deck, card: Card) -> None:
    title = Text.assemble(
        (deck.name, "bold"), "  ", (f"difficulty {_difficulty_label(card.difficulty)}", "dim")
    )
    console.print(title)


def _panel(lines: Sequence[str], style: str) -> Panel:
    return Panel(Text("\n".join(lines)), border_style=style, expand=False)


def _ask(console: Console, input_fn: InputFn, prompt: str) -> str:
    # The prompt goes through the console so that it is styled and recorded like every
    # other line; input_fn only reads.
    console.print(Text(prompt, style="bold"), end="")
    return input_fn("")


def _accepted_text(card: Card) -> str:
    return ", ".join(str(a) for a in card.alternates)


def _show_solution(console: Console, card: Card) -> None:
    console.print(Text.assemble("Solution: ", (str(card.answer), "bold green")))
    if card.alternates:
        console.print(Text(f"Also accepted: {_accepted_text(card)}", style="dim"))


def run_practice(
    category: str | None,
    difficulty: int | None,
    timer: bool,
    seed: int | None,
    console: Console,
    input_fn: InputFn,
    *,
    decks: Mapping[str, Deck] | None = None,
    packs: Sequence[str] = (),
    time_limit: float = DEFAULT_TIME_LIMIT,
    clock: Clock = time.monotonic,
    terminal: Any = None,
    card_id: str | None = None,
) -> int:
    """Show one random clue (or the card `card_id`), read an answer, judge it, show the solution;
    returns the exit code. With a `terminal` (race.RawTerminal, or a stand-in) and the timer on,
    the answer is typed under a live countdown."""
    if seed is None:
        seed = secrets.randbits(32)
    rng = Rng(seed)
    all_decks = decks if decks is not None else _installed_decks(packs)
    if not all_decks:
        raise UsageError("no clue decks are installed")
    if card_id is not None:
        deck, card = _find_card(all_decks, card_id, packs)
        # A category or difficulty that agrees with the card is fine; one that does not is a mistake.
        if category is not None and find_deck(all_decks, category) is not deck:
            raise UsageError(f"card {card.id} is in the deck {deck.name}, not in '{quoted(category)}': --card names "
                             "one card, so the category may be left out")
        if difficulty is not None and difficulty != card.difficulty:
            raise UsageError(f"card {card.id} has difficulty {card.difficulty}, not {difficulty}: --card names one "
                             "card, so --difficulty may be left out")
    else:
        deck = _choose_deck(all_decks, category, difficulty, rng)
        card = draw_practice_card(deck, rng, difficulty)
    try:
        return _play_card(console, input_fn, deck, card, timer, time_limit, clock, seed, terminal, card_id is not None)
    except KeyboardInterrupt:
        console.print()
        console.print(Text("Interrupted.", style="yellow"))
        return EXIT_INTERRUPTED
    except EOFError as ended:
        from davinci.engine.errors import InputCut

        console.print()
        console.print(Text("No answer given.", style="yellow"))
        _show_solution(console, card)
        console.print(Text(f"card {card.id}" if card_id is not None else f"card {card.id}, seed {seed}", style="dim"))
        return 1 if isinstance(ended, InputCut) else 0  # (input cut at a line too long: an error, as in play)


def _find_card(decks: Mapping[str, Deck], card_id: str, packs: Sequence[str] = ()) -> tuple[Deck, Card]:
    """The deck and the card whose id is `card_id` (case-insensitive); UsageError otherwise."""
    wanted = card_id.strip().casefold()
    for deck in decks.values():
        for card in deck.cards:
            if card.id.casefold() == wanted:
                return deck, card
    ids = [c.id for d in decks.values() for c in d.cards]
    # `riddles-3` for riddles-003: the number as the ids write it (zero-padded), if such a card exists.
    m = re.fullmatch(r"(.*-)0*(\d+)", wanted)
    padded = [i for i in ids if m and re.fullmatch(re.escape(m.group(1)) + r"0*" + m.group(2), i.casefold())]
    hint = f" (did you mean '{padded[0]}'?)" if padded else did_you_mean(card_id, ids)
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*-\d+", wanted):
        hint += f"; card ids look like {ids[0]}" if ids else ""
    elif not packs:
        hint += "; a card of your own pack needs --pack FOLDER"
    raise UsageError(f"no clue card '{quoted(card_id)}'{hint}")


def _play_card(
    console: Console,
    input_fn: InputFn,
    deck: Deck,
    card: Card,
    timer: bool,
    time_limit: float,
    clock: Clock,
    seed: int,
    terminal: Any = None,
    chosen: bool = False,
) -> int:
    """Show `card`, read and judge the answer; `chosen`: the card was named (`--card`), so no seed
    is shown (it drew nothing)."""
    _show_card_header(console, deck, card)
    early = ""
    shown_at = clock()
    if card.two_step:
        console.print(_panel(card.first_reveal(), "cyan"))
        early = _ask(console, input_fn, "Write it down, then press Enter to start the clock (or answer now) ")
    console.print(_panel(card.timed_reveal(), "cyan"))
    if early.strip():
        # Answered while the anagram was shown alone (as in `davinci play`): timed from the card.
        given, elapsed, late = early, clock() - shown_at, False
    elif timer and terminal is not None:
        # A live countdown in front of the answer; Enter, or the end of the time, ends it.
        from davinci.engine.race import countdown_line

        def write(text: str) -> None:
            console.file.write(text)
            console.file.flush()

        console.print(Text("Type your answer; Enter locks it in.", style="dim"))
        given, elapsed, late = countdown_line(terminal, time_limit, write, clock, console.width)
    else:
        late = False
        if timer:
            console.print(Text(f"The clock is running: {time_limit:g} seconds.", style="dim"))
        started = clock()
        given = _ask(console, input_fn, "Your answer: ")
        elapsed = clock() - started
    if late or (timer and elapsed > time_limit):
        console.print(Text(f"Too late: {tenths_up(elapsed)} s, the limit is {time_limit:g} s.", style="bold red"))
    elif not any(c.isalnum() for c in given):  # nothing but spaces or punctuation (`?`): no answer
        console.print(Text("No answer.", style="yellow"))
    elif given.strip().lower() in STOP_WORDS:  # as at the game's answer prompt: a stop, not an answer
        console.print(Text(f"No answer ('{given.strip()}' stops).", style="yellow"))
    elif answer_matches(given, card.answer, card.alternates):
        when = f" in {tenths_up(elapsed)} s" if timer else ""
        console.print(Text(f"Right{when}!", style="bold green"))
    else:
        console.print(Text("Wrong.", style="bold red"))
    _show_solution(console, card)
    console.print(Text(f"card {card.id}" if chosen else f"card {card.id}, seed {seed}", style="dim"))
    return 0
