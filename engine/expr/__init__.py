"""The rule expression language: parse, check and compile the expressions in game YAML.

Typical use by the engine::

    from davinci.engine.expr import BOOL, INT, RecordType, ListType, compile_expr

    card = RecordType("card", {"symbol": STR})
    cond = compile_expr('count(hand where symbol == "star") >= 2', {"hand": ListType(card)}, expect=BOOL)
    cond({"hand": hand_records})

Importing this package does not import Lark; the parser is built on first use.
"""

from __future__ import annotations

from davinci.engine.expr.checker import Checked, check, check_all, check_source
from davinci.engine.expr.compiler import Compiled, compile_checked, compile_expr
from davinci.engine.expr.functions import BUILTINS, Function, FunctionLibrary
from davinci.engine.expr.parser import (
    MAX_BRACKET_DEPTH,
    MAX_INT,
    MAX_SOURCE_CHARS,
    MAX_TREE_DEPTH,
    Node,
    parse,
    snippet,
)
from davinci.engine.expr.printer import to_source
from davinci.engine.expr.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    STR,
    ListType,
    Record,
    RecordType,
    Scope,
    Type,
    Value,
)

__all__ = [
    "ANY",
    "BOOL",
    "BUILTINS",
    "INT",
    "MAX_BRACKET_DEPTH",
    "MAX_INT",
    "MAX_SOURCE_CHARS",
    "MAX_TREE_DEPTH",
    "NONE",
    "STR",
    "Checked",
    "Compiled",
    "Function",
    "FunctionLibrary",
    "ListType",
    "Node",
    "Record",
    "RecordType",
    "Scope",
    "Type",
    "Value",
    "check",
    "check_all",
    "check_source",
    "compile_checked",
    "compile_expr",
    "parse",
    "snippet",
    "to_source",
]
