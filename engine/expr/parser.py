"""Parsing: source text → typed AST with positions, with limits and friendly syntax errors.

Lark is imported on first use only, so importing the package stays cheap. The LALR parser is built
once per process and calls the node builders below at every reduction: no parse tree is made and
nothing recurses, so deep input cannot exhaust the Python stack before the limits catch it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from davinci.engine.errors import ExprSyntaxError, SourceLocation

MAX_SOURCE_CHARS = 4000
MAX_BRACKET_DEPTH = 64
MAX_OPERATOR_RUN = 64
MAX_TREE_DEPTH = 100
MAX_INT = 2**63
MAX_INT_DIGITS = 19

Locator = Callable[[int], SourceLocation]


# --------------------------------------------------------------------------- AST


@dataclass(frozen=True)
class Node:
    """Base of every AST node.

    `pos` is the offset of the node's operator (or its only token), `start` the offset of its first
    character, `depth` the height of its subtree. None of them take part in equality.
    """

    pos: int = field(default=0, compare=False, repr=False, kw_only=True)
    start: int = field(default=0, compare=False, repr=False, kw_only=True)
    depth: int = field(default=1, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class IntLit(Node):
    """An integer literal (never negative: `-3` is unary minus applied to 3)."""

    value: int


@dataclass(frozen=True)
class StrLit(Node):
    """A string literal, already unescaped."""

    value: str


@dataclass(frozen=True)
class BoolLit(Node):
    """`true` or `false`."""

    value: bool


@dataclass(frozen=True)
class NoneLit(Node):
    """`none`."""


@dataclass(frozen=True)
class ListLit(Node):
    """`[a, b, c]`."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Name(Node):
    """A bare name: a scope variable, `it`, or a field of the current element."""

    name: str


@dataclass(frozen=True)
class Field(Node):
    """`obj.name`; `pos` is the offset of `name`."""

    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    """`obj[index]`; `pos` is the offset of `[`."""

    obj: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    """`func(args...)`: a call to a library function."""

    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    """`-x` or `not x`."""

    op: str
    operand: Node


@dataclass(frozen=True)
class BinOp(Node):
    """Arithmetic and concatenation: `+ - * // % **`."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class BoolOp(Node):
    """`and` / `or`, short-circuit."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    """A comparison chain `a < b <= c`: operands[i] ops[i] operands[i+1]."""

    operands: tuple[Node, ...]
    ops: tuple[str, ...]
    op_pos: tuple[int, ...] = field(default=(), compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class IfElse(Node):
    """`then if cond else orelse`."""

    then: Node
    cond: Node
    orelse: Node


@dataclass(frozen=True)
class Where(Node):
    """`source where cond`: the elements of `source` for which `cond` holds."""

    source: Node
    cond: Node


@dataclass(frozen=True)
class Select(Node):
    """`source select expr`: `expr` evaluated for each element of `source`."""

    source: Node
    expr: Node


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of a node, in source order."""
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Field):
        return (node.obj,)
    if isinstance(node, Index):
        return (node.obj, node.index)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, BinOp | BoolOp):
        return (node.left, node.right)
    if isinstance(node, Compare):
        return node.operands
    if isinstance(node, IfElse):
        return (node.then, node.cond, node.orelse)
    if isinstance(node, Where):
        return (node.source, node.cond)
    if isinstance(node, Select):
        return (node.source, node.expr)
    return ()


# --------------------------------------------------------------------------- locations and snippets


def default_locator(source: str, path: str = "<expr>") -> Locator:
    """A locator giving line and column inside `source` itself."""

    def locate(offset: int) -> SourceLocation:
        offset = max(0, min(offset, len(source)))
        line = source.count("\n", 0, offset) + 1
        col = offset - (source.rfind("\n", 0, offset) + 1) + 1
        return SourceLocation(path, line, col)

    return locate


