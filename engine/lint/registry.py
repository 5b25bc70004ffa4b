"""Lint rules as small registered units (stable code, kebab-case name, severity, docs).

A rule is a function decorated with `@rule(...)`; it receives a `LintContext` for one file
and yields `Problem`s. The rule's docstring is its user documentation (with passing and
failing examples); `davinci rule CODE` prints it and docs/lint-rules.md is generated from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from davinci.engine.errors import SourceLocation

if TYPE_CHECKING:  # pragma: no cover
    from davinci.engine.lint.context import LintContext

Severity = Literal["error", "warning"]
FileKind = Literal["pack", "game", "variant", "deck", "deck-overlay"]


@dataclass(frozen=True, order=True)
class Problem:
    """One finding: where, which rule, what."""

    location: SourceLocation
    code: str
    message: str
    name: str = ""
    severity: Severity = "error"

    def text(self) -> str:
        return f"{self.location}: {self.code} {self.message} [{self.name}]"


CheckFn = Callable[["LintContext"], Iterable[Problem]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    kinds: tuple[str, ...]
    check: CheckFn | None
    doc: str
    layer: str = "semantic"
    also: tuple[str, ...] = ()  # kinds of file whose loading reports the code without `check`

    @property
    def shown_kinds(self) -> tuple[str, ...]:
        """The kinds of file the code can be reported for, as the docs list them."""
        return (*self.kinds, *(k for k in self.also if k not in self.kinds))

    def problem(self, location: SourceLocation, message: str, severity: Severity | None = None) -> Problem:
        return Problem(location, self.code, message, self.name, severity or self.severity)


_RULES: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    severity: Severity = "error",
    kinds: Iterable[str] = (),
    layer: str = "semantic",
    also: Iterable[str] = (),
) -> Callable[[CheckFn], CheckFn]:
    """Register a lint rule; the decorated function's docstring is its documentation. `also`: the
    kinds of file for which loading reports the code, where `check` does not run."""

    def deco(fn: CheckFn) -> CheckFn:
        register(Rule(code, name, severity, tuple(kinds), fn, (fn.__doc__ or "").strip(), layer, tuple(also)))
        return fn

    return deco


def register(r: Rule) -> Rule:
    """Register a rule object (also used for codes reported by the loader/schema layers)."""
    existing = _RULES.get(r.code)
    if existing is not None and existing.name != r.name:
        raise RuntimeError(f"lint code {r.code} registered twice ({existing.name}, {r.name})")
    _RULES[r.code] = r
    return r


def all_rules() -> list[Rule]:
    """Every registered rule, sorted by code (importing the rule modules first)."""
    from davinci.engine.lint import load_rule_modules

    load_rule_modules()
    return sorted(_RULES.values(), key=lambda r: r.code)


def get_rule(code: str) -> Rule | None:
    from davinci.engine.lint import load_rule_modules

    load_rule_modules()
    return _RULES.get(code.upper())


def rules_for(kind: str) -> Iterator[Rule]:
    for r in all_rules():
        if r.check is not None and (not r.kinds or kind in r.kinds):
            yield r


def _unused(_: Any) -> None:  # keeps the Any import meaningful for type checkers
    return None
