"""Generic answer matching for typed answers to clues.

Players type answers quickly under a timer, so two answers that differ only in case,
accents, punctuation, spacing, a leading article, or in writing a number as digits or
words are the same answer. A single slip of the keyboard is forgiven only in long
answers (eight letters or more), and in a one-word answer only when it does not make another
real word (the CMU dictionary's words, names and places included): "lipstik" is "lipstick",
"dipstick" is not; in a two-word answer, not when a changed first letter makes another word
("Great Hall" is not the Great Wall); "Sydney Opera Hose" is still the Sydney Opera House. The answer's plural or singular is the answer, whatever its length.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

__all__ = [
    "normalise",
    "number_value",
    "answer_matches",
    "match_key",
    "edit_distance",
    "letters_only",
    "fold",
]

# Letters that NFKD leaves alone but that a player without the key will type as ASCII.
_TRANSLITERATE = {
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ı": "i",
    "ŀ": "l",
}

_ARTICLES = ("the", "a", "an")

# Dashes and slashes separate words ("Spider-Man", "AC/DC"); apostrophes, full stops and
# the like join them ("St. Paul's" is "st pauls").
_SEPARATORS = frozenset("/\\_|~")


def _fold_char(ch: str) -> str:
    """Map one case-folded, decomposed character to what it contributes to a normal form."""
    if ch in _TRANSLITERATE:
        return _TRANSLITERATE[ch]
    cat = unicodedata.category(ch)
    if cat[0] in "LN":
        return ch
    if cat == "Mn":
        return ""  # combining accent left by NFKD
    if cat[0] == "Z" or ch.isspace() or cat == "Pd" or ch in _SEPARATORS:
        return " "
    if ch == "&":
        return " and "
    return ""


class _FoldTable(dict[int, str]):
    """A str.translate table that works out (and remembers) each character's folding on first use."""

    def __missing__(self, code: int) -> str:
        value = _fold_char(chr(code))
        self[code] = value
        return value


_FOLD_TABLE = _FoldTable()
_DIGIT_GROUP = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DIGIT_MARK = re.compile(r"(?<=\d)[^\w\s](?=\d)")
_HAS_DIGIT = re.compile(r"\d")


def fold(text: str) -> str:
    """Case-fold, strip accents and punctuation, collapse spaces; unlike normalise, keeps articles."""
    return _fold_cached(text) if len(text) <= _CACHED_CHARS else _fold(text)


# Texts up to this long are remembered (answers and replies); a long text would make the cache's
# memory grow with what the rules build.
_CACHED_CHARS = 200


@functools.lru_cache(maxsize=1 << 16)
def _fold_cached(text: str) -> str:
    return _fold(text)


# Cyrillic letters written with a mark that are letters of their own, not accented ones: й is not
# и ("зайка" is not "заика"), nor ў у, nor ї і. (ё is е with an accent, by Russian custom.)
_KEPT_LETTERS = {"\u0438\u0306": "\u0439", "\u0443\u0306": "\u045e", "\u0456\u0308": "\u0457"}
_KEPT_MARKED = re.compile("|".join(_KEPT_LETTERS))


def _keep_letters(decomposed: str) -> str:
    return _KEPT_MARKED.sub(lambda m: _KEPT_LETTERS[m.group()], decomposed) if "\u0306" in decomposed \
        or "\u0308" in decomposed else decomposed


def _fold(text: str) -> str:
    decomposed = _keep_letters(unicodedata.normalize("NFKD", text.casefold()))
    if _HAS_DIGIT.search(decomposed):
        # A comma inside a number ("1,000") groups digits; any other mark between digits
        # ("3.5", "10:30") must keep them apart rather than fuse them into a new number.
        decomposed = _DIGIT_MARK.sub(" ", _DIGIT_GROUP.sub("", decomposed))
    folded = decomposed.translate(_FOLD_TABLE)
    if not folded.isascii():
        # Casefolding after decomposition catches letters whose fold only exists precomposed.
        folded = _keep_letters(unicodedata.normalize("NFKD", folded).casefold())
    return " ".join(folded.split())