def snippet(source: str, offset: int, width: int = 76) -> str:
    """The source line holding `offset` with a caret under it, indented, cut to about `width`."""
    offset = max(0, min(offset, len(source)))
    line_start = source.rfind("\n", 0, offset) + 1
    line_end = source.find("\n", offset)
    if line_end < 0:
        line_end = len(source)
    line = source[line_start:line_end].replace("\t", " ")
    col = offset - line_start
    left = 0
    if len(line) > width:
        left = max(0, min(col - width // 2, len(line) - width))
        line = line[left : left + width]
        if left > 0:
            line = "..." + line[3:]
        if left + width < line_end - line_start:
            line = line[:-3] + "..."
    return f"    {line.rstrip()}\n    {' ' * (col - left)}^"


def located_message(reason: str, source: str, offset: int) -> str:
    """An error message: the reason, then the expression with a caret under `offset`."""
    return f"{reason}\n{snippet(source, offset)}"


def syntax_error(reason: str, source: str, offset: int, locate: Locator | None) -> ExprSyntaxError:
    """Build a located ExprSyntaxError whose message shows the expression and a caret."""
    where = (locate or default_locator(source))(offset)
    return ExprSyntaxError(located_message(reason, source, offset), where)


# --------------------------------------------------------------------------- pre-scan


@dataclass(frozen=True)
class _Tok:
    kind: str  # "str", "name", "int", "op", "open", "close", "other"
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


_KEYWORD_TYPES = {
    w: w.upper() for w in ("where", "select", "if", "else", "or", "and", "not", "in", "true", "false", "none")
}

# Each match is one token with the white space before it; the group that matched is the token's
# type, except KW: a keyword, whose type `_KEYWORD_TYPES` gives. A keyword is a whole word (`\b`),
# so `index` and `order` are names.
_SCAN = re.compile(
    r"""
    \s*
    (?:
      (?P<KW>(?:"""
    + "|".join(_KEYWORD_TYPES)
    + r""")\b)
    | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<INT>[0-9]+)
    | (?P<STRING>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
    | (?P<LPAR>\() | (?P<RPAR>\)) | (?P<LSQB>\[) | (?P<RSQB>\]) | (?P<COMMA>,) | (?P<DOT>\.)
    | (?P<EQ>==) | (?P<NE>!=) | (?P<LE><=) | (?P<GE>>=) | (?P<LT><) | (?P<GT>>)
    | (?P<PLUS>\+) | (?P<MINUS>-) | (?P<POW>\*\*) | (?P<STAR>\*) | (?P<DSLASH>//) | (?P<PERCENT>%)
    | (?P<other>\S)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

_PAIRS = {")": "(", "]": "["}
_KIND_OF_TYPE = {"NAME": "name", "INT": "int", "STRING": "str", "LPAR": "open", "LSQB": "open"}
_KIND_OF_TYPE.update({"RPAR": "close", "RSQB": "close"})
_KIND_OF_TYPE.update({t: "name" for t in _KEYWORD_TYPES.values()})
# Token types that need more than a lookup: the scan loop handles them one by one.
_SPECIAL = frozenset({"KW", "INT", "STRING", "LPAR", "LSQB", "RPAR", "RSQB", "MINUS", "other"})


class _Token(NamedTuple):
    """A token as the parser tables need it: a terminal name, its text and its offset.

    A named tuple, so that the scanner makes one with a single C call; the field names are the
    ones Lark's own tokens have, so the rule callbacks accept either.
    """

    type: str
    value: str
    start_pos: int


_new_token = tuple.__new__


def _scan(source: str, locate: Locator | None) -> list[_Token]:
    """Tokenise for Lark and enforce the limits that protect the parser, in one pass over the text.

    Lark's own lexer costs tens of microseconds per token here; one regular expression whose
    groups are named after the terminals does the same work several times faster.
    """
    if len(source) > MAX_SOURCE_CHARS:
        raise syntax_error(
            f"expression is too long ({len(source)} characters; the limit is {MAX_SOURCE_CHARS})",
            source,
            MAX_SOURCE_CHARS,
            locate,
        )
    toks: list[_Token] = []
    push = toks.append
    stack: list[tuple[str, int]] = []
    run = 0  # prefix operators (`not`, `-`) in a row
    for m in _SCAN.finditer(source):
        ttype = m.lastgroup
        assert ttype is not None
        i: Any = m.lastindex
        text = m.group(i)
        start = m.start(i)
        if ttype not in _SPECIAL:
            run = 0
            push(_new_token(_Token, (ttype, text, start)))
            continue
        if ttype == "KW":
            ttype = _KEYWORD_TYPES[text]
            run = run + 1 if ttype == "NOT" else 0
        elif ttype == "MINUS":
            run += 1
        else:
            run = 0
            if ttype == "INT":
                if len(text.lstrip("0")) > MAX_INT_DIGITS:
                    raise syntax_error(
                        f"integer literal is too large (the limit is {MAX_INT})", source, start, locate
                    )
            elif ttype == "STRING":
                if len(text) < 2 or text[-1] != text[0]:
                    raise syntax_error("unclosed string: add the closing quote", source, start, locate)
            elif ttype == "other":
                reason = _BAD_CHARS.get(text, f"unexpected character {text!r}")
                raise syntax_error(reason, source, start, locate)
            elif ttype == "LPAR" or ttype == "LSQB":
                stack.append((text, start))
                if len(stack) > MAX_BRACKET_DEPTH:
                    raise syntax_error(
                        f"brackets are nested too deeply (the limit is {MAX_BRACKET_DEPTH})",
                        source,
                        start,
                        locate,
                    )
            else:
                if not stack:
                    raise syntax_error(f"unexpected '{text}': nothing to close", source, start, locate)
                opener = stack.pop()[0]
                if opener != _PAIRS[text]:
                    raise syntax_error(
                        f"unexpected '{text}': the '{opener}' opened before it is not closed yet",
                        source,
                        start,
                        locate,
                    )
        if run > MAX_OPERATOR_RUN:
            raise syntax_error(
                f"too many operators in a row (the limit is {MAX_OPERATOR_RUN})", source, start, locate
            )
        push(_new_token(_Token, (ttype, text, start)))
    if stack:
        opener, start = stack[-1]
        closer = ")" if opener == "(" else "]"
        raise syntax_error(f"unclosed '{opener}': add '{closer}'", source, start, locate)
    if not toks:
        raise syntax_error("empty expression", source, 0, locate)
    return toks


def _plain_tokens(toks: list[_Token]) -> list[_Tok]:
    return [_Tok(_KIND_OF_TYPE.get(t[0], "op"), t[1], t[2]) for t in toks]


# --------------------------------------------------------------------------- building the AST


class _TooDeep(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


class _BadLiteral(Exception):
    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t"}


def _unescape(text: str, start: int) -> str:
    body = text[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]
            if nxt not in _ESCAPES:
                raise _BadLiteral(
                    f"unknown escape '\\{nxt}' in string (use \\\\, \\\", \\', \\n or \\t)", start + 1 + i
                )
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _depth(*nodes: Node) -> int:
    d = 1 + (nodes[0].depth if len(nodes) == 1 else max([n.depth for n in nodes]))
    if d > MAX_TREE_DEPTH:
        raise _TooDeep(nodes[0].start)
    return d


class _Builder:
    """Callbacks Lark runs at each reduction (rule name → method)."""

    def int_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        value = int(tok.value)
        if value > MAX_INT:
            raise _BadLiteral(f"integer literal is too large (the limit is {MAX_INT})", tok.start_pos)
        return IntLit(value, pos=tok.start_pos, start=tok.start_pos)

    def str_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        return StrLit(_unescape(tok.value, tok.start_pos), pos=tok.start_pos, start=tok.start_pos)

    def bool_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        return BoolLit(tok.type == "TRUE", pos=tok.start_pos, start=tok.start_pos)

    def none_lit(self, c: list[Any]) -> Node:
        return NoneLit(pos=c[0].start_pos, start=c[0].start_pos)

    def name(self, c: list[Any]) -> Node:
        tok = c[0]
        return Name(tok.value, pos=tok.start_pos, start=tok.start_pos)

    def args(self, c: list[Any]) -> list[Node]:
        return [x for x in c if isinstance(x, Node)]

    def call(self, c: list[Any]) -> Node:
        tok = c[0]
        args = tuple(c[2]) if isinstance(c[2], list) else ()
        return Call(
            tok.value, args, pos=tok.start_pos, start=tok.start_pos, depth=_depth(*args) if args else 1
        )

    def list_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        items = tuple(c[1]) if isinstance(c[1], list) else ()
        return ListLit(items, pos=tok.start_pos, start=tok.start_pos, depth=_depth(*items) if items else 1)

    def paren(self, c: list[Any]) -> Node:
        node: Node = c[1]
        return node

    def field(self, c: list[Any]) -> Node:
        obj, _dot, name = c
        return Field(obj, name.value, pos=name.start_pos, start=obj.start, depth=_depth(obj))

    def index(self, c: list[Any]) -> Node:
        obj, lsqb, idx, _ = c
        return Index(obj, idx, pos=lsqb.start_pos, start=obj.start, depth=_depth(obj, idx))

    def unary(self, c: list[Any]) -> Node:
        op, operand = c
        return Unary(op.value, operand, pos=op.start_pos, start=op.start_pos, depth=_depth(operand))

    def binop(self, c: list[Any]) -> Node:
        left, op, right = c
        return BinOp(op.value, left, right, pos=op.start_pos, start=left.start, depth=_depth(left, right))

    def boolop(self, c: list[Any]) -> Node:
        left, op, right = c
        return BoolOp(op.value, left, right, pos=op.start_pos, start=left.start, depth=_depth(left, right))

    def comp_op(self, c: list[Any]) -> tuple[str, int]:
        return (" ".join(t.value for t in c), c[0].start_pos)

    def compare(self, c: list[Any]) -> Node:
        operands = tuple(c[0::2])
        ops = tuple(op for op, _ in c[1::2])
        op_pos = tuple(p for _, p in c[1::2])
        return Compare(
            operands, ops, op_pos=op_pos, pos=op_pos[0], start=operands[0].start, depth=_depth(*operands)
        )

    def ifelse(self, c: list[Any]) -> Node:
        then, kw, cond, _else, orelse = c
        return IfElse(
            then, cond, orelse, pos=kw.start_pos, start=then.start, depth=_depth(then, cond, orelse)
        )

    def where(self, c: list[Any]) -> Node:
        source, kw, cond = c
        return Where(source, cond, pos=kw.start_pos, start=source.start, depth=_depth(source, cond))

    def select(self, c: list[Any]) -> Node:
        source, kw, expr = c
        return Select(source, expr, pos=kw.start_pos, start=source.start, depth=_depth(source, expr))


_PARSER: Any = None


def _lark() -> Any:
    global _PARSER
    if _PARSER is None:
        from importlib.resources import files

        from lark import Lark
        from lark.lexer import Lexer

        class _TokenFeed(Lexer):
            """Stands in for Lark's lexer: `_scan` tokenises and `_Tables.drive` parses."""

            __future_interface__ = 2

            def __init__(self, conf: Any) -> None:
                pass

            def lex(self, state: Any, parser_state: Any) -> Any:
                return iter(state.text)

        grammar = files("davinci.engine.expr").joinpath("grammar.lark").read_text(encoding="utf-8")
        _PARSER = Lark(
            grammar,
            parser="lalr",
            lexer=_TokenFeed,
            transformer=_Builder(),
            maybe_placeholders=True,
        )
    return _PARSER


# --------------------------------------------------------------------------- errors in words

_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "$END": "the end of the expression",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
}
_OPERAND_START = {"NAME", "INT", "STRING", "TRUE", "FALSE", "NONE", "LPAR", "LSQB", "MINUS", "NOT"}
_KEYWORDS = {"where", "select", "if", "else", "or", "and", "not", "in", "true", "false", "none"}
_BAD_CHARS = {
    "=": "unexpected '=': use '==' to compare",
    "&": "unexpected '&': use 'and'",
    "|": "unexpected '|': use 'or'",
    "!": "unexpected '!': use 'not' (or '!=' to compare)",
    "/": "unexpected '/': use '//' for whole-number division",
}


def _word(term: str) -> str:
    if term in _WORDS:
        return _WORDS[term]
    return f"'{term.lower()}'" if term.isalpha() else term


def _describe_tok(tok: _Tok) -> str:
    if tok.kind == "name" and tok.text not in _KEYWORDS:
        return f"name '{tok.text}'"
    if tok.kind == "int":
        return f"number {tok.text}"
    if tok.kind == "str":
        return f"string {tok.text}"
    return f"'{tok.text}'"


def _prev(toks: list[_Tok], offset: int) -> _Tok | None:
    prev = None
    for t in toks:
        if t.start >= offset:
            break
        prev = t
    return prev


def _explain_token(
    source: str, toks: list[_Tok], offset: int, ttype: str, expected: set[str]
) -> tuple[str, int]:
    """Turn Lark's unexpected-token report into a sentence and the offset to point at."""
    at_end = ttype == "$END"
    if at_end:
        offset = len(source.rstrip())
    prev = _prev(toks, offset)
    cur = None if at_end else next((t for t in toks if t.start == offset), None)
    cur_text = cur.text if cur else ""
    wants_operand = bool(expected & {"NAME", "INT"})

    if prev is not None and prev.text == "." and "NAME" in expected and len(expected) == 1:
        if cur is not None and cur.text in _KEYWORDS:
            return f"'{cur.text}' is a reserved word and cannot be a field name", offset
        return "missing field name after '.'", offset
    if prev is not None and prev.text == "not" and expected == {"IN"}:
        return "expected 'in' after 'not' (as in 'x not in xs')", offset
    if wants_operand:
        if prev is None:
            if cur_text == "if":
                return "an expression cannot start with 'if': write 'A if CONDITION else B'", offset
            return f"expression cannot start with {_describe_tok(cur) if cur else 'that'}", offset
        if prev.text == "(" and cur_text == ")":
            return "empty parentheses: put an expression inside '()'", offset
        if prev.text in ("(", "[", ","):
            what = "an expression" if prev.text != "," else "a value after ','"
            return f"expected {what}, found {_describe_tok(cur) if cur else 'the end'}", offset
        return f"missing operand after '{prev.text}'", offset
    if "ELSE" in expected and (at_end or cur_text in (")", "]", ",")):
        return "missing 'else': a conditional is written 'A if CONDITION else B'", offset
    if at_end:
        return "the expression is incomplete", offset
    if cur is not None and cur.text == "(" and prev is not None:
        if prev.kind == "name" and prev.text not in _KEYWORDS:
            return (
                f"'{prev.text}' cannot be called: only library functions can be called, as name(...)",
                offset,
            )
        return f"missing operator before '(' (after {_describe_tok(prev)})", offset
    if cur is not None and cur.text == "else":
        return "unexpected 'else' without 'if'", offset
    if cur is not None and cur.text == ",":
        return "unexpected ',' outside brackets or a call", offset
    if (
        cur is not None
        and prev is not None
        and cur.kind in ("name", "int", "str", "open")
        and (cur.text not in _KEYWORDS)
    ):
        if cur.text == "then":
            return "unexpected 'then': a conditional is written 'A if CONDITION else B'", offset
        return f"missing operator between {_describe_tok(prev)} and {_describe_tok(cur)}", offset
    words = sorted({_word(e) for e in expected if not e.startswith("__")})
    hint = f"; expected {', '.join(words[:6])}{' ...' if len(words) > 6 else ''}" if words else ""
    return f"unexpected {_describe_tok(cur) if cur else 'token'}{hint}", offset


class _Unexpected(Exception):
    def __init__(self, token: Any, expected: set[str]) -> None:
        super().__init__(token)
        self.token = token
        self.expected = expected


class _Tables:
    """Lark's LALR table, recompiled for a tighter driver loop.

    Lark's own driver spends most of its time on bookkeeping; with twelve precedence levels every
    operand passes through about ten single-child reductions. Here those reductions only move the
    state (the value stays on the stack), which makes parsing several times faster. The grammar,
    the table and the rule callbacks are all Lark's.
    """

    SHIFT, REDUCE, PASS = 0, 1, 2

    def __init__(self, lark: Any) -> None:
        from lark.parsers.lalr_analysis import Shift

        inner = lark.parser.parser.parser
        table = inner.parse_table
        callbacks = inner.callbacks
        self.start: int = table.start_states["start"]
        self.end: int = table.end_states["start"]
        self.rows: dict[int, dict[str, tuple[int, Any, Any, str]]] = {}
        for state, row in table.states.items():
            out: dict[str, tuple[int, Any, Any, str]] = {}
            for sym, (action, arg) in row.items():
                if action is Shift:
                    out[str(sym)] = (self.SHIFT, arg, None, "")
                    continue
                size = len(arg.expansion)
                unit = bool(arg.options.expand1) and not arg.alias and size == 1
                out[str(sym)] = (
                    self.PASS if unit else self.REDUCE,
                    size,
                    callbacks[arg],
                    str(arg.origin.name),
                )
            self.rows[state] = out
        self.chains: dict[tuple[int, int, str], int] = {}

    def _follow(self, below: int, top: int, ttype: str) -> int:
        rows = self.rows
        while True:
            if ttype == "$END" and top == self.end:
                return top
            entry = rows[top].get(ttype)
            if entry is None or entry[0] != 2:
                return top
            top = rows[below][entry[3]][1]

    def drive(self, tokens: list[_Token], end_token: _Token) -> Any:
        rows, end, chains, follow = self.rows, self.end, self.chains, self._follow
        states: list[int] = [self.start]
        values: list[Any] = []
        push_state, push_value = states.append, values.append
        tokens.append(end_token)
        for tok in tokens:
            ttype = tok.type
            while True:
                top = states[-1]
                entry = rows[top].get(ttype)
                if entry is None:
                    raise _Unexpected(tok, {s for s in rows[top] if s.isupper()})
                kind = entry[0]
                if kind == 0:
                    push_state(entry[1])
                    push_value(tok)
                    break
                if kind == 2:
                    # A run of single-child reductions depends only on the two top states and
                    # the lookahead, so it is followed once and remembered.
                    key = (states[-2], top, ttype)
                    final = chains.get(key)
                    if final is None:
                        final = chains[key] = follow(states[-2], top, ttype)
                    states[-1] = final
                else:
                    size = entry[1]
                    if size:
                        children = values[-size:]
                        del values[-size:]
                        del states[-size:]
                    else:
                        children = []
                    push_value(entry[2](children))
                    push_state(rows[states[-1]][entry[3]][1])
                if ttype == "$END" and states[-1] == end:
                    return values[-1]
        raise AssertionError("parser ended without accepting")  # pragma: no cover


_TABLES: _Tables | None = None


def _tables() -> _Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables(_lark())
    return _TABLES


_CACHE: dict[str, Node] = {}
_CACHE_SIZE = 4096


def parse(source: str, locate: Locator | None = None) -> Node:
    """Parse an expression into an AST; raises ExprSyntaxError located with `locate(offset)`.

    Trees are immutable and their offsets are relative to `source`, so a game (or a lint run over
    several variants) that repeats an expression parses it once.
    """
    node = _CACHE.get(source)
    if node is None:
        node = parse_uncached(source, locate)
        if len(_CACHE) < _CACHE_SIZE:
            _CACHE[source] = node
    return node


def parse_uncached(source: str, locate: Locator | None = None) -> Node:
    """`parse` without the cache (for benchmarks and tests of the parser itself)."""
    toks = _scan(source, locate)
    try:
        node: Node = _tables().drive(list(toks), _Token("$END", "", len(source)))
    except _Unexpected as exc:
        ttype = exc.token.type
        offset = exc.token.start_pos if exc.token.start_pos is not None else len(source)
        reason, offset = _explain_token(source, _plain_tokens(toks), offset, ttype, exc.expected)
        raise syntax_error(reason, source, offset, locate) from None
    except _TooDeep as exc:
        raise syntax_error(
            f"expression is nested too deeply (the limit is {MAX_TREE_DEPTH} levels)",
            source,
            exc.offset,
            locate,
        ) from None
    except _BadLiteral as exc:
        raise syntax_error(exc.reason, source, exc.offset, locate) from None
    return node
