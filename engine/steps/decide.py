"""Decision steps: `choose` (one seat picks among generated actions) and `respond`
(several seats answer at once, in the order they lock in, against an optional time limit)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from davinci.engine.actions import Action
from davinci.engine.errors import DavinciError, DefinitionError, EvalError, retell_unknown_name
from davinci.engine.expr.budget import step_charge
from davinci.engine.expr.types import ANY, BOOL, INT, STR, ListType, Type
from davinci.engine.flow import FlowCompiler, Instr, Jump, Path, step
from davinci.engine.legal import Block, LegalActions
from davinci.engine.steps.core import fill, template
from davinci.engine.values import Env, PieceV, SeatV, Struct, decode, encode, lock_in_text, pref

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.state import State


ENGINE_VERBS = ("answer", "claim", "pass", "return", "position")
"""The actions of the engine's own decisions (a challenge's answers, a return over capacity, a
free piece's place): no `choose` option may take them."""
# What the values of the engine's own actions are (help and refusals name them, as an option's).
ENGINE_VERB_ARGS = {"answer": ("seconds", "text"), "claim": ("seconds", "outcome"), "return": ("piece",),
                    "position": ("place",)}


class Option:
    __slots__ = ("verb", "names", "lists", "when", "start", "available", "cache", "modes", "signature", "private",
                 "not_now")

    def __init__(self, verb: str, names: list[str], lists: list[Any], when: Any, available: Any,
                 private: bool = False, not_now: str | list[Any] = "") -> None:
        self.verb = verb
        self.not_now = not_now  # (a compiled `template`) why the option (its `if`) or a combination (its `when`) is not offered
        self.private = private  # the action is told to its seat alone (a sealed bid)
        self.names = names
        self.lists = lists
        self.when = when
        self.available = available
        self.start = -1
        self.cache: dict[int, Labelled] = {}
        # How each argument list is computed: once per game (it reads only settings), once per
        # decision (it reads no earlier argument), or once per combination of earlier arguments.
        self.modes: list[str] = []
        for d, fn in enumerate(lists):
            used = set(getattr(fn, "names", ()) or ())
            if used and used <= {"settings"}:
                self.modes.append("game")
            elif not (used & set(names[:d])):
                self.modes.append("decision")
            else:
                self.modes.append("combination")
        # Options with the same argument names, lists and filter (say, two ways of playing a
        # card on a cell that both need a shared symbol) have the same combinations: a
        # decision filters them once.
        self.signature: tuple[Any, ...] | None = None
        if when is not None:
            self.signature = (tuple(names), tuple(getattr(fn, "source", id(fn)) for fn in lists), getattr(when, "source", id(when)))


