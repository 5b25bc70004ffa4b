"""Strict YAML loading with source positions.

Every davinci YAML file goes through `load_yaml_text` / `load_yaml_file`. The loader builds plain
Python data (dict, list, str, int, float, bool, None) directly from the parser's event stream,
which lets it keep a position for every key and value, reject the hazards listed below as they
appear, and never recurse (so a deeply nested file cannot exhaust the Python stack).

Rejected, each with its own stable code (documented as lint rules, see `davinci rule DV003`):

- DV001 syntax errors, and mapping keys that are not scalars;
- DV002 duplicate keys (the message names both positions);
- DV003 anchors and aliases (alias bombs expand cheaply and then cost minutes downstream);
- DV004 tab characters where YAML forbids them (indentation);
- DV005 bytes that are not UTF-8, NUL and other control characters (also when written as escapes
  such as `"\\e"` in a double-quoted string, keys included), direction overrides and isolates,
  UTF-16/32 byte-order marks;
- DV006 files larger than the size cap (default 5 MiB), or holding more than MAX_VALUES values;
- DV007 nesting deeper than the depth cap (default 64);
- DV008 more than one document in a file;
- DV009 explicit tags (`!!python/object`, `!custom`...): davinci files are plain data.

Scalars follow the YAML 1.2 core schema, minus its remaining surprises: only `true`/`false`
(also `True`/`TRUE`...) are booleans, so `yes`, `no`, `on`, `off`, `NO` stay strings; `null`, `~`
and an empty value are None; decimal integers without leading zeros are ints (`017` and `1:20`
stay strings, never octal or base-60); floats only when written with a dot or an exponent.
Mapping keys are always strings, exactly as written.
"""

from __future__ import annotations

import bisect
import gc
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from davinci.engine.errors import (
    BIDI_CONTROLS,
    CONTROL_CHARS,
    PackError,
    SourceLocation,
    UsageError,
    YamlError,
)
from davinci.engine.lint.registry import Rule, register

DEFAULT_MAX_BYTES = 5 * 2**20
DEFAULT_MAX_DEPTH = 64
# Keys and values in one file: a 10,000-card deck holds about 100,000; half a million one-line
# keys fit in the size cap and took seconds to parse and report.
MAX_VALUES = 200_000

# The C parser is ~10x faster; its marks carry the same (character-based) line, column and index.
_LoaderClass: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# --------------------------------------------------------------------------------------------
# Codes, registered as documented lint rules so `davinci rule DV00x` explains each hazard.
# --------------------------------------------------------------------------------------------

SYNTAX = "DV001"
DUPLICATE_KEY = "DV002"
ALIAS = "DV003"
TAB = "DV004"
ENCODING = "DV005"
TOO_LARGE = "DV006"
TOO_DEEP = "DV007"
MULTI_DOC = "DV008"
TAG = "DV009"


def _doc_rule(code: str, name: str, doc: str) -> None:
    register(Rule(code, name, "error", (), None, doc.strip(), "yaml"))


_doc_rule(SYNTAX, "yaml-syntax", """
The file must be well-formed YAML, and every mapping key must be a plain scalar.

Why: nothing else can be checked until the file parses; complex keys (`? [a, b]`) have no
JSON equivalent, so the schema could not describe them.

Failing:

```yaml
name: "Riddles
cards: []
```

Passing:

```yaml
name: "Riddles"
cards: []
```
""")

_doc_rule(DUPLICATE_KEY, "duplicate-key", """
A key may appear only once in a mapping; the message names the first and the repeated position.

Why: most YAML loaders silently keep the last value, so an edit to the first copy has no effect
and nobody notices.

Failing:

```yaml
id: riddles
name: Riddles
id: places
```

Passing:

```yaml
id: riddles
name: Riddles
```
""")

_doc_rule(ALIAS, "no-anchors", """
Anchors (`&name`) and aliases (`*name`) are not allowed.

Why: a few lines of nested aliases expand to billions of nodes ("billion laughs"): they load
instantly and then make validation run for minutes. Repeat the value instead, or use a
deck overlay / variant `extends:` to share content.

Failing:

```yaml
defaults: &d {difficulty: 1}
card: *d
```

Passing:

```yaml
defaults: {difficulty: 1}
card: {difficulty: 1}
```
""")

