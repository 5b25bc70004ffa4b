"""Documentation of lint rules: `davinci rule CODE` and the generated docs/lint-rules.md.

Regenerate the committed page after adding or changing a rule:

    python -m davinci.engine.lint.docs > docs/lint-rules.md
"""

from __future__ import annotations

import difflib
import re
import sys
import textwrap

from davinci.engine.errors import DavinciError, UsageError
from davinci.engine.lint.registry import Rule, all_rules, get_rule

REGENERATE = "python -m davinci.engine.lint.docs > docs/lint-rules.md"

_LAYER_ORDER = {"yaml": 0, "schema": 1, "pack": 2, "reference": 3, "semantic": 4, "internal": 9}


def rule_doc(rule: Rule) -> str:
    """A rule's documentation as plain text: its docstring with the indent taken out."""
    # Rule docs come from docstrings, which are indented under their function.
    lines = rule.doc.splitlines()
    if not lines:
        return "(no documentation)"
    head, rest = lines[0].strip(), textwrap.dedent("\n".join(lines[1:]))
    return (head + ("\n" + rest if rest.strip() else "")).strip()


# Codes of problems that only playing, simulating or replaying meets (no file is linted for them).
OUTSIDE_LINT = {
    "DV060": "an action the rules refuse (play, the API's apply); the message says why and what is possible",
    "DV061": "a bot failed in play or simulate (it raised, returned no action, or chose a refused one); "
             "DAVINCI_DEBUG=1 shows its traceback (docs/api.md, Writing a bot)",
    "DV062": "a `simulate --jobs` worker process died (killed, or by the system's out-of-memory killer): its games "
             "are lost, and the run stops instead of waiting for them",
    "DV070": "a save or log that cannot be read back (damaged, edited, or for other content)",
    "DV071": "a replay that diverges from its log (replay --verify)",
    "DV080": "a usage error: a command-line option, an API argument, or an expr --context file",
    "DV081": "a setting or a number of players the game refuses (--setting, its `requires`)",
}


def rule_text(code: str) -> str:
    """The documentation of rule `code` for `davinci rule CODE`; UsageError (with a suggestion) if unknown."""
    rule = get_rule(code.strip())
    outside = OUTSIDE_LINT.get(code.strip().upper())
    if rule is None and outside is not None:
        raise UsageError(f"{code.strip().upper()} is not a lint rule: {outside}")
    if rule is None:
        codes = [r.code for r in all_rules()]
        names = {r.name: r.code for r in all_rules()}
        if code.strip().lower() in names:
            rule = get_rule(names[code.strip().lower()])
        else:
            wanted = code.strip().upper()
            number = re.fullmatch(r"DV0*(\d{1,3})", wanted)
            padded = f"DV{int(number.group(1)):03d}" if number is not None else ""
            if padded in codes:  # `DV1`, `DV44`: the code of that number, written with three digits
                close = [padded]
            else:
                close = difflib.get_close_matches(wanted, codes, n=1, cutoff=0.5)
                close += [names[n] for n in difflib.get_close_matches(code.strip().lower(), list(names), n=1)]
            hint = f" (did you mean {close[0]}?)" if close else ""
            _not_a_game(code.strip())
            raise UsageError(f"unknown lint rule '{code}'{hint}; `davinci rule` (without a code) lists them all")
    assert rule is not None
    kinds = ", ".join(rule.shown_kinds) if rule.kinds else "all files"
    header = f"{rule.code} {rule.name} ({rule.severity}; layer: {rule.layer}; applies to: {kinds})"
    return f"{header}\n\n{rule_doc(rule)}\n"


def _anchor(rule: Rule) -> str:
    return f"{rule.code.lower()}-{rule.name}"


def render_rules_markdown() -> str:
    """The full docs/lint-rules.md page: a table of every rule, then each rule's documentation."""
    rules = all_rules()
    out = [
        "# davinci lint rules",
        "",
        "<!-- Generated from the rules' docstrings; do not edit by hand. Regenerate with:",
        f"     {REGENERATE} -->",
        "",
        "`davinci lint` checks every file in layers: YAML (the strict loader), schema (by `kind`),",
        "pack and reference checks, then semantic rules for each kind of file. A file that fails a",
        "layer is not checked by the later ones (a game whose expressions fail is not played in test",
        "games): the output ends with a note naming such files, and fixing their errors may reveal",
        "more. Every problem has a stable code and a name; `davinci rule CODE` prints the entry below.",
        "",
        "| Code | Name | Severity | Layer | Applies to |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in rules:
        kinds = ", ".join(r.shown_kinds) if r.kinds else "all"
        out.append(f"| [{r.code}](#{_anchor(r)}) | {r.name} | {r.severity} | {r.layer} | {kinds} |")
    for r in rules:
        out += ["", f"## {r.code} {r.name}", "", f"Severity: {r.severity}. Layer: {r.layer}.", "", rule_doc(r)]
    return "\n".join(out) + "\n"


def main() -> None:
    """Print the generated page (see the module docstring)."""
    sys.stdout.write(render_rules_markdown())


if __name__ == "__main__":
    main()


def _not_a_game(name: str) -> None:
    """`davinci rule GAME`: the rules of a game are not lint rules; say where they are."""
    from davinci.engine.game import game_sources

    try:
        games = game_sources(())
    except DavinciError:  # a broken installed pack: only a better message was at stake
        return
    if name in games:
        raise UsageError(f"'{name}' is a game, not a lint rule: `davinci rule` explains the lint rules. The game's "
                         f"rules in short show with '?' during `davinci play {name}`; the project's docs/rulings.md "
                         "records what it decides where the rule texts are silent")
