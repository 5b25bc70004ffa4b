"""Lint rules for game definitions and variants: build the definition (every expression
parsed and type-checked at its line:col), then play a few seeded random games."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from davinci.engine.errors import DavinciError, SourceLocation, did_you_mean
from davinci.engine.expr import budget
from davinci.engine.flow import LEAVING_STEPS
from davinci.engine.lint.context import LintContext
from davinci.engine.lint.registry import Problem, Rule, get_rule, register, rule

PLAYOUTS = 2
PLAYOUT_ACTIONS = 20_000
# Flow instructions one random game may run. The shipped games need under 30,000; a game built to
# run just under the per-decision budget at every decision would otherwise keep lint busy for hours.
PLAYOUT_STEPS = 200_000
# Expression work (list elements visited, see expr/budget.py) one random game may do: the shipped
# games need under 150,000; each decision may do up to 5,000,000, so a game built to stay just under
# that at every decision would otherwise keep lint busy for an hour.
PLAYOUT_WORK = 10_000_000


def _doc(code: str, name: str, text: str) -> None:
    register(Rule(code, name, "error", ("game", "variant"), None, text.strip(), "semantic"))


_doc("DV040", "expr-syntax", """
A rule expression does not parse. The message shows the expression with a caret under the
problem and says what was expected.

Failing:
```yaml
end:
  when: "count(seats where active) <="
```
Passing:
```yaml
end:
  when: "count(seats where active) <= 1"
```
""")
_doc("DV041", "expr-type", """
A rule expression parses but is wrong: an unknown name or function (with a did-you-mean
suggestion), a wrong number or type of arguments, a comparison of mixed types, or a value of the
wrong type for its place (a condition that is not a bool).

Failing:
```yaml
- if: "len(pil) > 0"
```
Passing:
```yaml
- if: "len(pile) > 0"
```
""")
_doc("DV042", "expr-runtime", """
A rule expression failed while a test game was played (division by zero, max of an empty list,
a field of nothing). Reported with the expression's position.

Failing:
```yaml
- set: {share: "100 // len(current.hand)"}   # the hand can be empty
```
Passing:
```yaml
- set: {share: "100 // max(1, len(current.hand))"}
```
""")
_doc("DV043", "endless-flow", """
The flow ran a very large number of steps without asking anyone for a decision: a `while` whose
condition never becomes false without a choice inside.

The same code reports a turn that has taken 10,000 decisions without ending: a loop that only a
choice nobody has to make can leave, which random players (and bots) would play forever.

Failing:
```yaml
- while: "true"
  do: [{set: {n: n + 1}}]
```
Passing:
```yaml
- while: "n < 3"
  do: [{set: {n: n + 1}}]
```
""")
_doc("DV081", "setting-value", """
A game cannot start with these settings: a value of the wrong type, outside its `min`/`max`
(for a list: any of its numbers), not one of its `choices`, an unknown setting, or a `requires`
check of the game that fails for these settings and this number of players. Lint reports it when
a setting's default (or a variant's) fails a check at the player counts its test games use.

Failing:
```yaml
players: {min: 2, max: 4}
requires:
  - check: "players <= 1"
    message: "this game is played alone"
```
Passing:
```yaml
players: {min: 2, max: 4}
requires:
  - check: "settings.first_player <= players"
    message: "first_player names a seat that is not at the table"
```
""")
_doc("DV044", "no-legal-option", """
A `choose` step was reached with no legal option at all, so nobody could continue. Offer a
fallback option (for example `skip` with an `if:`) or avoid reaching the decision. An option's
`action` may not be `answer`, `claim`, `pass`, `return` or `position`: the engine uses those verbs.