def normalise(text: str) -> str:
    """Return the comparable form of an answer: folded case, no accents or punctuation, no leading article."""
    words = fold(text).split()
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(words)


def letters_only(text: str) -> str:
    """Return only the letters of `text`, lower-cased and without accents (used for anagram checks)."""
    return "".join(ch for ch in fold(text) if ch.isalpha())


_UNITS = {
    "zero": 0,
    "nought": 0,  # British words for zero
    "naught": 0,
    "nil": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,  # a common misspelling; accepting it costs nothing
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = (("billion", 10**9), ("million", 10**6), ("thousand", 1000))
NUMBER_WORDS = (
    frozenset(_UNITS) | frozenset(_TEENS) | frozenset(_TENS) | {"hundred", "and"} | {s for s, _ in _SCALES}
)


class _Words:
    """A cursor over number words; parsing methods return None and leave the cursor alone on failure."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = list(words)
        self.pos = 0

    def peek(self) -> str | None:
        return self.words[self.pos] if self.pos < len(self.words) else None

    def take(self, word: str) -> bool:
        if self.peek() == word:
            self.pos += 1
            return True
        return False

    def below_hundred(self) -> int | None:
        word = self.peek()
        if word is None:
            return None
        if word in _TEENS:
            self.pos += 1
            return _TEENS[word]
        if word in _UNITS and _UNITS[word] != 0:
            self.pos += 1
            return _UNITS[word]
        if word in _TENS:
            self.pos += 1
            unit = self.peek()
            if unit is not None and unit in _UNITS and _UNITS[unit] != 0:
                self.pos += 1
                return _TENS[word] + _UNITS[unit]
            return _TENS[word]
        return None

    def below_thousand(self) -> int | None:
        start = self.pos
        if self.peek() == "a" and self.pos + 1 < len(self.words) and self.words[self.pos + 1] == "hundred":
            self.pos += 1
            head: int | None = 1
        else:
            head = self.below_hundred()
        if head is None:
            self.pos = start
            return None
        if not self.take("hundred"):
            return head
        value = head * 100
        mark = self.pos
        self.take("and")
        rest = self.below_hundred()
        if rest is None:
            self.pos = mark  # a dangling "and" belongs to nobody: reject later
            return value
        return value + rest

    def group_head(self) -> int | None:
        """A multiplier before a scale word: "a thousand" is one thousand."""
        if self.peek() == "a" and self.pos + 1 < len(self.words):
            nxt = self.words[self.pos + 1]
            if any(nxt == name for name, _ in _SCALES):
                self.pos += 1
                return 1
        return self.below_thousand()


_SCALE_VALUES = dict(_SCALES)


def _words_value(words: Sequence[str]) -> int | None:
    """Value of a whole sequence of English number words, or None if it is not exactly one number."""
    if len(words) == 1 and _UNITS.get(words[0], -1) == 0:
        return 0
    value = _scaled_value(words)
    if value is None:
        value = _year_value(words)
    return value


def _scaled_value(words: Sequence[str]) -> int | None:
    """Parse "two million three hundred thousand and five": groups below 1000 times falling scales."""
    cur = _Words(words)
    total = 0
    last_scale: int | None = None
    first = True
    while cur.peek() is not None:
        if not first:
            cur.take("and")  # "two thousand and five"
        first = False
        head = cur.group_head()
        if head is None:
            return None
        scale = _SCALE_VALUES.get(cur.peek() or "")
        if scale is None:
            return total + head if cur.peek() is None else None
        # Scales must fall strictly: "five thousand two million" is not a number.
        if last_scale is not None and scale >= last_scale:
            return None
        cur.pos += 1
        last_scale = scale
        total += head * scale
    return None if first else total


def _year_value(words: Sequence[str]) -> int | None:
    """Parse the way years are said: "nineteen eighty-four" is 1984."""
    cur = _Words(words)
    high = cur.below_hundred()
    low = cur.below_hundred()
    if high is None or low is None or cur.peek() is not None or high < 10 or low < 10:
        return None
    return high * 100 + low


_NUMBER_TOKENS = NUMBER_WORDS | {"a", "minus", "negative"}
_DIGITS = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)")
_GROUPED_DIGITS = re.compile(r"\d{1,3}(?: \d{3})+")
# A whole number written with a decimal point and zeros ("58.0", "10.00"): the number itself.
_WHOLE_DECIMAL = re.compile(r"([+-]?\d+)\.0+")


# The longest number an answer may write: in characters, and in words ("nine hundred ninety-nine
# thousand nine hundred ninety-nine" is 8 words).
MAX_NUMBER_CHARS = 200
MAX_ANSWER_CHARS = 500  # the longest answer or typed reply compared (the shipped answers have at most 40)
MAX_NUMBER_WORDS = 16


def number_value(text: str) -> int | None:
    """Return the integer written in `text` as digits or English words ("twenty-one"), else None.
    A percentage ("60%") is no whole number: 60% of something is not 60."""
    if len(text) > MAX_NUMBER_CHARS and len(text.strip()) > MAX_NUMBER_CHARS:
        return None  # no answer is a number that long (Python reads at most 4,300 digits); not cached
    if "%" in text or "\u2030" in text:
        return None
    return _number_value(text)


@functools.lru_cache(maxsize=1 << 16)
def _number_value(text: str) -> int | None:
    raw = text.strip()
    if _DIGITS.fullmatch(raw):
        return int(raw.replace(",", ""))
    whole = _WHOLE_DECIMAL.fullmatch(raw)
    if whole is not None:
        return int(whole.group(1))
    folded = fold(raw)
    if _GROUPED_DIGITS.fullmatch(folded):
        return int(folded.replace(" ", ""))
    words = folded.split()
    if not words or not all(w in _NUMBER_TOKENS or w.isdigit() for w in words):
        return None
    sign = 1
    if words[0] in ("minus", "negative") and len(words) > 1:
        sign, words = -1, words[1:]
    if _DIGITS.fullmatch(" ".join(words)):
        return sign * int(words[0])
    value = _words_value(words)
    return None if value is None else sign * value


# Words that change what a number beside them means: no number is read from around them.
_NOT_THE_NUMBER = frozenset({"not", "no", "minus", "negative", "bc", "bce", "before", "under", "over", "about",
                             "almost", "nearly", "than", "or", "and", "to", "between", "plus", "times", "x",
                             # a part, a multiple or a power of it, or a hedge: another number, or none
                             "half", "halves", "quarter", "quarters", "thirds", "fourths", "fifths", "tenths",
                             "percent", "per", "cent", "dozen", "dozens", "score", "squared", "cubed", "twice",
                             "double", "triple", "treble", "thrice", "least", "most", "roughly", "around",
                             "approximately", "approx", "circa", "ca", "some", "more", "less", "fewer", "above",
                             "below", "beyond", "past", "upto", "max", "min", "maximum", "minimum", "odd", "ish",
                             "or so", "thousands", "hundreds", "millions", "tens"})
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_WORD_THEN_DIGITS = re.compile(r"(?<=[a-z])-(?=\d)")


_ORDINAL_STEMS = {"first": "one", "second": "two", "third": "three", "fifth": "five", "eighth": "eight",
                  "ninth": "nine", "twelfth": "twelve"}


def _cardinal(word: str) -> str | None:
    """The cardinal of an ordinal written in words ("forty-fifth": "forty-five"), else None."""
    head, dash, last = word.rpartition("-")
    base = _ORDINAL_STEMS.get(last)
    if base is None and last.endswith("ieth"):
        base = last[:-4] + "y"  # twentieth
    elif base is None and last.endswith("th"):
        base = last[:-2]  # fourth, thirteenth, hundredth
    if base is None or base not in NUMBER_WORDS or (head and not all(h in NUMBER_WORDS for h in head.split("-"))):
        return None
    return f"{head}{dash}{base}"


def number_amid_words(text: str) -> int | None:
    """The number a reply gives with a few words of its own around it: a unit ("13 figures",
    "52 cards", "1492 AD"), a name ("Route 66", "Catch-22", "day 359") or an ordinal ("45th"):
    one number, and at most three other words, none of them a number or a word that changes the
    number's meaning ("not 24", "24 or 25", "1492 BC" give None)."""
    if len(text) > MAX_NUMBER_CHARS:
        return None
    words = _WORD_THEN_DIGITS.sub(" ", fold(text).strip()).split()
    ordinals = [_ORDINAL.fullmatch(w) or _cardinal(w) for w in words]
    words = [o if isinstance(o, str) else o.group(1) if o else w for o, w in zip(ordinals, words)]
    start, end = 0, len(words)
    while start < end and words[start].isalpha() and words[start] not in _NUMBER_TOKENS:
        start += 1
    while end > start and words[end - 1].isalpha() and words[end - 1] not in _NUMBER_TOKENS:
        end -= 1
    around = words[:start] + words[end:]
    if (not around and not any(ordinals)) or len(around) > 3 or start == end or any(w in _NOT_THE_NUMBER for w in around):
        # "6 times" and "150 min" after the number count it ("times 6", "min 150" do not).
        if not (around and start == 0 and words[end] in _AFTER_THE_NUMBER and len(around) == 1):
            return None
    return number_value(" ".join(words[start:end]))


# Words of _NOT_THE_NUMBER that, alone after the number, only say what it counts: "6 times" is
# six occurrences, "150 min" a number of minutes.
_AFTER_THE_NUMBER = frozenset({"times", "min"})




def _digits_for_number_words(words: Sequence[str]) -> list[str]:
    """Replace each maximal run of number words by its digits, so "Ocean's Eleven" matches "Oceans 11"."""
    out: list[str] = []
    i = 0
    while i < len(words):
        run_end = i
        stop = min(len(words), i + MAX_NUMBER_WORDS)  # no number is read from a longer run at once
        while run_end < stop and (words[run_end] in NUMBER_WORDS or words[run_end] == "a"):
            run_end += 1
        # Longest prefix of the run that reads as one number, of at most MAX_NUMBER_WORDS words
        # (a run of 3,000 number words made this cubic: minutes for one answer).
        for j in range(min(run_end, i + MAX_NUMBER_WORDS), i, -1):
            value = _words_value(words[i:j])
            if value is not None:
                out.append(str(value))
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out


def match_key(text: str) -> str:
    """Return the key two answers share when they count as the same answer (before typo tolerance)."""
    return " ".join(_digits_for_number_words(normalise(text).split()))


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Damerau-Levenshtein distance (optimal string alignment: adjacent swaps count once).

    With `limit`, any distance above it may be reported as `limit + 1` (faster early exit).
    """
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    if limit is not None:
        return _banded_distance(a, b, limit)
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, prev2[j - 2] + 1)
            cur[j] = best
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[len(b)]


def _banded_distance(a: str, b: str, limit: int) -> int:
    """`edit_distance` with a limit: only cells within `limit` of the diagonal can stay within
    it, so each row costs O(limit), not O(len(b)) (two 8,000-letter texts took two minutes)."""
    far = limit + 1
    n, m = len(a), len(b)
    prev2: list[int] = []
    prev = [j if j <= limit else far for j in range(m + 1)]
    for i in range(1, n + 1):
        cur = [far] * (m + 1)
        if i <= limit:
            cur[0] = i
        lo, hi = max(1, i - limit), min(m, i + limit)
        for j in range(lo, hi + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, prev2[j - 2] + 1)
            cur[j] = min(best, far)
        if min(cur[lo - 1 : hi + 1]) > limit:
            return far
        prev2, prev = prev, cur
    return min(prev[m], far)


def _one_matches(
    given_key: str, given_number: int | None, answer: str | int, tolerance: int, min_len: int
) -> bool:
    if isinstance(answer, int) and not isinstance(answer, bool):
        return given_number == answer
    answer_text = str(answer)
    answer_number = number_value(answer_text)
    if answer_number is not None:
        return given_number == answer_number
    key = match_key(answer_text)
    if not key:
        return False
    if given_key == key or given_key.replace(" ", "") == key.replace(" ", ""):
        return True
    if _plural_pair(given_key, key):
        return True  # the answer's plural or singular, whatever its length: "bells" for bell
    if tolerance <= 0 or sum(ch.isalpha() for ch in normalise(answer_text)) < min_len:
        return False
    # A slip may never change a number inside the answer ("Apollo 13" is not "Apollo 12").
    if re.findall(r"\d+", given_key) != re.findall(r"\d+", key):
        return False
    if edit_distance(given_key.replace(" ", ""), key.replace(" ", ""), tolerance) > tolerance:
        return False
    return not _another_word(given_key, key)


def _plural_pair(a: str, b: str) -> bool:
    """Whether one key is the other with its last word made plural (an `s`, an `es`, or `y` to
    `ies`): "bells" and "bell", "toothbrushes" and "toothbrush", "daisies" and "daisy". Keys with
    digits are numbers' business, never plurals ("11s")."""
    return b in plural_partners(a)


_HISSING = ("s", "x", "z", "ch", "sh")  # take `es`: "glasses", never "glasss"


def plural_partners(key: str) -> tuple[str, ...]:
    """Every key that is `key`'s plural or singular as answer checking reads them (see
    `_plural_pair`): lint finds two cards' answers that one player's reply would both match."""
    if not key or any(c.isdigit() for c in key):
        return ()
    out: list[str] = []
    if key[-1].isalpha():  # as the singular
        hissing = key.endswith(_HISSING)
        if hissing or key.endswith("o"):
            out.append(key + "es")
        if not hissing:
            out.append(key + "s")
        if key.endswith("y"):
            out.append(key[:-1] + "ies")
    # as the plural
    if key.endswith("es") and key[:-2].endswith((*_HISSING, "o")):
        out.append(key[:-2])
    if key.endswith("s") and key[:-1][-1:].isalpha() and not key[:-1].endswith(_HISSING):
        out.append(key[:-1])
    if key.endswith("ies"):
        out.append(key[:-3] + "y")
    return tuple(out)


def _another_word(given_key: str, key: str) -> bool:
    """Whether the slip made another real word: "dipstick" is no slip for "lipstick", nor
    "slinger" for "Salinger" (both are in the dictionary), while "lipstik" is. In an answer of two
    words, a changed first letter that makes a word names something else ("Great Hall" is not the
    Great Wall, "James Bean" not James Dean), while a letter dropped or doubled inside is a slip
    ("the last super"); in an answer of three words or more the others still name the one
    answer, and the slip is forgiven ("Sydney Opera Hose")."""
    from davinci.engine.words import is_word

    given_words, words = given_key.split(), key.split()
    if len(words) >= 3 or len(given_words) != len(words):
        return False
    changed = [(g, w) for g, w in zip(given_words, words) if g != w]
    if len(changed) != 1 or not is_word(changed[0][0]):
        return False
    return len(words) == 1 or changed[0][0][:1] != changed[0][1][:1]


def answer_matches(
    given: str,
    answer: str | int,
    alternates: Sequence[str | int] = (),
    typo_tolerance: int = 1,
    typo_min_length: int = 8,
) -> bool:
    """True when `given` is the answer or an accepted alternate, after normalising (see module doc).
    A text longer than MAX_ANSWER_CHARS matches nothing (typed or from the rules, it is no answer,
    and it would cost time)."""
    if len(given) > MAX_ANSWER_CHARS:
        return False
    given_key = match_key(given)
    if not given_key:
        return False
    given_number = number_value(given)
    if given_number is None:
        given_number = number_amid_words(given)
    return any(
        _one_matches(given_key, given_number, spelling, typo_tolerance, typo_min_length)
        for candidate in (answer, *alternates)
        if not (isinstance(candidate, str) and len(candidate) > MAX_ANSWER_CHARS)
        for spelling in _spellings(candidate)
    )


_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
_UMLAUT = re.compile("[äöüÄÖÜ]")


def _spellings(candidate: str | int) -> tuple[str | int, ...]:
    """An answer as it may be typed: an umlaut also as the two letters German writes without one
    ('Übermut' as 'Uebermut'; as 'Ubermut' the accent folding reads it already)."""
    if isinstance(candidate, str) and not candidate.isascii():
        composed = unicodedata.normalize("NFC", candidate)
        if _UMLAUT.search(composed):
            return candidate, _UMLAUT.sub(lambda m: _UMLAUTS[m.group()], composed)
    return (candidate,)
