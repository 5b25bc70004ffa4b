"""JSON Schema (draft 2020-12) validation of loaded YAML documents, with source positions.

The schemas ship as package data in `davinci/schemas/*.schema.json`. `$ref`s between them
resolve through a `referencing.Registry` holding only those files; any other reference is
refused (never fetched) and reported as a SchemaError. Every validation error comes back as
a `SchemaError` located at the offending key or value, with a message written for authors
rather than the validator's internal wording.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.exceptions
from davinci.engine.errors import SchemaError, SourceLocation
from davinci.engine.lint.registry import Rule, register
from davinci.engine.yamlload import Doc
from jsonschema.exceptions import ValidationError, best_match
from referencing.jsonschema import DRAFT202012

SCHEMA_BASE = "https://davinci.dev/schemas/"
_SUFFIX = ".schema.json"

SCHEMA = "DV010"
UNKNOWN_KEY = "DV011"
WRONG_TYPE = "DV012"
MISSING_KEY = "DV013"
BAD_VALUE = "DV014"
BAD_FORMAT = "DV015"
OUT_OF_RANGE = "DV016"


def _doc_rule(code: str, name: str, doc: str) -> None:
    register(Rule(code, name, "error", (), None, doc.strip(), "schema"))


_doc_rule(SCHEMA, "schema", """
The file must match the JSON Schema for its `kind` (`davinci schema --out DIR` writes them out).
This code covers schema mistakes that have no more specific code below, and a `kind` with no
schema.

Why: the schemas are the contract between authors and the engine; editors use the same files
(through the `# yaml-language-server: $schema=...` first line) to check while you type.

Failing:

```yaml
kind: deck
id: codex
name: Codex
category: codex
cards:
  - id: codex-001
    difficulty: 1
    answer: candle          # neither a clue nor an anagram
```

Passing:

```yaml
    clue: Wax and a wick, it lights up the room.
```
""")

_doc_rule(UNKNOWN_KEY, "unknown-key", """
Every key must be one the schema knows; a close match is suggested.

Why: a misspelt optional key (`dificulty`, `alternate`) would otherwise be silently ignored and
the card would quietly use a default.

Failing:

```yaml
  - id: codex-001
    dificulty: 2
```

Passing:

```yaml
  - id: codex-001
    difficulty: 2
```
""")

_doc_rule(WRONG_TYPE, "wrong-type", """
Each value must have the type the schema asks for (text, whole number, list, mapping...).

Why: the engine builds typed definitions; a list where a mapping belongs, or text where a
number belongs, cannot be played.

Failing:

```yaml
    difficulty: two
```

Passing:

```yaml
    difficulty: 2
```
""")

_doc_rule(MISSING_KEY, "missing-key", """
Required keys must be present; the problem points at the mapping that lacks them.

Why: a card without an answer, or a deck without an id, cannot be used.

Failing:

```yaml
  - id: codex-001
    difficulty: 1
    clue: Wax and a wick, it lights up the room.
```

Passing:

```yaml
  - id: codex-001
    difficulty: 1
    clue: Wax and a wick, it lights up the room.
    answer: candle
```
""")

_doc_rule(BAD_VALUE, "bad-value", """
A value must be one of the values the schema allows (an enumeration or a fixed `kind`).

Why: difficulties, kinds and similar fields drive the engine's choices; anything outside the
allowed set has no meaning.

Failing:

```yaml
    difficulty: 7
```

Passing:

```yaml
    difficulty: 3
```
""")

_doc_rule(BAD_FORMAT, "bad-format", """
Text values with a required shape (ids, versions, word lengths, relative paths) must match it.

Why: ids are used in references and on the command line, word lengths are shown to players;
a malformed one breaks either.

Failing:

```yaml
id: Codex Deck
lengths: 4,5
```

Passing:

```yaml
id: codex-deck
lengths: "(4,5)"
```
""")

_doc_rule(OUT_OF_RANGE, "out-of-range", """
Numbers, text lengths and list sizes must lie within the schema's bounds, and list items that
must be distinct must not repeat.

Why: an empty deck, a zero letter count or a duplicated alternate is always a mistake.

Failing:

```yaml
    letters: 0
    alternates: [Everest, Everest]
```

Passing:

```yaml
    letters: 7
    alternates: [Everest]
```
""")


# --------------------------------------------------------------------------------------------
# Schema files and the registry.
# --------------------------------------------------------------------------------------------


def _schema_dir() -> Any:
    return resources.files("davinci.schemas")


def schema_names() -> list[str]:
    """Names of the shipped schemas (`deck`, `pack`, ...), sorted."""
    names = []
    for entry in _schema_dir().iterdir():
        if entry.name.endswith(_SUFFIX):
            names.append(entry.name[: -len(_SUFFIX)])
    return sorted(names)


def schema_text(name: str) -> str:
    """The JSON text of schema `name` (SchemaError if there is no such schema)."""
    if name not in schema_names():
        raise SchemaError(
            f"no schema named '{name}' (known: {', '.join(schema_names())})", code=SCHEMA
        )
    text: str = _schema_dir().joinpath(name + _SUFFIX).read_text(encoding="utf-8")
    return text


def write_schemas(out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write every schema file into `out_dir` (created if needed); return the written paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in schema_names():
        target = out / (name + _SUFFIX)
        target.write_text(schema_text(name), encoding="utf-8")
        written.append(target)
    return written


def _refuse_remote(uri: str) -> referencing.Resource[Any]:
    # Schemas are trusted only from our own files; a reference anywhere else is a bug or an
    # attempt to make davinci fetch from the network, so it fails loudly instead.
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


@functools.lru_cache(maxsize=1)
def _registry() -> referencing.Registry[Any]:
    pairs = []
    for name in schema_names():
        contents = json.loads(schema_text(name))
        pairs.append((SCHEMA_BASE + name + _SUFFIX, DRAFT202012.create_resource(contents)))
    registry: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse_remote)  # type: ignore[call-arg]
    return registry.with_resources(pairs).crawl()


@functools.cache
def validator_for(name: str) -> jsonschema.protocols.Validator:
    """The compiled (cached) draft 2020-12 validator for schema `name`."""
    schema = json.loads(schema_text(name))
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator: jsonschema.protocols.Validator = cls(schema, registry=_registry())
    return validator


# --------------------------------------------------------------------------------------------
# Validation and messages.
# --------------------------------------------------------------------------------------------


def validate(doc: Doc, schema_name: str) -> list[SchemaError]:
    """Every schema error in `doc` against schema `schema_name`, located and sorted by position."""
    validator = validator_for(schema_name)
    problems: list[SchemaError] = []
    try:
        errors = list(validator.iter_errors(doc.data))
        # A value of the wrong type also fails its enum/pattern/range checks; only the type
        # mistake is worth reporting.
        mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
        for error in errors:
            if error.validator != "type" and tuple(error.absolute_path) in mistyped:
                continue
            problems.extend(_translate(doc, error))
    except (referencing.exceptions.Unresolvable, jsonschema.exceptions.SchemaError) as e:
        # Never fetch: an unresolvable reference is a broken schema, reported, not a crash.
        problems.append(
            SchemaError(f"schema '{schema_name}' cannot be used: {e}", doc.loc([]), SCHEMA)
        )
    except RecursionError:
        problems.append(SchemaError("document is nested too deeply to validate", doc.loc([]), SCHEMA))
    unique = {(str(p.location), p.code, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: (_sort_key(p.location), p.code, p.message))


def _sort_key(loc: SourceLocation | None) -> tuple[int, int]:
    return (loc.line, loc.col) if loc is not None else (0, 0)


def _where(path: Sequence[str | int]) -> str:
    """A readable name for the value at `path`: its key, or `item N of 'key'`."""
    if not path:
        return "the document"
    last = path[-1]
    if isinstance(last, int):
        parent = next((p for p in reversed(path[:-1]) if isinstance(p, str)), None)
        return f"item {last + 1} of '{parent}'" if parent else f"item {last + 1}"
    return f"'{last}'"


_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "empty",
}


def _type_of(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _show(value: Any) -> str:
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return repr(text)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return _type_of(value)
    return str(value)


def _known_keys(schema: Any) -> list[str]:
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        return list(schema["properties"])
    return []


def _translate(doc: Doc, error: ValidationError) -> Iterable[SchemaError]:
    path = list(error.absolute_path)
    where = _where(path)
    kind = error.validator
    value = error.instance
    loc = doc.loc(path)
    schema = error.schema if isinstance(error.schema, dict) else {}

    if kind == "additionalProperties" and isinstance(value, dict):
        known = _known_keys(schema)
        patterns = list(schema.get("patternProperties", {}) or {})
        for key in value:
            if key in known or any(_re_search(p, key) for p in patterns):
                continue
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else _allowed_hint(known)
            yield SchemaError(f"unknown key '{key}'{hint}", doc.loc([*path, key], key=True), UNKNOWN_KEY)
        return
    if kind == "required" and isinstance(value, dict):
        for key in error.validator_value:
            if key not in value:
                owner = f" in {where}" if path else ""
                yield SchemaError(f"missing required key '{key}'{owner}", loc, MISSING_KEY)
        return
    if kind == "type":
        expected = error.validator_value
        names = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_TYPE_NAMES.get(n, n) for n in names)
        got = _type_of(value)
        if not isinstance(value, (dict, list)) and value is not None:
            got += f" {_show(value)}"
        yield SchemaError(f"{where} must be {wanted}, got {got}", loc, WRONG_TYPE)
        return
    if kind == "enum":
        options = ", ".join(_show(v) for v in error.validator_value)
        yield SchemaError(f"{where} must be one of {options}, got {_show(value)}", loc, BAD_VALUE)
        return
    if kind == "const":
        yield SchemaError(f"{where} must be {_show(error.validator_value)}, got {_show(value)}", loc, BAD_VALUE)
        return
    if kind == "pattern":
        shape = schema.get("patternErrorMessage") or f"text matching {error.validator_value}"
        yield SchemaError(f"{where} must be {shape}, got {_show(value)}", loc, BAD_FORMAT)
        return
    if kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        words = {
            "minimum": "at least", "exclusiveMinimum": "more than",
            "maximum": "at most", "exclusiveMaximum": "less than",
        }[kind]
        yield SchemaError(f"{where} must be {words} {error.validator_value}, got {_show(value)}", loc, OUT_OF_RANGE)
        return
    if kind in ("minLength", "maxLength"):
        bound = error.validator_value
        if kind == "minLength" and bound == 1:
            msg = f"{where} must not be empty"
        else:
            words = "at least" if kind == "minLength" else "at most"
            msg = f"{where} must be {words} {bound} characters long (it has {len(value)})"
        yield SchemaError(msg, loc, OUT_OF_RANGE)
        return
    if kind in ("minItems", "maxItems", "minProperties", "maxProperties"):
        bound = error.validator_value
        noun = "item" if "Items" in kind else "key"
        words = "at least" if kind.startswith("min") else "at most"
        yield SchemaError(
            f"{where} must have {words} {bound} {noun}{'s' if bound != 1 else ''} (it has {len(value)})",
            loc, OUT_OF_RANGE,
        )
        return
    if kind == "uniqueItems" and isinstance(value, list):
        seen: dict[str, int] = {}
        for i, item in enumerate(value):
            fingerprint = json.dumps(item, sort_keys=True, default=str)
            if fingerprint in seen:
                yield SchemaError(
                    f"{_where([*path, i])} repeats item {seen[fingerprint] + 1} ({_show(item)})",
                    doc.loc([*path, i]), OUT_OF_RANGE,
                )
            else:
                seen[fingerprint] = i
        return
    if kind in ("anyOf", "oneOf"):
        yield from _translate_alternatives(doc, error, where, loc)
        return
    yield SchemaError(f"{where}: {error.message}", loc, SCHEMA)


def _translate_alternatives(
    doc: Doc, error: ValidationError, where: str, loc: SourceLocation
) -> Iterable[SchemaError]:
    subs = list(error.context or ())
    if subs and all(e.validator == "required" and not e.relative_path for e in subs):
        # Typical "either this key or those keys" rule: name the alternatives plainly.
        options = []
        for alternative in error.validator_value:
            keys = [f"'{k}'" for k in alternative.get("required", [])]
            if len(keys) == 1:
                options.append(keys[0])
            else:
                options.append(f"{keys[0]} with " + " and ".join(keys[1:]))
        joiner = ", or " if any(" with " in o for o in options) else " or "
        yield SchemaError(f"{where} needs {joiner.join(options)}", loc, MISSING_KEY)
        return
    if error.validator == "oneOf" and not subs:
        yield SchemaError(f"{where} matches more than one of the allowed forms", loc, SCHEMA)
        return
    best = best_match(subs) if subs else None
    if best is None:
        yield SchemaError(f"{where}: {error.message}", loc, SCHEMA)
        return
    yield from _translate(doc, best)


def _allowed_hint(known: list[str]) -> str:
    if not known:
        return " (no keys are allowed here)"
    if len(known) <= 8:
        return f" (allowed: {', '.join(known)})"
    return ""


def _re_search(pattern: str, key: Any) -> bool:
    import re

    try:
        return re.search(pattern, str(key)) is not None
    except re.error:
        return False