Failing:
```yaml
- choose:
    options:
      - action: play
        args: {card: current.hand}      # the hand may be empty
```
Passing:
```yaml
- choose:
    options:
      - action: play
        args: {card: current.hand}
      - action: skip
        if: "len(current.hand) == 0"
```
""")
_doc("DV050", "game-definition", """
The game definition is inconsistent in a way the schema cannot see: a field declared twice with
different types, a component item with an undeclared field, a zone and a variable with one name,
an option verb used twice, `bottom` on a zone that is not a deck or pile, an `owner` (or
`to_owner`, `from_owner`) for a shared zone (it would be ignored: a pile meant to be per seat,
its `per_seat: true` forgotten, would gather every seat's pieces).

Failing:
```yaml
components:
  tile: {fields: {number: int}, items: [{numbr: 3}]}
```
Passing:
```yaml
components:
  tile: {fields: {number: int}, items: [{number: 3}]}
```
""")
_doc("DV051", "unknown-step", """
A flow step names a step kind the engine does not have.

Failing:
```yaml
- shufle: pile
```
Passing:
```yaml
- shuffle: pile
```
""")
_doc("DV052", "unknown-procedure", """
`call:` names a procedure that is not defined under `flow.procedures`.

Failing:
```yaml
- call: wrong_gues
```
Passing:
```yaml
- call: wrong_guess
```
""")
_doc("DV053", "setting-default", """
A setting's default does not fit its own type, bounds or choices.

Failing:
```yaml
settings:
  hand: {type: int, default: many}
```
Passing:
```yaml
settings:
  hand: {type: int, default: 4}
```
""")
_doc("DV054", "variant-cycle", """
Variants that extend each other in a circle (`a` extends `GAME/b`, `b` extends `GAME/a`).

Failing:
```yaml
id: fast
extends: my-game/fast
```
Passing:
```yaml
id: fast
extends: my-game
```
""")
_doc("DV056", "variant-setting", """
A variant changes a setting its game does not have. A misspelt name would otherwise be a new
setting that nothing reads, and the variant would quietly play like its game. A variant may add a
setting of its own by declaring its `type`.

Failing:
```yaml
kind: variant
id: big
extends: my-game
settings:
  sise: {default: 4}
```
Passing:
```yaml
kind: variant
id: big
extends: my-game
settings:
  size: {default: 4}
```
""")
_doc("DV060", "illegal-action", """
A bot or test game tried an action the engine refused (reported by the playout check when a
built-in bot and the rules disagree).

Failing: a flow that offers an option whose `do` steps then fail.
Passing: options whose steps always succeed when offered.
""")


def _decks_for(ctx: LintContext) -> dict[str, list[dict[str, Any]]]:
    from davinci.engine.game import deck_cards

    extra: list[str] = []
    if ctx.pack is not None and ctx.pack.source == "path":
        extra.append(str(ctx.pack.root))
    try:
        return deck_cards(extra, replacing=True)  # the linted pack, not its installed copy
    except DavinciError as e:  # (reported where it is; a deck the game names is then said to be unread)
        ctx.cache["decks_error"] = e
        return {}


def _build(ctx: LintContext) -> Any:
    """The built game (or the error building it), once per file for all the rules that need it."""
    hit = ctx.cache.get("build")
    if hit is None:
        try:
            hit = _build_once(ctx)
        except DavinciError as e:
            unread = ctx.cache.get("decks_error")
            if unread is not None and e.code == "DV020" and e.message.startswith("unknown deck '"):
                # Not unknown: the decks did not load (a broken deck file elsewhere in the pack).
                where = f"{unread.location}: " if unread.location is not None else ""
                named = e.message.split("'")[1]
                e.message = (f"the deck '{named}' cannot be looked up: the decks did not load ({where}"
                             f"{unread.message.splitlines()[0]}): fix that first")
            hit = e
        ctx.cache["build"] = hit
    if isinstance(hit, DavinciError):
        raise hit
    return hit


def _in_this_file(ctx: LintContext, what: str) -> list[Any]:
    """The (name, ..., place) entries of the built game's list `what` (`unread_locals`...) that lie in
    this file; none when the game does not build (DV055 reports why)."""
    if not isinstance(ctx.doc.data, dict):
        return []
    try:
        gdef = _build(ctx)
    except DavinciError:
        return []
    return [e for e in getattr(gdef, what) if e[-1].path == ctx.doc.path]


def _base_problems(ctx: LintContext, playouts: bool = False) -> set[Problem]:
    """The problems the game a variant extends has without the variant (its own lint reports
    them): a problem in the game's file that is not among them is the variant's doing. With
    `playouts`, those of its test games too (asked only when the variant's test games fail)."""
    from davinci.engine.build import build_game
    from davinci.engine.definition import Locator

    base = ctx.project.games().get(str((ctx.doc.data or {}).get("extends", "")).split("/")[0])
    if base is None or not isinstance(base.data, dict) or id(base) in ctx.project.failed_schema:
        return set()
    try:
        decks = _decks_for(ctx) if any(isinstance(c, dict) and c.get("from_deck")
                                       for c in (base.data.get("components") or {}).values()) else {}
        gdef = build_game(base.data, Locator([base]), decks=decks)
        return set(_playouts(ctx, gdef)) if playouts else set()
    except DavinciError as e:
        return {_as_problem(err, ctx.at([])) for err in getattr(e, "problems", [e])}
    except Exception:  # noqa: BLE001 - a base its own rules report as broken: nothing to compare with
        return set()


def _unreadable_games(ctx: LintContext) -> list[str]:
    """Game files of this file's pack that do not load (their own problems say why)."""
    from davinci.engine.packs import read_doc

    if ctx.pack is None:
        return []
    out = []
    for section, _, rel in ctx.pack.files():
        if section == "games":
            try:
                read_doc(ctx.pack, rel)
            except DavinciError:
                out.append(str(rel))
    return out


def _build_once(ctx: LintContext) -> Any:
    from davinci.engine.build import build_game
    from davinci.engine.definition import Locator
    from davinci.engine.game import GameSource, resolve_variant

    data = ctx.doc.data
    uses_decks = any(isinstance(c, dict) and c.get("from_deck") for c in (data.get("components") or {}).values())
    if ctx.kind == "game":
        decks = _decks_for(ctx) if uses_decks else {}
        return build_game(data, Locator([ctx.doc]), decks=decks)
    base_id = str(data.get("extends", "")).split("/")[0]
    base = ctx.project.games().get(base_id)
    if base is None:
        hint = did_you_mean(base_id, ctx.project.games())
        unread = _unreadable_games(ctx)
        if unread and not hint:
            hint = f" (this pack's {', '.join(unread)} could not be read: fix that first)"
        raise DavinciError(f"variant extends unknown game '{base_id}'{hint}", ctx.at(["extends"]), code="DV020")
    if id(base) in ctx.project.failed_schema:
        # The game's file has schema problems of its own (reported there): building on it would
        # only trip over them again.
        raise DavinciError(f"the game '{base_id}' this variant extends has problems in "
                           f"{Path(base.path).name}: fix those first", ctx.at(["extends"]), code="DV020")
    # Only this game's variants: `extends: GAME/OTHER` names a variant of GAME, as when playing.
    variants = {
        str(v.data.get("id")): v
        for v in ctx.project.variants().values()
        if isinstance(v.data, dict) and str(v.data.get("extends", "")).split("/")[0] == base_id
    }
    variants[str(data.get("id"))] = ctx.doc
    src = GameSource(base_id, base, variants, ())
    merged, chain = resolve_variant(src, str(data.get("id")))
    comps = merged.get("components") or {}
    decks = _decks_for(ctx) if any(isinstance(c, dict) and c.get("from_deck") for c in comps.values()) else {}
    return build_game(merged, Locator([*chain, base]), decks=decks, variant=str(data.get("id")))


def _as_problem(err: DavinciError, fallback: SourceLocation) -> Problem:
    r = get_rule(err.code)
    return Problem(err.location or fallback, err.code, err.message, r.name if r else "", r.severity if r else "error")


@rule("DV055", "game-builds", kinds=("game", "variant"))
def game_builds(ctx: LintContext) -> Iterator[Problem]:
    """The game (or the game with this variant applied) builds: every setting, component, zone,
    board, flow step and expression is checked, and a few seeded random games are played to the
    end. Problems carry their own codes (DV040-DV054). This code reports a random test game that
    does not end within 20,000 actions (with a huge `end.max_turns`, say), or whose flow or
    expressions do far too much work (errors). It warns (severity warning, under this code) when
    no test game ended by `end.when` and all stopped at the default limit (1,000 turns when
    `end.max_turns` is not given), and when no seat decided anything in the test games (a flow
    with no `choose` or `respond`: the game plays itself). A declared `end.max_turns` is taken
    as meant: test games that stop there are not reported, even all of them (`davinci simulate`
    counts them as `turn-limit` games). A problem met in a test game says which (its seats and
    seed).

    Failing:
    ```yaml
    end:
      when: "false"
      winners: "seats"
      max_turns: 100000
    ```
    Passing (a game whose flow eliminates seats, so that one is left):
    ```yaml
    end:
      when: "count(seats where active) <= 1"
      winners: "seats where active"
      max_turns: 500
    ```
    """
    if not isinstance(ctx.doc.data, dict):
        return
    try:
        gdef = _build(ctx)
    except DavinciError as e:
        ctx.project.stopped_early.add(ctx.doc.path)  # no test games, no unread-local checks until it builds
        own = _base_problems(ctx) if ctx.kind == "variant" else set()
        for err in getattr(e, "problems", [e]):  # every wrong expression of the file, not only the first
            problem = _as_problem(err, ctx.at([]))
            yield _with_variant(ctx, problem) if problem not in own else problem
        return
    base_playouts: set[Problem] | None = None
    for problem in _playouts(ctx, gdef):
        if ctx.kind == "variant" and problem.location.path != ctx.doc.path:
            if base_playouts is None:
                base_playouts = _base_problems(ctx, playouts=True)
            if problem not in base_playouts:
                problem = _with_variant(ctx, problem)
        yield problem


def _with_variant(ctx: LintContext, problem: Problem) -> Problem:
    """A problem a variant causes in its game's file (a definition or a setting it changed, which
    a check of the game then fails): said to be the variant's doing."""
    if ctx.kind != "variant" or problem.location.path == ctx.doc.path:
        return problem
    first, _, rest = problem.message.partition("\n")
    said = f"{first} (with the variant {Path(ctx.doc.path).name} applied)"
    return dataclasses.replace(problem, message=f"{said}\n{rest}" if rest else said)


@rule("DV058", "unread-local", severity="warning", kinds=("game", "variant"))
def unread_local(ctx: LintContext) -> Iterator[Problem]:
    """A `set` step makes a new local name that no expression of the game reads. A misspelt
    variable (`bestseat` for `best_seat`) is such a local: the real variable silently keeps its
    old value.

    Failing:

    ```yaml
    vars:
      best_seat: 0
    flow:
      turn:
        - set: {bestseat: current.index}
    ```

    Passing:

    ```yaml
    vars:
      best_seat: 0
    flow:
      turn:
        - set: {best_seat: current.index}
    ```
    """
    unread = _in_this_file(ctx, "unread_locals")
    declared: list[str] = []
    if unread:
        gdef = _build(ctx)
        declared = [*gdef.global_vars, *gdef.seat_vars, *gdef.turn_vars]
    for name, at in unread:
        near = did_you_mean(name, declared, aside=False)
        yield Problem(at, "DV058", f"'{name}' is set here but never read: a misspelt variable{near or '?'} (variables "
                      "are declared under vars, seat_vars or turn_vars)", "unread-local", "warning")


@rule("DV064", "procedure-own-local", severity="warning", kinds=("game", "variant"))
def procedure_own_local(ctx: LintContext) -> Iterator[Problem]:
    """A procedure `set`s a local under a name its caller also uses. A procedure's locals are its
    own: when it returns, the caller's name holds the caller's value again, so the caller does not
    see what the procedure set. Pass a value back through a `turn_vars` variable.

    Failing:

    ```yaml
    flow:
      turn:
        - set: {moved: false}
        - call: move
        - if: moved
          then: [{log: "moved"}]
      procedures:
        move:
          - set: {moved: true}
    ```

    Passing:

    ```yaml
    turn_vars:
      moved: false
    flow:
      turn:
        - set: {moved: false}
        - call: move
        - if: moved
          then: [{log: "moved"}]
      procedures:
        move:
          - set: {moved: true}
    ```
    """
    for name, proc, at in _in_this_file(ctx, "own_sets"):
        yield Problem(at, "DV064", f"'{name}' set in procedure '{proc}' is the procedure's own: the caller's "
                      f"'{name}' keeps its value through the call; declare '{name}' under turn_vars to pass "
                      "the value back", "procedure-own-local", "warning")


@rule("DV062", "unused-definition", severity="warning", kinds=("game", "variant"))
def unused_definition(ctx: LintContext) -> Iterator[Problem]:
    """A name or function under `define` that no expression of the game uses: a misspelt use
    elsewhere reads something else, or the definition is left over.

    Failing:

    ```yaml
    define:
      alive: "seats where active"
    end:
      when: "count(seats where active) <= 1"
      winners: "seats where active"
    ```

    Passing:

    ```yaml
    define:
      alive: "seats where active"
    end:
      when: "len(alive) <= 1"
      winners: "alive"
    ```
    """
    for name, at in _in_this_file(ctx, "unused_definitions"):
        yield Problem(at, "DV062", f"'{name}' is defined but no expression of the game uses it",
                      "unused-definition", "warning")


@rule("DV063", "implicit-visibility", severity="warning", kinds=("game", "variant"))
def implicit_visibility(ctx: LintContext) -> Iterator[Problem]:
    """A bag, deck, hand or row with no `visibility`: zones are public unless they say otherwise, so
    every seat would see every piece in it (a deck's whole order). Say which you mean. (In a
    variant, only the zones it adds, with their `kind`, are checked.)

    Failing:

    ```yaml
    zones:
      deck: {kind: deck, contents: [card]}
      hand: {kind: hand, per_seat: true}
    ```

    Passing:

    ```yaml
    zones:
      deck: {kind: deck, visibility: hidden, contents: [card]}
      hand: {kind: hand, per_seat: true, visibility: owner}
    ```
    """
    zones = ctx.doc.data.get("zones") if isinstance(ctx.doc.data, dict) else None
    if not isinstance(zones, dict):
        return
    for name, spec in zones.items():
        if isinstance(spec, dict) and spec.get("kind") in ("bag", "deck", "hand", "row") and "visibility" not in spec:
            choices = ("owner (its owner alone), hidden or public" if spec.get("per_seat")
                       else "hidden (face down), owner or public")
            yield Problem(ctx.at(["zones", name], key=True), "DV063",
                          f"'{name}' ({spec['kind']}) has no visibility, so it is public: every seat sees its pieces; "
                          f"write visibility: {choices}", "implicit-visibility", "warning")


@rule("DV059", "private-told", severity="warning", kinds=("game", "variant"))
def private_told(ctx: LintContext) -> Iterator[Problem]:
    """A public `log` line inside a `private: true` option names one of the option's arguments,
    or a name the option `set` from one, or the option sets a variable every seat sees from one:
    every seat reads what the choice was meant to keep sealed. So does a variable every seat
    sees `set` from dice rolled with `to:` (for one seat alone), or from a private seat variable
    (`set: {secret: "first(seats where index == 1).code"}` with `secret` under `vars`); and a
    private seat variable set from an argument of an option that is not `private: true` keeps
    nothing secret (the action, with its arguments, is in the log). A public log line or a
    `choose` prompt that fills in a piece drawn or moved with `face_up: false` (and not revealed
    since) shows its fields to every seat.

    Failing:

    ```yaml
    - choose:
        options:
          - action: bid
            private: true
            args: {n: "range(0, 6)"}
            do:
              - log: "{current.name} bids {n}"
    ```

    Passing:

    ```yaml
    - choose:
        options:
          - action: bid
            private: true
            args: {n: "range(0, 6)"}
            do:
              - log: {text: "You bid {n}", to: current}
              - set: {seat: current, bid: n}
    ```
    """
    data = ctx.doc.data
    if not isinstance(data, dict):
        return
    private = set(data.get("private_seat_vars") or ())
    public_seat = {str(k) for k in (data.get("seat_vars") or {}) if k not in private}
    public_game = {str(k) for section in ("vars", "turn_vars") for k in (data.get(section) or {})}
    yield from _secret_rolls_told(data, public_seat, public_game, ctx)
    yield from _public_choice_kept_private(data, private, ctx)
    components: dict[str, Any] = data["components"] if isinstance(data.get("components"), dict) else {}
    public = [set(c.get("public") or ()) for c in components.values() if isinstance(c, dict)]
    everywhere = frozenset(set.intersection(*public)) if public else frozenset()  # public in every component
    for name, at in _face_down_told(data.get("flow"), ["flow"], frozenset(), everywhere):
        yield Problem(ctx.at(at), "DV059", f"this line names '{name}', a piece drawn or moved face down "
                      f"(`face_up: false`): its fields are shown to every seat that reads it (reveal '{name}' first, "
                      "or log it `to:` the seat that may see it)", "private-told", "warning")
    if private:
        # A private seat variable copied into one every seat sees (a breaker's view showed the
        # maker's code through `set: {secret: "first(seats where index == 1).code"}`).
        sealed = re.compile(r"\b(" + "|".join(re.escape(str(n)) for n in sorted(private)) + r")\b")
        for k, at, name in _private_copied(data.get("flow"), ["flow"], sealed, public_seat, public_game, frozenset()):
            fix = (f"use a local, or list '{k}' under private_seat_vars" if k in public_seat
                   else "use a local, or set it once a public log line has shown the value")
            yield Problem(ctx.at(at), "DV059", f"'{k}' is a variable every seat sees: setting it from '{name}', a "
                          f"private seat variable, shows it to all ({fix})", "private-told", "warning")
    for option, opath in _private_options(data.get("flow"), ["flow"]):
        args = [str(n) for n in (option.get("args") or {})]
        if not args:
            continue
        # A name `set` from an argument carries it too (`set: {pick: n}`, then "{pick}").
        held = {n: n for n in args}
        sets = [m["set"] for m, _ in _mappings(option.get("do"), []) if isinstance(m.get("set"), dict)]
        grew = True
        while grew:
            grew = False
            uses = re.compile(r"\b(" + "|".join(re.escape(n) for n in held) + r")\b")
            for assigned in sets:
                for k, v in assigned.items():
                    m = uses.search(_no_texts(v)) if isinstance(v, str) and k != "seat" else None
                    if m and str(k) not in held:
                        held[str(k)] = held[m.group(1)]
                        grew = True
        # (`uses` of the last round, in which nothing grew, reads every name in `held`.)
        for k, at, name in _public_sets_reading(option.get("do"), [*opath, "do"], uses, public_seat, public_game):
            yield Problem(ctx.at(at), "DV059", f"'{k}' is a variable every seat sees: setting it from '{held[name]}', "
                          "an argument of a private option, tells them the choice (make it private, or set it "
                          "when all have chosen)", "private-told", "warning")
        told = re.compile(r"\{[^{}]*\b(" + "|".join(re.escape(n) for n in held) + r")\b[^{}]*\}")
        for text, tpath in _public_logs(option.get("do"), [*opath, "do"]):
            m = told.search(text)
            if m:
                name = m.group(1)
                what = (f"'{name}', an argument" if held[name] == name
                        else f"'{name}', set from '{held[name]}', an argument")
                yield Problem(ctx.at(tpath), "DV059", f"this log line is public and names {what} "
                              "of a private option: every seat reads it (add `to:`, or log it when all have chosen)",
                              "private-told", "warning")


def _secret_rolls_told(data: dict[str, Any], public_seat: set[str], public_game: set[str],
                       ctx: LintContext) -> Iterator[Problem]:
    """A `roll` with `to:` (dice one seat alone reads) whose result is `set` into a variable
    every seat sees: the dice are no secret. (A name some public roll binds too is left alone.)"""
    secret: set[str] = set()
    public: set[str] = set()
    for m, _ in _mappings(data.get("flow"), ["flow"]):
        spec = m.get("roll")
        if isinstance(spec, dict):
            (secret if spec.get("to") is not None else public).add(str(spec.get("as", "roll")))
    secret -= public
    if not secret:
        return
    uses = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(secret)) + r")\b")
    for k, at, name in _public_sets_reading(data.get("flow"), ["flow"], uses, public_seat, public_game):
        yield Problem(ctx.at(at), "DV059", f"'{k}' is a variable every seat sees: setting it from '{name}', dice rolled "
                      f"with `to:` for one seat alone, shows them to all (list '{k}' under private_seat_vars)",
                      "private-told", "warning")


