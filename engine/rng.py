"""A small, fast, serialisable pseudo-random source (SplitMix64).

The whole random state is one integer, so cloning and saving a game state is cheap and
replays are exact on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
MAX_SEED = _MASK
"""Seeds run from 0 to 2**64 - 1: the generator's whole state. A larger or negative seed would
play the same game as the seed it equals modulo 2**64, so every entry point refuses it."""
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """Seeded SplitMix64 generator; `state` is a plain int."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Next 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (n >= 1), without modulo bias."""
        if n <= 1:
            if n < 1:
                raise ValueError(f"below(n) needs n >= 1, got {n}: there is no integer in [0, {n})")
            return 0
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in [lo, hi] (ValueError when hi < lo)."""
        if hi < lo:
            raise ValueError(f"randint(lo, hi) needs lo <= hi, got {lo} and {hi}")
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence (ValueError when it is empty)."""
        if not seq:
            raise ValueError("choice() of an empty sequence: there is nothing to choose")
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def random(self) -> float:
        """A float in [0, 1) (for bots' probabilistic choices, never for rules)."""
        return (self.next64() >> 11) / float(1 << 53)

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's state and a salt (does not advance self)."""
        return Rng(derive_seed(self.state, salt))


def derive_seed(master: int, index: int) -> int:
    """A per-game seed from a master seed and an index (independent of process count)."""
    r = Rng((master * 0x100000001B3 + index * _GOLDEN) & _MASK)
    r.next64()
    return r.next64() >> 1