class Choose(Instr):
    __slots__ = ("seat", "options", "prog", "pc", "prompt")

    def __init__(self, path: Path, seat: Any, options: list[Option], prog: str, pc: int, prompt: str | list[Any]) -> None:
        super().__init__(path)
        self.seat = seat
        self.options = options
        self.prog = prog
        self.pc = pc
        self.prompt = prompt

    def run(self, state: State) -> None:
        seat = self.seat(state.env()).index if self.seat is not None else state.current
        opts = self.enumerate(state)
        if not opts:
            # The end is checked whenever the game waits for a decision: a game over (the last
            # card taken) ends here rather than asking a decision nobody can make.
            if state.phase != "setup" and state.game.end.when(state.env()):
                state._finish("end")
                return
            raise EvalError(f"no legal option for the decision at {'.'.join(map(str, self.path))}", code="DV044")
        state.pending = {"type": "choose", "seat": seat, "at": [self.prog, self.pc], "prompt": fill(self.prompt, state)}
        state._legal = {seat: opts}

    def not_now(self, state: State, verb: str, args: Sequence[str] | None = None) -> str:
        """The option's own words (`not_now`) for why `verb` is not offered now (its `if`), or,
        with `args`, why that combination is not (its `when`): said only when each value is among
        its argument's choices (a card not in the hand is refused for that, not for the filter)."""
        for o in self.options:
            if o.verb != verb or (o.available if args is None else o.when) is None:
                continue
            if args is not None:
                env = state.env()
                for d, (fn, mode) in enumerate(zip(o.lists, o.modes)):
                    if mode != "combination" and (d >= len(args) or args[d] not in _labelled(state, fn(env), fn)[1]):
                        return ""
            try:
                return " ".join(fill(o.not_now, state).split())  # (a folded YAML text's line breaks)
            except DavinciError:  # its expression fails now: the engine's own words say why instead
                return ""
        return ""

    def enumerate(self, state: State) -> LegalActions:
        blocks: list[Block] = []
        base = state.locals
        env = Env(state, base)
        filtered: dict[tuple[Any, ...], list[tuple[tuple[str, ...], tuple[Any, ...]]]] = {}
        for oi, opt in enumerate(self.options):
            if opt.available is not None and not opt.available(env):
                continue
            if not opt.names:  # one combination, the empty one: `when` filters it like `if`
                if opt.when is None or opt.when(env):
                    blocks.append(Block(opt.verb, oi, []))
                continue
            shared = filtered.get(opt.signature) if opt.signature is not None else None
            if shared is not None:  # an earlier option already filtered the same combinations
                blocks.append(Block(opt.verb, oi, combos=shared))
                continue
            # Argument lists that do not use earlier arguments are computed once, not per
            # combination; lists that depend only on settings are computed once per game.
            pre: list[Labelled | None] = []
            for d, (fn, mode) in enumerate(zip(opt.lists, opt.modes)):
                if mode == "game":
                    cached = opt.cache.get(d)
                    if cached is None:  # kept for every game: read-only (tuples)
                        values, labels = _labelled(state, fn(env), fn)
                        cached = opt.cache[d] = (tuple(values), tuple(labels))
                    pre.append(cached)
                elif mode == "decision":
                    pre.append(_labelled(state, fn(env), fn))
                else:
                    pre.append(None)
            if opt.when is None and None not in pre:
                blocks.append(Block(opt.verb, oi, pre))  # type: ignore[arg-type]  # (no None left)
                continue
            combos: list[tuple[tuple[str, ...], tuple[Any, ...]]] = []
            loc = dict(base)
            self._expand(state, opt, 0, loc, Env(state, loc), (), (), combos, pre)
            if opt.signature is not None:
                filtered[opt.signature] = combos
            blocks.append(Block(opt.verb, oi, combos=combos))
        legal = LegalActions(blocks)
        if len(legal) > MAX_ACTIONS:
            raise _too_many(len(legal), "")
        return legal

    def _expand(
        self,
        state: State,
        opt: Option,
        depth: int,
        loc: dict[str, Any],
        env: Env,
        labels: tuple[str, ...],
        values: tuple[Any, ...],
        out: list[tuple[tuple[str, ...], tuple[Any, ...]]],
        pre: list[Labelled | None],
    ) -> None:
        """Every combination of argument values that passes the option's filter, in order, as
        (labels, values); `env` reads `loc`, where each argument is bound in turn."""
        items = pre[depth]
        if items is None:
            items = _labelled(state, opt.lists[depth](env), opt.lists[depth])
        name = opt.names[depth]
        when = opt.when
        # Each combination is work (20 units: a filter's evaluation costs about what a query pays
        # for 20 list elements); a filter over three lists of 10,000 would never end.
        step_charge(20 * len(items[0]))
        if depth == len(opt.names) - 1:
            for enc, lab in zip(*items):
                loc[name] = enc
                if when is None or when(env):
                    out.append(((*labels, lab), (*values, enc)))
            if len(out) > MAX_ACTIONS:
                raise _too_many(len(out), "at least ")
        else:
            for enc, lab in zip(*items):
                loc[name] = enc
                self._expand(state, opt, depth + 1, loc, env, (*labels, lab), (*values, enc), out, pre)
        loc.pop(name, None)

    def resume(self, state: State, binding: Any, action: Action) -> None:
        oi, values = binding
        opt = self.options[oi]
        for name, v in zip(opt.names, values):
            state.locals[name] = v
        state.stack[-1][1] = opt.start