def _public_sets_reading(steps: Any, path: list[Any], uses: re.Pattern[str], public_seat: set[str],
                         public_game: set[str]) -> Iterator[tuple[str, list[Any], str]]:
    """(variable, its path, the name read) for each `set` under `steps` of a variable every seat
    sees (a seat variable with `seat:`, a game variable without) from a value that reads a name
    `uses` matches."""
    for assigned, spath in _mappings(steps, path):
        values = assigned.get("set")
        if not isinstance(values, dict):
            continue
        shown_vars = public_seat if "seat" in values else public_game
        for k, v in values.items():
            found = uses.search(_no_texts(v)) if isinstance(v, str) and k in shown_vars else None
            if found:
                yield str(k), [*spath, "set", k], found.group(1)


def _private_copied(node: Any, path: list[Any], held: re.Pattern[str], public_seat: set[str], public_game: set[str],
                    revealed: frozenset[str]) -> Iterator[tuple[str, list[Any], str]]:
    """(variable, its path, the private variable read) for each `set` of a variable every seat
    sees from a private seat variable that no public log of the same block (or one around it)
    has shown before: after "The bids: ..." every seat knows them, and may keep the top one."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _private_copied(v, [*path, k], held, public_seat, public_game, revealed)
        return
    if not isinstance(node, list):
        return
    shown = set(revealed)
    for i, step in enumerate(node):
        if not isinstance(step, dict):
            continue
        log = step.get("log")
        text = log if isinstance(log, str) else log.get("text") if isinstance(log, dict) and "to" not in log else None
        if isinstance(text, str):  # (a name inside a `{...}` that the line fills in, not a word of its prose)
            shown.update(m.group(1) for part in _filled(text) for m in held.finditer(part))
        values = step.get("set")
        if isinstance(values, dict):
            shown_vars = public_seat if "seat" in values else public_game
            for k, v in values.items():
                found = held.search(_no_texts(v)) if isinstance(v, str) and k in shown_vars else None
                if found and found.group(1) not in shown:
                    yield str(k), [*path, i, "set", k], found.group(1)
        for k, v in step.items():
            if k not in ("log", "set"):
                yield from _private_copied(v, [*path, i, k], held, public_seat, public_game, frozenset(shown))
        # A value shown inside the step (one seat a line, in a loop over the seats) stays shown after it.
        for text, _at in _public_logs({k: v for k, v in step.items() if k != "log"}, []):
            shown.update(m.group(1) for part in _filled(text) for m in held.finditer(part))


def _face_down_told(node: Any, path: list[Any], hidden: frozenset[str],
                    public_fields: frozenset[str] = frozenset()) -> Iterator[tuple[str, list[Any]]]:
    """(name, path) for each public log line or `choose` prompt that fills in a name bound to a
    piece drawn or moved face down earlier in its block (or a block around it), with no `reveal`
    of it between: the dealer's hole card, `face_up: false`, was printed in "The hole card is a 10"."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _face_down_told(v, [*path, k], hidden, public_fields)
        return
    if not isinstance(node, list):
        return
    down = set(hidden)
    for i, step in enumerate(node):
        if not isinstance(step, dict):
            continue
        for kind in ("draw", "move"):
            spec = step.get(kind)
            if not isinstance(spec, dict):
                continue
            # The name the step binds (`as:`), or the piece a move names (`move: {piece: hole}`).
            name = spec.get("as") if kind == "draw" else spec.get("piece")
            if isinstance(name, str) and re.fullmatch(r"[a-z_][a-z0-9_]*", name.strip()):
                if spec.get("face_up") is False:
                    down.add(name.strip())
                elif spec.get("face_up") is True or kind == "draw":
                    down.discard(name.strip())
        for kind, hides in (("reveal", False), ("hide", True)):
            what = step.get(kind)
            if isinstance(what, str) and re.fullmatch(r"\s*[a-z_][a-z0-9_]*\s*", what):
                (down.add if hides else down.discard)(what.strip())
        texts: list[tuple[str, list[Any]]] = []
        log = step.get("log")
        if isinstance(log, str):
            texts.append((log, [*path, i, "log"]))
        elif isinstance(log, dict) and "to" not in log and isinstance(log.get("text"), str):
            texts.append((log["text"], [*path, i, "log", "text"]))
        choose = step.get("choose")
        if isinstance(choose, dict) and isinstance(choose.get("prompt"), str):
            texts.append((choose["prompt"], [*path, i, "choose", "prompt"]))
        for text, at in texts:
            for name in sorted(down):
                # A field read (`hole.rank`) shows the piece; the name alone prints its place, and a
                # public field (`hole.suit` with `public: [suit]`) was never hidden.
                fields = {f for part in _filled(text)
                          for f in re.findall(rf"\b{re.escape(name)}\.([a-z_][a-z0-9_]*)", part)}
                if fields - public_fields:
                    yield name, at
                    down.discard(name)  # (said once)
        loop = step.get("for_each")
        bound = loop.get("as") if isinstance(loop, dict) and isinstance(loop.get("as"), str) else None
        inner = frozenset(down - {bound})  # (a loop's own name is another piece)
        for k, v in step.items():
            if k not in ("log",):
                yield from _face_down_told(v, [*path, i, k], inner, public_fields)


