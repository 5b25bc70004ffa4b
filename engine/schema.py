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
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from davinci.engine.errors import SchemaError, SourceLocation, did_you_mean, quoted
from davinci.engine.lint.registry import Rule, register


class Located(Protocol):
    """What validation reads of a document: its data, and the source position of a path in it
    (a loaded `yamlload.Doc`, or a variant merged onto its game)."""

    @property
    def data(self) -> Any: ...

    def loc(self, path: Sequence[str | int], key: bool = False) -> SourceLocation: ...


if TYPE_CHECKING:  # pragma: no cover
    import jsonschema
    import referencing
    from jsonschema.exceptions import ValidationError

# jsonschema (about a tenth of a second to import) is imported only when a document is not
# proven valid by the fast check below: linting valid content never loads it.

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

Failing: the shipped schemas give every ordinary mistake a code of its own below (a card with
neither a clue nor an anagram is DV013, missing-key), so this code is seen for what they cannot
name: a document nested too deeply to be validated, or a schema that cannot be used.

Passing: a file that its schema validates, or whose mistakes have their own codes.
""")

_doc_rule(UNKNOWN_KEY, "unknown-key", """
Every key must be one the schema knows; a close match is suggested.

Why: a misspelt optional key (`dificulty`, `alternate`) would otherwise be silently ignored and
the card would quietly use a default.

Failing:

```yaml
  - id: riddles-001
    dificulty: 2
```

Passing:

```yaml
  - id: riddles-001
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
  - id: riddles-001
    difficulty: 1
    clue: Wax and a wick, it lights up the room.
```

Passing:

```yaml
  - id: riddles-001
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
id: Riddle Deck
lengths: 4,5
```

Passing:

