"""Static types of the rule expression language and the runtime protocol for engine values."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeAlias, runtime_checkable

# Runtime values are int, bool, str, None, sequences of values and Record objects. The checker has
# already proven each expression well-typed, so the closures treat values dynamically.
Value: TypeAlias = Any


@runtime_checkable
class Record(Protocol):
    """An engine value with named fields; the only way an expression reads a field."""

    def field(self, name: str) -> Value:
        """Return the value of the field `name`."""
        ...


class Type:
    """Base of every static type; the scalar types are the singletons below."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def name(self) -> str:
        """The type's name as shown in messages."""
        return self._name

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")
# ANY switches off static checking for one value; operations on it are checked when evaluated.
ANY = Type("any")


class ListType(Type):
    """A list whose elements all have the type `elem`."""

    __slots__ = ("elem",)

    def __init__(self, elem: Type) -> None:
        super().__init__("list")
        self.elem = elem

    @property
    def name(self) -> str:
        """`list[ELEM]`, from the element's name now (a kind may be named once all its holders are known)."""
        return f"list[{self.elem.name}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ListType) and other.elem == self.elem

    def __hash__(self) -> int:
        return hash(("list", self.elem))


FieldSpec: TypeAlias = "Mapping[str, Type] | Callable[[], Mapping[str, Type]]"


class RecordType(Type):
    """An engine value kind (seat, piece, zone, card...) with typed fields.

    Record types are nominal: two record types are the same when their names are equal. `fields`
    may be a callable returning the mapping, so that kinds can refer to each other (a piece has an
    owner seat, a seat has a hand of pieces) before all of them exist.
    """

    __slots__ = ("_spec", "_fields", "doc", "domains")

    def __init__(self, name: str, fields: FieldSpec, doc: str = "") -> None:
        super().__init__(name)
        self._spec = fields
        self._fields: Mapping[str, Type] | None = None
        self.doc = doc
        # Every value some text or number fields can hold (a space's `type`: the board's types; a
        # card's `rank`), when the game says: a literal compared with such a field is checked
        # against them.
        self.domains: dict[str, frozenset[Any]] = {}

    @property
    def fields(self) -> Mapping[str, Type]:
        """The field table, resolved on first use when it was declared lazily."""
        if self._fields is None:
            spec = self._spec
            self._fields = dict(spec() if callable(spec) else spec)
        return self._fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RecordType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("record", self.name))


Scope: TypeAlias = Mapping[str, Type]


def is_orderable(t: Type) -> bool:
    """True for the types that `<`, `min`, `max` and `sorted` accept."""
    return t in (INT, STR, ANY)


def assignable(actual: Type, expected: Type) -> bool:
    """True when a value of type `actual` may be used where `expected` is required."""
    if expected is ANY or actual is ANY or actual == expected:
        return True
    if isinstance(actual, ListType) and isinstance(expected, ListType):
        return assignable(actual.elem, expected.elem)
    return False


def join(a: Type, b: Type) -> Type | None:
    """The common type of two values (branches of `if`, list items), or None if there is none.

    `none` joins with anything, because fields and branches may legitimately be empty; `any` (the
    element type of `[]`, for one) takes the other side's type, so `[1] + []` is a list of int.
    """
    if a == b:
        return a
    if a is NONE or a is ANY:
        return b
    if b is NONE or b is ANY:
        return a
    if isinstance(a, ListType) and isinstance(b, ListType):
        elem = join(a.elem, b.elem)
        return None if elem is None else ListType(elem)
    return None


def comparable(a: Type, b: Type) -> bool:
    """True when `==` between the two types can ever be true (so it is not a mistake)."""
    return a is NONE or b is NONE or join(a, b) is not None


def describe(t: Type) -> str:
    """A short phrase for messages: 'an int', 'a list[str]', 'a seat'."""
    name = t.name
    article = "an" if name[:1] in "aeiou" else "a"
    if t is NONE:
        return "none"
    return f"{article} {name}"
