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
    # Trailing white space is left out: `\s*` with no token after it would otherwise be retried
    # from every position of the run, which is quadratic in its length.
    for m in _SCAN.finditer(source, 0, len(source.rstrip())):
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
                if text == ":" and stack and stack[-1][0] == "[":  # `xs[0:6]`
                    reason = _slice_hint(source, stack[-1][1])
                if text == "=" and source[start + 1 : start + 2] in ("<", ">"):  # `=>`, `=<`
                    turned = source[start + 1] + "="
                    reason = f"unexpected '{source[start:start + 2]}': did you mean '{turned}'?"
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
        reason = "empty expression (an empty text is written with its quotes inside the YAML string: \"''\")"
        if source.strip():
            raise syntax_error(reason, source, 0, locate)
        # (no excerpt: a blank line with a caret under nothing said nothing more)
        raise ExprSyntaxError(reason, (locate or default_locator(source))(0))
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
    d = 1 + max([n.depth for n in nodes])
    if d > MAX_TREE_DEPTH:
        raise _TooDeep(nodes[0].start)
    return d


def _depth1(node: Node) -> int:
    d = node.depth + 1
    if d > MAX_TREE_DEPTH:
        raise _TooDeep(node.start)
    return d


def _depth2(a: Node, b: Node) -> int:
    d = (a.depth if a.depth > b.depth else b.depth) + 1
    if d > MAX_TREE_DEPTH:
        raise _TooDeep(a.start)
    return d


_new = object.__new__


class _Builder:
    """Callbacks Lark runs at each reduction (rule name → method).

    Tokens are read by attribute (`type`, `value`, `start_pos`) so that Lark's own tokens work
    too. Nodes are made without their dataclass `__init__`, which stores each field through
    `object.__setattr__` (the price of `frozen`) and costs about three times as much; filling the
    new instance's dictionary sets exactly the same fields.
    """

    def int_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        value = int(tok.value)
        if value > MAX_INT:
            raise _BadLiteral(f"integer literal is too large (the limit is {MAX_INT})", tok.start_pos)
        n = _new(IntLit)
        n.__dict__.update(value=value, pos=tok.start_pos, start=tok.start_pos, depth=1)
        return n

    def str_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        n = _new(StrLit)
        p = tok.start_pos
        n.__dict__.update(value=_unescape(tok.value, p), pos=p, start=p, depth=1)
        return n

    def bool_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        n = _new(BoolLit)
        n.__dict__.update(value=tok.type == "TRUE", pos=tok.start_pos, start=tok.start_pos, depth=1)
        return n

    def none_lit(self, c: list[Any]) -> Node:
        n = _new(NoneLit)
        n.__dict__.update(pos=c[0].start_pos, start=c[0].start_pos, depth=1)
        return n

    def name(self, c: list[Any]) -> Node:
        tok = c[0]
        n = _new(Name)
        n.__dict__.update(name=tok.value, pos=tok.start_pos, start=tok.start_pos, depth=1)
        return n

    def args(self, c: list[Any]) -> list[Node]:
        return [x for x in c if isinstance(x, Node)]

    def call(self, c: list[Any]) -> Node:
        tok = c[0]
        args = tuple(c[2]) if isinstance(c[2], list) else ()
        n = _new(Call)
        p = tok.start_pos
        n.__dict__.update(func=tok.value, args=args, pos=p, start=p, depth=_depth(*args) if args else 1)
        return n

    def list_lit(self, c: list[Any]) -> Node:
        tok = c[0]
        items = tuple(c[1]) if isinstance(c[1], list) else ()
        n = _new(ListLit)
        p = tok.start_pos
        n.__dict__.update(items=items, pos=p, start=p, depth=_depth(*items) if items else 1)
        return n

    def paren(self, c: list[Any]) -> Node:
        node: Node = c[1]
        return node

    def field(self, c: list[Any]) -> Node:
        obj, _dot, name = c
        n = _new(Field)
        n.__dict__.update(obj=obj, name=name.value, pos=name.start_pos, start=obj.start, depth=_depth1(obj))
        return n

    def index(self, c: list[Any]) -> Node:
        obj, lsqb, idx, _ = c
        n = _new(Index)
        n.__dict__.update(obj=obj, index=idx, pos=lsqb.start_pos, start=obj.start, depth=_depth2(obj, idx))
        return n

    def unary(self, c: list[Any]) -> Node:
        op, operand = c
        n = _new(Unary)
        p = op.start_pos
        n.__dict__.update(op=op.value, operand=operand, pos=p, start=p, depth=_depth1(operand))
        return n

    def binop(self, c: list[Any]) -> Node:
        left, op, right = c
        n = _new(BinOp)
        d = _depth2(left, right)
        n.__dict__.update(op=op.value, left=left, right=right, pos=op.start_pos, start=left.start, depth=d)
        return n

    def boolop(self, c: list[Any]) -> Node:
        left, op, right = c
        n = _new(BoolOp)
        d = _depth2(left, right)
        n.__dict__.update(op=op.value, left=left, right=right, pos=op.start_pos, start=left.start, depth=d)
        return n

    def comp_op(self, c: list[Any]) -> tuple[str, int]:
        if len(c) == 1:
            return (c[0].value, c[0].start_pos)
        return (" ".join([t.value for t in c]), c[0].start_pos)

    def compare(self, c: list[Any]) -> Node:
        n = _new(Compare)
        if len(c) == 3:
            left, (op, p), right = c
            d = _depth2(left, right)
            n.__dict__.update(
                operands=(left, right), ops=(op,), op_pos=(p,), pos=p, start=left.start, depth=d
            )
            return n
        operands = tuple(c[0::2])
        ops = tuple([op for op, _ in c[1::2]])
        op_pos = tuple([p for _, p in c[1::2]])
        d = _depth(*operands)
        n.__dict__.update(
            operands=operands, ops=ops, op_pos=op_pos, pos=op_pos[0], start=operands[0].start, depth=d
        )
        return n

    def ifelse(self, c: list[Any]) -> Node:
        then, kw, cond, _else, orelse = c
        n = _new(IfElse)
        d = _depth(then, cond, orelse)
        n.__dict__.update(then=then, cond=cond, orelse=orelse, pos=kw.start_pos, start=then.start, depth=d)
        return n

    def where(self, c: list[Any]) -> Node:
        source, kw, cond = c
        n = _new(Where)
        d = _depth2(source, cond)
        n.__dict__.update(source=source, cond=cond, pos=kw.start_pos, start=source.start, depth=d)
        return n

    def select(self, c: list[Any]) -> Node:
        source, kw, expr = c
        n = _new(Select)
        d = _depth2(source, expr)
        n.__dict__.update(source=source, expr=expr, pos=kw.start_pos, start=source.start, depth=d)
        return n


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
KEYWORDS = frozenset({"where", "select", "if", "else", "or", "and", "not", "in", "true", "false", "none"})


