"""Clue-card decks as frozen definitions, built from validated deck and deck-overlay files.

A deck file (`kind: deck`) defines a deck; a deck-overlay file (`kind: deck-overlay`,
`extends: <deck id>`) adds cards to a deck defined elsewhere, usually by another pack.
Which way a card is presented is decided by its fields, never by the deck's name: a card
with an `anagram` is revealed in two steps (the anagram, then the hint and word lengths
when the clock starts); any other card shows its `clue`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from davinci.engine.errors import DavinciError, RefError, SourceLocation, UsageError, did_you_mean, quoted

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.packs import Pack
    from davinci.engine.rng import Rng

__all__ = [
    "Card",
    "Deck",
    "DocLike",
    "card_from_data",
    "deck_from_doc",
    "apply_overlay",
    "merge_decks",
    "load_decks",
    "draw_practice_card",
    "find_deck",
]


class DocLike(Protocol):
    """What deck building needs from a loaded YAML document (see engine.yamlload.Doc)."""

    path: str
    data: Any

    def loc(self, path: Sequence[str | int], key: bool = False) -> SourceLocation: ...


@dataclass(frozen=True)
class Card:
    """One clue card; `clue` or `anagram` holds what is shown first."""

    id: str
    deck: str
    difficulty: int
    answer: str | int
    alternates: tuple[str | int, ...] = ()
    clue: str | None = None
    letters: int | None = None
    anagram: str | None = None
    hint: str | None = None
    lengths: str | None = None
    notes: str | None = None
    location: SourceLocation = field(default=SourceLocation("<memory>"), compare=False)

    @property
    def accepted(self) -> tuple[str | int, ...]:
        """The answer followed by its alternates."""
        return (self.answer, *self.alternates)

    @property
    def two_step(self) -> bool:
        """True when the card is revealed in two steps (first the anagram, then hint and lengths)."""
        return self.anagram is not None

    def first_reveal(self) -> list[str]:
        """Lines read out before the clock starts (only for two-step cards), else empty."""
        return _lines(self.anagram) if self.anagram is not None else []

    def timed_reveal(self) -> list[str]:
        """Lines shown when the clock starts."""
        if self.anagram is not None:
            lines = _lines(self.hint)
            if self.lengths:
                lines.append(self.lengths)
            return lines
        lines = _lines(self.clue)
        if self.letters is not None:
            lines.append(f"({self.letters} letters)")
        return lines


def _lines(text: str | None) -> list[str]:
    if not text:
        return []
    return [line.rstrip() for line in text.strip("\n").splitlines()]


@dataclass(frozen=True)
class Deck:
    """A deck of clue cards, base cards first, then cards added by overlays in pack order."""

    id: str
    name: str
    category: str
    description: str
    cards: tuple[Card, ...]
    location: SourceLocation = field(default=SourceLocation("<memory>"), compare=False)
    overlays: tuple[str, ...] = ()

    def card(self, card_id: str) -> Card:
        """The card with this id (UsageError if there is none)."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise UsageError(f"deck '{self.id}' has no card '{card_id}'")

    def with_difficulty(self, difficulty: int | None) -> tuple[Card, ...]:
        """Cards of one difficulty (all cards for None)."""
        if difficulty is None:
            return self.cards
        return tuple(c for c in self.cards if c.difficulty == difficulty)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def card_from_data(data: Mapping[str, Any], deck_id: str, location: SourceLocation) -> Card:
    """Build a Card from one validated card mapping."""
    answer = data["answer"]
    if not isinstance(answer, int) or isinstance(answer, bool):
        answer = str(answer)
    alternates: list[str | int] = []
    for alt in data.get("alternates") or ():
        alternates.append(alt if isinstance(alt, int) and not isinstance(alt, bool) else str(alt))
    letters = data.get("letters")
    return Card(
        id=str(data["id"]),
        deck=deck_id,
        difficulty=int(data.get("difficulty", 1)),
        answer=answer,
        alternates=tuple(alternates),
        clue=_opt_str(data.get("clue")),
        letters=letters if isinstance(letters, int) and not isinstance(letters, bool) else None,
        anagram=_opt_str(data.get("anagram")),
        hint=_opt_str(data.get("hint")),
        lengths=_opt_str(data.get("lengths")),
        notes=_opt_str(data.get("notes")),
        location=location,
    )


def _cards(doc: DocLike, deck_id: str) -> tuple[Card, ...]:
    raw = doc.data.get("cards") or []
    return tuple(card_from_data(c, deck_id, doc.loc(["cards", i])) for i, c in enumerate(raw))


def deck_from_doc(doc: DocLike) -> Deck:
    """Build a Deck from a validated `kind: deck` document."""
    data = doc.data
    deck_id = str(data["id"])
    deck = Deck(
        id=deck_id,
        name=str(data.get("name", deck_id)),
        category=str(data.get("category", deck_id)),
        description=str(data.get("description", "")),
        cards=_cards(doc, deck_id),
        location=doc.loc([]),
    )
    _check_unique_ids(deck.cards, {})
    return deck


def _check_unique_ids(cards: Iterable[Card], seen: dict[str, Card], code: str = "DV201") -> None:
    """RefError for a card id used twice, with lint's code: DV201 in one deck, DV213 when an
    overlay's card takes an id of the deck it extends."""
    for c in cards:
        first = seen.get(c.id)
        if first is not None:
            raise RefError(f"card id '{c.id}' is already used at {first.location}", c.location, code=code)
        seen[c.id] = c