def _filled(text: str) -> list[str]:
    """The `{...}` expressions a log line or prompt fills in, their own text literals emptied."""
    return [_no_texts(part) for part in re.findall(r"\{[^{}]*\}", text)]


def _strings(node: Any) -> Iterator[str]:
    """Every text value under `node` (a step's expressions and texts)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _no_texts(expr: str) -> str:
    """An expression with its text literals emptied: `len('n')` does not read a name `n`."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", expr)


def _mappings(node: Any, path: list[Any]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Every mapping under `node` (itself included), with its path."""
    if isinstance(node, dict):
        yield node, path
        for k, v in node.items():
            yield from _mappings(v, [*path, k])
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _mappings(v, [*path, i])


def _private_options(node: Any, path: list[Any], private: bool = True) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Every `private: true` option (`private=False`: every other one) of every `choose` under
    `node`, with its path."""
    for m, mpath in _mappings(node, path):
        choose = m.get("choose")
        if isinstance(choose, dict) and isinstance(choose.get("options"), list):
            for i, o in enumerate(choose["options"]):
                if isinstance(o, dict) and (o.get("private") is True) == private:
                    yield o, [*mpath, "choose", "options", i]


def _public_choice_kept_private(data: dict[str, Any], private: set[str], ctx: LintContext) -> Iterator[Problem]:
    """A private seat variable `set` from an argument of an option that is not `private: true`:
    the action, arguments and all, is in the log every seat reads, so the variable keeps nothing
    secret (a code set with `secret red green blue yellow` was read by the code breaker)."""
    if not private:
        return
    for option, opath in _private_options(data.get("flow"), ["flow"], private=False):
        args = [str(n) for n in (option.get("args") or {})]
        if not args:
            continue
        uses = re.compile(r"\b(" + "|".join(re.escape(n) for n in args) + r")\b")
        for m, mpath in _mappings(option.get("do"), [*opath, "do"]):
            assigned = m.get("set")
            if not isinstance(assigned, dict):
                continue
            for k, v in assigned.items():
                found = uses.search(_no_texts(v)) if isinstance(v, str) and str(k) in private else None
                if found:
                    yield Problem(ctx.at([*mpath, "set", k], key=True), "DV059",
                                  f"'{k}' is a private seat variable, set from '{found.group(1)}', an argument of an "
                                  f"option that is not private: the action '{option.get('action')} ...' is in the log "
                                  "every seat reads (add private: true to the option)", "private-told", "warning")


def _public_logs(node: Any, path: list[Any]) -> Iterator[tuple[str, list[Any]]]:
    """The text of every `log` step without `to:` under `node`, with its path."""
    for m, mpath in _mappings(node, path):
        log = m.get("log")
        if isinstance(log, str):
            yield log, [*mpath, "log"]
        elif isinstance(log, dict) and "to" not in log and isinstance(log.get("text"), str):
            yield log["text"], [*mpath, "log", "text"]


@rule("DV065", "unreachable-step", severity="warning", kinds=("game", "variant"))
def unreachable_step(ctx: LintContext) -> Iterator[Problem]:
    """A step that can never run: it follows, in the same block, a step that always leaves it
    (`end_turn`, `end_game`, `break`, `return`, an `if` whose branches both leave, a `while: true`
    with no `break` of its own), or it sits in the branch of an `if` whose condition is written
    `true` or `false`. Such a step is usually a mistake (a counter never counted), or a step that
    belongs before the one that leaves.

    Failing:

    ```yaml
    flow:
      turn:
        - choose:
            options:
              - action: miss
                do:
                  - end_turn: true
                  - set: {seat: current, misses: current.misses + 1}
    ```

    Passing:

    ```yaml
    flow:
      turn:
        - choose:
            options:
              - action: miss
                do:
                  - set: {seat: current, misses: current.misses + 1}
                  - end_turn: true
    ```
    """
    data = ctx.doc.data
    if not isinstance(data, dict) or not isinstance(data.get("flow"), dict):
        return
    memo: dict[int, str] = {}  # each step judged once: nested ifs would cost 2**depth otherwise
    for block, bpath in _step_blocks(data["flow"], ["flow"]):
        for i, st in enumerate(block):
            why = _leaves(st, memo)
            if why and i + 1 < len(block):
                line = ctx.at([*bpath, i]).line
                yield Problem(ctx.at([*bpath, i + 1]), "DV065", f"this step never runs: the step before it (line {line}) "
                              f"{why}; move it before that step, or remove it", "unreachable-step", "warning")
                break
        for i, st in enumerate(block):
            cond = _constant(st.get("if")) if isinstance(st, dict) and "if" in st else None
            if cond is None:
                continue
            dead = "else" if cond else "then"
            if st.get(dead):
                yield Problem(ctx.at([*bpath, i, dead]), "DV065", f"these steps never run: the condition is always "
                              f"{'true' if cond else 'false'} (written '{st['if']}')", "unreachable-step", "warning")


_STEP_LISTS = ("setup", "turn", "turn_end", "then", "else", "do")


def _step_blocks(node: Any, path: list[Any]) -> Iterator[tuple[list[Any], list[Any]]]:
    """Every list of steps under a game's `flow` (its sections, procedures, branches, loop bodies
    and options' `do`), with its path."""
    for m, mpath in _mappings(node, path):
        for key, value in m.items():
            listed = key in _STEP_LISTS or (mpath == [*path, "procedures"])
            if listed and isinstance(value, list):
                yield value, [*mpath, key]


def _leaves(st: Any, memo: dict[int, str]) -> str:
    """How the step always leaves its block ('' when it may not); `memo` keeps each step's answer
    (the data is not changed while lint runs, so a step's id stands for it)."""
    if not isinstance(st, dict) or not st:
        return ""
    if id(st) not in memo:
        memo[id(st)] = _leaves_now(st, memo)
    return memo[id(st)]


def _leaves_now(st: dict[str, Any], memo: dict[int, str]) -> str:
    kind = next(iter(st))
    if kind in LEAVING_STEPS and st[kind] is True:
        return "always " + LEAVING_STEPS[kind]
    if kind == "if":
        then, other = st.get("then"), st.get("else")
        if isinstance(then, list) and isinstance(other, list) and then and other and _block_leaves(then, memo) \
                and _block_leaves(other, memo):
            return "leaves in both of its branches"
        cond = _constant(st["if"])
        taken = then if cond is True else other if cond is False else None
        if isinstance(taken, list) and taken and _block_leaves(taken, memo):
            return "always takes a branch that leaves"
    if kind == "while" and _constant(st["while"]) is True and isinstance(st.get("do"), list) and not _breaks(st["do"]):
        return ("is a 'while: true' loop with no 'break': nothing after it runs (only end_turn, end_game or return "
                "leave such a loop)")
    return ""


def _block_leaves(block: list[Any], memo: dict[int, str]) -> bool:
    return any(_leaves(st, memo) for st in block)


def _breaks(block: Any) -> bool:
    """A `break` of this loop (not of a loop inside it) somewhere in its body."""
    if not isinstance(block, list):
        return False
    for st in block:
        if not isinstance(st, dict) or not st:
            continue
        kind = next(iter(st))
        if kind == "break":
            return True
        if kind == "if" and (_breaks(st.get("then")) or _breaks(st.get("else"))):
            return True
        if kind == "choose" and isinstance(st["choose"], dict):
            options = st["choose"].get("options")
            if isinstance(options, list) and any(isinstance(o, dict) and _breaks(o.get("do")) for o in options):
                return True
    return False


def _constant(cond: Any) -> bool | None:
    """A condition written as a constant (`true`, `"false"`), else None."""
    if isinstance(cond, bool):
        return cond
    if isinstance(cond, str) and cond.strip() in ("true", "false"):
        return cond.strip() == "true"
    return None


@rule("DV066", "seat-variable-of-current", severity="warning", kinds=("game", "variant"))
def seat_variable_of_current(ctx: LintContext) -> Iterator[Problem]:
    """Inside a `for_each` over seats, a `set` of a seat variable without `seat:`: it sets the
    variable of `current` (the seat whose turn it is; seat 1 during `setup`), not of the seat the
    loop is at, so one seat gets every value and the others keep their start value. (A value that
    reads `current` itself, a sum over the others kept by the current seat, is not reported.)
    Likewise a `roll` or `log` there with `to: current`: the current seat reads every seat's dice;
    a `draw` or `move` into a per-seat zone without `owner:` (and naming the loop's seat
    nowhere): every seat's deal lands in the current seat's hand; and a `choose` without `seat:`:
    the current seat makes every seat's decision (places every seat's ships). And an `end.score`
    or `tie_break` that reads `current` and no `seat` (`total(current)`): every seat is given the
    same score.

    Failing:

    ```yaml
    setup:
      - for_each:
          in: seats
          as: s
          do:
            - set: {chips: settings.chips}
    ```

    Passing:

    ```yaml
    setup:
      - for_each:
          in: seats
          as: s
          do:
            - set: {seat: s, chips: settings.chips}
    ```
    """
    data = ctx.doc.data
    if not isinstance(data, dict):
        return
    seat_vars = {str(k) for k in (data.get("seat_vars") or {})}  # (none: the `to: current` check still runs)
    zones: dict[str, Any] = data["zones"] if isinstance(data.get("zones"), dict) else {}
    defines: dict[Any, Any] = data["define"] if isinstance(data.get("define"), dict) else {}
    if ctx.kind == "variant":  # a variant's end is judged with its game's definitions too
        base_doc = ctx.project.games().get(str(data.get("extends", "")).split("/")[0])
        base = base_doc.data if base_doc is not None and isinstance(base_doc.data, dict) else {}
        if isinstance(base.get("define"), dict):
            defines = {**base["define"], **defines}

    def defined(text: str) -> str:  # the expression with the definitions it names written out (one level)
        values = [v.get("value") if isinstance(v, dict) else v for k, v in defines.items()
                  if re.search(rf"\b{re.escape(str(k))}\b", text)]
        return " ".join([text, *(str(v) for v in values if v is not None)])

    def over_seats(source: Any) -> bool:  # `seats`, `seats where active`, or a definition of them (`alive`)
        text = str(source or "").strip()
        spec = defines.get(text)
        if isinstance(spec, dict):
            spec = spec.get("value")
        return bool(re.match(r"\(*\s*seats\b", _no_texts(text if spec is None else str(spec)).strip()))

    end: dict[str, Any] = data["end"] if isinstance(data.get("end"), dict) else {}
    for key in ("score", "tie_break"):  # scored over `current` (or nothing): every seat gets one score
        expr = end.get(key)
        if isinstance(expr, str) and not re.search(r"\bseat\b", _no_texts(defined(expr))) \
                and re.search(r"\bcurrent\b", _no_texts(defined(expr))):
            yield Problem(ctx.at(["end", key]), "DV066",
                          f"end.{key} reads no `seat`, the seat it scores (`current` is the seat whose turn it was, "
                          "the same for every seat): every seat gets the same value; write it over seat "
                          "(seat.points, total(seat))", "seat-variable-of-current", "warning")
    if not isinstance(data.get("flow"), dict):
        return
    found: dict[tuple[Any, ...], Problem] = {}  # one report per `set`, for the innermost loop over seats
    for m, mpath in _mappings(data["flow"], ["flow"]):
        loop = m.get("for_each")
        if not isinstance(loop, dict) or not isinstance(loop.get("as"), str) or not over_seats(loop.get("in")):
            continue
        name = loop["as"]
        for st, spath in _mappings(loop.get("do"), [*mpath, "for_each", "do"]):
            for kind in ("roll", "log"):  # dice or a line for one seat, told to current instead of the loop's
                spec = st.get(kind)
                if isinstance(spec, dict) and str(spec.get("to", "")).strip() == "current":
                    found[tuple([*spath, kind])] = Problem(
                        ctx.at([*spath, kind, "to"]), "DV066",
                        f"this {'roll' if kind == 'roll' else 'log line'} is told to current (the seat whose turn it "
                        f"is), not to '{name}' the loop is at: write to: {name}",
                        "seat-variable-of-current", "warning")
            choose = st.get("choose")
            # (a choice that reads `current`, "give s how many of your coins?", is the current seat's)
            for_current = isinstance(choose, dict) and any(re.search(r"\bcurrent\b", _no_texts(text))
                                                           for text in _strings(choose))
            if isinstance(choose, dict) and "seat" not in choose and not for_current:  # every seat's decision put to current
                found[tuple([*spath, "choose"])] = Problem(
                    ctx.at([*spath, "choose"], key=True), "DV066",
                    f"this choose is put to current (a `choose` without `seat:` is the current seat's), not to "
                    f"'{name}' the loop is at: add seat: {name} when each seat decides for itself",
                    "seat-variable-of-current", "warning")
            for kind in ("draw", "move"):  # dealing in a loop over seats, without saying to whom
                spec = st.get(kind)
                if not isinstance(spec, dict) or "owner" in spec or "to_owner" in spec:
                    continue
                zone = zones.get(str(spec.get("to", "")))
                mentions = any(re.search(rf"\b{re.escape(name)}\b", _no_texts(str(v))) for v in spec.values())
                if isinstance(zone, dict) and zone.get("per_seat") and not mentions:
                    found[tuple([*spath, kind])] = Problem(
                        ctx.at([*spath, kind, "to"]), "DV066",
                        f"this {kind} puts the pieces in current's {spec['to']} (a per-seat zone without `owner:` is "
                        f"the current seat's), not in the {spec['to']} of '{name}' the loop is at: add owner: {name}",
                        "seat-variable-of-current", "warning")
            assigned = st.get("set")
            if not isinstance(assigned, dict) or "seat" in assigned:
                continue
            for key, value in assigned.items():
                if str(key) in seat_vars and not re.search(r"\bcurrent\b", _no_texts(str(value))):
                    found[tuple([*spath, key])] = Problem(
                        ctx.at([*spath, "set", key], key=True), "DV066",
                        f"this sets the seat variable '{key}' of current (a `set` without `seat:` is the current "
                        f"seat's), not of '{name}' the loop is at: write set: {{seat: {name}, {key}: ...}}",
                        "seat-variable-of-current", "warning")
    yield from found.values()


@rule("DV067", "display-hints", severity="warning", kinds=("game", "variant"))
def display_hints(ctx: LintContext) -> Iterator[Problem]:
    """A game's own terminal screen (`games/GAME/screen.py`) may judge the `display` hints it
    reads (a colour it does not know, a style holding a terminal link, a letter of several
    characters); the screen leaves each such value out and draws with its own. A variant's
    `display` is judged by the screen of the game it extends. The generic screen reads `hide`
    only (DV050 checks it).

    Failing:

    ```yaml
    display:
      categories:
        gold: {letter: GX, colour: "link https://example.com"}
    ```

    Passing:

    ```yaml
    display:
      categories:
        gold: {letter: G, colour: dark_orange}
    ```
    """
    data = ctx.doc.data
    if not isinstance(data, dict) or not isinstance(data.get("display"), dict):
        return
    game_id = str(data.get("id", "")) if ctx.kind == "game" else str(data.get("extends", "")).split("/")[0]
    from davinci.engine.game import screen_module

    check = getattr(screen_module(game_id), "check_display", None) if game_id else None
    if not callable(check):
        return
    for path, message in check(data["display"]):
        yield Problem(ctx.at(["display", *path]), "DV067", message, "display-hints", "warning")


@rule("DV057", "game-bots", kinds=("game", "variant"))
def game_bots(ctx: LintContext) -> Iterator[Problem]:
    """Every bot a game or variant offers (`bots:`) is installed and plays this game (a variant's
    game is the one it extends). Only `random` plays any game; the others name the games they were
    written for (`davinci list` shows them).

    Each bot is also started with the game's settings, as `play` and `simulate` start it, so a
    setting a bot reads (a profile of its playing strength, say) that it cannot use is reported here.

    Why: `davinci play` offers these bots and `davinci list` shows them; a misspelt or foreign
    bot fails only when somebody picks it.

    Failing:

    ```yaml
    id: my-game
    bots: [random, randon]      # no bot of that name
    ```

    Passing:

    ```yaml
    id: my-game
    bots: [random]
    ```
    """
    from davinci.engine.bots import make_bot

    data = ctx.doc.data
    if not isinstance(data, dict):
        return
    listed = data.get("bots")
    try:  # the settings the bots will get: a variant's profile of their strength, say
        gdef = _build(ctx)
    except DavinciError:
        gdef = None
    settings = dict(gdef.settings) if gdef is not None else {}
    inherited = not isinstance(listed, list)
    if isinstance(listed, list):
        bots: list[Any] = listed
    elif ctx.kind == "variant" and gdef is not None and "settings" in data:
        bots = list(gdef.bots)  # a variant changing settings: its game's bots must still start
    else:
        return
    game_id = str(data.get("id", "")) if ctx.kind == "game" else str(data.get("extends", "")).split("/")[0]
    refused: dict[str, list[str]] = {}  # a setting's problem -> the bots that refuse it
    for i, name in enumerate(bots):
        try:
            make_bot(str(name), 0, game_id, settings)
        except DavinciError as e:
            if e.code == "DV081":
                refused.setdefault(e.message, []).append(str(name))
            elif not inherited:  # a bot the game itself lists wrongly is reported at the game
                yield Problem(ctx.at(["bots", i]), "DV057", e.message, "game-bots", "error")
    for message, names in refused.items():
        named = re.match(r"setting '([^']+)'", message)  # at the setting the message names, if written here
        changed: Any = data.get("settings") if isinstance(data.get("settings"), dict) else {}
        path: list[str | int] = ["settings", named.group(1)] if named and named.group(1) in changed else ["settings"]
        where = ctx.at(path) if "settings" in data else ctx.at(["bots"])
        yield Problem(where, "DV057", f"{message} (bots {', '.join(names)} cannot start with it)", "game-bots", "error")


def _seats(n: int) -> str:
    return f"{n} seat{'' if n == 1 else 's'}"


def _in_test_game(problem: Problem, where: str) -> Problem:
    """A problem a test game met, saying which (a failure with 6 seats alone named no count)."""
    if where in problem.message:
        return problem
    first, nl, rest = problem.message.partition("\n")
    return dataclasses.replace(problem, message=f"{first} ({where}){nl}{rest}")


def _playouts(ctx: LintContext, gdef: Any) -> Iterator[Problem]:
    from davinci.engine.bots import RandomBot
    from davinci.engine.state import State

    # Every player count the game allows can start: its `requires` checks and its setup (the test
    # games below play only the smallest counts).
    for n in range(gdef.min_players, gdef.max_players + 1):
        try:
            State.new(gdef, [f"Seat {i + 1}" for i in range(n)], 0)
        except DavinciError as e:
            problem = _as_problem(e, ctx.at(["flow"]))
            # (a `requires` check already says "with N players")
            yield problem if f"(with {n} players)" in problem.message else _in_test_game(
                problem, f"starting a game of {_seats(n)}: its setup, up to the first decision")
            return
    limited = 0  # games stopped by the turn limit rather than by `end.when`
    decided = 0  # decisions the test games asked for
    at_once = 0  # test games `end.when` ended before anyone decided anything
    for seed in range(PLAYOUTS):
        n = gdef.min_players + seed % (gdef.max_players - gdef.min_players + 1)
        try:
            st = State.new(gdef, [f"Seat {i + 1}" for i in range(n)], seed)
            bot = RandomBot(seed)
            actions = 0
            work = budget.done()
            while not st.is_terminal() and actions < PLAYOUT_ACTIONS:
                seat = st.current_seats[0]
                st.apply(seat, bot.choose({}, st.legal_actions(seat)))
                actions += 1
                if budget.done() - work > PLAYOUT_WORK:
                    in_turn = st.action_count - st.turn_start  # decisions of the turn under way
                    why = (f"turn {st.turn} had taken {in_turn:,} of them without ending: a loop of decisions with no "
                           "way out (an option that ends the turn is never offered?)" if in_turn > actions // 2
                           else "its rules query long lists far too often")
                    yield Problem(
                        ctx.at(["flow"]),
                        "DV055",
                        f"a random game (seed {seed}, {_seats(n)}) did over {PLAYOUT_WORK:,} units of expression work "
                        f"(list elements visited) in {actions} actions: {why}",
                        "game-builds",
                        "error",
                    )
                    return
                if st.steps > PLAYOUT_STEPS:
                    yield Problem(
                        ctx.at(["flow"]),
                        "DV055",
                        f"a random game (seed {seed}, {_seats(n)}) ran {st.steps:,} flow steps in {actions} actions, "
                        f"over the {PLAYOUT_STEPS:,} a game may use: the flow loops far too much between decisions",
                        "game-builds",
                        "error",
                    )
                    return
            if not st.is_terminal():
                yield Problem(
                    ctx.at(["end"]),
                    "DV055",
                    f"a random game (seed {seed}, {_seats(n)}) did not end within {PLAYOUT_ACTIONS} actions",
                    "game-builds",
                    "error",
                )
                return
            st.result()  # the winners, scores and tie-breaks are expressions too
            limited += st.reason == "turn-limit"
            at_once += st.reason == "end" and actions == 0
            decided += actions
        except DavinciError as e:
            yield _in_test_game(_as_problem(e, ctx.at(["flow"])), f"in a random test game of {_seats(n)}, seed {seed}")
            return
    # A variant that leaves `end` alone inherits its game's ending, reported on the game.
    own_end = ctx.doc.data.get("kind") != "variant" or "end" in ctx.doc.data
    from davinci.engine.steps.decide import Choose, Respond

    asks = any(isinstance(i, (Choose, Respond)) for prog in gdef.programs.values() for i in prog.code)
    if decided == 0 and at_once == PLAYOUTS and asks:
        yield Problem(
            ctx.at(["end", "when"] if own_end else []),
            "DV055",
            f"no seat decided anything in {PLAYOUTS} random test games: `end.when` already held when the first "
            "decision came (it is checked at each decision and after each turn), so every game was over before "
            "it began",
            "game-builds",
            "warning",
        )
    elif decided == 0 and ctx.doc.data.get("kind") != "variant":
        yield Problem(
            ctx.at(["flow"]),
            "DV055",
            f"no seat decided anything in {PLAYOUTS} random test games: the flow never asks for a decision (a "
            "`choose` or `respond` step), so the game plays itself to its end",
            "game-builds",
            "warning",
        )
    if limited == PLAYOUTS and not gdef.end.max_turns_given and own_end:
        yield Problem(
            ctx.at(["end"]),
            "DV055",
            f"no random test game ended by `end.when`: all {PLAYOUTS} stopped at the limit of {gdef.end.max_turns:,} "
            "turns that applies when `end.max_turns` is not given (nobody wins there); check that the game can "
            "end, or declare `end.max_turns`",
            "game-builds",
            "warning",
        )


@rule("DV068", "component-in-no-zone", severity="warning", kinds=("game",))
def component_in_no_zone(ctx: LintContext) -> Iterator[Problem]:
    """A component that no zone lists under `contents`: its pieces are made but start nowhere a
    step can reach, so no `draw` or `move` ever finds them (a misspelt name, or a `contents:` left
    out, as with `box: {kind: pile}` for the seeds of a game).

    Failing:

    ```yaml
    components:
      seed: {fields: {n: int}, items: [{n: 1}, {n: 2}]}
    zones:
      box: {kind: pile, visibility: public}
    ```

    Passing:

    ```yaml
    components:
      seed: {fields: {n: int}, items: [{n: 1}, {n: 2}]}
    zones:
      box: {kind: pile, visibility: public, contents: [seed]}
    ```
    """
    data = ctx.doc.data if isinstance(ctx.doc.data, dict) else {}
    components, zones = data.get("components"), data.get("zones")
    if not isinstance(components, dict) or not isinstance(zones, dict):
        return
    held = {c for spec in zones.values() if isinstance(spec, dict) and isinstance(spec.get("contents"), list)
            for c in spec["contents"]}
    for name in components:
        if name not in held:
            yield Problem(ctx.at(["components", name], key=True), "DV068",
                          f"component '{name}' is in no zone's contents: its pieces start nowhere a step can reach "
                          f"(list it under a zone's contents: [{name}])", "component-in-no-zone", "warning")


_TRUTH_WORDS = {"yes": "true", "no": "false", "on": "true", "off": "false"}


@rule("DV069", "truth-as-word", severity="warning", kinds=("game", "variant"))
def truth_as_word(ctx: LintContext) -> Iterator[Problem]:
    """A variable's start value written `yes`, `no`, `on` or `off` (alone or in a list, at any depth): in davinci's
    YAML these are words, not truth values, so the variable holds text and every test of it
    (`not held[i]`) fails its check where it is used, far from the cause. (Log lines show truth
    values as yes/no; the rules write them `true` and `false`.)

    Failing:

    ```yaml
    turn_vars:
      held: [no, no, no, no, no]
    ```

    Passing:

    ```yaml
    turn_vars:
      held: [false, false, false, false, false]
    ```
    """
    data = ctx.doc.data if isinstance(ctx.doc.data, dict) else {}
    for section in ("vars", "seat_vars", "turn_vars"):
        values = data.get(section)
        if not isinstance(values, dict):
            continue
        for name, value in values.items():
            items = list(_strings(value))
            words = [v for v in items if v.lower() in _TRUTH_WORDS]
            if words and len(words) == len(items):  # ([yes, no, abstain] is a list of words)
                word = words[0]
                fix = (f"write {_TRUTH_WORDS[word.lower()]}" if not isinstance(value, list)
                       else "write the list with true and false (yes as true, no as false)")
                yield Problem(ctx.at([section, name]), "DV069",
                              f"'{word}' here is the word '{word}', not a truth value: '{name}' holds text; {fix} "
                              "(the rules write truth values true and false)", "truth-as-word", "warning")
