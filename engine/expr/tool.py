"""`davinci expr`: check and evaluate one expression against a JSON context, for authors to try ideas.

The context is a JSON object mapping names to values. JSON objects become records whose fields are
their keys; types are inferred from the data (a list of objects gets the union of their fields).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TextIO

from davinci.engine.errors import DavinciError, SourceLocation, UsageError, printable
from davinci.engine.expr.compiler import compile_expr
from davinci.engine.expr.parser import KEYWORDS
from davinci.engine.expr.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    STR,
    ListType,
    Record,
    RecordType,
    Type,
    Value,
    describe,
    join,
)
from davinci.engine.files import DuplicateKey, FileProblem, read_regular_text, unique_members

MAX_CONTEXT_CHARS = 5_000_000
MAX_CONTEXT_DEPTH = 64  # lists and objects inside one another, as in YAML files
# Words of the rule language: a context name spelled so could never be read.
_WORDS = frozenset({*KEYWORDS, "it"})


class JsonRecord:
    """A record made from a JSON object; missing fields read as none."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: Mapping[str, Value]) -> None:
        self.kind = kind
        self.data = data

    def field(self, name: str) -> Value:
        """The value of the key `name`, or none."""
        return self.data.get(name)

    def __eq__(self, other: object) -> bool:
        # (Records of one shape are one kind, whichever key they came from: compared by content.)
        return isinstance(other, JsonRecord) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.data)))

    def __repr__(self) -> str:
        return f"{self.kind}{dict(self.data)!r}"


class _ContextBuilder:
    def __init__(self, path: str) -> None:
        self.path = path
        # Records with the same fields (names and types) are one kind, named after the first key
        # that held one: zones of cards under several keys can be joined and compared, as a game's
        # zones of pieces are.
        self.shapes: dict[tuple[tuple[str, str], ...], RecordType] = {}
        self.holders: dict[int, list[str]] = {}  # each shared kind's keys, for its name

    def record_type(self, name: str, fields: dict[str, Type]) -> RecordType:
        shape = tuple(sorted((k, describe(t)) for k, t in fields.items()))
        known = self.shapes.get(shape)
        if known is None:
            known = self.shapes[shape] = RecordType(name, fields)
        holders = self.holders.setdefault(id(known), [])
        if name not in holders:
            holders.append(name)
        return known

    def name_shared_kinds(self) -> None:
        """A kind that several keys hold is named after all of them (`hand/tiles`): an error about
        `me.m` named `hand`, a key the expression never mentioned. Done before any type is used."""
        for rtype in self.shapes.values():
            holders = self.holders.get(id(rtype), [])
            if len(holders) > 1:
                rtype._name = "/".join(holders)

    def fail(self, where: str, reason: str) -> UsageError:
        return UsageError(f"context value {where}: {reason}", SourceLocation(self.path))

    def convert(self, raw: Any, name: str, depth: int = 0) -> tuple[Type, Value]:
        if depth > MAX_CONTEXT_DEPTH:  # (the type of a list nested 500 deep could not even be printed)
            raise self.fail(name, f"is nested more than {MAX_CONTEXT_DEPTH} levels deep")
        if isinstance(raw, bool):
            return BOOL, raw
        if isinstance(raw, int):
            if abs(raw) > 2**63:
                raise self.fail(name, "integer is too large (the limit is 2**63)")
            return INT, raw
        if isinstance(raw, str):
            if any("\ud800" <= c <= "\udfff" for c in raw):
                raise self.fail(name, "text holds a lone surrogate (\\ud800-\\udfff), which is not a character")
            return STR, raw
        if raw is None:
            return NONE, None
        if isinstance(raw, float):
            raise self.fail(name, "numbers must be whole (expressions have no floats)")
        if isinstance(raw, list):
            elem: Type | None = None
            items = []
            records: list[dict[str, Type]] = []
            so_far: dict[str, Type] = {}  # each field's type over the records so far (null, then text: text)
            for i, item in enumerate(raw):
                if (elem is not None and isinstance(item, dict)) or (records and not isinstance(item, dict)):
                    this, before = ("a record", f"not ({describe(elem)})") if elem is not None else ("not a record", "records")
                    raise self.fail(f"{name}[{i}]", f"is {this}, but the items before it are {before}: a list's items "
                                    "have one type")
                if isinstance(item, dict):
                    fields, value = self.record_fields(item, name, depth + 1)
                    for key, t in fields.items():
                        seen = so_far.get(key)
                        if seen is None:
                            so_far[key] = t
                            continue
                        joined = join(seen, t)
                        if joined is None:
                            raise self.fail(f"{name}[{i}].{key}", f"is {describe(t)}, but in the items before it "
                                            f"'{key}' is {describe(seen)}: a field has one type in every record")
                        so_far[key] = joined
                    records.append(fields)
                    items.append(value)
                    continue
                t, v = self.convert(item, f"{name}[{i}]", depth + 1)
                items.append(v)
                joined = t if elem is None else join(elem, t)
                if joined is None:  # the rules have no list of mixed items: `true == 1` would hold
                    raise self.fail(f"{name}[{i}]", f"is {describe(t)}, but the items before it are "
                                    f"{describe(elem)}: a list's items have one type")  # type: ignore[arg-type]
                elem = joined
            if records:
                rtype = self.record_type(name, _merge(records))
                elem = rtype if elem is None else ANY
            return ListType(elem or ANY), tuple(items)
        if isinstance(raw, dict):
            fields, value = self.record_fields(raw, name, depth + 1)
            return self.record_type(name, fields), value
        raise self.fail(name, f"unsupported JSON value {raw!r}")  # pragma: no cover - json gives no others

    def record_fields(self, raw: dict[str, Any], kind: str, depth: int = 0) -> tuple[dict[str, Type], JsonRecord]:
        fields: dict[str, Type] = {}
        data: dict[str, Value] = {}
        for key, item in raw.items():
            self.check_name(key, f"{kind}.")
            fields[key], data[key] = self.convert(item, f"{kind}.{key}", depth)
        return fields, JsonRecord(kind, data)

    def check_name(self, key: str, within: str = "") -> None:
        """A key no expression could name ("", "a b", "true") is refused: it was taken silently."""
        if not (key.isascii() and key.isidentifier()) or key in _WORDS:
            raise self.fail(f"'{printable(within + key)}'", "is not a name an expression can use (a word of "
                            "letters, digits and _, not a word of the language)")


