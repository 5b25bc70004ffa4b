"""AST → source text, with the fewest parentheses that keep the same tree when parsed again."""

from __future__ import annotations

from davinci.engine.expr.parser import (
    BinOp,
    BoolLit,
    BoolOp,
    Call,
    Compare,
    Field,
    IfElse,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    NoneLit,
    Select,
    StrLit,
    Unary,
    Where,
)

# Binding strength, loosest first; mirrors the grammar's rule nesting.
QUERY, TERNARY, OR, AND, NOT, COMPARE, SUM, PRODUCT, NEG, POWER, POSTFIX, ATOM = range(1, 13)

_BINOP_LEVEL = {"+": SUM, "-": SUM, "*": PRODUCT, "//": PRODUCT, "%": PRODUCT}
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}


def level(node: Node) -> int:
    """How tightly a node binds (higher binds tighter)."""
    if isinstance(node, Where | Select):
        return QUERY
    if isinstance(node, IfElse):
        return TERNARY
    if isinstance(node, BoolOp):
        return OR if node.op == "or" else AND
    if isinstance(node, Unary):
        return NOT if node.op == "not" else NEG
    if isinstance(node, Compare):
        return COMPARE
    if isinstance(node, BinOp):
        return POWER if node.op == "**" else _BINOP_LEVEL[node.op]
    if isinstance(node, Field | Index):
        return POSTFIX
    return ATOM


def _quote(text: str) -> str:
    return '"' + "".join(_ESCAPE.get(ch, ch) for ch in text) + '"'


def _sub(node: Node, minimum: int) -> str:
    text = to_source(node)
    return f"({text})" if level(node) < minimum else text


def to_source(node: Node) -> str:
    """Render an AST as expression source text."""
    if isinstance(node, IntLit):
        return str(node.value)
    if isinstance(node, StrLit):
        return _quote(node.value)
    if isinstance(node, BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, NoneLit):
        return "none"
    if isinstance(node, Name):
        name: str = node.name
        return name
    if isinstance(node, ListLit):
        return "[" + ", ".join(to_source(i) for i in node.items) + "]"
    if isinstance(node, Call):
        return f"{node.func}(" + ", ".join(to_source(a) for a in node.args) + ")"
    if isinstance(node, Field):
        return f"{_sub(node.obj, POSTFIX)}.{node.name}"
    if isinstance(node, Index):
        return f"{_sub(node.obj, POSTFIX)}[{to_source(node.index)}]"
    if isinstance(node, Unary):
        if node.op == "not":
            return f"not {_sub(node.operand, NOT)}"
        inner = _sub(node.operand, NEG)
        # A space keeps `- -x` from reading as something else and is harmless otherwise.
        return f"-{inner}" if not inner.startswith("-") else f"- {inner}"
    if isinstance(node, BinOp):
        if node.op == "**":
            return f"{_sub(node.left, POSTFIX)} ** {_sub(node.right, NEG)}"
        lvl = _BINOP_LEVEL[node.op]
        return f"{_sub(node.left, lvl)} {node.op} {_sub(node.right, lvl + 1)}"
    if isinstance(node, BoolOp):
        lvl = OR if node.op == "or" else AND
        return f"{_sub(node.left, lvl)} {node.op} {_sub(node.right, lvl + 1)}"
    if isinstance(node, Compare):
        parts = [_sub(node.operands[0], SUM)]
        for op, operand in zip(node.ops, node.operands[1:]):
            parts.append(f"{op} {_sub(operand, SUM)}")
        return " ".join(parts)
    if isinstance(node, IfElse):
        return f"{_sub(node.then, OR)} if {_sub(node.cond, OR)} else {_sub(node.orelse, TERNARY)}"
    if isinstance(node, Where):
        return f"{_sub(node.source, QUERY)} where {_sub(node.cond, TERNARY)}"
    if isinstance(node, Select):
        return f"{_sub(node.source, QUERY)} select {_sub(node.expr, TERNARY)}"
    raise AssertionError(f"cannot print {node!r}")  # pragma: no cover