_doc_rule(TAB, "no-tab-indent", """
Indentation must use spaces; YAML forbids tab characters there.

Why: a tab looks like spaces in most editors, so the structure the author sees is not the one
the parser reads.

Failing (the second line starts with a tab, shown here as `<TAB>`):

```yaml
cards:
<TAB>- id: one
```

Passing:

```yaml
cards:
  - id: one
```
""")

_doc_rule(ENCODING, "utf8-text", """
The file must be UTF-8 text without NUL bytes or other control characters. A leading UTF-8
byte-order mark is tolerated; UTF-16 and UTF-32 files are refused. No text (key or value) may
hold a control character written as an escape in a double-quoted string either (`"\\e"`,
`"\\x1b"`, `"\\u009b"`, `"\\a"`, `"\\r"`...); only `"\\n"` and `"\\t"` are allowed. No text may
hold a Unicode direction embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069),
raw or escaped; the marks U+200E, U+200F and U+061C, and right-to-left text, are fine. The line
and paragraph separators U+2028 and U+2029 and the next-line character U+0085 (NEL) may not appear
anywhere in a file: YAML reads them as line breaks that editors do not show.

Why: a stray NUL or a Latin-1 accent usually means the file was corrupted or saved with the
wrong encoding, and clue text would be garbled on screen. Names, prompts and clues are printed
on the player's terminal: an escape character there would let a pack retitle the window, clear
the screen or recolour everything after it, and a right-to-left override would turn the rest of
the line around on every screen that shows the name.

Failing: a file saved as Latin-1 containing `answer: Caf\\xe9` (byte 0xE9),
`name: "Nim\\e[31m"`, or `name: "Nim \\u202eevil"`.

Passing: the same file saved as UTF-8 (`answer: Café`), and `name: "Nim"`.
""")

_doc_rule(TOO_LARGE, "file-size", """
A YAML file may not be larger than the size cap (5 MiB by default).

Why: every file is read whole into memory and validated; the cap stops a runaway or hostile
file from exhausting memory or time. A 10,000-card deck is about 2 MB.

Failing: a 6 MB deck file. Passing: split it into two decks, or add cards through a
`deck-overlay` file.
""")

_doc_rule(TOO_DEEP, "nesting-depth", """
Mappings and lists may be nested at most 64 levels deep.

Why: no davinci file needs more than a handful of levels, and very deep nesting is the classic
way to crash a parser (stack exhaustion). The loader checks depth while parsing.

Failing:

```yaml
a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
```

Passing:

```yaml
a: [1]
```
""")

_doc_rule(MULTI_DOC, "single-document", """
A file holds exactly one YAML document: no second `---` section.

Why: davinci reads one game, variant, deck or manifest per file; a second document would be
silently ignored by other tools.

Failing:

```yaml
kind: deck
id: riddles
---
kind: deck
id: places
```

Passing: put the second deck in its own file.
""")

_doc_rule(TAG, "no-tags", """
Explicit YAML tags (`!!python/object`, `!!binary`, `!custom`...) are not allowed; only the
neutral `!!str`, `!!map` and `!!seq` are accepted, and the non-specific `!` (plain data too).

Why: tags are how YAML loaders are tricked into building objects or running code. davinci files
are plain data, so a tag is always either a mistake or an attack.

Failing:

```yaml
answer: !!python/name:os.system
```

Passing:

```yaml
answer: "os.system"
```
""")


# --------------------------------------------------------------------------------------------
# Scalar resolution (the YAML 1.2 core schema without its surprises).
# --------------------------------------------------------------------------------------------