def _slice_hint(source: str, opened: int) -> str:
    """What to write for a slice `xs[a:b]` whose `[` is at `opened`: the rules have none."""
    close = source.find("]", opened)
    inner = source[opened + 1: close if close >= 0 else len(source)]
    start, _, stop = inner.partition(":")
    start, stop = start.strip() or "0", stop.strip() or "len(xs)"
    return (f"unexpected ':': lists and texts have no slices; for xs[{inner.strip()}] write "
            f"range({start}, {stop}) select xs[it] (a list of the elements, or of a text's letters)")


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
    if tok.kind == "name" and tok.text not in KEYWORDS:
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
        if cur is not None and cur.text in KEYWORDS:
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
        if prev.kind == "name" and prev.text not in KEYWORDS:
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
        and (cur.text not in KEYWORDS)
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


class _Chain(dict[int, int]):
    """A run of single-child reductions: the state it ends in, by the state below the run."""

    __slots__ = ("origin",)

    def __init__(self, origin: str) -> None:
        super().__init__()
        self.origin = origin


# An action in a row of the table: a state to shift (or go) to, a reduction
# (children, callback, rule name), or a chain of single-child reductions.
_Action = int | tuple[int, Callable[[list[Any]], Any], str] | _Chain


class _Tables:
    """Lark's LALR table, recompiled for a tighter driver loop.

    Lark's own driver spends most of its time on bookkeeping; with twelve precedence levels every
    operand passes through about ten single-child reductions. Here those reductions only move the
    state (the value stays on the stack), which makes parsing several times faster. The grammar,
    the table and the rule callbacks are all Lark's; the child filters Lark wraps around some
    callbacks (inlining `_rule` helpers, placeholders for missing `[optional]` parts) are
    recompiled by `_reducer` into plain functions.
    """

    def __init__(self, lark: Any) -> None:
        from lark.parsers.lalr_analysis import Shift

        inner = lark.parser.parser.parser
        table = inner.parse_table
        callbacks = inner.callbacks
        self.start: int = table.start_states["start"]
        self.end: int = table.end_states["start"]
        self.rows: dict[int, dict[str, _Action]] = {}
        for state, row in table.states.items():
            out: dict[str, _Action] = {}
            for sym, (action, arg) in row.items():
                if action is Shift:
                    out[str(sym)] = int(arg)
                    continue
                size = len(arg.expansion)
                origin = str(arg.origin.name)
                if bool(arg.options.expand1) and not arg.alias and size == 1:
                    out[str(sym)] = _Chain(origin)
                else:
                    out[str(sym)] = (size, _reducer(callbacks[arg]), origin)
            self.rows[state] = out

    def _follow(self, below: int, top: int, ttype: str) -> int:
        rows = self.rows
        while True:
            if ttype == "$END" and top == self.end:
                return top
            entry = rows[top].get(ttype)
            if not isinstance(entry, _Chain):
                return top
            goto = rows[below][entry.origin]
            assert isinstance(goto, int)
            top = goto

    def drive(self, tokens: list[_Token], end_token: _Token) -> Any:
        rows, end = self.rows, self.end
        states: list[int] = [self.start]
        values: list[Any] = []
        push_state, push_value = states.append, values.append
        tokens.append(end_token)
        for tok in tokens:
            ttype = tok[0]
            while True:
                entry: Any = rows[states[-1]].get(ttype)
                cls = entry.__class__
                if cls is int:
                    push_state(entry)
                    push_value(tok)
                    break
                if cls is _Chain:
                    # A run of single-child reductions depends only on the two top states and
                    # the lookahead, so it is followed once and remembered.
                    below = states[-2]
                    final = entry.get(below)
                    if final is None:
                        final = entry[below] = self._follow(below, states[-1], ttype)
                    states[-1] = final
                elif entry is None:
                    raise _Unexpected(tok, {s for s in rows[states[-1]] if s.isupper()})
                else:
                    size, reduce, origin = entry
                    if size == 1:
                        # Half the reductions (names, literals, operators) take one child.
                        values[-1] = reduce([values[-1]])
                        states[-1] = rows[states[-2]][origin]  # type: ignore[assignment]  # a goto: an int
                    else:
                        children = values[-size:]
                        del values[-size:]
                        del states[-size:]
                        push_value(reduce(children))
                        push_state(rows[states[-1]][origin])  # type: ignore[arg-type]
                if ttype == "$END" and states[-1] == end:
                    return values[-1]
        raise AssertionError("parser ended without accepting")  # pragma: no cover