def _if_before_args(avail: Any, names: list[str]) -> None:
    """An option's `if` that names one of its arguments: said why (the arguments do not exist when
    `if` is checked) and what to write instead, in place of the general unknown-name advice."""
    retell_unknown_name(avail, names, lambda name: (
        f"unknown name '{name}': an option's 'if' is checked before its arguments are chosen, so it "
        f"cannot read '{name}'; to filter the argument values, write this condition under 'when'"))


def _not_now_before_args(part: Any, names: list[str]) -> None:
    """A `not_now` part naming one of the option's arguments: said why it cannot (the player's
    typed action, quoted beside it, names the refused values)."""
    retell_unknown_name(part, names, lambda name: (
        f"unknown name '{name}': an option's 'not_now' is said over the names of the decision, before "
        f"or without its arguments, so it cannot read '{name}' (the refusal quotes the action the player "
        "typed, with its values, beside it)"))


Labelled = tuple[Sequence[Any], Sequence[str]]  # an argument list: stored values, and their labels

# Legal actions one decision may offer: a player could not read more, and a screen lists them all.
MAX_ACTIONS = 100_000


def _too_many(n: int, at_least: str) -> EvalError:
    return EvalError(f"the decision offers {at_least}{n:,} actions, more than the {MAX_ACTIONS:,} one decision may "
                     "offer (a player could not choose among them): filter the argument lists", code="DV043")


def _labelled(state: State, items: list[Any], source: Any = None) -> Labelled:
    """The stored values and the labels of an argument list's items. The labels of a zone's
    pieces are made in one pass over the zone, and kept until a piece moves (`State.derived`)."""
    values: list[Any] = []
    labels: list[str] = []
    zone_of = state.zone_of
    derived = state.derived
    plain = False
    for item in items:
        if item.__class__ is PieceV:
            pid = item.pid
            key = zone_of[pid]
            at = derived.get(("labels", key)) or state.zone_labels(key)
            values.append(pref(pid))
            labels.append(at[pid])
        else:
            plain = True
            values.append(encode(item))
            try:
                labels.append(_label(item))
            except EvalError as e:
                raise _at(source, e.message) from None
    if plain and len(set(labels)) < len(labels):
        _same_text(values, labels, source)
    return values, labels


def _at(source: Any, reason: str) -> EvalError:
    """An error about an argument list's values, located at its expression when there is one."""
    return source.error(reason) if hasattr(source, "error") else EvalError(reason)


def _same_text(values: list[Any], labels: list[str], source: Any) -> None:
    """Refuse two different choices that read the same as action text (logs and typed actions
    name a choice by its text, so a replay would take the first); the same value twice is allowed."""
    first: dict[str, Any] = {}
    for v, lab in zip(values, labels):
        other = first.setdefault(lab, v)
        if other != v:
            raise _at(source, f"two choices are both written '{lab}' in an action ({_shown(other)} and {_shown(v)}; "
                      "a space is written _): give them texts that differ by more than that")


def _label(item: Any) -> str:
    return item.label() if hasattr(item, "label") else _text(item)


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_label(x) for x in v) + "]"
    if v == "":
        raise EvalError("an empty text cannot be a choice: it could not be typed or logged as an action")
    return str(v).replace(" ", "_")


def _shown(v: Any) -> str:
    return repr(v) if isinstance(v, str) else _text(v)


OPTION_KEYS = ("action", "args", "if", "when", "do", "private", "not_now")
# Words the play prompt reads as commands before it reads an action (engine/play.py).
PROMPT_COMMANDS = ("help", "history", "list", "quit", "exit", "save")


