"""Property tests: random and mutated YAML never produce anything but DavinciErrors / problems."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from davinci.engine.errors import DavinciError
from davinci.engine.lint.runner import lint_paths
from davinci.engine.yamlload import load_yaml_text

SEED_DOC = """\
# yaml-language-server: $schema=../schemas/deck.schema.json
kind: deck
id: tiny
name: Tiny
category: codex
description: A small deck.
cards:
  - id: tiny-001
    difficulty: 1
    clue: |
      A stick of wax with a wick to light,
      it burns all through the winter night.
    answer: candle
    letters: 6
  - {id: tiny-002, difficulty: 2, clue: "Hands without fingers, a face without eyes", answer: clock}
  - id: tiny-003
    difficulty: 3
    anagram: 'Lisa moan'
    hint: "She smiles, \\"famously\\"."
    lengths: "(4,4)"
    answer: Mona Lisa
    alternates: [La Gioconda]
"""

YAML_BITS = [
    "\n", " ", "  ", "\t", ":", ": ", "-", "- ", "[", "]", "{", "}", ",", "'", '"', "|", ">", "&a", "*a",
    "!!str", "!x", "#", "---", "...", "?", "%", "@", "`", "\\", "\x00", "\x85", "\u2028", "é", "\ufeff",
    "kind: deck", "id: x", "cards:", "0x1", "017", "1:2", "yes", "~", "null", ".inf",
]

_files = itertools.count()
_dir = Path(tempfile.mkdtemp(prefix="davinci-props-"))


def _write(text: str | bytes) -> Path:
    # A fresh file name per example keeps the (path, mtime, size) cache from ever matching.
    path = _dir / f"f{next(_files)}.yaml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(text)
    return path


def _lint_text(text: str | bytes) -> None:
    path = _write(text)
    for p in lint_paths([str(path)]):
        assert p.location.line >= 0 and p.code.startswith("DV")
    path.unlink()


def _cli_lint(text: str | bytes, fmt: str) -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    path = _write(text)
    result = CliRunner().invoke(main, ["lint", "--format", fmt, str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output
    path.unlink()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_loader_on_random_text(text: str) -> None:
    try:
        load_yaml_text(text)
    except DavinciError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(YAML_BITS) | st.text(max_size=4), max_size=40))
def test_loader_on_yaml_like_noise(bits: list[str]) -> None:
    try:
        doc = load_yaml_text("".join(bits))
    except DavinciError as e:
        assert e.location is not None and e.location.line >= 1
    else:
        doc.loc(["cards", 0, "id"])


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(SEED_DOC.encode())
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "bit"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "delete" and data:
            del data[pos : pos + draw(st.integers(1, 8))]
        elif op == "insert":
            data[pos:pos] = draw(st.sampled_from(YAML_BITS)).encode("utf-8", "surrogatepass")
        elif op == "replace" and data:
            data[pos] = draw(st.integers(0, 255))
        elif data:
            data[pos] ^= 1 << draw(st.integers(0, 7))
    return bytes(data)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_lint_on_mutated_valid_deck(data: bytes) -> None:
    _lint_text(data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.sampled_from(["text", "json", "github", "sarif"]))
def test_cli_lint_exit_code_is_always_0_1_or_2(data: bytes, fmt: str) -> None:
    _cli_lint(data, fmt)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_lint_on_random_text(text: str) -> None:
    _lint_text(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.integers(-5, 100))
def test_scalar_loc_never_fails(value: str, offset: int) -> None:
    for quoted in (repr(value), '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'):
        try:
            doc = load_yaml_text(f"v: {quoted}\n")
        except DavinciError:
            continue
        loc = doc.scalar_loc(["v"], offset)
        assert loc.line >= 1 and loc.col >= 1