def _reducer(callback: Any) -> Callable[[list[Any]], Any]:
    """A plain function doing what Lark's callback for one rule does, on the driver's values.

    Lark wraps a rule's builder in child filters: children of `_helper` rules (the `x (sep x)*`
    lists it generates) are spliced into the parent, and a missing `[optional]` part becomes
    None. Here a helper rule's value is simply the list of its kept children.
    """
    from functools import partial

    from lark import Tree
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

    if isinstance(callback, partial) and callback.func is Tree:
        return list
    if isinstance(callback, ExpandSingleChild):
        built = _reducer(callback.node_builder)
        return lambda c: c[0] if len(c) == 1 else built(c)
    if isinstance(callback, ChildFilterLALR | ChildFilterLALR_NoPlaceholders):
        if isinstance(callback, ChildFilterLALR):
            plan = [(i, bool(expand), int(nones)) for i, expand, nones in callback.to_include]
            tail = int(callback.append_none)
        else:
            plan = [(i, bool(expand), 0) for i, expand in callback.to_include]
            tail = 0
        built = _reducer(callback.node_builder)
        if not tail and all(nones == 0 for _, _, nones in plan):
            # The shapes this grammar has, without a loop over the plan.
            shape = [(i, expand) for i, expand, _ in plan]
            if shape == [(i, False) for i in range(len(plan))]:
                return lambda c: built(c[: len(shape)])
            if shape == [(0, False), (1, True)]:
                return lambda c: built([c[0], *c[1]])
            if shape == [(0, True), (1, False), (2, False)]:
                if built is list:
                    # A left-recursive `x (sep x)*` list grows in place: each value on the stack
                    # is used once, and copying it at every item would be quadratic.
                    def grow(c: list[Any]) -> Any:
                        items: list[Any] = c[0]
                        items.append(c[1])
                        items.append(c[2])
                        return items

                    return grow
                return lambda c: built([*c[0], c[1], c[2]])

        def filtered(c: list[Any]) -> Any:
            kept: list[Any] = []
            for i, expand, nones in plan:
                if nones:
                    kept += [None] * nones
                if expand:
                    kept += c[i]
                else:
                    kept.append(c[i])
            if tail:
                kept += [None] * tail
            return built(kept)

        return filtered
    # Anything else must be one of _Builder's methods: fail at start-up, not on some expression,
    # if a Lark release wraps callbacks in a way this function does not know.
    if not isinstance(getattr(callback, "__self__", None), _Builder):
        raise AssertionError(f"unexpected Lark rule callback {callback!r}")
    method: Callable[[list[Any]], Any] = callback
    return method


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
        node: Node = _tables().drive(list(toks), _new_token(_Token, ("$END", "", len(source))))
    except _Unexpected as exc:
        ttype = exc.token.type
        offset = exc.token.start_pos if exc.token.start_pos is not None else len(source)
        reason, offset = _explain_token(source, _plain_tokens(toks), offset, ttype, exc.expected)
        raise syntax_error(reason, source, offset, locate) from None
    except _TooDeep as exc:
        raise syntax_error(
            f"expression is nested too deeply (the limit is {MAX_TREE_DEPTH} levels; each operator of a chain such as "
            "1 + 2 + 3 is one level: sum a list instead)",
            source,
            exc.offset,
            locate,
        ) from None
    except _BadLiteral as exc:
        raise syntax_error(exc.reason, source, exc.offset, locate) from None
    return node
