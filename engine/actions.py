"""Actions: small immutable values with a text form that parses back.

An action is a verb plus a tuple of string arguments, e.g. `guess row.1.2 7` or
`answer 12.5 north star`. Text arguments that may contain spaces (free answers) are
the last argument and take the rest of the line.
"""

from __future__ import annotations

from dataclasses import dataclass

from davinci.engine.errors import BIDI_CONTROLS, CONTROL_CHARS, IllegalAction, printable


@dataclass(frozen=True, slots=True)
class Action:
    """One move: `verb` and its arguments, all strings."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        try:
            return " ".join((self.verb, *self.args)) if self.args else str(self.verb)
        except TypeError:  # a bot's Action("guess", ("row.1.1", 0)): shown, then refused as not text
            return " ".join(map(str, (self.verb, *self.args)))

    @property
    def text(self) -> str:
        return str(self)


def parse_action(text: str, rest_verbs: dict[str, int] | None = None) -> Action:
    """Parse an action's text form.

    `rest_verbs` maps verbs whose last argument is free text to the number of
    arguments before it (e.g. {"answer": 1}: `answer 12.5 the last supper`).
    """
    if not isinstance(text, str):
        raise IllegalAction("an action must be text")
    if len(text) > 1000:
        raise IllegalAction("action text is too long")
    bad = CONTROL_CHARS.search(text) or BIDI_CONTROLS.search(text)
    if bad is not None:  # logged, shown to every player and replayed: never a terminal escape
        ch = bad.group()
        what = ("a NUL byte" if ch == "\x00" else "bytes that are not UTF-8" if "\ud800" <= ch <= "\udfff"
                else f"the direction character {printable(ch)}" if BIDI_CONTROLS.match(ch)
                else f"the control character {printable(ch)}")
        raise IllegalAction(f"action text contains {what}")
    stripped = text.strip()
    if not stripped:
        raise IllegalAction("empty action")
    parts = stripped.split(None, 1)
    verb = parts[0].lower()
    rest = parts[1] if len(parts) > 1 else ""
    if rest_verbs and verb in rest_verbs:
        n = rest_verbs[verb]
        fixed = rest.split(None, n)
        if len(fixed) <= n:
            return Action(verb, tuple(fixed))
        return Action(verb, (*fixed[:n], " ".join(fixed[n].split())))
    return Action(verb, tuple(rest.split()))
