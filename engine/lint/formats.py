"""Output formats for `davinci lint`: text, json, github (workflow annotations) and sarif 2.1.0."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from davinci.engine.errors import message_text, no_ci_command, printable
from davinci.engine.lint.docs import rule_doc
from davinci.engine.lint.registry import Problem, all_rules
from davinci.engine.lint.runner import LintResult

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_SEVERITY_COLOURS = {"error": "\x1b[31m", "warning": "\x1b[33m"}


def use_color(stream: TextIO, color: bool | None) -> bool:
    """Colour when asked, else only on a terminal and when NO_COLOR is unset."""
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_line(result: LintResult) -> str:
    """E.g. '3 errors, 1 warning in 12 files' or 'no problems in 12 files'."""
    files = _plural(result.files, "file")
    if not result.problems:
        return f"no problems in {files}"
    return f"{_plural(result.errors, 'error')}, {_plural(result.warnings, 'warning')} in {files}"


def render_text(result: LintResult, out: TextIO, color: bool | None = None) -> None:
    """`path:line:col: CODE message [name]` per problem, then the summary line."""
    coloured = use_color(out, color)
    for p in result.problems:
        # A file name or a message quoting a file may hold control characters: shown as escapes.
        where, message = printable(str(p.location), one_line=True), message_text(p.message)
        where = no_ci_command(where)  # a file named `::warning::x.yaml` would be a CI runner's command
        if coloured:
            colour = _SEVERITY_COLOURS.get(p.severity, "")
            out.write(f"{_BOLD}{where}{_RESET}: {colour}{p.code}{_RESET} {message} "
                      f"{_DIM}[{p.name}]{_RESET}\n")
        else:
            out.write(f"{where}: {p.code} {message} [{p.name}]\n")
    if result.stopped_early:
        names = ", ".join(printable(p, one_line=True) for p in result.stopped_early[:3])
        more = f" and {len(result.stopped_early) - 3} more" if len(result.stopped_early) > 3 else ""
        note = no_ci_command(f"note: {names}{more}: checked only up to these errors; lint checks the rest (the rules, "
                             "the test games) once they are fixed, and may find more")
        out.write(f"{_DIM}{note}{_RESET}\n" if coloured else note + "\n")
    line = summary_line(result)
    if result.installed:
        # `davinci lint` in an author's pack folder linted the installed content and said "no problems".
        here = " (this folder holds a pack: `davinci lint .` checks it)" if result.pack_here else ""
        line += f" - the installed content; name a pack folder or files to lint your own{here}"
    if coloured:
        colour = _SEVERITY_COLOURS["error"] if result.errors else ("\x1b[32m" if not result.problems else
                                                                   _SEVERITY_COLOURS["warning"])
        line = f"{colour}{line}{_RESET}"
    out.write(line + "\n")


def _json_text(text: str) -> str:
    """`text` as valid JSON text: bytes of a file name that are not UTF-8 (held as lone surrogates)
    written as `\\xff` escapes rather than as raw bytes."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _problem_json(p: Problem) -> dict[str, Any]:
    return {
        "path": _json_text(p.location.path),
        "line": p.location.line,
        "col": p.location.col,
        "code": p.code,
        "name": p.name,
        "severity": p.severity,
        "message": _json_text(p.message),
    }


def render_json(result: LintResult, out: TextIO, color: bool | None = None) -> None:
    """One JSON object: `problems` (a list) and `summary` (counts)."""
    payload = {
        "problems": [_problem_json(p) for p in result.problems],
        "summary": {
            "errors": result.errors,
            "warnings": result.warnings,
            "files": result.files,
            # Files checked only up to their first problems (the rules and test games wait for a fix).
            "stopped_early": [_json_text(p) for p in result.stopped_early],
            "text": summary_line(result),
        },
    }
    out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _workspace_path(path: str) -> str:
    """A file as a GitHub annotation names it: relative to the repository (GITHUB_WORKSPACE) when
    it lies inside it, whatever the working directory (a job's `working-directory:` made the
    relative paths miss their files); as the text shows it otherwise."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if not workspace:
        return path
    try:
        absolute, root = os.path.realpath(path), os.path.realpath(workspace)
        return Path(absolute).relative_to(root).as_posix() if Path(absolute).is_relative_to(root) else path
    except (OSError, ValueError):
        return path


def render_github(result: LintResult, out: TextIO, color: bool | None = None) -> None:
    """GitHub Actions workflow commands (`::error file=...,line=...,col=...,title=CODE::message`);
    files are named relative to GITHUB_WORKSPACE when it is set (see `_workspace_path`)."""
    for p in result.problems:
        props = [f"file={_gh_prop(printable(_workspace_path(p.location.path)))}"]
        if p.location.line > 0:
            props += [f"line={p.location.line}", f"col={max(p.location.col, 1)}"]
        props.append(f"title={_gh_prop(f'{p.code} {p.name}'.strip())}")
        out.write(f"::{p.severity} {','.join(props)}::{_gh_data(printable(p.message))}\n")
    for path in result.stopped_early:
        out.write(f"::notice file={_gh_prop(printable(_workspace_path(path)))},title=checked in part::"
                  "checked only up to these errors: lint checks the rest (the rules, the test games) once they are "
                  "fixed, and may find more\n")
    out.write(summary_line(result) + "\n")


def _first_paragraph(doc: str) -> str:
    para = doc.strip().split("\n\n", 1)[0]
    return " ".join(para.split())


def _sarif_uri(path: str) -> str:
    """A URI reference for `path`: `file:///...` when absolute, else relative, percent-encoded
    (a `#` or `?` in a file name is not a fragment or a query)."""
    from urllib.parse import quote

    raw = path.replace(os.sep, "/").encode("utf-8", "surrogateescape")  # a byte that is not UTF-8: %FF
    if os.path.isabs(path) and path.startswith("/"):
        return "file://" + quote(raw, safe="/")
    return quote(raw, safe="/")


def render_sarif(result: LintResult, out: TextIO, color: bool | None = None) -> None:
    """A SARIF 2.1.0 log with one run: the rule catalogue and one result per problem."""
    from davinci import __version__

    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    driver_rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": _first_paragraph(r.doc) or r.name},
            "fullDescription": {"text": rule_doc(r)},
            "help": {"text": rule_doc(r), "markdown": rule_doc(r)},
            "defaultConfiguration": {"level": r.severity},
            "properties": {"layer": r.layer, "kinds": list(r.kinds)},
        }
        for r in rules
    ]
    results = []
    for p in result.problems:
        location: dict[str, Any] = {"artifactLocation": {"uri": _sarif_uri(p.location.path)}}
        if p.location.line > 0:
            location["region"] = {"startLine": p.location.line, "startColumn": max(p.location.col, 1)}
        entry: dict[str, Any] = {
            "ruleId": p.code,
            "level": p.severity,
            "message": {"text": _json_text(p.message)},
            "locations": [{"physicalLocation": location}],
        }
        if p.code in index:
            entry["ruleIndex"] = index[p.code]
        results.append(entry)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "davinci",
                        "version": __version__,
                        "rules": driver_rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    out.write(json.dumps(log, indent=2, ensure_ascii=False) + "\n")


Renderer = Callable[[LintResult, TextIO, "bool | None"], None]

FORMATS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "sarif": render_sarif,
}


def render(result: LintResult, fmt: str, out: TextIO, color: bool | None = None) -> None:
    """Write `result` to `out` in format `fmt` (one of FORMATS)."""
    FORMATS[fmt](result, out, color)