_KEYWORDS: dict[str, Any] = {
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
    "null": None, "Null": None, "NULL": None, "~": None, "": None,
}
_INT_RE = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_FLOAT_RE = re.compile(r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOATS: dict[str, float] = {}
for _sign, _mult in (("", 1.0), ("+", 1.0), ("-", -1.0)):
    for _word in (".inf", ".Inf", ".INF"):
        _SPECIAL_FLOATS[_sign + _word] = _mult * float("inf")
for _word in (".nan", ".NaN", ".NAN"):
    _SPECIAL_FLOATS[_word] = float("nan")

_STR_TAGS = frozenset({"!", "tag:yaml.org,2002:str"})
_MAP_TAGS = frozenset({"!", "tag:yaml.org,2002:map"})
_SEQ_TAGS = frozenset({"!", "tag:yaml.org,2002:seq"})


def resolve_plain(s: str) -> Any:
    """The Python value of an unquoted YAML scalar under davinci's strict rules."""
    if s in _KEYWORDS:
        return _KEYWORDS[s]
    if s[0] in "0123456789+-.":
        if _INT_RE.match(s):
            try:
                return int(s)
            except ValueError:  # more digits than Python converts; keep the text
                return s
        if _FLOAT_RE.match(s) and ("." in s or "e" in s or "E" in s):
            value = float(s)
            # `1e400` is past any float: kept as written, so a message shows it (not "inf").
            return s if value in (float("inf"), float("-inf")) else value
        if s in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[s]
    return s


# --------------------------------------------------------------------------------------------
# Position records kept beside the data ("shadow" tree).
# --------------------------------------------------------------------------------------------

# A position record is the 0-based character index of the node's first character in Doc.text:
# a bare int for a scalar, (index, {key: (key index, record)}) for a mapping and (index, [record])
# for a list. Storing one int per node (line and column are derived on demand by bisecting the
# line starts) keeps loading a 10,000-card deck fast.
MapRecord = tuple[int, dict[str, tuple[int, Any]]]
SeqRecord = tuple[int, list[Any]]


def _record_index(rec: Any) -> int:
    if isinstance(rec, int):
        return rec
    first: int = rec[0]
    return first


_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


@dataclass
class Doc:
    """A loaded YAML file: plain data plus a way back to the source position of any part of it."""

    path: str
    data: Any
    text: str
    _root: Any = field(default=None, repr=False, compare=False)
    _line_starts: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def kind(self) -> str | None:
        """The top-level `kind:` value when it is a string, else None."""
        if isinstance(self.data, dict):
            k = self.data.get("kind")
            if isinstance(k, str):
                return k
        return None

    def _walk(self, path: Sequence[str | int]) -> tuple[Any, int | None, bool]:
        """Record of the deepest existing node on `path`, its key's index, and whether all of `path` exists."""
        node = self._root
        key_index: int | None = None
        for part in path:
            if isinstance(node, tuple) and isinstance(node[1], dict):
                entry = node[1].get(str(part)) if not isinstance(part, bool) else None
                if entry is None:
                    return node, key_index, False
                key_index, node = entry
            elif isinstance(node, tuple):
                items = node[1]
                if not isinstance(part, int) or isinstance(part, bool) or not 0 <= part < len(items):
                    return node, key_index, False
                key_index = None
                node = items[part]
            else:
                return node, key_index, False
        return node, key_index, True

    def _at_index(self, index: int) -> SourceLocation:
        line, col = self.line_col(index)
        return SourceLocation(self.path, line, col)

    def line_col(self, index: int) -> tuple[int, int]:
        """1-based (line, column) of character `index` of the text."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in _BREAK_RE.finditer(self.text)]
        i = bisect.bisect_right(self._line_starts, index) - 1
        return i + 1, index - self._line_starts[i] + 1

    def loc(self, path: Sequence[str | int] = (), key: bool = False) -> SourceLocation:
        """Position of the value at JSON path `path` (of its key if `key`); nearest ancestor when missing."""
        if self._root is None:
            return SourceLocation(self.path, 1, 1)
        node, key_index, complete = self._walk(path)
        if key and complete and key_index is not None:
            return self._at_index(key_index)
        return self._at_index(_record_index(node))

    def has(self, path: Sequence[str | int]) -> bool:
        """Whether the JSON path exists in the document."""
        return self._root is not None and self._walk(path)[2]

    def scalar_loc(self, path: Sequence[str | int], offset: int) -> SourceLocation:
        """Position of character `offset` of the parsed string at `path`, mapped back into the file."""
        base = self.loc(path)
        if self._root is None:
            return base
        node, _, complete = self._walk(path)
        value = _get_path(self.data, path) if complete else None
        if not complete or not isinstance(node, int) or not isinstance(value, str):
            return base
        start = node
        text = self.text
        if text.startswith("!", start):  # skip an explicit `!!str` tag to reach the scalar itself
            while start < len(text) and text[start] not in " \t\r\n":
                start += 1
            while start < len(text) and text[start] in " \t":
                start += 1
        style = text[start] if start < len(text) and text[start] in "'\"|>" else ""
        indices = scalar_index_map(text, start, style, value)
        if indices is None:
            return base
        offset = max(0, min(offset, len(indices) - 1))
        return self._at_index(indices[offset])


def _get_path(data: Any, path: Sequence[str | int]) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(str(part))
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


# --------------------------------------------------------------------------------------------
# Mapping a parsed scalar's characters back to raw text indices.
# --------------------------------------------------------------------------------------------

_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_BREAK_CHARS = "\r\n\x85\u2028\u2029"


def _skip_break(text: str, i: int) -> int:
    if text.startswith("\r\n", i):
        return i + 2
    return i + 1


def scalar_index_map(text: str, start: int, style: str, value: str) -> list[int] | None:
    """For each character of `value` (plus one past the end), its index in `text`; None if unsure.

    `start` is the scalar's start mark (the opening quote or block indicator). The mapping is
    rebuilt by re-reading the raw scalar, then checked against `value`; any disagreement
    (an unusual construct this reader does not model) returns None so callers fall back to the
    scalar's start position rather than pointing somewhere wrong.
    """
    try:
        if style in ("|", ">"):
            res = _block_map(text, start, style == ">", value)
        else:
            res = _flow_map(text, start, style, value)
    except IndexError:
        return None
    if res is None:
        return None
    chars, idx, end = res
    if "".join(chars) != value:
        return None
    idx.append(end)
    return idx


def _flow_map(text: str, start: int, style: str, value: str) -> tuple[list[str], list[int], int] | None:
    chars: list[str] = []
    idx: list[int] = []
    protected = 0  # output before this point is never trimmed (escapes, folds)
    quoted = style in ("'", '"')
    i = start + 1 if quoted else start
    n = len(value)
    length = len(text)
    while i < length:
        if not quoted and len(chars) >= n:
            return chars, idx, i
        c = text[i]
        if quoted and c == style:
            if style == "'" and text.startswith("''", i):
                chars.append("'")
                idx.append(i)
                protected = len(chars)
                i += 2
                continue
            return chars, idx, i
        if style == '"' and c == "\\":
            nxt = text[i + 1]
            if nxt in _BREAK_CHARS:
                i = _skip_break(text, i + 1)
                i, blanks = _skip_blank_lines(text, i)
                chars.extend("\n" * blanks)
                idx.extend([i] * blanks)
                protected = len(chars)
                continue
            if nxt in _SIMPLE_ESCAPES:
                chars.append(_SIMPLE_ESCAPES[nxt])
                idx.append(i)
                i += 2
            elif nxt in _HEX_ESCAPES:
                width = _HEX_ESCAPES[nxt]
                chars.append(chr(int(text[i + 2:i + 2 + width], 16)))
                idx.append(i)
                i += 2 + width
            else:
                return None
            protected = len(chars)
            continue
        if c in _BREAK_CHARS:
            while len(chars) > protected and chars[-1] in " \t":
                chars.pop()
                idx.pop()
            brk = i
            i, blanks = _skip_blank_lines(text, _skip_break(text, i))
            if blanks:
                chars.extend("\n" * blanks)
                idx.extend([brk] * blanks)
            else:
                chars.append(" ")
                idx.append(brk)
            protected = len(chars)
            continue
        chars.append(c)
        idx.append(i)
        if c not in " \t":
            protected = len(chars)
        i += 1
    return chars, idx, i


def _skip_blank_lines(text: str, i: int) -> tuple[int, int]:
    """Skip leading whitespace of continuation lines; count the empty lines in between."""
    blanks = 0
    length = len(text)
    while True:
        j = i
        while j < length and text[j] in " \t":
            j += 1
        if j < length and text[j] in _BREAK_CHARS:
            blanks += 1
            i = _skip_break(text, j)
            continue
        return j, blanks


def _block_map(text: str, start: int, folded: bool, value: str) -> tuple[list[str], list[int], int] | None:
    i = start + 1
    explicit = 0
    while i < len(text) and text[i] in "+-123456789":
        if text[i].isdigit():
            explicit = int(text[i])
        i += 1
    while i < len(text) and text[i] not in _BREAK_CHARS:
        i += 1
    if i >= len(text):
        return [], [], i
    body = _skip_break(text, i)
    lines = _raw_lines(text, body, 1 if explicit else None)
    first_content = next((ind for ind, is_blank, _, _ in lines if not is_blank), None)
    if first_content is None:
        return None
    if explicit:
        candidates = list(range(first_content, 0, -1))
    else:
        blank_max = 0
        for ind, is_blank, _, _ in lines:
            if not is_blank:
                break
            blank_max = max(blank_max, ind)
        candidates = [max(first_content, blank_max, 1)]
    for indent in candidates:
        res = _block_emulate(text, lines, indent, folded)
        chars, idx, end = res
        if "".join(chars[: len(value)]) == value and len(chars) >= len(value):
            return chars[: len(value)], idx[: len(value)], end
    return None


def _raw_lines(text: str, i: int, floor: int | None = None) -> list[tuple[int, bool, int, int]]:
    """Lines from index i: (leading spaces, whitespace-only?, start index, end index before the break).

    Stops after the first non-blank line indented less than the block's content (less than the
    first content line, or than `floor` when given), since the block cannot extend past it; this
    keeps position lookups proportional to the block, not to the rest of the file.
    """
    out: list[tuple[int, bool, int, int]] = []
    length = len(text)
    limit = floor
    while i < length:
        j = i
        while j < length and text[j] == " ":
            j += 1
        k = j
        while k < length and text[k] not in _BREAK_CHARS:
            k += 1
        blank = text[j:k].strip(" \t") == ""
        out.append((j - i, blank, i, k))
        if not blank:
            if limit is None:
                limit = j - i
            elif j - i < limit:
                break
        if k >= length:
            break
        i = _skip_break(text, k)
    return out


def _block_emulate(
    text: str, lines: list[tuple[int, bool, int, int]], indent: int, folded: bool
) -> tuple[list[str], list[int], int]:
    # Mirrors libyaml's scan_block_scalar: a line break is kept as "\n", or folded into a
    # space between two non-indented text lines of a folded scalar.
    chars: list[str] = []
    idx: list[int] = []
    leading_break: int | None = None
    trailing: list[int] = []
    leading_blank = False
    end = lines[-1][3] if lines else len(text)
    for spaces, blank, start, stop in lines:
        if blank and spaces <= indent:
            trailing.append(stop)
            continue
        if spaces < indent:
            end = start
            break
        content_start = start + indent
        trailing_blank = text[content_start] in " \t" if content_start < stop else False
        if folded and leading_break is not None and not leading_blank and not trailing_blank:
            if not trailing:
                chars.append(" ")
                idx.append(leading_break)
        elif leading_break is not None:
            chars.append("\n")
            idx.append(leading_break)
        chars.extend("\n" * len(trailing))
        idx.extend(trailing)
        trailing = []
        leading_blank = trailing_blank
        for k in range(content_start, stop):
            chars.append(text[k])
            idx.append(k)
        leading_break = stop
    if leading_break is not None:
        chars.append("\n")
        idx.append(leading_break)
    chars.extend("\n" * len(trailing))
    idx.extend(trailing)
    return chars, idx, end


# --------------------------------------------------------------------------------------------
# Loading.
# --------------------------------------------------------------------------------------------

# Characters YAML 1.1/1.2 do not allow in a stream (C0 controls except tab/LF/CR, DEL, C1
# controls except NEL, surrogates, U+FFFE/U+FFFF).
# U+2028, U+2029 and NEL (U+0085) too: YAML reads them as line breaks that editors, diff and grep
# do not show, so a line could hide a key, and reported line numbers would not match the editor's.
_BAD_CHAR_RE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")




def _control_error(value: str, start: int, style: str, text: str, path: str) -> YamlError:
    """DV005 at the character of a scalar (starting at `start`, in `style`) that no text may hold.

    Control characters (errors.CONTROL_CHARS: `"\\e[2J"` would clear the screen of whoever reads
    it, `"\\u009b"` is the one-character form) come only from the escapes of a double-quoted
    scalar: the raw file cannot hold them (_BAD_CHAR_RE), and other scalar styles read their line
    breaks, CR and NEL included, as line feeds. Direction controls (errors.BIDI_CONTROLS) may also
    be written raw, in any style.
    """
    kind, why = "control", "would reach the terminal of whoever reads it (only the \\n and \\t escapes may be used)"
    bad = CONTROL_CHARS.search(value)
    if bad is None:
        kind, why = "direction", "turns around or reorders the text after it on the screen of whoever reads it"
        bad = BIDI_CONTROLS.search(value)
    k = bad.start() if bad is not None else 0
    index, written = start, ""
    where = scalar_index_map(text, start, style, value)
    if where is not None:
        index = where[k]
        if style == '"' and text[index] == "\\":
            written = f" (written '{text[where[k]:where[k + 1]]}')"
    line, col = _loc_of_index(text, index)
    return _err(
        ENCODING,
        f"{kind} character U+{ord(value[k]):04X}{written} is not allowed in a text: it {why}",
        path, line, col,
    )


def _err(code: str, message: str, path: str, line: int, col: int) -> YamlError:
    return YamlError(message, SourceLocation(path, line, col), code)


def _loc_of_index(text: str, index: int) -> tuple[int, int]:
    line = 1
    line_start = 0
    for m in _BREAK_RE.finditer(text, 0, index):
        line += 1
        line_start = m.end()
    return line, index - line_start + 1


def _decode(data: bytes, path: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00") or data[:2] in (b"\xfe\xff", b"\xff\xfe"):
        raise _err(ENCODING, "file is UTF-16 or UTF-32 encoded; save it as UTF-8", path, 1, 1)
    elif len(data) >= 4 and (data[1:8:2].count(0) == len(data[1:8:2]) or data[0:8:2].count(0) == len(data[0:8:2])):
        # Every other byte NUL from the start: UTF-16 written without its byte-order mark.
        raise _err(ENCODING, "file looks UTF-16 encoded (every other byte is 0); save it as UTF-8", path, 1, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        prefix = data[: e.start].decode("utf-8", errors="replace")
        line, col = _loc_of_index(prefix, len(prefix))
        raise _err(
            ENCODING, f"invalid UTF-8 byte 0x{data[e.start]:02X}; save the file as UTF-8", path, line, col
        ) from None


def load_yaml_text(
    text: str | bytes,
    path: str = "<string>",
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> Doc:
    """Parse one YAML document strictly into plain data with positions; raise YamlError on any hazard."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise _err(TOO_LARGE, f"file is {len(text):,} bytes, over the {max_bytes:,}-byte limit", path, 1, 1)
        text = _decode(text, path)
    else:
        if len(text) > max_bytes:
            raise _err(TOO_LARGE, f"file is over the {max_bytes:,}-byte limit", path, 1, 1)
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError as e:
            line, col = _loc_of_index(text, e.start)
            raise _err(ENCODING, "text contains an unpaired surrogate character", path, line, col) from None
        if size > max_bytes:
            raise _err(TOO_LARGE, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit", path, 1, 1)
    if text.startswith("\ufeff"):
        # A UTF-8 BOM is harmless; drop it but keep positions stable by replacing it with nothing
        # at the very start (columns of line 1 shift by one, as editors show them).
        text = text[1:]
    bad = _BAD_CHAR_RE.search(text)
    if bad is not None:
        ch = bad.group()
        line, col = _loc_of_index(text, bad.start())
        what = "NUL byte" if ch == "\0" else f"control character U+{ord(ch):04X}"
        if ch in "\x85\u2028\u2029":
            name = {"\x85": "next-line character", "\u2028": "line separator"}.get(ch, "paragraph separator")
            what = f"{name} U+{ord(ch):04X} (YAML reads it as a line break that editors do not show)"
        raise _err(ENCODING, f"{what} is not allowed in a YAML file", path, line, col)
    # The builder allocates hundreds of thousands of small containers that are all alive until
    # the end; pausing the cyclic GC meanwhile roughly halves load time on big decks.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        data, root = _build(text, path, max_depth)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Doc(path, data, text, root)


def _syntax_error(e: yaml.YAMLError, text: str, path: str) -> YamlError:
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        problem = (e.problem or "invalid YAML").strip()
        if "end of stream" in problem and e.context_mark is not None:
            # An unclosed quote or bracket is only noticed at the end of the file; the place
            # to fix is where it was opened.
            mark = e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        at_tab = mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t"
        if at_tab or "'\\t'" in problem or "tab character" in problem:
            return _err(TAB, "tab character where YAML allows only spaces (indent with spaces)", path, line, col)
        if "nesting depth" in problem:  # libyaml's own flow-level limit, met while scanning ahead
            return _err(TOO_DEEP, "nesting is too deep", path, line, col)
        message = problem
        if e.context:
            cm = e.context_mark
            where = f" started at {cm.line + 1}:{cm.column + 1}" if cm is not None and cm is not mark else ""
            message = f"{problem} ({e.context.strip()}{where})"
            if "expected <block end>" in problem or "did not find expected key" in problem \
                    or "did not find expected '-' indicator" in problem:
                # Nearly always a line indented more or less than the others of its block.
                message += ": check this line's indentation against the lines of the block above it"
        if problem.startswith("mapping values are not allowed"):
            message += (": a ': ' inside a plain value (quote the value), or a key indented deeper than the "
                        "keys beside it")
        lines = text.splitlines()
        if "did not find expected ',' or '}'" in problem or "did not find expected ',' or ']'" in problem:
            # `{clues: clues + [1]}`: a plain value holding brackets or commas ends the mapping early.
            message += ("; an expression holding brackets, braces or commas inside a {...} or [...] must be "
                        "quoted: {clues: \"clues + [1]\"}")
        if 0 < line <= len(lines) and lines[line - 1].count('"') > 2:
            message += ('; a text in double quotes ends at its next double quote: inside an expression '
                        "written in \"...\", write its texts in single quotes ('colour')")
        return _err(SYNTAX, message, path, line, col)
    if isinstance(e, yaml.reader.ReaderError):
        line, col = _loc_of_index(text, min(max(e.position, 0), len(text)))
        return _err(ENCODING, f"character U+{e.character:04X} is not allowed in a YAML file", path, line, col)
    return _err(SYNTAX, f"invalid YAML: {e}", path, 1, 1)


def _build(text: str, path: str, max_depth: int) -> tuple[Any, Any]:
    """Turn the parser's events into data plus position records, checking hazards on the way."""
    scalar_event = yaml.ScalarEvent
    mapping_start = yaml.MappingStartEvent
    sequence_start = yaml.SequenceStartEvent
    mapping_end = yaml.MappingEndEvent
    sequence_end = yaml.SequenceEndEvent
    keywords = _KEYWORDS
    resolve = resolve_plain
    numeric_start = "0123456789+-."
    no_key = _NO_KEY
    control_search = CONTROL_CHARS.search
    bidi_search = BIDI_CONTROLS.search

    def fail(code: str, message: str, mark: Any) -> YamlError:
        return _err(code, message, path, mark.line + 1, mark.column + 1)

    def too_many(mark: Any) -> YamlError:
        return fail(TOO_LARGE, f"the file holds more than {MAX_VALUES:,} values (keys, values, lists and mappings): "
                               "split it into several files (a deck into overlays)", mark)

    # A frame is [container, its record's dict/list, pending key (or no_key), pending key index].
    # Mapping frames have a dict container; the pending key slot is unused for lists.
    stack: list[list[Any]] = []
    root: Any = None
    root_rec: Any = None
    documents = 0
    counted = 0  # keys, values, lists and mappings so far (at most MAX_VALUES)
    try:
        loader = _LoaderClass(text)
    except yaml.YAMLError as e:
        raise _syntax_error(e, text, path) from None
    try:
        get_event = loader.get_event
        while True:
            ev = get_event()
            t = type(ev)
            if t is scalar_event:
                m = ev.start_mark
                counted += 1
                if counted > MAX_VALUES:
                    raise too_many(m)
                if ev.anchor is not None:
                    raise fail(ALIAS, f"anchor '&{ev.anchor}' is not allowed (repeat the value instead)", m)
                raw = ev.value
                if (ev.style == '"' and control_search(raw) is not None) or bidi_search(raw) is not None:  # keys too
                    raise _control_error(raw, m.index, ev.style or "", text, path)
                tag = ev.tag
                if tag is not None:
                    if tag not in _STR_TAGS:
                        raise fail(TAG, f"tag '{_short_tag(tag)}' is not allowed (davinci files are plain data)", m)
                    value: Any = raw
                elif ev.style:
                    value = raw
                elif raw in keywords:
                    value = keywords[raw]
                elif raw[0] in numeric_start:
                    value = resolve(raw)
                else:
                    value = raw  # most plain scalars are words: skip the number checks
                index = m.index
                if not stack:
                    root, root_rec = value, index
                    continue
                frame = stack[-1]
                container = frame[0]
                if container.__class__ is dict:
                    if frame[2] is no_key:
                        entries = frame[1]
                        if raw == "<<" and not ev.style:  # YAML's merge key: no key of the rules
                            raise fail(ALIAS, "merge keys ('<<') are not allowed (davinci files are plain data: "
                                       "repeat the keys instead)", m)
                        if raw in entries:
                            raise _duplicate(raw, entries[raw][0], m, text, path)
                        frame[2] = raw
                        frame[3] = index
                    else:
                        key = frame[2]
                        container[key] = value
                        frame[1][key] = (frame[3], index)
                        frame[2] = no_key
                else:
                    container.append(value)
                    frame[1].append(index)
            elif t is mapping_start or t is sequence_start:
                m = ev.start_mark
                counted += 1  # a list or mapping is a value too (a million `[]` cost as much)
                if counted > MAX_VALUES:
                    raise too_many(m)
                if ev.anchor is not None:
                    raise fail(ALIAS, f"anchor '&{ev.anchor}' is not allowed (repeat the value instead)", m)
                is_map = t is mapping_start
                if ev.tag is not None and ev.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
                    raise fail(TAG, f"tag '{_short_tag(ev.tag)}' is not allowed (davinci files are plain data)", m)
                if len(stack) >= max_depth:
                    raise fail(TOO_DEEP, f"nesting is deeper than {max_depth} levels", m)
                new: Any = {} if is_map else []
                inner: Any = {} if is_map else []
                rec = (m.index, inner)
                if stack:
                    frame = stack[-1]
                    container = frame[0]
                    if container.__class__ is dict:
                        if frame[2] is no_key:
                            raise fail(SYNTAX, "a mapping key must be a scalar, not a "
                                       + ("mapping" if is_map else "list"), m)
                        key = frame[2]
                        container[key] = new
                        frame[1][key] = (frame[3], rec)
                        frame[2] = no_key
                    else:
                        container.append(new)
                        frame[1].append(rec)
                else:
                    root, root_rec = new, rec
                stack.append([new, inner, no_key, 0])
            elif t is mapping_end or t is sequence_end:
                stack.pop()
            elif t is yaml.AliasEvent:
                raise fail(ALIAS, f"alias '*{ev.anchor}' is not allowed (repeat the value instead)", ev.start_mark)
            elif t is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise fail(MULTI_DOC, "a file may hold only one YAML document (found a second '---')",
                               ev.start_mark)
            elif t is yaml.StreamEndEvent:
                break
    except yaml.YAMLError as e:
        raise _syntax_error(e, text, path) from None
    finally:
        loader.dispose()
    return root, root_rec


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def _duplicate(key: str, first_index: int, mark: Any, text: str, path: str) -> YamlError:
    line, col = _loc_of_index(text, first_index)
    return _err(
        DUPLICATE_KEY,
        f"duplicate key '{key}' (first defined at line {line}, column {col})",
        path, mark.line + 1, mark.column + 1,
    )


class _NoKey:
    __slots__ = ()


_NO_KEY = _NoKey()


def load_yaml_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    display: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> Doc:
    """Read and strictly parse a YAML file; with `root`, refuse (PackError) a path resolving outside it."""
    shown = display if display is not None else os.fspath(path)
    p = Path(path)
    if root is not None:
        check_inside(p, Path(root), shown)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            # A named pipe would block the read forever, a device never ends: data lives in files.
            raise UsageError(f"cannot read {shown}: not a regular file", SourceLocation(shown))
        size = info.st_size
        if size > max_bytes:
            raise _err(TOO_LARGE, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit", shown, 1, 1)
        with p.open("rb") as fh:
            raw = fh.read(max_bytes + 1)  # bounded: the file may be growing, or a device
    except OSError as e:
        raise UsageError(f"cannot read {shown}: {e.strerror or e}", SourceLocation(shown)) from None
    return load_yaml_text(raw, shown, max_bytes=max_bytes, max_depth=max_depth)


def check_inside(path: Path, root: Path, shown: str, location: SourceLocation | None = None) -> Path:
    """Resolve `path` (symlinks included) and raise PackError unless it lies inside `root`."""
    try:
        real_root = root.resolve()
        real = path.resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: symlink loop on older Pythons
        raise PackError(f"cannot resolve {shown}: {e}", location or SourceLocation(shown)) from None
    if real != real_root and real_root not in real.parents:
        raise PackError(
            f"{shown} resolves outside the pack folder ({real_root})", location or SourceLocation(shown)
        )
    return real