```yaml
id: riddle-deck
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
    """The JSON text of schema `name` (SchemaError if there is no such schema), as the loader
    checks documents with it."""
    if name not in schema_names():
        raise SchemaError(
            f"no schema named '{name}' (known: {', '.join(schema_names())})", code=SCHEMA
        )
    text: str = _schema_dir().joinpath(name + _SUFFIX).read_text(encoding="utf-8")
    return text


# The loader's copy of the game schema's `step`: any mapping of at least one key. The flow
# compiler checks each step itself, with did-you-means and the step's own place; the file's
# spelt-out step (for editors, `step_schema`) would report the same mistakes first and worse
# ("not valid under any of the given schemas").
LOOSE_STEP = {"type": "object", "minProperties": 1}


def step_schema() -> dict[str, Any]:
    """The JSON Schema of one flow step, from the registered step kinds: every kind with the keys
    it takes, a choose option's keys, the steps nested in `do`, `then` and `else`. The game schema
    file holds it for editors (`python -m davinci.engine.schema` writes it there again)."""
    import davinci.engine.steps  # noqa: F401 - registers the step kinds
    from davinci.engine.flow import CONTROL_STEPS, STEP_KEYS, STEP_KINDS, STEP_SIBLINGS
    from davinci.engine.steps.decide import OPTION_KEYS

    steps = {"type": "array", "items": {"$ref": "#/$defs/step"}}
    kinds = sorted({*STEP_KINDS, *CONTROL_STEPS})
    branches = []
    for kind in kinds:
        keys = STEP_KEYS.get(kind)
        value: dict[str, Any] = {}
        if kind == "choose":
            option = {"type": "object", "propertyNames": {"enum": list(OPTION_KEYS)},
                      "properties": {"do": steps}, "required": ["action"]}
            value = {"type": "object", "properties": {"options": {"type": "array", "items": option}}}
        elif kind == "for_each":
            value = {"type": "object", "properties": {"do": steps}}
        if keys is not None:
            # A step's mapping form takes only its own keys; its short form (`log: "text"`) is no mapping.
            value = {"anyOf": [{"not": {"type": "object"}}, {**value, "type": "object", "propertyNames": {"enum": sorted(keys)}}]}
        siblings = sorted(STEP_SIBLINGS.get(kind, ()))
        branches.append({
            "required": [kind],
            "propertyNames": {"enum": [kind, *siblings]},
            "properties": {kind: value, **{s: steps for s in siblings}},
        })
    return {
        "type": "object",
        "minProperties": 1,
        "description": f"One flow step: a mapping whose first key names the step kind ({', '.join(kinds)}), with "
                       "the keys that kind takes. See docs/authoring.md for every kind.",
        "oneOf": branches,
    }


def write_schemas(out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write every schema file into `out_dir` (created if needed); return the written paths.

    UsageError when `out_dir` is not a folder (a file, a device, a pipe, a link loop) or cannot
    be written; a schema's name in it holding anything but a regular file is not replaced.
    """
    from davinci.engine.errors import UsageError
    from davinci.engine.files import FileProblem, check_replaceable

    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # something that is not a folder (or a link loop) is there
        try:
            os.stat(out)
            reason = "not a folder"
        except OSError as e:
            reason = e.strerror or str(e)
        raise UsageError(f"--out {out}: {reason}; give a folder (it is created if missing)") from None
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder: {e.strerror or e}") from None
    # Every name is checked before any file is written: the set of schemas (which refer to each
    # other) is written whole or not at all.
    for name in schema_names():
        target = out / (name + _SUFFIX)
        try:
            # A link is never followed: `schema --out` would write wherever it points.
            if target.is_symlink():
                raise FileProblem("a symbolic link (not followed; remove it or write elsewhere)")
            check_replaceable(str(target))
        except FileProblem as e:
            raise UsageError(f"--out {out}: cannot write {target.name}: {e.reason}; nothing was written") from None
    # Each schema goes to a new file beside its target first, and only when all are written do they
    # take the targets' places: a full disk leaves the old set whole (it cut a schema short, and
    # left the set half old, half new).
    import tempfile

    staged: list[tuple[str, Path]] = []
    try:
        for name in schema_names():
            fd, tmp = tempfile.mkstemp(prefix=".davinci-schema-", dir=out)
            staged.append((tmp, out / (name + _SUFFIX)))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(schema_text(name))
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
        for tmp, target in staged:
            os.replace(tmp, target)
    except OSError as e:  # the system's refusal (a full disk, permissions): not a usage mistake (exit 1)
        for tmp, _ in staged:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise OSError(e.errno, f"{e.strerror or e} (--out {out}: no schema was changed)",
                      str(staged[-1][1]) if staged else str(out)) from None
    return [target for _, target in staged]


def _refuse_remote(uri: str) -> referencing.Resource[Any]:
    # Schemas are trusted only from our own files; a reference anywhere else is a bug or an
    # attempt to make davinci fetch from the network, so it fails loudly instead.
    import referencing.exceptions

    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


@functools.lru_cache(maxsize=1)
def _contents() -> dict[str, Any]:
    """Every shipped schema as the loader checks with it, parsed once, keyed by its full URI (the
    `$id`): the game's flow steps loose (LOOSE_STEP)."""
    contents = {SCHEMA_BASE + name + _SUFFIX: json.loads(schema_text(name)) for name in schema_names()}
    for uri, schema in contents.items():
        # The files have no `$id`, so that their relative `$ref`s (`common.schema.json#...`) lead to
        # the files beside them wherever they are (an editor, check-jsonschema offline); here each
        # is known by its URI, which the references are resolved against.
        schema.setdefault("$id", uri)
    contents[SCHEMA_BASE + "game" + _SUFFIX]["$defs"]["step"] = LOOSE_STEP
    return contents


@functools.lru_cache(maxsize=1)
def _registry() -> referencing.Registry[Any]:
    import referencing
    from referencing.jsonschema import DRAFT202012

    pairs = [(uri, DRAFT202012.create_resource(contents)) for uri, contents in _contents().items()]
    registry: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse_remote)  # type: ignore[call-arg]
    return registry.with_resources(pairs).crawl()


# --------------------------------------------------------------------------------------------
# Fast validity check: a small compiler from our schemas to closures that answer "valid?".
# It is used only to skip list items that are certainly valid; anything it does not model
# exactly raises _Unsure, and the item is then validated by jsonschema as usual.
# --------------------------------------------------------------------------------------------


class _Unsure(Exception):
    pass


_Check = Callable[[Any], bool]

# Keywords that never affect validity (annotations; `format` is an annotation in 2020-12
# unless a format checker is configured, and we configure none).
_ANNOTATIONS = frozenset({
    "$schema", "$id", "$defs", "$comment", "$anchor", "title", "description", "examples", "default",
    "deprecated", "readOnly", "writeOnly", "format", "patternErrorMessage", "markdownDescription",
    "contentMediaType", "contentEncoding",
})


@functools.lru_cache(maxsize=1)
def _bases() -> dict[int, str]:
    """Base URI of every schema object (by identity), honouring nested `$id`s."""
    bases: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(c, uri) for uri, c in _contents().items()]
    while stack:
        node, base = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                base = urllib.parse.urljoin(base, node["$id"])
            bases[id(node)] = base
            stack.extend((v, base) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, base) for v in node)
    return bases


_COMPILED: dict[int, _Check] = {}


