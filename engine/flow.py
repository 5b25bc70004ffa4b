"""The flow compiler: step trees from YAML → flat instruction lists with jumps.

A flat program plus a program counter is trivially serialisable and clonable, so a game can
stop at any decision (a choice, a simultaneous response, an overflow return) and resume
later, in another process, from a save file. Each step kind is a small registered unit in
`davinci.engine.steps`; this module only handles structure (if / while / for_each / choose /
call) and the scope of names each expression can see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from davinci.engine.errors import DavinciError, DefinitionError, did_you_mean, json_shown, quoted
from davinci.engine.expr.parser import BoolLit
from davinci.engine.expr.types import ANY, BOOL, INT, ListType, Type
from davinci.engine.values import encode

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.build import Builder
    from davinci.engine.errors import SourceLocation
    from davinci.engine.state import State

Path = tuple[str | int, ...]

# Said where an expression written unquoted in a `{...}` mapping was cut at its comma.
SPLIT_BY_COMMA = "in a {...} mapping a comma ends a value that is not quoted: quote the expression"


class Instr:
    """One instruction; `run` mutates the state (the interpreter has advanced pc already)."""

    __slots__ = ("path", "loc", "in_scope")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.loc: Any = None  # the step's source position, for runtime errors
        # The names its step can read (a view shows the mover only the locals its decision can
        # read, not what a finished block left in the state).
        self.in_scope: frozenset[str] = frozenset()

    def run(self, state: State) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class Jump(Instr):
    __slots__ = ("target",)

    def __init__(self, path: Path, target: int = -1) -> None:
        super().__init__(path)
        self.target = target

    def run(self, state: State) -> None:
        state.stack[-1][1] = self.target


class JumpUnless(Instr):
    __slots__ = ("cond", "target")

    def __init__(self, path: Path, cond: Any, target: int = -1) -> None:
        super().__init__(path)
        self.cond = cond
        self.target = target

    def run(self, state: State) -> None:
        if not self.cond(state.env()):
            state.stack[-1][1] = self.target


class PassUnless(JumpUnless):
    """A `JumpUnless` whose condition is the literal `true` (`while: "true"`): it never jumps, so
    the condition is not evaluated. It keeps its place, so saved program counters stay valid."""

    __slots__ = ()

    def run(self, state: State) -> None:
        pass


def jump_unless(path: Path, cond: Any) -> JumpUnless:
    """The conditional jump of an `if` or `while`."""
    node = getattr(cond, "node", None)
    return PassUnless(path, cond) if isinstance(node, BoolLit) and node.value is True else JumpUnless(path, cond)


class IterInit(Instr):
    __slots__ = ("items", "slot")

    def __init__(self, path: Path, items: Any, slot: str) -> None:
        super().__init__(path)
        self.items = items
        self.slot = slot

    def run(self, state: State) -> None:
        state.locals[self.slot] = (encode(self.items(state.env())), 0)


class IterNext(Instr):
    __slots__ = ("slot", "var", "index_var", "target")

    def __init__(self, path: Path, slot: str, var: str, index_var: str | None, target: int = -1) -> None:
        super().__init__(path)
        self.slot = slot
        self.var = var
        self.index_var = index_var
        self.target = target

    def run(self, state: State) -> None:
        items, i = state.locals[self.slot]
        if i >= len(items):
            state.stack[-1][1] = self.target
            return
        state.locals[self.slot] = (items, i + 1)
        state.locals[self.var] = items[i]
        if self.index_var:
            state.locals[self.index_var] = i + 1


class Call(Instr):
    __slots__ = ("proc",)

    def __init__(self, path: Path, proc: str) -> None:
        super().__init__(path)
        self.proc = proc

    def run(self, state: State) -> None:
        if len(state.stack) > 64:
            from davinci.engine.errors import EvalError

            raise EvalError(f"procedure calls nested more than 64 deep (calling '{self.proc}')")
        # The names the procedure binds (its loops' variables and places, its choices' arguments,
        # its own locals) are the caller's again when it returns: a caller's loop that calls a
        # procedure binding the same name, or the procedure calling itself from inside a loop,
        # would otherwise go on with the callee's values. The frame keeps them (a save too).
        locals_ = state.locals
        saved = None
        for n in state.game.programs[self.proc].binds:  # (a loop: a comprehension is a call of its own)
            if n in locals_:
                if saved is None:
                    saved = {}
                saved[n] = locals_[n]
        state.stack.append([self.proc, 0, saved] if saved else [self.proc, 0])


class Return(Instr):
    def run(self, state: State) -> None:
        state.stack[-1][1] = 1 << 30


@dataclass
class Program:
    name: str
    code: list[Instr] = field(default_factory=list)
    binds: set[str] = field(default_factory=set)  # the local names its steps bind or set (not turn_vars)
    sets: dict[str, SourceLocation | None] = field(default_factory=dict)  # locals its `set` steps make, where
    calls: list[tuple[str, frozenset[str]]] = field(default_factory=list)  # (procedure, the names in scope there)


# A step handler compiles one step mapping into instructions appended to the program.
StepCompiler = Callable[["FlowCompiler", Mapping[str, Any], Path, dict[str, Type]], None]

STEP_KINDS: dict[str, StepCompiler] = {}
STEP_DOCS: dict[str, str] = {}
# The keys a step's mapping may hold (`draw: {from: ..., to: ...}`); None: any names (`set`).
STEP_KEYS: dict[str, frozenset[str] | None] = {
    "for_each": frozenset({"in", "as", "index", "do"}),
}
# The steps the flow compiler handles itself (the others are registered with `step`).
CONTROL_STEPS = ("if", "while", "for_each", "break", "call", "return")
# Keys that sit beside the step kind in the step itself (`if: ...` with `then:` and `else:`).
STEP_SIBLINGS: dict[str, frozenset[str]] = {
    "if": frozenset({"then", "else"}),
    "while": frozenset({"do"}),
}


def step(name: str, keys: Iterable[str] | None = None) -> Callable[[StepCompiler], StepCompiler]:
    """Register a step kind; the function's docstring documents it for authors. `keys` are the
    keys its mapping form may hold (None: any, for steps whose keys are names)."""

    def deco(fn: StepCompiler) -> StepCompiler:
        STEP_KINDS[name] = fn
        STEP_DOCS[name] = (fn.__doc__ or "").strip()
        STEP_KEYS[name] = None if keys is None else frozenset(keys)
        return fn

    return deco


# The steps that always leave where they stand (written `STEP: true`), and what each leaves.
LEAVING_STEPS = {"break": "leaves the loop", "return": "leaves the procedure", "end_turn": "ends the turn",
                 "end_game": "ends the game"}


def _not_a_flag(value: Any) -> str:
    """A value given where true or false belongs, as a message names it: a quoted `"true"` is text,
    and the message says to drop the quotes (`'end_turn' takes true, got 'true'` read as nonsense)."""
    if isinstance(value, str):
        word = value.strip().lower()
        fix = (f" (write {word} without quotes)" if word in ("true", "false")
               else " (write true or false)" if word in ("yes", "no", "on", "off", "y", "n") else "")
        return f"the text {quoted(value, 60)!r}{fix}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else quoted(repr(value), 60)


def unreadable_name(name: str) -> str | None:
    """Why no expression could read a local named `name` (a step's `as:`, `index:`, an option's
    argument, a new name under `set`), or None when one can."""
    from davinci.engine.build import _LANGUAGE_WORDS

    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):  # (`as: 'x y'`, `index: 5`, an argument `A`)
        if re.search(r"[)\]]$", name.strip()):  # `{col: range(1, 8)}` reads as {col: 'range(1', '8)': null}
            return (f"'{name}' is the end of an expression a comma cut inside {{...}}: quote the whole expression, "
                    "commas and all")
        return f"'{name}' is not a name an expression can read: a local's name is lower-case letters, digits and _"
    if name in _LANGUAGE_WORDS:  # (`as: not`)
        return f"'{name}' is a word of the rule language: no expression could read a local of that name; choose another"
    return None


class FlowCompiler:
    """Compiles the step lists of one game; one instance per program being built."""

    def __init__(self, builder: Builder, program: Program, procs: Mapping[str, Any]) -> None:
        self.b = builder
        self.prog = program
        self.procs = procs
        self.loop_exits: list[list[Jump]] = []
        self._slot = 0
        self._scope: dict[str, Type] | None = None  # the scope of the step being compiled
        self._scopes: dict[frozenset[str], frozenset[str]] = {}

    @property
    def here(self) -> int:
        return len(self.prog.code)

    def emit(self, instr: Instr) -> Instr:
        instr.loc = self.b.loc.loc(instr.path)
        scope = self._scope
        if scope is not None:
            names = frozenset(scope)
            instr.in_scope = self._scopes.setdefault(names, names)  # one set per distinct scope
        self.prog.code.append(instr)
        return instr

    def new_slot(self) -> str:
        self._slot += 1
        slot = f"@{self.prog.name}.{self._slot}"
        self.prog.binds.add(slot)
        return slot

    def expr(self, path: Path, scope: Mapping[str, Type], expect: Type | None = None) -> Any:
        return self.b.expr(path, scope, expect)

    def binds(self, name: str, path: Path, key: bool = False) -> str:
        """`name`, a name a step binds; refused when it would hide a built-in name, a zone or a variable."""
        from davinci.engine.build import hidden_name

        unreadable = unreadable_name(name)
        if unreadable is not None:
            raise DefinitionError(unreadable, self.b.loc.loc(path, key=key))
        hidden = hidden_name(self.b, name)
        if hidden is not None:
            raise DefinitionError(f"'{name}' is {hidden}: a name bound here would hide it; choose another name",
                                  self.b.loc.loc(path, key=key))
        self.prog.binds.add(name)
        self.b.bound_at.setdefault(name, self.b.loc.loc(path, key=key))
        return name

    def steps(self, steps: Any, path: Path, scope: dict[str, Type]) -> None:
        """Compile a list of steps; `scope` gains the names each step binds."""
        if steps is None:
            return
        if not isinstance(steps, list):
            raise DefinitionError("expected a list of steps", self.b.loc.loc(path))
        before = getattr(self.b, "step_failed", False)
        for i, st in enumerate(steps):
            try:
                self.one(st, (*path, i), scope)
            except DefinitionError as e:
                # One wrong step: noted, and the next steps are checked too, so that one lint run
                # reports every wrong step (the game is not built while any error stands). The
                # name it would bind stands in, so that its uses raise no more errors; unknown
                # names in the rest of this block may be ones it bound, and are not reported.
                self.b.errors.append(e)
                self.b.step_failed = True  # type: ignore[attr-defined]
                spec = next(iter(st.values()), None) if isinstance(st, dict) else None
                bound = spec.get("as") if isinstance(spec, dict) else None
                if isinstance(bound, str) and bound not in scope:
                    scope[bound] = ANY
        self.b.step_failed = before  # type: ignore[attr-defined]  # outside this block, names are reported again

    def one(self, st: Any, path: Path, scope: dict[str, Type]) -> None:
        if not isinstance(st, dict) or not st:
            if isinstance(st, str) and (st in STEP_KINDS or st in CONTROL_STEPS):
                raise DefinitionError(
                    f"a step is a mapping with one step kind: write '{st}: true' (a bare '{st}' is a text)"
                    if st in LEAVING_STEPS
                    else f"a step is a mapping with one step kind: '{st}' needs its settings ('{st}: ...')",
                    self.b.loc.loc(path),
                )
            raise DefinitionError("a step is a mapping with one step kind", self.b.loc.loc(path))
        outer, self._scope = self._scope, scope
        try:
            self._one(st, path, scope)
        except DavinciError:
            raise
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as e:
            # The schema cannot pin down every step's inner shape (an option that is a number, a
            # mapping where a list belongs); the step builder then trips on it: report the step.
            kind = next(iter(st))
            raise DefinitionError(f"malformed '{kind}' step ({type(e).__name__}: {e})", self.b.loc.loc(path)) from None
        finally:
            self._scope = outer

    def flag(self, spec: Mapping[str, Any], key: str, path: Path, default: Any) -> Any:
        """A step's true/false key (`face_up`, `random`): `default` when absent. Anything else is
        refused: YAML's `no` or the text "false" would otherwise read as true."""
        value = spec.get(key, default)
        if key in spec and not isinstance(value, bool):
            raise DefinitionError(f"'{key}' must be true or false, got {_not_a_flag(value)}", self.b.loc.loc((*path, key)),
                                  code="DV050")
        return value

    def check_keys(self, mapping: Mapping[str, Any], allowed: Iterable[str], path: Path, what: str,
                   inside: tuple[str, Iterable[str]] | None = None) -> None:
        """A misspelt key would silently change the rules (`than:` drops a branch): refuse it.
        `inside` (a step kind and the keys its mapping takes): a key of that mapping found beside
        it was indented too little, and is said so."""
        allowed = sorted(allowed)
        for key in mapping:
            if key not in allowed:
                hint = did_you_mean(key, allowed, 0.5, aside=False) if len(str(key)) <= 100 else ""
                owner, nested = (inside[0], sorted(inside[1])) if inside is not None else ("", [])
                if key in nested:  # `do:` lined up with `for_each:` instead of under it
                    others = [k for k in nested if k != key]
                    hint = (f" ('{key}' belongs inside '{owner}:': indent it under '{owner}', with "
                            f"{', '.join(others)})" if others else f" ('{key}' belongs inside '{owner}:')")
                elif any(c in str(key) for c in ")]'\""):  # `{sides: max(6, 1)}`: the tail of a split value
                    hint = f" ({SPLIT_BY_COMMA} before it)"
                elif key in ("then", "else") and key not in allowed:  # (not `when`: a line indented too far)
                    hint = f" ('{key}' belongs to an 'if' step: is it indented under the wrong block?)"
                takes = f" ({what} takes {', '.join(allowed)})" if allowed else f" ({what} takes no other keys)"
                raise DefinitionError(
                    f"unknown key '{quoted(str(key))}' in {what}{hint}{takes}", self.b.loc.loc((*path, key), key=True),
                    code="DV011",
                )

    def _one(self, st: dict[str, Any], path: Path, scope: dict[str, Type]) -> None:
        kind = next(iter(st))
        if kind in STEP_KINDS or kind in CONTROL_STEPS:
            allowed = STEP_KEYS.get(kind)
            self.check_keys({k: v for k, v in st.items() if k != kind}, STEP_SIBLINGS.get(kind, ()), path,
                            f"the '{kind}' step", inside=(kind, allowed) if allowed is not None else None)
            if allowed is not None and isinstance(st[kind], dict):
                self.check_keys(st[kind], allowed, (*path, kind), f"the '{kind}' step")
        if kind in LEAVING_STEPS and st[kind] is not True:
            doing = LEAVING_STEPS[kind]
            raise DefinitionError(f"'{kind}' takes true, got {_not_a_flag(st[kind])}: the step always {doing} (for a "
                                  "condition, put it under an 'if')", self.b.loc.loc((*path, kind)), code="DV050")
        if kind in ("if",):
            self.compile_if(st, path, scope)
            return
        if kind == "while":
            self.compile_while(st, path, scope)
            return
        if kind == "for_each":
            self.compile_for_each(st["for_each"], (*path, "for_each"), scope)
            return
        if kind == "break":
            if not self.loop_exits:
                raise DefinitionError("'break' outside a loop", self.b.loc.loc(path, key=True))
            j = Jump(path)
            self.loop_exits[-1].append(j)
            self.emit(j)
            return
        if kind == "call":
            name = st["call"]
            if not isinstance(name, str) or name not in self.procs:
                hint = did_you_mean(name, self.procs)
                raise DefinitionError(f"unknown procedure '{name}'{hint}", self.b.loc.loc((*path, "call")), code="DV052")
            self.emit(Call(path, f"proc:{name}"))
            self.prog.calls.append((f"proc:{name}", frozenset(scope)))
            return
        if kind == "return":
            if not self.prog.name.startswith("proc:"):
                raise DefinitionError(f"'return' outside a procedure (it would end {self.prog.name} here: the steps "
                                      "after it would never run)", self.b.loc.loc(path, key=True))
            self.emit(Return(path))
            return
        handler = STEP_KINDS.get(kind)
        if handler is None:
            known = sorted([*STEP_KINDS, *CONTROL_STEPS])
            hint = did_you_mean(kind, known)
            raise DefinitionError(f"unknown step kind '{kind}'{hint}", self.b.loc.loc(path, key=True), code="DV051")
        handler(self, st, path, scope)

    def compile_if(self, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
        cond = self.expr((*path, "if"), scope, BOOL)
        jmp = jump_unless(path, cond)
        self.emit(jmp)
        self.steps(st.get("then"), (*path, "then"), dict(scope))
        if st.get("else"):
            end = Jump(path)
            self.emit(end)
            jmp.target = self.here
            self.steps(st.get("else"), (*path, "else"), dict(scope))
            end.target = self.here
        else:
            jmp.target = self.here

    def compile_while(self, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
        top = self.here
        cond = self.expr((*path, "while"), scope, BOOL)
        jmp = jump_unless(path, cond)
        self.emit(jmp)
        exits = self.loop_body(st.get("do"), (*path, "do"), dict(scope))
        self.emit(Jump(path, top))
        jmp.target = self.here
        for j in exits:
            j.target = self.here

    def loop_body(self, steps: Any, path: Path, scope: dict[str, Type]) -> list[Jump]:
        """Compile a loop's `do`; the `break` jumps inside it, to be aimed past the loop. A body
        that fails leaves no loop behind it (a `break` after the loop is outside any loop)."""
        self.loop_exits.append([])
        try:
            self.steps(steps, path, scope)
        finally:
            exits = self.loop_exits.pop()
        return exits

    def compile_for_each(self, spec: Any, path: Path, scope: dict[str, Type]) -> None:
        if not isinstance(spec, dict):
            raise DefinitionError("for_each needs 'in', 'as' and 'do'", self.b.loc.loc(path))
        items = self.expr((*path, "in"), scope)
        if "as" in spec and not isinstance(spec["as"], str):  # (`as: null` bound the name None)
            raise DefinitionError(f"'as' must be a lower-case name, got {json_shown(spec['as'], 200)}",
                                  self.b.loc.loc((*path, "as")))
        var = self.binds(str(spec.get("as", "it")), (*path, "as") if "as" in spec else path)
        elem: Type = items.type.elem if isinstance(items.type, ListType) else ANY
        slot = self.new_slot()
        self.emit(IterInit(path, items, slot))
        top = self.here
        index_var = spec.get("index")
        if index_var:
            self.binds(str(index_var), (*path, "index"))
        nxt = IterNext(path, slot, var, index_var)
        self.emit(nxt)
        inner = dict(scope)
        inner[var] = elem
        if index_var:
            inner[str(index_var)] = INT
        exits = self.loop_body(spec.get("do"), (*path, "do"), inner)
        self.emit(Jump(path, top))
        nxt.target = self.here
        for j in exits:
            j.target = self.here