@step("choose", keys=("prompt", "seat", "options"))
def _choose(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """A decision for one seat among generated actions.

    Each option has an `action` verb (a lower-case word; not `answer`, `claim`, `pass`, `return` or
    `position`, which the engine uses, nor a word the play prompt reads as a command: `help`,
    `history`, `list`, `quit`, `exit`, `save`), optional `args` (name → list expression; later lists may use
    earlier names), an optional `if` (is the option offered at all; `not_now`, a text, says why
    not to a player who types it then, or a combination `when` filters out), an optional `when` (a filter
    on each combination of arguments) and the `do` steps run when it is chosen, with the
    arguments bound as names. The legal actions come out in a fixed order: options in YAML order,
    arguments in list order. `seat` defaults to the current seat. `prompt` fills in
    `{expression}` parts as `log` does, when the decision is posed. `private: true` on an option
    seals it: its action is logged to the choosing seat alone, the others read that it chose.

    ```yaml
    - choose:
        prompt: Guess a hidden card
        options:
          - action: guess
            args: {target: "opponent_cards", value: "values"}
            when: "target.colour == 'black' or value != 'wild'"
            do: [...]
          - action: stop
            if: "correct > 0"
            do: [...]
    ```
    """
    spec = st["choose"]
    p = (*path, "choose")
    if not isinstance(spec, dict) or not isinstance(spec.get("options"), list) or not spec["options"]:
        raise DefinitionError("choose needs a non-empty list of options", fc.b.loc.loc(p))
    seat = fc.expr((*p, "seat"), scope, fc.b.types.seat) if "seat" in spec else None  # type: ignore[attr-defined]
    options: list[Option] = []
    inner_scopes: list[dict[str, Type]] = []
    verbs: dict[str, int] = {}  # each verb, and the index of its option
    for i, o in enumerate(spec["options"]):
        op: Path = (*p, "options", i)
        if not isinstance(o, dict):
            raise DefinitionError("each option of a choose is a mapping with an 'action' (and 'args', 'do'...)",
                                  fc.b.loc.loc(op))
        fc.check_keys(o, OPTION_KEYS, op, "this 'choose' option")
        verb = str(o.get("action", ""))
        if not verb.isidentifier() or verb in ENGINE_VERBS:
            raise DefinitionError(
                f"option action must be a word and not one of the engine's own ({', '.join(ENGINE_VERBS)}), "
                f"got '{verb}'", fc.b.loc.loc((*op, "action"))
            )
        if verb != verb.lower():
            raise DefinitionError(
                f"option action must be lower case, got '{verb}' (players type actions in any case; "
                f"they are read as lower case: write '{verb.lower()}')",
                fc.b.loc.loc((*op, "action")),
            )
        if verb in PROMPT_COMMANDS:
            raise DefinitionError(
                f"option action '{verb}' is a command of the play prompt ({', '.join(PROMPT_COMMANDS)}): "
                "a player typing it would get the command; name the action otherwise",
                fc.b.loc.loc((*op, "action")),
            )
        if verb in verbs:
            first = fc.b.loc.loc((*p, "options", verbs[verb], "action"))
            raise DefinitionError(f"two options of this decision share the action '{verb}' (the other is at line "
                                  f"{first.line}): a typed action names one option, so give each its own verb",
                                  fc.b.loc.loc((*op, "action")), code="DV050")
        verbs[verb] = i
        inner = dict(scope)
        names: list[str] = []
        lists: list[Any] = []
        args = o.get("args") or {}
        for name in args:
            fc.binds(str(name), (*op, "args", name), key=True)
            fn = fc.expr((*op, "args", name), inner)
            if not isinstance(fn.type, ListType) and fn.type is not ANY:
                raise DefinitionError(
                    f"argument '{name}' must be a list of choices, got {fn.type.name}",
                    fc.b.loc.loc((*op, "args", name)),
                    code="DV041",
                )
            inner[name] = fn.type.elem if isinstance(fn.type, ListType) else ANY
            names.append(str(name))
            lists.append(fn)
        fc.b.verb_args.setdefault(verb, tuple(names))  # type: ignore[attr-defined]  # (messages name the values)
        when = fc.expr((*op, "when"), inner, BOOL) if "when" in o else None
        avail = fc.expr((*op, "if"), scope, BOOL) if "if" in o else None
        _if_before_args(avail, names)
        private = fc.flag(o, "private", op, False)
        if private:  # its arguments stay in the turn's locals: no view shows them (views.py)
            fc.b.private_locals.update(names)  # type: ignore[attr-defined]
        not_now = o.get("not_now", "")
        if not isinstance(not_now, str) or ("not_now" in o and avail is None and when is None):
            raise DefinitionError("'not_now' is a text saying why the option is not offered: it goes with an 'if' "
                                  "or a 'when'", fc.b.loc.loc((*op, "not_now")))
        # `{expression}` parts are filled in as in a prompt, over the names the decision sees (not
        # its arguments: the refused values are the player's own words).
        said = template(fc, not_now, (*op, "not_now"), scope) if not_now else ""
        for part in said if isinstance(said, list) else ():
            _not_now_before_args(part, names)
        options.append(Option(verb, names, lists, when, avail, private, said))
        inner_scopes.append(inner)
    instr = Choose(path, seat, options, fc.prog.name, fc.here, template(fc, spec.get("prompt", ""), (*p, "prompt"), scope))
    fc.emit(instr)
    ends: list[Jump] = []
    for i, (opt, inner) in enumerate(zip(options, inner_scopes)):
        opt.start = fc.here
        # Names a sealed option's steps set are as private as its arguments (`set: {copy: n}`).
        fc.b.sealing += opt.private  # type: ignore[attr-defined]
        try:
            fc.steps(spec["options"][i].get("do"), (*p, "options", i, "do"), inner)
        finally:
            fc.b.sealing -= opt.private  # type: ignore[attr-defined]
        j = Jump(path)
        fc.emit(j)
        ends.append(j)
    for j in ends:
        j.target = fc.here


class Respond(Instr):
    __slots__ = ("seats", "limit", "check", "claims", "card", "var", "prog", "pc", "prompt")
    seats: Any
    limit: Any
    check: Any
    claims: Any
    card: Any
    var: str
    prog: str
    pc: int
    prompt: str | list[Any]  # plain text, or a compiled template

    def __init__(self, path: Path, **kw: Any) -> None:
        super().__init__(path)
        for k, v in kw.items():
            setattr(self, k, v)

    def run(self, state: State) -> None:
        env = state.env()
        seats = [s.index for s in self.seats(env) if state.active[s.index]]
        if len(set(seats)) < len(seats):
            twice = next(s for s in seats if seats.count(s) > 1)
            raise self.seats.error(f"the seats that respond name {state.seat_names[twice]} twice: each seat answers once")
        if not seats:
            state.locals[self.var] = ()
            return
        card = self.card(env) if self.card is not None else None
        limit = self.limit(env) if self.limit is not None else 0
        if limit.__class__ is not int or limit < 0 or limit > MAX_TIME_LIMIT:
            raise self.limit.error(f"the time limit is {limit!r}: a number of seconds from 0 (untimed) to "
                                   f"{MAX_TIME_LIMIT:,} (a day)")
        state.pending = {
            "type": "respond",
            "seats": seats,
            "answers": {},
            "at": [self.prog, self.pc],
            "limit_ms": limit * 1000,
            "claims": bool(self.claims(env)) if self.claims is not None else True,
            "card": card.pid if card is not None else None,
            "prompt": fill(self.prompt, state),
        }
        state._legal = None

    def answer(self, state: State, seat: int, action: Action, binding: Any) -> None:
        p = state.pending
        assert p is not None
        if binding is None:  # pass
            p["answers"][str(seat)] = None
            state.log(f"{state.seat_names[seat]} passes")
        else:
            ms, text, claim = binding
            p["answers"][str(seat)] = [ms, text, claim]
            if claim is False:  # a simulated team that did not solve it places no bid
                state.log(f"{state.seat_names[seat]} passes")
            else:
                state.log(lock_in_text(state.seat_names[seat], ms / 1000))
        if any(str(s) not in p["answers"] for s in p["seats"]):
            return
        self._resolve(state, p)

    def _resolve(self, state: State, p: dict[str, Any]) -> None:
        limit = int(p["limit_ms"])
        entries = []
        order = {int(s): i for i, s in enumerate(p["answers"])}  # equal times: the first to lock in first
        for s in p["seats"]:
            a = p["answers"][str(s)]
            if a is None:
                entries.append((1 << 40, order[s], s, "", False, False))
                continue
            ms, text, claim = a
            late = limit > 0 and ms > limit
            if late:
                correct = False
            elif claim is not None:
                correct = bool(claim)
            else:
                correct = bool(self.check(state.env({"given": text})))
            entries.append((ms, order[s], s, text or "", correct, claim is not None))
            if late:  # said once: not also "wrong" below (it may have been right)
                shown = "(simulated)" if claim is not None else f"'{text}'"
                state.log(f"{state.seat_names[s]} answered {shown} too late")
        entries.sort()
        rank = 0
        structs: list[Struct] = []
        for ms, _o, s, text, correct, claimed in entries:
            if correct:
                rank += 1
            structs.append(
                Struct(
                    (
                        ("seat", SeatV(state, s).ref()),
                        ("given", text),
                        ("time_ms", min(ms, 1 << 40)),
                        ("correct", correct),
                        ("rank", rank if correct else 0),
                        ("claimed", claimed),
                    )
                )
            )
            late = limit > 0 and ms > limit
            # A failed claim that came in time is a pass (logged as one when it was made).
            if ms < (1 << 40) and not late and (correct or not claimed):
                shown = "(simulated)" if claimed else f"'{text}'"
                state.log(f"{state.seat_names[s]} answered {shown}: {'right' if correct else 'wrong'}")
        structs.sort(key=lambda x: (not x.get("correct"), x.get("rank") or 0, x.get("time_ms")))
        state.locals[self.var] = tuple(structs)
        state.pending = None


# The longest time limit a `respond` may set, in seconds: a day (the countdown of a limit of 2**63
# seconds was drawn every second as a float).
MAX_TIME_LIMIT = 86_400


@step("respond", keys=("seats", "time_limit", "check", "claims", "card", "as", "prompt"))
def _respond(fc: FlowCompiler, st: Mapping[str, Any], path: Path, scope: dict[str, Type]) -> None:
    """Several seats answer at once (a race). Each locks in an answer with the seconds it took:
    `answer SECONDS TEXT`, or `pass`; bots modelling a solver may `claim SECONDS solved|failed`
    when `claims` allows it. When all have answered, answers after `time_limit` seconds (0 = no
    limit) are wrong, the others are judged by `check` (with `given` bound to the text), and the
    name in `as` holds the responses (fields seat, given, time_ms, correct, rank, claimed),
    correct ones first in the order they locked in (rank 1, 2, ...). A claim is judged by its
    own word (`solved` is correct, `failed` is a pass), not by `check`; `claims` (a condition,
    default true) allows claims at all. Answers are free text, so the `random` bot can only
    pass here: lint's test games and random simulations never judge an answer. A game whose
    challenges matter gives its own bot, one that answers or claims.

    ```yaml
    - respond:
        seats: "seats where active and it != current"
        time_limit: settings.timer_seconds
        card: card
        check: "answer_matches(given, card.answer, card.alternates)"
        as: responses
    ```
    """
    spec = st["respond"]
    p = (*path, "respond")
    b = fc.b
    types = b.types  # type: ignore[attr-defined]
    seats = fc.expr((*p, "seats"), scope, ListType(types.seat))
    limit = fc.expr((*p, "time_limit"), scope, INT) if "time_limit" in spec else None
    check = fc.expr((*p, "check"), {**scope, "given": STR}, BOOL)
    claims = fc.expr((*p, "claims"), scope, BOOL) if "claims" in spec else None
    card = fc.expr((*p, "card"), scope, types.piece) if "card" in spec else None
    var = fc.binds(str(spec.get("as", "responses")), (*p, "as") if "as" in spec else p)
    scope[var] = ListType(types.response)
    b.rest_verbs["answer"] = 1  # type: ignore[attr-defined]
    b.rest_verbs["claim"] = 1  # type: ignore[attr-defined]
    fc.emit(
        Respond(
            path,
            seats=seats,
            limit=limit,
            check=check,
            claims=claims,
            card=card,
            var=var,
            prog=fc.prog.name,
            pc=fc.here,
            prompt=template(fc, spec.get("prompt", ""), (*p, "prompt"), scope),
        )
    )


_unused: tuple[Any, ...] = (itertools, decode, ANY)
