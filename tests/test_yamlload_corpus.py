"""The broken-file corpus: every YAML hazard and schema mistake, with the exact code and position.

Each file under tests/corpus/yaml/ is one small mistake. `lint_paths` must report exactly the
listed problems (code, line, column), and never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from davinci.engine.errors import YamlError
from davinci.engine.lint.runner import lint_paths
from davinci.engine.yamlload import load_yaml_file

CORPUS = Path(__file__).parent / "corpus" / "yaml"

# file -> every (code, line, col) lint reports for it
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    # YAML layer
    "syntax-unclosed-quote.yaml": [("DV001", 3, 7)],  # points at the opening quote
    "complex-key.yaml": [("DV001", 2, 3)],
    "duplicate-key.yaml": [("DV002", 5, 1)],
    "duplicate-key-nested.yaml": [("DV002", 5, 5)],
    "anchor.yaml": [("DV003", 2, 11)],
    "alias-bomb.yaml": [("DV003", 2, 4)],
    "tab-indent.yaml": [("DV004", 3, 1)],
    "not-utf8.yaml": [("DV005", 3, 10)],
    "nul-byte.yaml": [("DV005", 2, 7)],
    "control-char.yaml": [("DV005", 2, 11)],
    "utf16.yaml": [("DV005", 1, 1)],
    "too-deep.yaml": [("DV007", 2, 72)],
    "multi-document.yaml": [("DV008", 3, 1)],
    "python-tag.yaml": [("DV009", 2, 9)],
    # kind detection
    "no-kind.yaml": [("DV017", 1, 1)],
    "root-not-mapping.yaml": [("DV017", 1, 1)],
    # schema layer, one file per class of mistake
    "schema-unknown-key.yaml": [("DV011", 7, 5)],
    "schema-wrong-type.yaml": [("DV012", 7, 17)],
    "schema-missing-required.yaml": [("DV013", 6, 5)],
    "schema-bad-enum.yaml": [("DV014", 7, 17)],
    "schema-bad-pattern.yaml": [("DV015", 10, 14)],
    "schema-out-of-range.yaml": [("DV016", 10, 14)],
    # files that must pass
    "utf8-bom-ok.yaml": [],
    "yaml11-words-stay-strings.yaml": [],
}


def test_every_corpus_file_has_an_expectation() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_lint_reports_code_line_and_column(name: str) -> None:
    problems = lint_paths([str(CORPUS / name)])
    assert [(p.code, p.location.line, p.location.col) for p in problems] == EXPECTED[name]
    for p in problems:
        assert p.location.path.endswith(name)
        assert p.name, f"{p.code} has no registered rule name"


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if e and e[0][0] < "DV010"))
def test_loader_raises_the_same_code_and_position(name: str) -> None:
    with pytest.raises(YamlError) as info:
        load_yaml_file(CORPUS / name, display=name)
    code, line, col = EXPECTED[name][0]
    assert (info.value.code, info.value.location) == (code, info.value.location)
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.col) == (line, col)
    assert str(info.value).startswith(f"{name}:{line}:{col}: {code} ")


def test_duplicate_key_message_names_both_positions() -> None:
    with pytest.raises(YamlError) as info:
        load_yaml_file(CORPUS / "duplicate-key.yaml")
    assert "'id'" in info.value.message
    assert "line 2, column 1" in info.value.message


def test_yaml11_words_are_kept_as_written() -> None:
    doc = load_yaml_file(CORPUS / "yaml11-words-stay-strings.yaml")
    assert [c["answer"] for c in doc.data["cards"]] == ["NO", "yes"]


def test_utf8_bom_is_dropped() -> None:
    doc = load_yaml_file(CORPUS / "utf8-bom-ok.yaml")
    assert doc.data["kind"] == "deck-overlay"
    assert doc.loc(["kind"], key=True).col == 1