def apply_overlay(base: Deck, overlay: DocLike) -> Deck:
    """Return `base` with the overlay's cards appended (RefError on a card id the deck already has)."""
    added = _cards(overlay, base.id)
    seen = {c.id: c for c in base.cards}
    _check_unique_ids(added, seen, "DV213")
    return Deck(
        id=base.id,
        name=base.name,
        category=base.category,
        description=base.description,
        cards=base.cards + added,
        location=base.location,
        overlays=(*base.overlays, overlay.path),
    )


def merge_decks(docs: Iterable[DocLike]) -> dict[str, Deck]:
    """Build decks from validated deck and deck-overlay documents: bases first, overlays in the given order."""
    decks: dict[str, Deck] = {}
    overlays: list[DocLike] = []
    owner: dict[str, tuple[str, Card]] = {}  # card id -> (deck, card): ids are unique across decks too
    for doc in docs:
        kind = doc.data.get("kind")
        if kind == "deck-overlay":
            overlays.append(doc)
            continue
        deck = deck_from_doc(doc)
        if deck.id in decks:
            raise RefError(
                f"deck id '{deck.id}' is already defined at {decks[deck.id].location}", deck.location, code="DV021"
            )
        decks[deck.id] = deck
        _check_ids_across(deck.id, deck.cards, owner)
    for doc in overlays:
        target = str(doc.data.get("extends"))
        if target not in decks:
            known = ", ".join(sorted(decks)) or "none"
            raise RefError(
                f"overlay extends unknown deck '{target}' (known decks: {known})", doc.loc(["extends"])
            )
        before = len(decks[target].cards)
        decks[target] = apply_overlay(decks[target], doc)
        _check_ids_across(target, decks[target].cards[before:], owner)
    return decks


def _check_ids_across(deck_id: str, cards: Iterable[Card], owner: dict[str, tuple[str, Card]]) -> None:
    """RefError (lint's DV216) for a card whose id a card of another deck loaded before has."""
    for c in cards:
        first = owner.setdefault(c.id, (deck_id, c))
        if first[0] != deck_id:
            raise RefError(f"card id '{c.id}' is already used in deck '{first[0]}' at {first[1].location}",
                           c.location, code="DV216")


def load_decks(packs: Sequence[Pack]) -> dict[str, Deck]:
    """Load, validate and merge every deck and overlay listed by `packs` (in order), keyed by deck id."""
    from davinci.engine.packs import read_doc
    from davinci.engine.schema import validate

    docs: list[DocLike] = []
    for pack in packs:
        for rel in pack.decks:
            doc = read_doc(pack, rel)
            kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
            if kind not in ("deck", "deck-overlay"):
                raise DavinciError(f"expected a deck or deck-overlay file, found kind {kind!r}", doc.loc([]))
            errors = validate(doc, str(kind))
            if errors:
                raise errors[0]
            docs.append(doc)
    return merge_decks(docs)


def deck_packs(packs: Sequence[Pack]) -> dict[str, list[str]]:
    """The ids of the packs that give each deck its cards (the deck's own pack, then its overlays'),
    keyed by deck id; for decks `load_decks` has loaded from these packs."""
    from davinci.engine.packs import read_doc

    out: dict[str, list[str]] = {}
    for pack in packs:
        for rel in pack.decks:
            data = read_doc(pack, rel).data
            deck = data.get("extends") if data.get("kind") == "deck-overlay" else data.get("id")
            ids = out.setdefault(str(deck), [])
            if pack.id not in ids:
                ids.append(pack.id)
    return out


def find_deck(decks: Mapping[str, Deck], name: str) -> Deck:
    """The deck whose id or category is `name` (case-insensitive); UsageError listing the choices otherwise."""
    wanted = "-".join(name.replace("_", " ").replace("-", " ").split()).casefold()  # "Sea Shells" is sea-shells
    for deck in decks.values():
        if deck.id.casefold() == wanted:
            return deck
    matches = [d for d in decks.values() if d.category.casefold() == wanted]
    if not matches:  # the name a deck shows ("Sea Shells"; "francais" for Français, as answers fold accents)
        from davinci.engine.answers import fold

        folded = fold(wanted.replace("-", " "))
        matches = [d for d in decks.values() if "-".join(d.name.split()).casefold() == wanted
                   or fold(d.name) == folded]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"clue category '{name}' is that of several decks: name one of them "
                         f"({', '.join(sorted(d.id for d in matches))})")
    choices = ", ".join(f"{d.id} ({d.name})" if "-".join(d.name.split()).casefold() != d.id.casefold() else d.id
                        for d in sorted(decks.values(), key=lambda d: d.id)) or "none installed"
    near = did_you_mean(wanted, [*decks, *(d.category for d in decks.values())], aside=False)
    raise UsageError(f"unknown clue category '{quoted(name)}'{near} (choose one of: {choices})")


def draw_practice_card(deck: Deck, rng: Rng, difficulty: int | None = None) -> Card:
    """A uniformly random card of `deck` (of one difficulty when given) drawn with the seeded `rng`."""
    pool = deck.with_difficulty(difficulty)
    if not pool:
        have = sorted({c.difficulty for c in deck.cards})
        raise UsageError(
            f"deck '{deck.id}' has no cards of difficulty {difficulty}"
            + (f" (it has {', '.join(map(str, have))})" if have else " (it is empty)")
        )
    return rng.choice(pool)