def _fast_checker(schema: Any) -> _Check | None:
    """A closure telling whether an instance is valid against `schema` (None if not compilable)."""
    if not isinstance(schema, (dict, bool)) or (isinstance(schema, dict) and id(schema) not in _bases()):
        return None
    compiled = _compile(schema)

    def check(instance: Any) -> bool:
        try:
            return compiled(instance)
        except (_Unsure, RecursionError):
            return False

    return check


def _is_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    raise _Unsure


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return bool(a == b)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _resolve_ref(schema: dict[str, Any], ref: str) -> Any:
    base = _bases().get(id(schema), SCHEMA_BASE)
    uri, _, fragment = urllib.parse.urljoin(base, ref).partition("#")
    node: Any = _contents().get(uri)
    if node is None or (fragment and not fragment.startswith("/")):
        raise _Unsure
    for part in fragment.split("/")[1:] if fragment else ():
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise _Unsure
    return node


def _compile(schema: Any) -> _Check:
    if schema is True:
        return lambda _: True
    if schema is False:
        return lambda _: False
    if not isinstance(schema, dict):
        raise _Unsure
    cached = _COMPILED.get(id(schema))
    if cached is not None:
        return cached
    checks: list[_Check] = []
    broken = [False]

    def combined(instance: Any) -> bool:
        if broken[0]:
            raise _Unsure
        for c in checks:
            if not c(instance):
                return False
        return True

    # Registered before compiling the parts so a recursive $ref finds it; `checks` fills in
    # place, and `broken` makes every holder of this closure unsure if a part is unsupported.
    _COMPILED[id(schema)] = combined
    try:
        for key, value in schema.items():
            if key not in _ANNOTATIONS:
                checks.append(_keyword(schema, key, value))
    except _Unsure:
        broken[0] = True
    return combined