def _merge(records: list[dict[str, Type]]) -> dict[str, Type]:
    """Every field any record has; one that some record lacks reads `none` there, so it is typed
    `any` (typed by the others, `first(a).m` said `int` and gave null, and `sum` failed in Python)."""
    merged: dict[str, Type] = {}
    for fields in records:
        for key, t in fields.items():
            if key not in merged:
                merged[key] = t
            else:
                merged[key] = join(merged[key], t) or ANY
    for key in merged:
        if any(key not in fields for fields in records):
            merged[key] = ANY
    return merged


def load_context(path: str | None) -> tuple[dict[str, Type], dict[str, Value]]:
    """Read a JSON context file into a scope (name → type) and an environment (name → value)."""
    if path is None:
        return {}, {}
    try:
        # Only a regular file, checked before reading: a pipe would wait, /dev/zero never ends.
        text = read_regular_text(path, MAX_CONTEXT_CHARS)
    except FileProblem as exc:
        if exc.content:
            raise UsageError(f"the context file is {exc.reason}", SourceLocation(path)) from None
        raise UsageError(f"cannot read the context file: {exc.reason}", SourceLocation(path)) from None
    try:
        data = json.loads(text, object_pairs_hook=unique_members)
    except DuplicateKey as exc:
        raise UsageError(f"the context file gives the key {printable(str(exc.args[0]))!r} twice",
                         SourceLocation(path)) from None
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"the context file is not valid JSON: {exc.msg}", SourceLocation(path, exc.lineno, exc.colno)
        ) from None
    except RecursionError:
        raise UsageError("the context file is nested too deeply", SourceLocation(path)) from None
    except ValueError:  # a number of thousands of digits (Python's limit for reading one)
        raise UsageError("the context file holds a number too long to read", SourceLocation(path)) from None
    if not isinstance(data, dict):
        raise UsageError(
            "the context file must hold a JSON object of names and values", SourceLocation(path, 1, 1)
        )
    builder = _ContextBuilder(path)
    scope: dict[str, Type] = {}
    env: dict[str, Value] = {}
    try:
        for name, raw in data.items():
            builder.check_name(name)
            scope[name], env[name] = builder.convert(raw, name)
        builder.name_shared_kinds()
    except RecursionError:
        raise UsageError("the context file is nested too deeply", SourceLocation(path)) from None
    return scope, env


def to_json(value: Value) -> Any:
    """A JSON-compatible rendering of an expression value."""
    if isinstance(value, JsonRecord):
        return {k: to_json(v) for k, v in value.data.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Record):
        label = getattr(value, "label", None)
        return str(label()) if callable(label) else repr(value)
    return repr(value)


def run_expr(expression: str, context_path: str | None, out: TextIO) -> int:
    """Check and evaluate `expression`; print its type, then its value as JSON on the last line."""
    try:
        scope, env = load_context(context_path)
        compiled = compile_expr(expression, scope)
        value = compiled(env)
    except DavinciError as exc:
        out.write(f"{printable(str(exc))}\n")  # it quotes the expression, which may hold anything typed
        unknown = re.match(r"unknown function '(\w+)'", exc.message)
        if unknown:
            from davinci.engine.functions import helper_names

            if unknown.group(1) in helper_names():
                out.write(f"'{unknown.group(1)}' is an engine helper: it works in game files, which give it a game "
                          "to look at, not in `davinci expr` (see docs/expressions.md, \"Engine helpers\")\n")
        return 1
    out.write(f"type: {compiled.type}\n")
    shown = json.dumps(to_json(value), ensure_ascii=False)
    if printable(shown) != shown:  # C1 or direction controls: all non-ASCII as JSON escapes instead
        shown = json.dumps(to_json(value))
    out.write(shown + "\n")
    return 0
