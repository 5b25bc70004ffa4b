"""Legal actions as a lazy, indexable collection.

A decision often has a product structure (every hidden tile x every number). Building one
`Action` object per combination would dominate the cost of a random playout, so the legal
actions are kept as blocks: a block is either a product of argument lists (actions made on
demand by index) or an explicit list. `len`, indexing, iteration and membership are all cheap,
and finding an action's binding is a dictionary lookup per argument.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, overload

from davinci.engine.actions import Action


class Block:
    """The actions of one option: a product of argument lists (stored values, labels), a list of
    argument combinations (labels, values) that passed a filter, or explicit (action, binding)
    pairs. Actions are made when asked for."""

    __slots__ = ("verb", "option", "labels", "values", "index", "size", "strides", "pairs", "combos", "lookup")

    def __init__(
        self,
        verb: str,
        option: int,
        args: Sequence[tuple[list[Any], list[str]]] | None = None,
        pairs: list[tuple[Action, Any]] | None = None,
        combos: list[tuple[tuple[str, ...], tuple[Any, ...]]] | None = None,
    ) -> None:
        self.verb = verb
        self.option = option
        self.pairs = pairs
        self.combos = combos
        self.lookup: dict[tuple[str, ...], tuple[Any, ...]] | None = None
        listed = combos if combos is not None else pairs
        if listed is not None:
            self.labels: list[list[str]] = []
            self.values: list[list[Any]] = []
            self.index: list[dict[str, int]] = []
            self.size = len(listed)
            self.strides: list[int] = []
            return
        args = args or []
        self.labels = [labs for _, labs in args]
        self.values = [vals for vals, _ in args]
        self.index = []  # label -> position, per argument; built when first needed
        size = 1
        strides = []
        for labs in reversed(self.labels):
            strides.append(size)
            size *= len(labs)
        self.strides = strides[::-1]
        self.size = size

    def action(self, i: int) -> Action:
        if self.combos is not None:
            return Action(self.verb, self.combos[i][0])
        if self.pairs is not None:
            return self.pairs[i][0]
        labels = tuple(labs[(i // st) % len(labs)] for labs, st in zip(self.labels, self.strides))
        return Action(self.verb, labels)

    def action_binding(self, i: int) -> tuple[Action, Any]:
        """The i-th action and what choosing it binds."""
        if self.combos is not None:
            labels, values = self.combos[i]
            return Action(self.verb, labels), (self.option, values)
        if self.pairs is not None:
            return self.pairs[i]
        picks = [(i // st) % len(labs) for labs, st in zip(self.labels, self.strides)]
        action = Action(self.verb, tuple([labs[k] for labs, k in zip(self.labels, picks)]))
        return action, (self.option, tuple([vals[k] for vals, k in zip(self.values, picks)]))

    def binding(self, action: Action) -> Any:
        if self.combos is not None:
            if action.verb != self.verb:
                return None
            if self.lookup is None:
                self.lookup = dict(self.combos)
            values = self.lookup.get(action.args)
            return None if values is None else (self.option, values)
        if self.pairs is not None:
            for a, b in self.pairs:
                if a == action:
                    return b
            return None
        if action.verb != self.verb or len(action.args) != len(self.labels):
            return None
        if not self.index and self.labels:
            self.index = [{lab: i for i, lab in enumerate(labs)} for labs in self.labels]
        picked = []
        for lab, idx, column in zip(action.args, self.index, self.values):
            j = idx.get(lab)
            if j is None:
                return None
            picked.append(column[j])
        return (self.option, tuple(picked))


class LegalActions(Sequence[Action]):
    """The legal actions of one seat, in a fixed order; lazy over product blocks."""

    __slots__ = ("blocks", "_len", "_picked", "_texts")

    def __init__(self, blocks: list[Block]) -> None:
        self.blocks = [b for b in blocks if b.size]
        self._len = sum(b.size for b in self.blocks)
        # The last action handed out by index, with its binding: applying the action a bot just
        # picked then needs no search.
        self._picked: tuple[Action, Any] | None = None
        self._texts: list[str] | None = None

    @classmethod
    def of_pairs(cls, pairs: list[tuple[Action, Any]]) -> LegalActions:
        return cls([Block("", 0, pairs=pairs)])

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        for b in self.blocks:
            if i < b.size:
                picked = b.action_binding(i)
                self._picked = picked
                return picked[0]
            i -= b.size
        raise IndexError(i)  # pragma: no cover

    def __iter__(self) -> Iterator[Action]:
        for b in self.blocks:
            for i in range(b.size):
                yield b.action(i)

    def texts(self) -> list[str]:
        """The text form of every action, in order (made without building the actions)."""
        if self._texts is None:
            out: list[str] = []
            for b in self.blocks:
                if b.combos is not None:
                    out.extend(" ".join((b.verb, *labels)) for labels, _ in b.combos)
                elif b.pairs is not None:
                    out.extend(str(a) for a, _ in b.pairs)
                elif b.labels:
                    out.extend(" ".join((b.verb, *combo)) for combo in itertools.product(*b.labels))
                else:
                    out.append(b.verb)
            self._texts = out
        return list(self._texts)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):  # an action's text, as `apply` takes it: "stop" in legal
            if self._texts is None:
                self.texts()
            words = action.split()
            if words:  # the verb in any case, as `apply` and `is_legal` read it ("STOP")
                words[0] = words[0].lower()
            return " ".join(words) in (self._texts or ())
        if not isinstance(action, Action):
            return False
        if self.binding(action) is not None:
            return True
        # Explicit actions may bind nothing (a `pass`).
        return any(b.pairs is not None and any(a == action for a, _ in b.pairs) for b in self.blocks)

    def binding(self, action: Action) -> Any:
        """What choosing `action` binds (None when it is not legal)."""
        picked = self._picked
        if picked is not None and picked[0] == action:
            return picked[1]
        for b in self.blocks:
            if b.verb and b.verb != action.verb:
                continue
            r = b.binding(action)
            if r is not None:
                return r
        return None

    def verbs(self) -> list[str]:
        out: list[str] = []
        for b in self.blocks:
            vs = [b.verb] if b.verb else [a.verb for a, _ in (b.pairs or [])]
            for v in vs:
                if v not in out:
                    out.append(v)
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, LegalActions)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"


class Choices(Sequence[Action]):
    """What a bot is given of a seat's legal actions: the actions, in order, and nothing of how
    the engine finds what each one binds (which piece an argument names is hidden information:
    the label `row.2.3` says where a tile lies, the engine's binding says which tile it is). Read
    only: a bot cannot add an action to the list it was given, nor change one for later games."""

    __slots__ = ("_legal",)

    def __init__(self, legal: LegalActions) -> None:
        self._legal = legal

    def __len__(self) -> int:
        return len(self._legal)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        return self._legal[i]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._legal)

    def __contains__(self, action: object) -> bool:
        return action in self._legal

    def texts(self) -> list[str]:
        """The text form of every action, in order."""
        return self._legal.texts()

    def verbs(self) -> list[str]:
        """The verbs offered, in order of first appearance."""
        return self._legal.verbs()

    def __eq__(self, other: object) -> bool:
        return self._legal == (other._legal if isinstance(other, Choices) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Choices({list(self)!r})"