_SINGLE_TYPE_CHECKS: dict[str, _Check] = {
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
    or (isinstance(x, float) and x.is_integer()),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _keyword(schema: dict[str, Any], key: str, value: Any) -> _Check:
    if key == "type":
        if isinstance(value, str) and value in _SINGLE_TYPE_CHECKS:
            return _SINGLE_TYPE_CHECKS[value]
        names = [value] if isinstance(value, str) else list(value)
        for n in names:
            _is_type(None, n)  # raises _Unsure for an unknown type name
        return lambda x: any(_is_type(x, n) for n in names)
    if key == "enum":
        return lambda x: any(_equal(x, v) for v in value)
    if key == "const":
        return lambda x: _equal(x, value)
    if key == "pattern":
        rx = re.compile(value)
        return lambda x: not isinstance(x, str) or rx.search(x) is not None
    if key in ("minLength", "maxLength"):
        low = key == "minLength"
        return lambda x: not isinstance(x, str) or (len(x) >= value if low else len(x) <= value)
    if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        ops: dict[str, Callable[[Any], bool]] = {
            "minimum": lambda x: x >= value, "maximum": lambda x: x <= value,
            "exclusiveMinimum": lambda x: x > value, "exclusiveMaximum": lambda x: x < value,
        }
        op = ops[key]
        return lambda x: not _number(x) or op(x)
    if key in ("minItems", "maxItems"):
        low = key == "minItems"
        return lambda x: not isinstance(x, list) or (len(x) >= value if low else len(x) <= value)
    if key in ("minProperties", "maxProperties"):
        low = key == "minProperties"
        return lambda x: not isinstance(x, dict) or (len(x) >= value if low else len(x) <= value)
    if key == "uniqueItems":
        if not value:
            return lambda _: True

        def unique(x: Any) -> bool:
            if not isinstance(x, list):
                return True
            seen = set()
            for item in x:
                if not isinstance(item, (str, int)) or isinstance(item, bool):
                    raise _Unsure  # 1 == 1.0 == True subtleties: leave them to jsonschema
                marker = (type(item), item)
                if marker in seen:
                    return False
                seen.add(marker)
            return True

        return unique
    if key == "required":
        names = list(value)
        return lambda x: not isinstance(x, dict) or all(n in x for n in names)
    if key == "properties":
        props = {name: _compile(sub) for name, sub in value.items()}

        def properties(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for name, v in x.items():
                c = props.get(name)
                if c is not None and not c(v):
                    return False
            return True

        return properties
    if key == "patternProperties":
        pats = [(re.compile(p), _compile(sub)) for p, sub in value.items()]

        def pattern_properties(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            return all(c(v) for k, v in x.items() for rx, c in pats if rx.search(k))

        return pattern_properties
    if key == "additionalProperties":
        known = set(schema.get("properties", {}))
        known_patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        extra = _compile(value)

        def additional(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            return all(extra(v) for k, v in x.items()
                       if k not in known and not any(r.search(k) for r in known_patterns))

        return additional
    if key == "propertyNames":
        names_check = _compile(value)
        return lambda x: not isinstance(x, dict) or all(names_check(k) for k in x)
    if key == "dependentRequired":
        deps = {k: list(v) for k, v in value.items()}
        return lambda x: not isinstance(x, dict) or all(
            all(d in x for d in needed) for k, needed in deps.items() if k in x)
    if key == "items":
        if "prefixItems" in schema:
            raise _Unsure
        item = _compile(value)
        return lambda x: not isinstance(x, list) or all(item(i) for i in x)
    if key in ("anyOf", "allOf", "oneOf"):
        subs = [_compile(sub) for sub in value]
        if key == "anyOf":
            return lambda x: any(c(x) for c in subs)
        if key == "allOf":
            return lambda x: all(c(x) for c in subs)
        return lambda x: sum(1 for c in subs if c(x)) == 1
    if key == "not":
        sub = _compile(value)
        return lambda x: not sub(x)
    if key == "if":
        cond = _compile(value)
        then = _compile(schema.get("then", True))
        other = _compile(schema.get("else", True))
        return lambda x: then(x) if cond(x) else other(x)
    if key in ("then", "else"):
        return lambda _: True  # handled with "if"
    if key == "$ref":
        return _compile(_resolve_ref(schema, value))
    raise _Unsure


def _items_with_fast_path(validator: Any, items: Any, instance: Any, schema: Any) -> Iterable[ValidationError]:
    # Big lists (10,000 cards) dominate validation time. Items that the compiled fast check
    # proves valid are skipped; only the others go through jsonschema, which then produces
    # the exact errors. The fast check never says "valid" unless it is sure.
    if not isinstance(instance, list) or "prefixItems" in schema or isinstance(items, bool):
        yield from _ORIGINAL_ITEMS(validator, items, instance, schema)
        return
    check = _fast_checker(items)
    for index, item in enumerate(instance):
        if check is not None and check(item):
            continue
        yield from validator.descend(instance=item, schema=items, path=index)


@functools.cache
def _fast_validator_class() -> Any:
    import jsonschema

    global _ORIGINAL_ITEMS
    _ORIGINAL_ITEMS = jsonschema.Draft202012Validator.VALIDATORS["items"]
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"items": _items_with_fast_path})


_ORIGINAL_ITEMS: Any = None  # jsonschema's own `items`, set with the validator class


@functools.cache
def validator_for(name: str) -> jsonschema.protocols.Validator:
    """The compiled (cached) draft 2020-12 validator for schema `name`."""
    import jsonschema

    schema_text(name)  # a clean SchemaError for an unknown name
    schema = _contents()[SCHEMA_BASE + name + _SUFFIX]
    jsonschema.Draft202012Validator.check_schema(schema)
    validator: jsonschema.protocols.Validator = _fast_validator_class()(schema, registry=_registry())
    return validator


@functools.cache
def _whole_check(name: str) -> _Check | None:
    """The fast validity check of a whole document against schema `name` (None if not compilable)."""
    schema_text(name)
    return _fast_checker(_contents()[SCHEMA_BASE + name + _SUFFIX])


# --------------------------------------------------------------------------------------------
# Validation and messages.
# --------------------------------------------------------------------------------------------


MAX_SCHEMA_PROBLEMS = 200  # reported for one file; the rest wait for these to be fixed


class _Enough(Exception):
    """As many schema problems as are reported for one file have been found."""


def validate(doc: Located, schema_name: str) -> list[SchemaError]:
    """Every schema error in `doc` against schema `schema_name`, located and sorted by position;
    and a display `name` that shows nothing or holds an invisible character, which a pattern
    cannot say (Unicode categories: the rule seat names follow)."""
    problems = _schema_problems(doc, schema_name)
    name = doc.data.get("name") if isinstance(doc.data, dict) else None
    if isinstance(name, str) and not any(p.location == doc.loc(["name"]) for p in problems):
        from davinci.engine.errors import hides_text, quoted, shows_nothing

        if shows_nothing(name) or any(hides_text(c) for c in name):
            problems.append(SchemaError(
                f"'name' must be one line of text that shows something, without control or invisible characters, "
                f"got '{quoted(name)}'", doc.loc(["name"]), "DV015"))
            problems.sort(key=lambda p: (_sort_key(p.location), p.code, p.message))
    return problems


def _schema_problems(doc: Located, schema_name: str) -> list[SchemaError]:
    check = _whole_check(schema_name)
    try:
        if check is not None and check(doc.data):
            return []  # proven valid: jsonschema is not needed (nor imported)
    except RecursionError:
        pass
    import jsonschema
    import referencing.exceptions

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
            for problem in _translate(doc, error):
                if len(problems) >= MAX_SCHEMA_PROBLEMS:
                    raise _Enough
                problems.append(problem)
    except _Enough:
        # A file of 500,000 unknown keys took minutes and 400 MB to report, one did-you-mean each.
        problems.append(SchemaError(f"and more: the schema check stops at {MAX_SCHEMA_PROBLEMS} problems in one file; "
                                    "fix these and lint again", doc.loc([]), SCHEMA))
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


def _translate(doc: Located, error: ValidationError) -> Iterable[SchemaError]:
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
            # (a key of megabytes is shown cut, and compared with no key name: none is that long)
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6) if len(str(key)) <= 100 else []
            owner = _owner_of(schema, str(key)) if not close else None
            hint = (f" (did you mean '{close[0]}'?)" if close else
                    f" ('{key}' is a key of '{owner}:': indent it under '{owner}')" if owner else _allowed_hint(known))
            yield SchemaError(f"unknown key '{quoted(str(key))}'{hint}", doc.loc([*path, key], key=True), UNKNOWN_KEY)
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
        if "integer" in names and isinstance(value, str) and len(value) > 100 and value.lstrip("+-").isdigit():
            # Digits past what the loader converts (thousands of them): a number too large, not text.
            got = f"a number of {len(value.lstrip('+-')):,} digits, far too large"
        elif names == ["integer"] and isinstance(value, str) and any(c.isalpha() or c in "(." for c in value):
            # `copies: settings.copies`: a field read before any game runs takes no expression.
            got += "; this field takes a plain number, not an expression"
        if names == ["object"] and len(path) == 2 and path[0] == "settings" and not isinstance(value, (dict, list)):
            # `dice: 2` under settings: a setting is declared (or changed) by its keys.
            shown = json.dumps(value) if value is not None else "..."
            typ = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"
            declare = f"type: {typ}, " if getattr(doc, "kind", None) == "game" else ""
            got += f"; write `{path[1]}: {{{declare}default: {shown}}}` to set its default value"
        yield SchemaError(f"{where} must be {wanted}, got {got}", loc, WRONG_TYPE)
        return
    if kind == "enum":
        options = ", ".join(_show(v) for v in error.validator_value)
        allowed = [v for v in error.validator_value if isinstance(v, str)]
        near = did_you_mean(value, allowed, aside=False) if isinstance(value, str) and allowed else ""
        yield SchemaError(f"{where} must be one of {options}, got {_show(value)}{near}", loc, BAD_VALUE)
        return
    if kind == "const":
        yield SchemaError(f"{where} must be {_show(error.validator_value)}, got {_show(value)}", loc, BAD_VALUE)
        return
    if kind == "pattern":
        shape = schema.get("patternErrorMessage") or f"text matching {error.validator_value}"
        # A key's name (propertyNames): the message is the key's, not the section's.
        subject = f"a key of {where}" if "propertyNames" in error.schema_path else where
        yield SchemaError(f"{subject} must be {shape}, got {_show(value)}", loc, BAD_FORMAT)
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
    doc: Located, error: ValidationError, where: str, loc: SourceLocation
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
    from jsonschema.exceptions import best_match

    # A form of another type (text where a mapping was written) says least: the form of the
    # value's own type says what is wrong with it (an unknown key, say).
    fitting = [e for e in subs if e.validator != "type" or e.relative_path]
    best = best_match(fitting or subs) if subs else None
    if best is None:
        yield SchemaError(f"{where}: {error.message}", loc, SCHEMA)
        return
    yield from _translate(doc, best)


def _owner_of(schema: Mapping[str, Any], key: str) -> str | None:
    """The key of `schema` whose own mapping takes `key` (`lower_is_better` is one of `end`'s):
    a key found beside it was indented too little."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return None
    for name, sub in props.items():
        if isinstance(sub, dict) and isinstance(sub.get("properties"), dict) and key in sub["properties"]:
            return str(name)
    return None


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


if __name__ == "__main__":  # python -m davinci.engine.schema: write the game schema's step again
    _game = Path(__file__).resolve().parent.parent / "schemas" / ("game" + _SUFFIX)
    _data = json.loads(_game.read_text(encoding="utf-8"))
    _data["$defs"]["step"] = step_schema()
    _game.write_text(json.dumps(_data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {_game}")
